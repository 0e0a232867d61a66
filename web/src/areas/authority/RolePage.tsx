import { roleResource as roleDef } from '@console/contract/areas/authority/index';
import { App, Button } from 'antd';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addMessages } from '../../i18n/lazy';
import { authorityEn, authorityZh } from './i18n';
import { ResourcePage } from '../../resource/ResourcePage';
import type { ResourceRecord, ToolbarContext } from '../../resource/types';
import { usePermissionCheck } from '../../store/permissions';
import { testId } from '../../testId';
import type { CustomPageProps } from '../../shell/area';
import { lazy } from '../../shell/chunkLoad';

addMessages('authority', { zh: authorityZh, en: authorityEn });

// the grant dialog (menu tree, scopes, tabs) loads when it is first opened
const RoleGrantDialog = lazy(() => import('./RoleGrantDialog').then((m) => ({ default: m.RoleGrantDialog })));

type RoleRecord = ResourceRecord<typeof roleDef.fields>;

/** /authority/role: the generic tree of roles plus 权限设置 (menus, data scopes, API scopes) for the roles selected. */
export function RolePage(_props: CustomPageProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const can = usePermissionCheck();
  const [grantFor, setGrantFor] = useState<readonly RoleRecord[] | null>(null);

  const extraToolbar = (ctx: ToolbarContext<RoleRecord>) => [
    can('role_grant') && (
      <Button key="grant" {...testId('role-grant')}
        onClick={() => (ctx.selectedRows.length === 0 ? void message.warning(t('resource.selectAtLeastOne')) : setGrantFor(ctx.selectedRows))}>
        {t('authority.roles.grant')}
      </Button>
    ),
  ].filter(Boolean);

  return (
    <>
      <ResourcePage def={roleDef} extraToolbar={extraToolbar} />
      {grantFor && (
        <Suspense fallback={null}>
          <RoleGrantDialog roles={grantFor} onClose={() => setGrantFor(null)} />
        </Suspense>
      )}
    </>
  );
}
