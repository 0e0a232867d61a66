import { ReloadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Space, Tag, Typography, theme } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePermissions } from '../../../store/permissions';
import { useSession } from '../../../store/session';
import { LanguageSwitch } from '../../LanguageSwitch';
import { probeServer, probeVersion, SKEW_NOISE_MS, SKEW_WARN_MS, type ServerState } from './probes';
import { addMessages } from '../../../i18n/lazy';
import { testPageEn, testPageZh } from '../../../i18n/testPage';

addMessages('testPage', { zh: testPageZh, en: testPageEn });

const STATE_COLOR: Record<ServerState, string> = { online: 'success', offline: 'error', failed: 'warning' };
const DIAGNOSTICS = ['diagnostics'] as const;

function useNow(intervalMs: number): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}

function ServerCard() {
  const { t } = useTranslation();
  const server = useQuery({ queryKey: [...DIAGNOSTICS, 'server'], queryFn: probeServer, staleTime: 0, gcTime: 0 });
  const p = server.data;
  // whole milliseconds, but a tenth below 10 ms (a local database answers in well under one)
  const ms = (n: number | undefined) => (n === undefined ? '—' : t('testPage.ms', { n: n < 10 ? Math.round(n * 10) / 10 : Math.round(n) }));
  let skew: ReactNode = '—';
  if (p?.skewMs !== undefined) {
    const seconds = Math.round(Math.abs(p.skewMs) / 1000);
    const text = Math.abs(p.skewMs) < SKEW_NOISE_MS
      ? t('testPage.inSync')
      : t(p.skewMs < 0 ? 'testPage.ahead' : 'testPage.behind', { n: seconds });
    const off = Math.abs(p.skewMs) >= SKEW_WARN_MS;
    skew = (
      <Space data-testid="test-clock-skew" data-skew-ms={Math.round(p.skewMs)}>
        <Tag color={off ? 'warning' : 'success'}>{t(off ? 'testPage.clockOff' : 'testPage.clockOk')}</Tag>
        {text}
      </Space>
    );
  }
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card title={t('testPage.server')} loading={server.isPending} data-testid="test-server">
        {p && (
          <Descriptions column={{ xs: 1, md: 2 }} size="small">
            <Descriptions.Item label={t('testPage.server')}>
              <Tag color={STATE_COLOR[p.state]} data-testid="test-server-state" data-state={p.state}>
                {t(`testPage.${p.state}`)}
              </Tag>
              {p.error && <Typography.Text type="secondary">{p.error}</Typography.Text>}
            </Descriptions.Item>
            <Descriptions.Item label={t('testPage.roundTrip')}>
              <span data-testid="test-rtt">{ms(p.roundTripMs)}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('testPage.dbMillis')}>
              <span data-testid="test-db">{ms(p.status?.dbMillis)}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('testPage.serverVersion')}>
              <span data-testid="test-server-version">{p.status?.version ?? '—'}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('testPage.serverTime')}>
              <span data-testid="test-server-time">{p.status?.time ?? '—'}</span>
            </Descriptions.Item>
          </Descriptions>
        )}
      </Card>
      <Card title={t('testPage.clock')} loading={server.isPending}>
        <Descriptions column={1} size="small">
          <Descriptions.Item label={t('testPage.skew')}>{skew}</Descriptions.Item>
        </Descriptions>
      </Card>
    </Space>
  );
}

function VersionCard() {
  const { t } = useTranslation();
  const version = useQuery({ queryKey: [...DIAGNOSTICS, 'version'], queryFn: probeVersion, staleTime: 0, gcTime: 0 });
  const v = version.data;
  return (
    <Card title={t('testPage.version')} loading={version.isPending} data-testid="test-version">
      {version.isError && <Alert type="error" showIcon message={t('testPage.failed')} description={version.error.message} />}
      {v && (
        <Descriptions column={{ xs: 1, md: 2 }} size="small">
          <Descriptions.Item label={t('testPage.deployed')}>
            <span data-testid="test-deployed-version">{v.deployed ?? t('testPage.unknown')}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('testPage.bundle')}>
            <span data-testid="test-bundle-version">{v.bundle}</span>
          </Descriptions.Item>
          <Descriptions.Item span={2}>
            {v.current ? (
              <Tag color="success" data-testid="test-version-state" data-state="current">{t('testPage.upToDate')}</Tag>
            ) : (
              <Space data-testid="test-version-state" data-state="outdated">
                <Tag color="warning">{t('testPage.outdated')}</Tag>
                <Button size="small" onClick={() => window.location.reload()}>{t('testPage.reload')}</Button>
              </Space>
            )}
          </Descriptions.Item>
        </Descriptions>
      )}
    </Card>
  );
}

/** minutes and seconds of a span, for `testPage.duration` */
function duration(ms: number): { m: number; s: number } {
  const total = Math.max(0, Math.floor(ms / 1000));
  return { m: Math.floor(total / 60), s: total % 60 };
}

function SessionCard() {
  const { t } = useTranslation();
  const token = useSession((s) => s.token);
  const user = useSession((s) => s.userInfo);
  const permissionCount = usePermissions((s) => s.codes.length);
  const now = useNow(1000);
  if (!token?.content || !user) {
    return (
      <Card title={t('testPage.session')} data-testid="test-session" data-signed-in="false">
        {t('testPage.signedOut')}
      </Card>
    );
  }
  const age = now - token.datetime;
  const left = user.expires_in * 1000 - age;
  return (
    <Card title={t('testPage.session')} data-testid="test-session" data-signed-in="true">
      <Descriptions column={{ xs: 1, md: 2 }} size="small">
        <Descriptions.Item label={t('testPage.tokenAge')}>
          <span data-testid="test-token-age">{t('testPage.duration', duration(age))}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('testPage.tokenExpires')}>
          <span data-testid="test-token-expires">{left > 0 ? t('testPage.duration', duration(left)) : t('testPage.expired')}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('testPage.tenant')}>
          <span data-testid="test-tenant">{user.tenant_id}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('testPage.roles')}>
          <span data-testid="test-roles">{user.role_name || '—'}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('testPage.permissions')}>
          <span data-testid="test-permissions">{permissionCount}</span>
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

/**
 * /test (public; the testing icon of the platform tenant opens it): server reachability and round trip,
 * the deployed version against this bundle, the clock difference, and the session when signed in.
 */
export function TestPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const signedIn = useSession((s) => Boolean(s.token?.content));
  const queryClient = useQueryClient();
  const [runs, setRuns] = useState(1);
  const [running, setRunning] = useState(false);

  const rerun = async () => {
    setRunning(true);
    await queryClient.refetchQueries({ queryKey: DIAGNOSTICS });
    setRuns((n) => n + 1);
    setRunning(false);
  };

  const content = (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="test-page" data-runs={runs}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 12, flexWrap: 'wrap' }}>
        <Typography.Title level={3} style={{ margin: 0, flex: 1 }}>{t('testPage.title')}</Typography.Title>
        {!signedIn && <LanguageSwitch />}
        {!signedIn && <Link to="/login">{t('testPage.back')}</Link>}
        <Button type="primary" icon={<ReloadOutlined />} loading={running} onClick={() => void rerun()} data-testid="test-rerun">
          {running ? t('testPage.checking') : t('testPage.rerun')}
        </Button>
      </div>
      <ServerCard />
      <VersionCard />
      <SessionCard />
    </Space>
  );

  if (signedIn) return content;
  return (
    <div style={{ minHeight: '100vh', background: token.colorBgLayout, padding: 24 }}>
      <div style={{ maxWidth: 960, margin: '0 auto' }}>{content}</div>
    </div>
  );
}
