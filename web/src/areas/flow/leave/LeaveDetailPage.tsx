import { Alert, Button, Card, Skeleton, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { addMessages } from '../../../i18n/lazy';
import { flowEn, flowZh } from '../i18n';
import { testId } from '../../../testId';
import { FlowTimeline } from '../FlowTimeline';
import { useFlowChart } from '../useFlowChart';
import { useFlowHistory, useLeaveRecord } from './leaveQueries';
import { LeaveSummary } from './LeaveSummary';

addMessages('flow', { zh: flowZh, en: flowEn });

/** /work/process/leave/detail/:processInstanceId/:businessId — 请假详情: the request, its state and its history. */
export function LeaveDetailPage() {
  const { t } = useTranslation();
  const { processInstanceId = '', businessId = '' } = useParams();
  const leave = useLeaveRecord(businessId);
  const history = useFlowHistory(processInstanceId);
  const chart = useFlowChart();
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} {...testId('leave-detail-page')}>
      <Card title={t('flow.leave.detailTitle')}
        extra={<Button {...testId('leave-chart')} onClick={() => chart.show({ processInstanceId })}>{t('flow.chart.open')}</Button>}>
        {leave.isError && <Alert type="error" showIcon message={t('flow.leave.loadFailed')} description={leave.error.message} />}
        {leave.data ? <LeaveSummary leave={leave.data} withStatus /> : !leave.isError && <Skeleton active />}
      </Card>
      <Card title={t('flow.leave.history')} size="small">
        {history.isError && <Alert type="error" showIcon message={history.error.message} />}
        {history.data ? <FlowTimeline items={history.data} /> : !history.isError && <Skeleton active />}
      </Card>
      {chart.dialog}
    </Space>
  );
}
