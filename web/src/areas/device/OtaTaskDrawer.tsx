import { OTA_STATES, otaProgressResource, otaTaskResource, type OtaState } from '@console/contract/areas/device/index';
import { useQuery } from '@tanstack/react-query';
import { Badge, Card, Col, Drawer, Progress, Row, Space, Statistic, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { callAction } from '../../api/action';
import { resourceKeys } from '../../resource/api';
import { useDicts } from '../../resource/dict';
import { dictLabel } from '../../resource/dictValues';
import { ResourcePage } from '../../resource/ResourcePage';
import type { ResourceRecord } from '../../resource/types';
import { testId } from '../../testId';
import { LIVE_MS, summaryPercents } from './otaSummary';

type Task = ResourceRecord<typeof otaTaskResource.fields>;

const STATE_COLOURS: Partial<Record<OtaState, string>> = { succeeded: '#52c41a', failed: '#ff4d4f', timed_out: '#fa8c16', cancelled: '#8c8c8c' };

/**
 * One OTA task live: the devices per state (`ota-task/summary`) as a progress bar and tiles, and the devices
 * themselves (`ota_progress` fixed to the task, searchable by state and SN), both refreshed every 2 s while
 * the task runs (each refresh after the last answer); nothing is asked once it finished or was cancelled.
 */
export function OtaTaskDrawer({ task, onClose }: { task: Task; onClose: () => void }) {
  const { t } = useTranslation();
  const dicts = useDicts(otaProgressResource);
  const summary = useQuery({
    queryKey: [...resourceKeys.all(otaTaskResource.path), 'summary', task.id],
    queryFn: () => callAction(otaTaskResource.actions.summary, { id: task.id }),
    staleTime: 0,
    gcTime: 0,
    // react-query does not start a refetch while one is in flight
    refetchInterval: (q) => (q.state.data === undefined || q.state.data.state === 'running' ? LIVE_MS : false),
  });
  const running = summary.data === undefined ? task.state === 'running' : summary.data.state === 'running';
  const fixed = useMemo(() => ({ taskId: task.id }), [task.id]);
  const percents = summary.data ? summaryPercents(summary.data) : { ended: 0, succeeded: 0 };
  const stateField = otaProgressResource.fields.state;

  return (
    <Drawer open onClose={onClose} width="min(1280px, 94vw)" destroyOnHidden
      title={
        <Space>
          {t('device.ota.viewTitle', { name: task.taskName ?? task.id })}
          {running ? <Badge status="processing" text={t('device.ota.live')} /> : <Badge status="default" text={t('device.ota.finished')} />}
        </Space>
      }
      {...testId('ota-task-view')}>
      <Card size="small" style={{ marginBottom: 16 }} {...testId('ota-summary')} data-state={summary.data?.state ?? ''}>
        <Progress percent={percents.ended} success={{ percent: percents.succeeded }} status={running ? 'active' : 'normal'} {...testId('ota-summary-progress')} />
        <Row gutter={[16, 12]} style={{ marginTop: 8 }}>
          <Col flex="130px">
            <Statistic title={t('device.ota.total')} value={summary.data?.total ?? '-'} {...testId('ota-count-total')} />
          </Col>
          {OTA_STATES.map((state) => (
            <Col flex="130px" key={state}>
              <Statistic title={dictLabel(stateField, dicts, state)} value={summary.data?.counts[state] ?? 0}
                valueStyle={STATE_COLOURS[state] ? { color: STATE_COLOURS[state] } : undefined} {...testId(`ota-count-${state}`)} />
            </Col>
          ))}
          <Col flex="130px">
            <Statistic title={t('device.ota.stuck')} value={summary.data?.stuck ?? 0} {...testId('ota-count-stuck')} />
          </Col>
          <Col flex="130px">
            <Statistic title={t('device.ota.flagged')} value={summary.data?.flagged ?? 0} {...testId('ota-count-flagged')} />
          </Col>
        </Row>
        {summary.isError && <Typography.Text type="danger">{summary.error.message}</Typography.Text>}
      </Card>
      {/* a new table once the task ends: its last rows are read after the final summary, not before it */}
      <ResourcePage key={running ? 'live' : 'ended'} def={otaProgressResource} fixed={fixed} fitWindow={false} polling={running ? LIVE_MS : undefined} />
    </Drawer>
  );
}
