import { ProFormRadio, ProFormTextArea } from '@ant-design/pro-components';
import { workTodoResource } from '@console/contract/areas/flow/index';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { callAction } from '../../api/action';
import { ActionDialog } from '../../dialog/ActionDialog';

const { completeTask } = workTodoResource.actions;

/** 办理 for a task without a business form: 同意 (flag ok) or 驳回, with a comment (`work/complete-task`). */
export function CompleteTaskDialog({ task, onDone, onClose }: {
  task: { id: string; name: string; instanceId?: string | null };
  onDone: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <ActionDialog
      open
      title={t('flow.work.handleTitle', { name: task.name })}
      testid="work-complete"
      onClose={onClose}
      initialValues={{ flag: 'ok' }}
      onSubmit={async (values) => {
        const comment = String(values.comment ?? '').trim();
        await callAction(completeTask, {
          taskId: task.id,
          ...(task.instanceId ? { processInstanceId: task.instanceId } : {}),
          flag: String(values.flag),
          ...(comment ? { comment } : {}),
        });
        void message.success(t('flow.work.completed'));
        onDone();
      }}
    >
      <ProFormRadio.Group
        name="flag"
        label={t('flow.work.decision')}
        radioType="button"
        options={[{ label: t('flow.work.pass'), value: 'ok' }, { label: t('flow.work.reject'), value: 'reject' }]}
      />
      <ProFormTextArea name="comment" label={t('flow.work.comment')} placeholder={t('flow.work.commentHint')} fieldProps={{ rows: 3, maxLength: 1000, showCount: true }} />
    </ActionDialog>
  );
}
