import { AlertOutlined, CloudSyncOutlined, LockOutlined } from '@ant-design/icons';
import { DASHBOARD_DEVICES_PATH, DEVICE_FIGURE_CODES, type DashboardDevices, type DeviceFigure } from '@console/contract/areas/desk/index';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Statistic, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { request } from '../../../api/client';
import { useCodeCheck } from '../../../store/permissions';

const FIGURES = Object.keys(DEVICE_FIGURE_CODES) as DeviceFigure[];

function FigureCard({ testId, loading, children }: { testId: string; loading: boolean; children: ReactNode }) {
  return (
    <Col xs={24} sm={12} xl={8}>
      <Card data-testid={testId} loading={loading}>{children}</Card>
    </Col>
  );
}

/**
 * The device figures: each card needs the permission of the screen it sums up; a card the user may not read is
 * not shown, and without any of them nothing is asked of the server.
 */
export function DeviceCards() {
  const { t } = useTranslation();
  const can = useCodeCheck();
  const shown = FIGURES.filter((name) => can(DEVICE_FIGURE_CODES[name]));
  const figures = useQuery({
    queryKey: ['dashboard', 'devices', shown],
    queryFn: () => request<DashboardDevices>(DASHBOARD_DEVICES_PATH),
    enabled: shown.length > 0,
  });
  const data = figures.data;
  const cards: Record<DeviceFigure, ReactNode> = {
    locks: data?.locks ? (
      <Statistic title={t('dashboardPage.onlineLocks')} value={data.locks.online} suffix={`/ ${data.locks.total}`} prefix={<LockOutlined />}
        data-testid="dash-locks" data-value={`${data.locks.online}/${data.locks.total}`} />
    ) : null,
    ota: data?.ota ? (
      <>
        <Statistic title={t('dashboardPage.otaSuccess', { days: data.ota.days })} prefix={<CloudSyncOutlined />}
          value={data.ota.rate === null ? '—' : (data.ota.rate * 100).toFixed(1)} suffix={data.ota.rate === null ? undefined : '%'}
          data-testid="dash-ota" data-value={data.ota.rate ?? ''} />
        <div>{data.ota.rate === null ? t('dashboardPage.noOta') : t('dashboardPage.otaCounts', data.ota)}</div>
      </>
    ) : null,
    emergency: data?.emergency ? (
      <Statistic title={t('dashboardPage.pendingEmergency')} value={data.emergency.pending} prefix={<AlertOutlined />}
        data-testid="dash-emergency" data-value={data.emergency.pending} />
    ) : null,
  };
  const failed = <Typography.Text type="danger">{t('dashboardPage.loadFailed')}</Typography.Text>;
  return shown.map((name) => (
    <FigureCard key={name} testId={`dash-card-${name}`} loading={figures.isPending}>{figures.isError ? failed : cards[name]}</FigureCard>
  ));
}
