import { ProForm, ProFormDependency, ProFormRadio, ProFormTextArea } from '@ant-design/pro-components';
import { crudPaths, type Page } from '@console/contract';
import { firmwareResource, otaTaskResource, RELEASE_STATE } from '@console/contract/areas/device/index';
import { batchResource } from '@console/contract/areas/production/index';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Select } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callAction } from '../../api/action';
import { request } from '../../api/client';
import { addMessages } from '../../i18n/lazy';
import { deviceEn, deviceZh } from './i18n';
import { resourceKeys } from '../../resource/api';
import { fieldItemProps } from '../../resource/formFields';
import { ResourcePage } from '../../resource/ResourcePage';
import type { FormFieldContext, FormOverride, ResourceRecord } from '../../resource/types';
import { usePermissionCheck } from '../../store/permissions';
import { testId } from '../../testId';
import type { CustomPageProps } from '../../shell/area';
import { OtaTaskDrawer } from './OtaTaskDrawer';

addMessages('device', { zh: deviceZh, en: deviceEn });

type Task = ResourceRecord<typeof otaTaskResource.fields>;
type Firmware = ResourceRecord<typeof firmwareResource.fields> & { productIdName?: string | null };
type Batch = ResourceRecord<typeof batchResource.fields>;

/** Published firmware is what a task may install; a product ships a handful of versions at most. */
const FIRMWARE_PAGE = 200;
const BATCH_PAGE = 200;

function usePublishedFirmware() {
  return useQuery({
    queryKey: [...resourceKeys.all(firmwareResource.path), 'published'],
    queryFn: () => request<Page<Firmware>>(crudPaths(firmwareResource).list, { query: { state_equal: RELEASE_STATE.published, size: FIRMWARE_PAGE, current: 1 } }),
    staleTime: 0,
  });
}

/** The firmware a task installs: published firmware only, named by product and version. */
function FirmwareField(ctx: FormFieldContext) {
  const { t } = useTranslation();
  const { common, placeholder } = fieldItemProps(ctx, t);
  const firmware = usePublishedFirmware();
  const options = useMemo(
    () => (firmware.data?.records ?? []).map((f) => ({ value: f.id, label: t('device.ota.firmwareOption', { product: f.productIdName ?? f.productId ?? '', version: f.version ?? '' }) })),
    [firmware.data, t],
  );
  return (
    <ProForm.Item {...common} extra={t('device.ota.firmwareHint')}>
      <Select options={options} loading={firmware.isPending} placeholder={placeholder} showSearch optionFilterProp="label" allowClear {...testId('ota-firmware')} />
    </ProForm.Item>
  );
}

function ScopeField(ctx: FormFieldContext) {
  const { t } = useTranslation();
  const { common } = fieldItemProps(ctx, t);
  return (
    <ProFormRadio.Group
      {...common}
      radioType="button"
      options={[
        { value: 'all', label: t('device.ota.scopeAll') },
        { value: 'batch', label: t('device.ota.scopeBatch') },
        { value: 'selected', label: t('device.ota.scopeSelected') },
      ]}
    />
  );
}

/** The batch, among the batches of the chosen firmware's product. */
function BatchSelect({ productId, value, onChange, id }: { productId: string | undefined; value?: string; onChange?: (v: string) => void; id?: string }) {
  const { t } = useTranslation();
  const batches = useQuery({
    queryKey: [...resourceKeys.all(batchResource.path), 'by-product', productId],
    queryFn: () => request<Page<Batch>>(crudPaths(batchResource).list, { query: { productId_equal: productId, size: BATCH_PAGE, current: 1 } }),
    enabled: productId !== undefined,
  });
  const options = (batches.data?.records ?? []).map((b) => ({ value: b.id, label: b.batchNo ?? b.id }));
  return (
    <Select id={id} value={value || undefined} onChange={(v: string | undefined) => onChange?.(v ?? '')} options={options} allowClear showSearch optionFilterProp="label"
      disabled={productId === undefined} loading={productId !== undefined && batches.isPending}
      placeholder={productId === undefined ? t('device.ota.batchFirst') : t('device.ota.batchPick')} {...testId('ota-batch')} />
  );
}

function BatchField(ctx: FormFieldContext) {
  const { t } = useTranslation();
  const { common } = fieldItemProps(ctx, t);
  const firmware = usePublishedFirmware();
  return (
    <ProFormDependency name={['scope', 'firmwareId']}>
      {({ scope, firmwareId }) => {
        if (scope !== 'batch') return null;
        const productId = firmware.data?.records.find((f) => f.id === firmwareId)?.productId ?? undefined;
        return (
          <ProForm.Item {...common} rules={[{ required: true, message: t('device.ota.batchPick') }]}>
            <BatchSelect productId={productId} />
          </ProForm.Item>
        );
      }}
    </ProFormDependency>
  );
}

function SnsField(ctx: FormFieldContext) {
  const { t } = useTranslation();
  const { common } = fieldItemProps(ctx, t);
  return (
    <ProFormDependency name={['scope']}>
      {({ scope }) =>
        scope === 'selected' && (
          <ProFormTextArea {...common} rules={[{ required: true, whitespace: true, message: t('device.ota.snsRequired') }]}
            placeholder={t('device.ota.snsHint')} fieldProps={{ rows: 5, ...testId('ota-sns') }} />
        )
      }
    </ProFormDependency>
  );
}

/**
 * 升级进度: the OTA tasks (`ota_task`, its codes on this menu) with a 新建升级任务 form over published firmware,
 * a task's live view (counts per state and its devices, exported as .xlsx), 取消任务 while it runs and
 * 重试失败设备 when devices failed or timed out.
 */
export function OtaPage(_props: CustomPageProps) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const can = usePermissionCheck();
  const [viewing, setViewing] = useState<Task | null>(null);
  const formOverride = useMemo<FormOverride<Task>>(() => ({
    createTitle: t('device.ota.newTask'),
    // components, not calls: each field has hooks of its own
    fields: {
      firmwareId: (ctx) => <FirmwareField {...ctx} />,
      scope: (ctx) => <ScopeField {...ctx} />,
      batchId: (ctx) => <BatchField {...ctx} />,
      deviceSns: (ctx) => <SnsField {...ctx} />,
    },
    toSubmit: (values) => {
      const scope = values.scope;
      return { ...values, batchId: scope === 'batch' ? values.batchId : undefined, deviceSns: scope === 'selected' ? values.deviceSns : undefined };
    },
  }), [t]);

  const cancel = (task: Task, reload: () => void) => {
    modal.confirm({
      title: t('device.ota.cancel'),
      content: t('device.ota.cancelConfirm', { name: task.taskName ?? task.id }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: testId('confirm-ok'),
      cancelButtonProps: testId('confirm-cancel'),
      onOk: () => callAction(otaTaskResource.actions.cancel, { id: task.id }).then(() => {
        void message.success(t('device.ota.cancelled'));
        reload();
      }, () => undefined),
    });
  };

  const retry = (task: Task, reload: () => void) => {
    modal.confirm({
      title: t('device.ota.retry'),
      content: t('device.ota.retryConfirm', { name: task.taskName ?? task.id, count: task.failed ?? 0 }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: testId('confirm-ok'),
      cancelButtonProps: testId('confirm-cancel'),
      onOk: () => callAction(otaTaskResource.actions.retry, { id: task.id }).then((out) => {
        void message.success(out.superseded > 0
          ? t('device.ota.retriedSuperseded', { count: out.retried, superseded: out.superseded })
          : t('device.ota.retried', { count: out.retried }));
        reload();
      }, () => undefined),
    });
  };

  return (
    <>
      <ResourcePage
        def={otaTaskResource}
        addLabel={t('device.ota.newTask')}
        formOverride={formOverride}
        extraRowActions={(row, { reload }) => {
          const task = row as Task;
          return [
            <Button key="progress" type="link" size="small" {...testId('ota-row-progress')} onClick={() => setViewing(task)}>{t('device.ota.progress')}</Button>,
            can('ota_task_cancel') && task.state === 'running' && (
              <Button key="cancel" type="link" size="small" danger {...testId('ota-row-cancel')} onClick={() => cancel(task, reload)}>{t('device.ota.cancel')}</Button>
            ),
            // failed counts the timed-out devices too; a cancelled task stays cancelled
            can('ota_task_retry') && task.state !== 'cancelled' && (task.failed ?? 0) > 0 && (
              <Button key="retry" type="link" size="small" {...testId('ota-row-retry')} onClick={() => retry(task, reload)}>{t('device.ota.retry')}</Button>
            ),
          ];
        }}
      />
      {viewing && <OtaTaskDrawer task={viewing} onClose={() => setViewing(null)} />}
    </>
  );
}
