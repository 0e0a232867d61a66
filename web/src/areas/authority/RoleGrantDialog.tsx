import type { Page } from '@console/contract';
import {
  apiScopeResource as apiScopeDef, dataScopeResource as dataScopeDef, roleResource as roleDef,
} from '@console/contract/areas/authority/index';
import { menuResource as menuDef } from '@console/contract/areas/system/index';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Checkbox, Empty, Modal, Spin, Tabs, Tree } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callAction } from '../../api/action';
import { request } from '../../api/client';
import { useLang } from '../../i18n';
import { resourceKeys } from '../../resource/api';
import { testId } from '../../testId';
import type { TreeItem } from '../../resource/treeItems';
import { groupScopes, indexTree, knownIds, toggleGrant, type ScopeGroup, type ScopeRow } from './grantLogic';

export interface RoleGrantDialogProps {
  roles: readonly { id: string; roleName?: string | null }[];
  onClose: () => void;
}

interface MenuNode {
  key: string;
  title: string;
  children?: MenuNode[];
}

function toMenuNodes(nodes: readonly TreeItem[]): MenuNode[] {
  return nodes.map((n) => ({ key: n.id, title: n.title, children: n.children?.length ? toMenuNodes(n.children) : undefined }));
}

/** Every scope of a kind (the platform defines a few dozen): one page of the largest size. */
function useScopes(path: string) {
  const lang = useLang();
  return useQuery({
    queryKey: [...resourceKeys.all(path), 'grant', lang],
    queryFn: () => request<Page<ScopeRow>>(`${path}/list`, { query: { current: 1, size: 500 }, silent: true }),
    staleTime: 0,
  });
}

/** The checkboxes of one kind of scope, grouped by the menu they belong to. */
function ScopeChecks({ groups, checked, onChange, kind }: { groups: ScopeGroup[]; checked: ReadonlySet<string>; onChange: (next: Set<string>) => void; kind: string }) {
  const { t } = useTranslation();
  if (groups.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('authority.roles.noScopes')} />;
  const set = (ids: string[], on: boolean) => {
    const next = new Set(checked);
    for (const id of ids) if (on) next.add(id); else next.delete(id);
    onChange(next);
  };
  return (
    <div className="role-grant-scopes" data-testid={`role-grant-${kind}`}>
      {groups.map((g) => {
        const ids = g.scopes.map((s) => s.id);
        const n = ids.filter((id) => checked.has(id)).length;
        return (
          <fieldset key={g.menuId} style={{ border: 0, margin: '0 0 12px', padding: 0 }}>
            <Checkbox checked={n === ids.length} indeterminate={n > 0 && n < ids.length} onChange={(e) => set(ids, e.target.checked)} style={{ fontWeight: 600 }}>
              {g.menuName}
            </Checkbox>
            <div style={{ paddingInlineStart: 24, display: 'flex', flexWrap: 'wrap', gap: '4px 16px' }}>
              {g.scopes.map((s) => (
                <Checkbox key={s.id} checked={checked.has(s.id)} onChange={(e) => set([s.id], e.target.checked)} data-testid="role-grant-scope" data-id={s.id}>
                  {s.scopeName}
                </Checkbox>
              ))}
            </div>
          </fieldset>
        );
      })}
    </div>
  );
}

/**
 * 权限设置 of one or more roles: the menus (and buttons) the caller may grant (`menu/grant-tree`), the data
 * scopes and the API scopes, each starting from what the roles hold; saved at once by `role/grant`. Each
 * node of the menu tree stands for itself (a menu may be held without its buttons); the server's refusals
 * (menus outside the package or the caller's own, the administrator's lock-out guard) show in the dialog.
 */
export function RoleGrantDialog({ roles, onClose }: RoleGrantDialogProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const roleIds = useMemo(() => roles.map((r) => r.id), [roles]);

  // BladeX's shapes: the trees `{ menu, dataScope, apiScope }` and the roles' ids of each kind
  const tree = useQuery({
    queryKey: ['menu-grant-tree', lang], queryFn: async () => (await callAction(menuDef.actions.grantTree, {}, { silent: true })).menu, staleTime: 0,
  });
  const keys = useQuery({ queryKey: ['role-grant-keys', roleIds], queryFn: () => callAction(menuDef.actions.roleTreeKeys, { roleIds }, { silent: true }), staleTime: 0, gcTime: 0 });
  const menuKeys = { data: keys.data?.menu };
  const dataKeys = { data: keys.data?.dataScope };
  const apiKeys = { data: keys.data?.apiScope };
  const dataScopes = useScopes(dataScopeDef.path);
  const apiScopes = useScopes(apiScopeDef.path);

  const index = useMemo(() => indexTree(tree.data ?? []), [tree.data]);
  const nodes = useMemo(() => toMenuNodes(tree.data ?? []), [tree.data]);
  const dataGroups = useMemo(() => groupScopes(dataScopes.data?.records ?? [], t('authority.roles.otherMenu')), [dataScopes.data, t]);
  const apiGroups = useMemo(() => groupScopes(apiScopes.data?.records ?? [], t('authority.roles.otherMenu')), [apiScopes.data, t]);

  const [menus, setMenus] = useState<Set<string> | null>(null);
  const [data, setData] = useState<Set<string> | null>(null);
  const [api, setApi] = useState<Set<string> | null>(null);
  const [expanded, setExpanded] = useState<string[]>([]);
  useEffect(() => {
    if (tree.data && menuKeys.data && menus === null) {
      setMenus(knownIds(index, menuKeys.data));
      setExpanded(tree.data.map((n) => n.id));
    }
  }, [tree.data, menuKeys.data, index, menus]);
  useEffect(() => {
    if (dataKeys.data && data === null) setData(new Set(dataKeys.data));
  }, [dataKeys.data, data]);
  useEffect(() => {
    if (apiKeys.data && api === null) setApi(new Set(apiKeys.data));
  }, [apiKeys.data, api]);

  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const failed = [tree, keys, dataScopes, apiScopes].find((q) => q.isError)?.error;
  const ready = menus !== null && data !== null && api !== null && !dataScopes.isPending && !apiScopes.isPending;

  const save = async () => {
    if (!ready) return;
    setSaving(true);
    setError(null);
    // a scope removed meanwhile is no longer offered: send only the ones shown
    const shownData = new Set(dataGroups.flatMap((g) => g.scopes.map((s) => s.id)));
    const shownApi = new Set(apiGroups.flatMap((g) => g.scopes.map((s) => s.id)));
    try {
      await callAction(roleDef.actions.grant, {
        roleIds,
        menuIds: [...menus],
        dataScopeIds: [...data].filter((id) => shownData.has(id)),
        apiScopeIds: [...api].filter((id) => shownApi.has(id)),
      }, { silent: true });
      void message.success(t('authority.roles.granted'));
      void queryClient.invalidateQueries({ queryKey: resourceKeys.all(roleDef.path) });
      onClose();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setSaving(false);
    }
  };

  const names = roles.map((r) => r.roleName ?? r.id).join(lang === 'en' ? ', ' : '、');
  return (
    <Modal
      open
      title={t('authority.roles.grantTitle', { names })}
      onCancel={onClose}
      onOk={save}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      okButtonProps={{ disabled: !ready, ...testId('role-grant-submit') }}
      cancelButtonProps={testId('role-grant-cancel')}
      width={720}
      destroyOnHidden
    >
      <div data-testid="role-grant-dialog">
        {roles.length > 1 && <Alert type="info" showIcon message={t('authority.roles.grantMany', { n: roles.length })} style={{ marginBottom: 12 }} />}
        {(error ?? failed) && (
          <Alert type="error" showIcon message={error ?? (failed instanceof Error ? failed.message : String(failed))} style={{ marginBottom: 12 }} {...testId('role-grant-error')} />
        )}
        <Spin spinning={!ready && !failed}>
          <Tabs
            items={[
              {
                key: 'menu',
                label: <span data-testid="role-grant-tab-menu">{t('authority.roles.menuTab')}</span>,
                children: (
                  <div style={{ maxHeight: '55vh', overflow: 'auto' }} data-testid="role-grant-menus">
                    {menus && (
                      <Tree<MenuNode>
                        checkable
                        checkStrictly
                        selectable={false}
                        treeData={nodes}
                        expandedKeys={expanded}
                        onExpand={(keys) => setExpanded(keys.map(String))}
                        checkedKeys={{ checked: [...menus], halfChecked: [] }}
                        onCheck={(_keys, info) => setMenus(toggleGrant(index, menus, String(info.node.key), info.checked))}
                        titleRender={(node) => (
                          <span data-testid="role-grant-menu" data-id={node.key}>
                            {node.title}
                          </span>
                        )}
                      />
                    )}
                  </div>
                ),
              },
              {
                key: 'data',
                label: <span data-testid="role-grant-tab-data">{t('authority.roles.dataTab')}</span>,
                children: data && <ScopeChecks kind="data" groups={dataGroups} checked={data} onChange={setData} />,
              },
              {
                key: 'api',
                label: <span data-testid="role-grant-tab-api">{t('authority.roles.apiTab')}</span>,
                children: api && <ScopeChecks kind="api" groups={apiGroups} checked={api} onChange={setApi} />,
              },
            ]}
          />
        </Spin>
      </div>
    </Modal>
  );
}
