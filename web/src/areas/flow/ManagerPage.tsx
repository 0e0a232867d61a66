import { UploadOutlined } from '@ant-design/icons';
import { ProForm } from '@ant-design/pro-components';
import { FLOW_DEPLOY_UPLOAD, flowManagerResource } from '@console/contract/areas/flow/index';
import { Alert, App, Button, Upload, type UploadFile } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callAction } from '../../api/action';
import { request } from '../../api/client';
import { addMessages } from '../../i18n/lazy';
import { flowEn, flowZh } from './i18n';
import { ResourcePage } from '../../resource/ResourcePage';
import type { ResourceRecord } from '../../resource/types';
import { usePermissionCheck } from '../../store/permissions';
import { testId } from '../../testId';
import { ActionDialog } from '../../dialog/ActionDialog';
import type { CustomPageProps } from '../../shell/area';
import { CategoryField, TenantsField, tenantIdsOf, useShowDeployed, type Deployed } from './deployFields';
import { FlowChartDialog } from './FlowChartDialog';

addMessages('flow', { zh: flowZh, en: flowEn });

type Definition = ResourceRecord<typeof flowManagerResource.fields>;

const { changeState, deleteDeployment } = flowManagerResource.actions;
const UPLOAD_CODE = 'flow_manager_upload';
const BPMN_FILES = '.bpmn,.bpmn20.xml,.xml';
const SUSPENDED = 1;

/**
 * 流程管理: the deployed process definitions (read only) with 部署上传 (BPMN files, all or none), 挂起 / 激活, 删除部署
 * (refused while instances run: the server's message shows) and 流程图.
 * Test hooks: `manager-upload`, `manager-upload-form` (`-submit`, `-cancel`), `manager-upload-files`, `manager-upload-error`,
 * `manager-row-state` (`data-state`: the state it switches to), `manager-row-delete`, `manager-row-chart`.
 */
export function ManagerPage({ def }: CustomPageProps) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const can = usePermissionCheck();
  const [uploading, setUploading] = useState<{ reload: () => void } | null>(null);
  const [chartOf, setChartOf] = useState<string | null>(null);

  const confirm = (content: string, onOk: () => Promise<unknown>) => {
    modal.confirm({
      title: t('common.tip'),
      content,
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: testId('confirm-ok'),
      cancelButtonProps: testId('confirm-cancel'),
      // a refusal (the client toasts the server's message) closes the confirm as well
      onOk: () => onOk().catch(() => undefined),
    });
  };

  const switchState = (row: Definition, reload: () => void) => {
    const suspend = row.suspended !== SUSPENDED;
    const vars = { name: row.name ?? '', version: row.version ?? '' };
    confirm(t(suspend ? 'flow.manager.suspendConfirm' : 'flow.manager.activateConfirm', vars), async () => {
      await callAction(changeState, { processId: row.id, state: suspend ? 'suspend' : 'active' });
      void message.success(t(suspend ? 'flow.manager.suspended' : 'flow.manager.activated'));
      reload();
    });
  };

  const remove = (row: Definition, reload: () => void) => {
    confirm(t('flow.manager.deleteConfirm', { name: row.name ?? '', version: row.version ?? '' }), async () => {
      await callAction(deleteDeployment, { deploymentIds: row.deploymentId ?? '' });
      void message.success(t('flow.manager.deleted'));
      reload();
    });
  };

  return (
    <>
      <ResourcePage
        def={def}
        extraToolbar={({ reload }) => [
          can(UPLOAD_CODE) && (
            <Button key="upload" type="primary" icon={<UploadOutlined />} {...testId('manager-upload')} onClick={() => setUploading({ reload })}>
              {t('flow.manager.upload')}
            </Button>
          ),
        ]}
        extraRowActions={(record, { reload }) => {
          const row = record as Definition;
          const suspend = row.suspended !== SUSPENDED;
          return [
            <Button key="chart" type="link" size="small" {...testId('manager-row-chart')} onClick={() => setChartOf(row.id)}>{t('flow.chart.open')}</Button>,
            can(changeState.permission!) && (
              <Button key="state" type="link" size="small" danger={suspend} {...testId('manager-row-state')} data-state={suspend ? 'suspend' : 'active'}
                onClick={() => switchState(row, reload)}>
                {t(suspend ? 'flow.manager.suspend' : 'flow.manager.activate')}
              </Button>
            ),
            can(deleteDeployment.permission!) && (
              <Button key="delete" type="link" size="small" danger {...testId('manager-row-delete')} onClick={() => remove(row, reload)}>
                {t('flow.manager.deleteDeployment')}
              </Button>
            ),
          ];
        }}
      />
      {uploading && <UploadDialog onClose={() => setUploading(null)} onDeployed={uploading.reload} />}
      <FlowChartDialog open={chartOf !== null} onClose={() => setChartOf(null)} processDefinitionId={chartOf ?? undefined} />
    </>
  );
}

const filesOf = (e: unknown): UploadFile[] => (e as { fileList?: UploadFile[] } | undefined)?.fileList ?? [];

/** 部署上传: BPMN files posted as multipart (`files`, `category`, `tenantIds`); the parser's refusal names the file. */
function UploadDialog({ onClose, onDeployed }: { onClose: () => void; onDeployed: () => void }) {
  const { t } = useTranslation();
  const showDeployed = useShowDeployed();
  const [refusal, setRefusal] = useState<string | null>(null);
  return (
    <ActionDialog
      open
      title={t('flow.manager.uploadTitle')}
      testid="manager-upload-form"
      onClose={onClose}
      onSubmit={async (values) => {
        setRefusal(null);
        const body = new FormData();
        for (const f of values.files as UploadFile[]) if (f.originFileObj) body.append('files', f.originFileObj, f.name);
        if (typeof values.category === 'string' && values.category) body.append('category', values.category);
        const tenants = tenantIdsOf(values);
        if (tenants) body.append('tenantIds', tenants.join(','));
        try {
          const deployed = await request<Deployed[]>(FLOW_DEPLOY_UPLOAD, { method: 'POST', multipart: body, silent: true });
          onDeployed();
          showDeployed(deployed);
        } catch (err) {
          // the parser's message can be long: it stays in the dialog, beside the files
          setRefusal(err instanceof Error ? err.message : String(err));
          throw err;
        }
      }}
    >
      {refusal && <Alert type="error" showIcon style={{ marginBottom: 16 }} message={refusal} {...testId('manager-upload-error')} />}
      <ProForm.Item name="files" label={t('flow.manager.files')} valuePropName="fileList" getValueFromEvent={filesOf} extra={t('flow.manager.filesHint')}
        rules={[{ required: true, type: 'array', min: 1, message: t('flow.manager.filesRequired') }]}>
        <Upload accept={BPMN_FILES} multiple beforeUpload={() => false} {...testId('manager-upload-files')}>
          <Button icon={<UploadOutlined />}>{t('flow.manager.pick')}</Button>
        </Upload>
      </ProForm.Item>
      <CategoryField required />
      <TenantsField />
    </ActionDialog>
  );
}
