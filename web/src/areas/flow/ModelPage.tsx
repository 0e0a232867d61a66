import { flowModelResource } from '@console/contract/areas/flow/index';
import { Button } from 'antd';
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
import { BpmnModelerDialog } from './BpmnModelerDialog';
import { CategoryField, TenantsField, tenantIdsOf, useShowDeployed } from './deployFields';

addMessages('flow', { zh: flowZh, en: flowEn });

type Model = ResourceRecord<typeof flowModelResource.fields>;

const DESIGN_CODE = 'flow_model_design';
const deployAction = flowModelResource.actions.deploy;

/**
 * 模型管理: the models (the generic page: key, name, category, description) with 模型设计 (the bpmn.io modeler) and
 * 部署 (the model's diagram deployed as a new version of its process, in this tenant or, for the platform's
 * administrators, in the tenants chosen).
 * Test hooks: `model-row-design`, `model-row-deploy`, `flow-deploy` (the dialog), `flow-deployed` (what was deployed).
 */
export function ModelPage({ def }: CustomPageProps) {
  const { t } = useTranslation();
  const can = usePermissionCheck();
  const [designing, setDesigning] = useState<{ model: Model; reload: () => void } | null>(null);
  const [deploying, setDeploying] = useState<Model | null>(null);
  return (
    <>
      <ResourcePage
        def={def}
        extraRowActions={(record, { reload }) => {
          const model = record as Model;
          return [
            can(DESIGN_CODE) && (
              <Button key="design" type="link" size="small" {...testId('model-row-design')} onClick={() => setDesigning({ model, reload })}>{t('flow.model.design')}</Button>
            ),
            can(deployAction.permission!) && (
              <Button key="deploy" type="link" size="small" {...testId('model-row-deploy')} onClick={() => setDeploying(model)}>{t('flow.model.deploy')}</Button>
            ),
          ];
        }}
      />
      {designing && <BpmnModelerDialog model={designing.model} onSaved={designing.reload} onClose={() => setDesigning(null)} />}
      {deploying && <DeployDialog model={deploying} onClose={() => setDeploying(null)} />}
    </>
  );
}

function DeployDialog({ model, onClose }: { model: Model; onClose: () => void }) {
  const { t } = useTranslation();
  const showDeployed = useShowDeployed();
  return (
    <ActionDialog
      open
      title={t('flow.model.deployTitle', { name: model.name ?? model.modelKey ?? '' })}
      testid="flow-deploy"
      initialValues={{ category: model.category ?? undefined }}
      onClose={onClose}
      onSubmit={async (values) => {
        const category = typeof values.category === 'string' && values.category ? values.category : undefined;
        const deployed = await callAction(deployAction, { modelId: model.id, category, tenantIds: tenantIdsOf(values) });
        showDeployed(deployed);
      }}
    >
      <CategoryField help={t('flow.model.categoryHint')} />
      <TenantsField />
    </ActionDialog>
  );
}
