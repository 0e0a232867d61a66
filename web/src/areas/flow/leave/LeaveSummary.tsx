import type { LeaveRecord } from '@console/contract/areas/flow/index';
import { Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDict } from '../../../resource/dict';
import { testId } from '../../../testId';

/** a whole row of the summary at each width */
const ROW = { xs: 1, md: 2, xl: 3 } as const;

/** A leave request, read only: who, when, how long, why, who approves, and (given) the process's state. */
export function LeaveSummary({ leave, withStatus = false }: { leave: LeaveRecord; withStatus?: boolean }) {
  const { t } = useTranslation();
  const statuses = useDict('flow_instance_status');
  const status = leave.processStatus ? statuses.find((s) => s.dictKey === leave.processStatus)?.dictValue ?? leave.processStatus : '-';
  const items = [
    ...(withStatus ? [{ key: 'status', label: t('flow.leave.status'), children: <span {...testId('leave-summary-status')}>{status}</span> }] : []),
    { key: 'applicant', label: t('flow.leave.applicant'), children: leave.applyUserName ?? leave.applyUser },
    { key: 'approver', label: t('flow.leave.approver'), children: leave.taskUserName ?? leave.taskUser },
    { key: 'applyTime', label: t('flow.leave.applyTime'), children: leave.applyTime },
    { key: 'start', label: t('flow.leave.start'), children: leave.startTime },
    { key: 'end', label: t('flow.leave.end'), children: leave.endTime },
    { key: 'days', label: t('flow.leave.days'), span: 'filled' as const, children: <span {...testId('leave-summary-days')}>{t('flow.leave.daysValue', { n: leave.days })}</span> },
    { key: 'reason', label: t('flow.leave.reason'), span: ROW, children: <span style={{ whiteSpace: 'pre-wrap' }}>{leave.reason}</span> },
    { key: 'comment', label: t('flow.leave.lastComment'), span: ROW, children: leave.approvalComment ?? '-' },
  ];
  return <Descriptions bordered size="small" column={ROW} items={items} {...testId('leave-summary')} />;
}
