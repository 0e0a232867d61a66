import { t as text, type Lang, type ResourceDef } from '@console/contract';
import { menuResource, topMenuResource, type GrantNode } from '@console/contract/areas/system/index';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Empty, Modal, Spin, Tree, Typography } from 'antd';
import { useCallback, useEffect, useState, type Key } from 'react';
import { useTranslation } from 'react-i18next';
import { callAction } from '../../api/action';
import { useLang } from '../../i18n';
import { resourceKeys } from '../../resource/api';
import { ResourcePage } from '../../resource/ResourcePage';
import type { ResourceRecord } from '../../resource/types';
import { usePermissionCheck } from '../../store/permissions';
import { testId } from '../../testId';
import type { CustomPageProps } from '../../shell/area';
import { GrantNodeTitle, useGrantTree } from './menuGrantTree';
import { sortedKeys } from './menuTreeKeys';
import { useTenantText } from './tenantText';

type Row = ResourceRecord;

function buttonLabel(def: ResourceDef, code: string, lang: Lang): string {
  const button = def.menu?.buttons?.find((b) => b.code === code);
  return button ? text(button.name, lang) : code;
}

/**
 * Top menus: the generic page plus 菜单配置 (`topmenu_setting`): the menus shown under the selected top
 * menus, checked in the tree of menus (`menu/grant-tree`), saved with `topmenu/grant`.
 */
export function TopMenuPage({ def }: CustomPageProps) {
  const lang = useLang();
  const { t } = useTranslation();
  const { message } = App.useApp();
  const can = usePermissionCheck();
  const [granting, setGranting] = useState<{ rows: readonly Row[]; reload: () => void } | null>(null);
  return (
    <>
      <ResourcePage
        def={def}
        extraToolbar={({ selectedRows, reload }) => [
          can('topmenu_setting') && (
            <Button
              key="setting"
              data-testid="topmenu-setting"
              onClick={() => {
                if (selectedRows.length === 0) void message.warning(t('resource.selectAtLeastOne'));
                else setGranting({ rows: selectedRows, reload });
              }}
            >
              {buttonLabel(def, 'topmenu_setting', lang)}
            </Button>
          ),
        ]}
      />
      {granting && <TopMenuGrantDialog def={def} rows={granting.rows} onClose={() => setGranting(null)} onDone={granting.reload} />}
    </>
  );
}

/**
 * The menus of the selected top menus: checked from `menu/top-tree-keys` (a checked menu brings what is
 * under it, as the server reads it), saved as the checked keys.
 */
function TopMenuGrantDialog({ def, rows, onClose, onDone }: { def: ResourceDef; rows: readonly Row[]; onClose: () => void; onDone: () => void }) {
  const lang = useLang();
  const { t } = useTranslation();
  const words = useTenantText();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const tree = useGrantTree();
  const topMenuIds = rows.map((r) => r.id).join(',');
  const keys = useQuery({
    queryKey: [...resourceKeys.all(def.path), 'top-tree-keys', topMenuIds],
    queryFn: async () => (await callAction(menuResource.actions.topTreeKeys, { topMenuIds })).menu,
    staleTime: 0,
  });
  const [checked, setChecked] = useState<string[] | null>(null);
  const [expanded, setExpanded] = useState<Key[]>([]);
  const [saving, setSaving] = useState(false);
  // the stored keys, once both the tree and the keys are in
  useEffect(() => {
    if (checked === null && tree.data && keys.data) {
      setChecked(sortedKeys(tree.data, keys.data));
      setExpanded(tree.data.map((n) => n.key));
    }
  }, [checked, tree.data, keys.data]);

  const save = useCallback(async () => {
    if (!tree.data || checked === null) return;
    setSaving(true);
    try {
      await callAction(topMenuResource.actions.grant, { topMenuIds, menuIds: sortedKeys(tree.data, checked).join(',') });
    } catch {
      setSaving(false);
      return;
    }
    void message.success(words.saved);
    void queryClient.invalidateQueries({ queryKey: resourceKeys.all(def.path) });
    onDone();
    onClose();
  }, [tree.data, checked, topMenuIds, message, words, queryClient, def.path, onDone, onClose]);

  const loading = tree.isPending || keys.isPending || checked === null;
  const names = rows.map((r) => String(r.name ?? r.id)).join(', ');
  return (
    <Modal
      open
      title={buttonLabel(def, 'topmenu_setting', lang)}
      onCancel={onClose}
      onOk={() => void save()}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: saving, disabled: loading, ...testId('topmenu-grant-submit') }}
      cancelButtonProps={testId('topmenu-grant-cancel')}
      destroyOnHidden
      maskClosable={false}
      width={560}
    >
      <Typography.Paragraph type="secondary" data-testid="topmenu-grant-names">
        {words.topMenus(names)}
        <br />
        {words.topMenuHelp}
      </Typography.Paragraph>
      <div data-testid="topmenu-grant-tree" data-loaded={loading ? 'false' : 'true'} style={{ maxHeight: 420, overflow: 'auto' }}>
        {loading ? (
          <Spin />
        ) : tree.data!.length === 0 ? (
          <Empty />
        ) : (
          <Tree
            checkable
            selectable={false}
            treeData={tree.data}
            titleRender={(node) => <GrantNodeTitle node={node as unknown as GrantNode} buttonTag={words.buttonTag} />}
            checkedKeys={checked ?? []}
            onCheck={(next) => setChecked((Array.isArray(next) ? next : next.checked).map(String))}
            expandedKeys={expanded}
            onExpand={(next) => setExpanded(next)}
          />
        )}
      </div>
    </Modal>
  );
}
