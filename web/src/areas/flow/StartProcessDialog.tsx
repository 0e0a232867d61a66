import { ProFormList, ProFormText } from '@ant-design/pro-components';
import { workStartResource } from '@console/contract/areas/flow/index';
import { Alert, App, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { callAction } from '../../api/action';
import { testId } from '../../testId';
import { ActionDialog } from '../../dialog/ActionDialog';
import { VARIABLE_NAME, variablesOf, type VariableRow } from './workVariables';

const { startProcess } = workStartResource.actions;

/**
 * 发起 for a process without a business form of its own: an optional business key and variables as key/value
 * rows (`work/start-process`); then 已发事务, where the new instance is listed.
 */
export function StartProcessDialog({ definition, notice, onClose }: {
  definition: { id: string; name: string };
  /** why the category's business form is not offered (said before anything is typed) */
  notice?: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  return (
    <ActionDialog
      open
      title={t('flow.work.startTitle', { name: definition.name })}
      testid="work-start"
      width={640}
      onClose={onClose}
      initialValues={{ variables: [] }}
      onSubmit={async (values) => {
        const businessKey = String(values.businessKey ?? '').trim();
        const variables = variablesOf(values.variables as VariableRow[] | undefined);
        await callAction(startProcess, {
          processDefinitionId: definition.id,
          ...(businessKey ? { businessKey } : {}),
          ...(variables ? { variables } : {}),
        });
        void message.success(t('flow.work.started'));
        void navigate('/work/send');
      }}
    >
      {notice && <Alert type="warning" showIcon style={{ marginBottom: 16 }} message={notice} {...testId('work-start-form-problem')} />}
      <ProFormText name="businessKey" label={t('flow.work.businessKey')} placeholder={t('flow.work.businessKeyHint')} fieldProps={{ maxLength: 64 }} />
      <ProFormList
        name="variables"
        label={t('flow.work.variables')}
        tooltip={t('flow.work.variablesHint')}
        creatorButtonProps={{ creatorButtonText: t('flow.work.addVariable'), ...testId('work-start-add-variable') }}
        copyIconProps={false}
      >
        <Space align="baseline">
          <ProFormText
            name="name"
            placeholder={t('flow.work.variableName')}
            rules={[{ required: true, pattern: VARIABLE_NAME, message: t('flow.work.variableNameRule') }]}
            fieldProps={{ maxLength: 64 }}
          />
          <ProFormText name="value" placeholder={t('flow.work.variableValue')} fieldProps={{ maxLength: 500 }} />
        </Space>
      </ProFormList>
    </ActionDialog>
  );
}
