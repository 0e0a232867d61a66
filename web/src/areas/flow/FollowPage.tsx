import { ProFormTextArea } from '@ant-design/pro-components';
import { flowFollowResource } from '@console/contract/areas/flow/index';
import { App, Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callAction } from '../../api/action';
import { addMessages } from '../../i18n/lazy';
import { flowEn, flowZh } from './i18n';
import { ResourcePage } from '../../resource/ResourcePage';
import type { ResourceRecord } from '../../resource/types';
import { usePermissionCheck } from '../../store/permissions';
import { testId } from '../../testId';
import { ActionDialog } from '../../dialog/ActionDialog';
import type { CustomPageProps } from '../../shell/area';
import { FlowChartDialog } from './FlowChartDialog';

addMessages('flow', { zh: flowZh, en: flowEn });

type Instance = ResourceRecord<typeof flowFollowResource.fields>;

const deleteAction = flowFollowResource.actions.deleteInstance;
const REASON_MAX = 500;

/**
 * 流程跟踪: the tenant's running instances with 流程图 (the diagram, where it stands and its history) and 删除 (with a
 * reason, which the starter sees).
 * Test hooks: `follow-row-chart`, `follow-row-delete`, `follow-delete` (the dialog, `-submit`, `-cancel`), `follow-delete-reason`.
 */
export function FollowPage({ def }: CustomPageProps) {
  const { t } = useTranslation();
  const can = usePermissionCheck();
  const [chartOf, setChartOf] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<{ row: Instance; reload: () => void } | null>(null);
  return (
    <>
      <ResourcePage
        def={def}
        extraRowActions={(record, { reload }) => {
          const row = record as Instance;
          return [
            <Button key="chart" type="link" size="small" {...testId('follow-row-chart')} onClick={() => setChartOf(row.id)}>{t('flow.chart.open')}</Button>,
            can(deleteAction.permission!) && (
              <Button key="delete" type="link" size="small" danger {...testId('follow-row-delete')} onClick={() => setDeleting({ row, reload })}>
                {t('flow.follow.delete')}
              </Button>
            ),
          ];
        }}
      />
      <FlowChartDialog open={chartOf !== null} onClose={() => setChartOf(null)} processInstanceId={chartOf ?? undefined} />
      {deleting && <DeleteDialog {...deleting} onClose={() => setDeleting(null)} />}
    </>
  );
}

function DeleteDialog({ row, reload, onClose }: { row: Instance; reload: () => void; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <ActionDialog
      open
      title={t('flow.follow.deleteTitle', { name: row.processName ?? row.businessKey ?? row.id })}
      testid="follow-delete"
      onClose={onClose}
      onSubmit={async (values) => {
        await callAction(deleteAction, { processInstanceId: row.id, deleteReason: String(values.deleteReason ?? '').trim() });
        void message.success(t('flow.follow.deleted'));
        reload();
      }}
    >
      <ProFormTextArea name="deleteReason" label={t('flow.follow.reason')} extra={t('flow.follow.reasonHint')}
        rules={[{ required: true, whitespace: true, message: t('flow.follow.reasonRequired') }]}
        fieldProps={{ rows: 3, maxLength: REASON_MAX, showCount: true, ...testId('follow-delete-reason') }} />
    </ActionDialog>
  );
}
