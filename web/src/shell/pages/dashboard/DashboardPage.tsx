import { ClockCircleOutlined, LoginOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { API, type DashboardOverview } from '@console/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Result, Row, Segmented, Skeleton, Statistic, Typography, theme } from 'antd';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { request } from '../../../api/client';
import { useLang } from '../../../i18n';
import { apiOption, signInsOption, type ChartColors } from './chartOptions';
import { DeviceCards } from './DeviceCards';
import { EChart } from './EChart';
import { addMessages } from '../../../i18n/lazy';
import { dashboardPageEn, dashboardPageZh } from '../../../i18n/dashboardPage';

addMessages('dashboardPage', { zh: dashboardPageZh, en: dashboardPageEn });

const DAY_CHOICES = [7, 14, 30] as const;
type Days = (typeof DAY_CHOICES)[number];
const CHART_HEIGHT = 300;

function StatCard({ title, value, icon, testId }: { title: string; value: number; icon: ReactNode; testId: string }) {
  return (
    <Card>
      <Statistic title={title} value={value} prefix={icon} data-testid={testId} data-value={value} />
    </Card>
  );
}

/** /wel/dashboard: the figures of the user's tenant (every tenant for the platform tenant) from the server. */
export function DashboardPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const { token } = theme.useToken();
  const [days, setDays] = useState<Days>(14);

  const overview = useQuery({
    queryKey: ['dashboard', days],
    queryFn: () => request<DashboardOverview>(API.dashboard, { query: { days } }),
    placeholderData: keepPreviousData,
  });

  const colors: ChartColors = useMemo(
    () => ({
      primary: token.colorPrimary,
      error: token.colorError,
      info: token.colorInfo,
      text: token.colorText,
      textSecondary: token.colorTextSecondary,
      border: token.colorBorderSecondary,
      background: token.colorBgElevated,
    }),
    [token],
  );
  const data = overview.data;
  const signIns = useMemo(() => data && signInsOption(data.signIns, t('dashboardPage.signIns'), colors), [data, t, colors]);
  const api = useMemo(
    () => data && apiOption(data.apiCalls, data.errors, { calls: t('dashboardPage.calls'), errors: t('dashboardPage.errors') }, colors),
    [data, t, colors],
  );

  const header = (
    <div style={{ display: 'flex', alignItems: 'center', gap: 12, flexWrap: 'wrap' }}>
      <Typography.Title level={3} style={{ margin: 0, flex: 1 }}>{t('dashboardPage.title')}</Typography.Title>
      <Segmented<Days>
        value={days}
        onChange={setDays}
        options={DAY_CHOICES.map((n) => ({ value: n, label: <span data-testid={`dash-days-${n}`}>{t('dashboardPage.days', { n })}</span> }))}
        data-testid="dash-days"
      />
    </div>
  );

  if (overview.isError && !data) {
    return (
      <div data-testid="dashboard">
        {header}
        <Result
          status="error"
          title={t('dashboardPage.loadFailed')}
          subTitle={overview.error.message}
          extra={<Button onClick={() => void overview.refetch()}>{t('dashboardPage.retry')}</Button>}
        />
      </div>
    );
  }

  return (
    <div data-testid="dashboard" data-days={data?.days} data-loading={overview.isFetching}>
      {header}
      {!data || !signIns || !api ? (
        <Skeleton active paragraph={{ rows: 10 }} style={{ marginTop: 16 }} />
      ) : (
        <Row gutter={[16, 16]} style={{ marginTop: 16 }}>
          <Col xs={24} sm={12} xl={6}>
            <StatCard title={t('dashboardPage.usersTotal')} value={data.users.total} icon={<UserOutlined />} testId="dash-users-total" />
          </Col>
          <Col xs={24} sm={12} xl={6}>
            <StatCard title={t('dashboardPage.awaitingApproval')} value={data.users.awaitingApproval} icon={<ClockCircleOutlined />} testId="dash-users-awaiting" />
          </Col>
          <Col xs={24} sm={12} xl={6}>
            <StatCard title={t('dashboardPage.tenants')} value={data.tenants.total} icon={<TeamOutlined />} testId="dash-tenants" />
          </Col>
          <Col xs={24} sm={12} xl={6}>
            <StatCard title={t('dashboardPage.activeSessions')} value={data.activeSessions} icon={<LoginOutlined />} testId="dash-sessions" />
          </Col>
          <DeviceCards />
          <Col xs={24} xl={12}>
            <Card title={t('dashboardPage.signIns')}>
              <EChart option={signIns} lang={lang} height={CHART_HEIGHT} testId="dash-chart-signins" />
            </Card>
          </Col>
          <Col xs={24} xl={12}>
            <Card title={t('dashboardPage.apiCalls')}>
              <EChart option={api} lang={lang} height={CHART_HEIGHT} testId="dash-chart-api" />
            </Card>
          </Col>
        </Row>
      )}
    </div>
  );
}
