import { workTodoResource } from '@console/contract/areas/flow/index';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Input, Result, Skeleton, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { callAction } from '../../../api/action';
import { addMessages } from '../../../i18n/lazy';
import { flowEn, flowZh } from '../i18n';
import { testId } from '../../../testId';
import { FlowTimeline } from '../FlowTimeline';
import { useFlowChart } from '../useFlowChart';
import { useCloseAndGo } from '../useCloseAndGo';
import { LEAVE_KEY, useFlowHistory, useLeaveRecord, useTodoTask } from './leaveQueries';
import { LeaveSummary } from './LeaveSummary';

addMessages('flow', { zh: flowZh, en: flowEn });

/** the applicant's own step of the leave model (leave.bpmn20.xml): resubmit or withdraw, not approve */
const ADJUST_STEP = 'adjust';

type Decision = 'pass' | 'reject' | 'resubmit' | 'withdraw';
/** what each button sends: 'ok' passes, anything else rejects (withdraws, on the applicant's step) */
const FLAG: Record<Decision, string> = { pass: 'ok', reject: 'reject', resubmit: 'ok', withdraw: 'withdraw' };
const DONE_TEXT = { pass: 'flow.leave.passed', reject: 'flow.leave.rejected', resubmit: 'flow.leave.resubmitted', withdraw: 'flow.leave.withdrawn' } as const;

/**
 * /work/process/leave/handle/:taskId/:processInstanceId/:businessId — 请假审批: the request, its history and the
 * decision of the task on screen (同意 / 驳回 on an approval step, 重新提交 / 撤销 on the applicant's), with a
 * comment; then back to 待办事务.
 */
export function LeaveHandlePage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { taskId = '', processInstanceId = '', businessId = '' } = useParams();
  const task = useTodoTask(taskId);
  const leave = useLeaveRecord(businessId);
  const history = useFlowHistory(processInstanceId);
  const chart = useFlowChart();
  const closeAndGo = useCloseAndGo();
  const [comment, setComment] = useState('');
  const [sending, setSending] = useState<Decision | null>(null);

  const decide = async (decision: Decision) => {
    setSending(decision);
    try {
      const text = comment.trim();
      await callAction(workTodoResource.actions.completeTask, { taskId, processInstanceId, flag: FLAG[decision], ...(text ? { comment: text } : {}) });
      void message.success(t(DONE_TEXT[decision]));
      void queryClient.invalidateQueries({ queryKey: LEAVE_KEY });
      await closeAndGo('/work/todo');
    } catch {
      // the client has shown why; the page stays for another try
    } finally {
      setSending(null);
    }
  };

  const chartButton = <Button {...testId('leave-chart')} onClick={() => chart.show({ processInstanceId })}>{t('flow.chart.open')}</Button>;
  if (task.isError) {
    return (
      <Card title={t('flow.leave.handleTitle')} {...testId('leave-handle-page')}>
        <Result status="info" title={t('flow.leave.taskGone')} {...testId('leave-task-gone')}
          extra={<Button type="primary" onClick={() => void navigate('/work/todo')}>{t('flow.leave.toTodo')}</Button>} />
      </Card>
    );
  }
  const adjusting = task.data?.taskDefinitionKey === ADJUST_STEP;
  const decisions: Decision[] = adjusting ? ['resubmit', 'withdraw'] : ['pass', 'reject'];
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} {...testId('leave-handle-page')}>
      <Card title={t('flow.leave.handleTitle')} extra={chartButton}>
        {leave.isError && <Alert type="error" showIcon message={t('flow.leave.loadFailed')} description={leave.error.message} />}
        {leave.data ? <LeaveSummary leave={leave.data} /> : !leave.isError && <Skeleton active />}
      </Card>
      <Card title={t('flow.leave.history')} size="small">
        {history.isError && <Alert type="error" showIcon message={history.error.message} />}
        {history.data ? <FlowTimeline items={history.data} /> : !history.isError && <Skeleton active />}
      </Card>
      <Card title={task.data ? `${t('flow.leave.step')}: ${task.data.name ?? ''}` : t('flow.leave.step')} size="small" {...testId('leave-decision')}
        data-step={task.data?.taskDefinitionKey ?? ''}>
        {task.isPending ? <Skeleton active paragraph={{ rows: 2 }} /> : (
          <Space direction="vertical" style={{ width: '100%' }}>
            {adjusting && <Alert type="warning" showIcon message={t('flow.leave.adjustHint')} />}
            <Input.TextArea rows={3} maxLength={1000} showCount value={comment} onChange={(e) => setComment(e.target.value)}
              placeholder={t('flow.leave.commentHint')} aria-label={t('flow.leave.comment')} {...testId('leave-comment')} />
            <Space>
              {decisions.map((d) => (
                <Button key={d} type={d === 'pass' || d === 'resubmit' ? 'primary' : 'default'} danger={d === 'reject' || d === 'withdraw'}
                  loading={sending === d} disabled={sending !== null && sending !== d} onClick={() => void decide(d)} {...testId(`leave-${d}`)}>
                  {t(`flow.leave.${d}`)}
                </Button>
              ))}
            </Space>
          </Space>
        )}
      </Card>
      {chart.dialog}
    </Space>
  );
}
