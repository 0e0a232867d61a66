/** Pure logic of the role grant dialog (menus tree, scopes by menu). */
import type { TreeItem } from '../../resource/treeItems';

export interface TreeIndex {
  parent: ReadonlyMap<string, string | undefined>;
  children: ReadonlyMap<string, readonly string[]>;
}

export function indexTree(nodes: readonly TreeItem[]): TreeIndex {
  const parent = new Map<string, string | undefined>();
  const children = new Map<string, string[]>();
  const walk = (list: readonly TreeItem[], up: string | undefined) => {
    for (const n of list) {
      parent.set(n.id, up);
      children.set(n.id, (n.children ?? []).map((c) => c.id));
      if (n.children) walk(n.children, n.id);
    }
  };
  walk(nodes, undefined);
  return { parent, children };
}

function descendants(index: TreeIndex, id: string, out: string[] = []): string[] {
  for (const c of index.children.get(id) ?? []) {
    out.push(c);
    descendants(index, c, out);
  }
  return out;
}

/**
 * The granted set after the user ticks or unticks a node. Each node stands for itself (a menu can be
 * granted without its buttons, as the server stores it): ticking grants the node, everything under it
 * and every node above it (a menu is reachable only through its parents); unticking takes back the node
 * and everything under it, leaving the nodes above as they are.
 */
export function toggleGrant(index: TreeIndex, granted: ReadonlySet<string>, id: string, on: boolean): Set<string> {
  const next = new Set(granted);
  const subtree = [id, ...descendants(index, id)];
  if (on) {
    for (const n of subtree) next.add(n);
    for (let up = index.parent.get(id); up !== undefined; up = index.parent.get(up)) next.add(up);
  } else {
    for (const n of subtree) next.delete(n);
  }
  return next;
}

/** Only the ids the tree holds (a granted id outside what the caller may grant is not shown nor sent). */
export function knownIds(index: TreeIndex, ids: Iterable<string>): Set<string> {
  return new Set([...ids].filter((id) => index.parent.has(id)));
}

/** A scope as `data-scope/list` or `api-scope/list` answers it. */
export interface ScopeRow {
  id: string;
  menuId?: string | null;
  menuIdName?: string | null;
  scopeName?: string | null;
}

export interface ScopeGroup {
  menuId: string;
  menuName: string;
  scopes: ScopeRow[];
}

/** Scopes grouped by their menu, in the order the menus first appear; a scope without a menu name goes under `other`. */
export function groupScopes(rows: readonly ScopeRow[], other: string): ScopeGroup[] {
  const groups = new Map<string, ScopeGroup>();
  for (const row of rows) {
    const menuId = row.menuId ?? '';
    let group = groups.get(menuId);
    if (!group) {
      group = { menuId, menuName: row.menuIdName || other, scopes: [] };
      groups.set(menuId, group);
    }
    group.scopes.push(row);
  }
  return [...groups.values()];
}
