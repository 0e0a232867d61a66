import { ProFormSelect } from '@ant-design/pro-components';
import { type ActionOutput } from '@console/contract';
import { flowModelResource } from '@console/contract/areas/flow/index';
import { tenantResource } from '@console/contract/areas/system/index';
import { useQuery } from '@tanstack/react-query';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { callAction } from '../../api/action';
import { resourceKeys } from '../../resource/api';
import { useDict } from '../../resource/dict';
import { dictOptions } from '../../resource/dictValues';
import { useIsPlatformAdmin } from '../../store/session';
import { testId } from '../../testId';

/** The process category of a deployment (dictionary `flow`). */
export function CategoryField({ required, help }: { required?: boolean; help?: string }) {
  const { t } = useTranslation();
  const items = useDict('flow');
  return (
    <ProFormSelect
      name="category"
      label={t('flow.model.category')}
      // stored as `flow_1`, the form the server keeps (Saber's flow route keys)
      options={dictOptions(flowModelResource.fields.category, { flow: items })}
      rules={required ? [{ required: true, message: t('flow.manager.categoryRequired') }] : []}
      extra={help}
      fieldProps={{ allowClear: !required, ...testId('flow-deploy-category') }}
    />
  );
}

/**
 * The tenants a deployment goes to, for the platform's administrators only (the server refuses anyone else's
 * other tenants); nothing for everyone else, whose deployments go to their own tenant.
 */
export function TenantsField() {
  const { t } = useTranslation();
  const platformAdmin = useIsPlatformAdmin();
  const tenants = useQuery({
    queryKey: [...resourceKeys.all(tenantResource.path), 'select'],
    queryFn: () => callAction(tenantResource.actions.select, {}),
    enabled: platformAdmin,
  });
  if (!platformAdmin) return null;
  return (
    <ProFormSelect
      name="tenantIds"
      label={t('flow.model.tenants')}
      mode="multiple"
      extra={t('flow.model.tenantsHint')}
      options={(tenants.data ?? []).map((x) => ({ value: x.tenantId, label: `${x.tenantName} (${x.tenantId})` }))}
      fieldProps={{ loading: tenants.isPending, optionFilterProp: 'label', ...testId('flow-deploy-tenants') }}
    />
  );
}

/** the chosen tenants as the wire takes them; none: the caller's tenant */
export function tenantIdsOf(values: Record<string, unknown>): string[] | undefined {
  const ids = values.tenantIds;
  return Array.isArray(ids) && ids.length ? ids.map(String) : undefined;
}

/** a deployment into one tenant (the model's deploy and the upload answer the same) */
export type Deployed = ActionOutput<typeof flowModelResource.actions.deploy>[number];

/** Shows what a deployment made: each tenant's new process version. */
export function useShowDeployed(): (deployed: readonly Deployed[]) => void {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  return (deployed) => {
    modal.success({
      title: t('flow.model.deployed'),
      okText: t('common.ok'),
      okButtonProps: testId('confirm-ok'),
      content: (
        <ul style={{ paddingLeft: 18, margin: 0 }} {...testId('flow-deployed')}>
          {deployed.map((d) => (
            <li key={d.definitionId} data-definition-id={d.definitionId}>
              {t('flow.model.deployedItem', { tenant: d.tenantId, name: d.name, version: d.version })}
            </li>
          ))}
        </ul>
      ),
    });
  };
}
