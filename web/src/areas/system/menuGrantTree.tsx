import { menuResource, type GrantNode } from '@console/contract/areas/system/index';
import { useQuery } from '@tanstack/react-query';
import { Tag, TreeSelect } from 'antd';
import { useMemo } from 'react';
import { callAction } from '../../api/action';
import { useLang } from '../../i18n';
import { resourceKeys } from '../../resource/api';
import { joinIds, splitIds } from '../../resource/refOptions';
import { conductedKeys, sortedKeys } from './menuTreeKeys';
import { useTenantText } from './tenantText';

/**
 * The menus and their buttons the caller may grant (`menu/grant-tree`: nodes with `category` 1 menu,
 * 2 button), under the menu resource's query key so that a change on the menu screen refreshes it.
 */
export function useGrantTree() {
  const lang = useLang();
  return useQuery({
    queryKey: [...resourceKeys.all(menuResource.path), 'grant-tree', lang],
    // BladeX's shape, `{ menu, dataScope, apiScope }`: the package and top-menu screens grant menus only
    queryFn: async () => (await callAction(menuResource.actions.grantTree, {})).menu,
    staleTime: 30_000,
  });
}

/** A node's title, buttons marked as such (menu titles repeat: every screen has its 新增 / Add). */
export function GrantNodeTitle({ node, buttonTag }: { node: Pick<GrantNode, 'title' | 'category'>; buttonTag: string }) {
  return (
    <span className="grant-node" data-category={node.category}>
      {node.title}
      {node.category === 2 && (
        <Tag bordered={false} style={{ marginInlineStart: 6, fontSize: 11, lineHeight: '16px', paddingInline: 4 }}>
          {buttonTag}
        </Tag>
      )}
    </span>
  );
}

type LabelledNode = Omit<GrantNode, 'children'> & { label: string; children?: LabelledNode[] };

/** The chosen values are labelled by title, a button with its screen's ("通知公告 › 新增"): every screen has its 新增. */
function withLabels(nodes: readonly GrantNode[], parent?: GrantNode): LabelledNode[] {
  return nodes.map(({ children, ...n }) => ({
    ...n,
    label: n.category === 2 && parent ? `${parent.title} › ${n.title}` : n.title,
    ...(children ? { children: withLabels(children, n) } : {}),
  }));
}

export interface MenuTreeSelectProps {
  /** comma-joined menu ids ('1,2'), as the wire has them */
  value?: string | null;
  onChange?: (value: string) => void;
  id?: string;
  placeholder?: string;
  disabled?: boolean;
  status?: 'error' | 'warning' | '';
}

/** The tree without the platform's own screens (tenants, packages, product authorisation), which no package includes. */
export function withoutPlatformOnly(nodes: readonly GrantNode[]): GrantNode[] {
  return nodes.filter((n) => !n.platformOnly).map((n) => (n.children ? { ...n, children: withoutPlatformOnly(n.children) } : n));
}

/**
 * A multi-select tree of a package's menus and buttons with checkboxes (checking a menu checks its buttons and
 * children); the platform's own screens are not offered (the server refuses them too). The value stays '1,2':
 * every fully checked node, in tree order; the server adds the ancestors where it needs them.
 */
export function MenuTreeSelect({ value, onChange, id, placeholder, disabled, status }: MenuTreeSelectProps) {
  const text = useTenantText();
  const tree = useGrantTree();
  const nodes = useMemo(() => (tree.data ? withoutPlatformOnly(tree.data) : undefined), [tree.data]);
  const checked = useMemo(() => (nodes ? conductedKeys(nodes, splitIds(value)) : []), [nodes, value]);
  const treeData = useMemo(() => (nodes ? withLabels(nodes) : []), [nodes]);
  return (
    <TreeSelect<string[]>
      id={id}
      data-testid="menu-tree-select"
      value={checked}
      onChange={(next) => onChange?.(joinIds(nodes ? sortedKeys(nodes, next) : next))}
      treeData={treeData}
      treeNodeLabelProp="label"
      treeCheckable
      showCheckedStrategy={TreeSelect.SHOW_ALL}
      treeTitleRender={(node) => <GrantNodeTitle node={node as GrantNode} buttonTag={text.buttonTag} />}
      showSearch
      treeNodeFilterProp="title"
      maxTagCount="responsive"
      allowClear
      loading={tree.isPending}
      notFoundContent={tree.isPending ? text.treeLoading : undefined}
      placeholder={placeholder}
      disabled={disabled}
      status={status}
      style={{ width: '100%' }}
      listHeight={360}
      popupMatchSelectWidth
    />
  );
}
