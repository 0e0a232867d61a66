import type { GrantNode } from '@console/contract/areas/system/index';

/**
 * A checkable tree conducts a checked node down to its whole subtree. A stored list of menu ids may name
 * a parent without all of its children (a package saved with its directories, or through the API): shown
 * as it is, the tree would check every child of that parent. The keys to check are therefore the ids that
 * are leaves, or whose whole subtree is in the list; the parents of a partly chosen subtree show half
 * checked, as they should. Ids the tree does not hold are dropped.
 */
export function conductedKeys(nodes: readonly GrantNode[], ids: Iterable<string>): string[] {
  const chosen = new Set(ids);
  const out: string[] = [];
  // whether the node and its whole subtree are chosen; collects the keys on the way (tree order)
  const walk = (node: GrantNode): boolean => {
    const children = node.children ?? [];
    let all = true;
    for (const child of children) if (!walk(child)) all = false;
    const full = chosen.has(node.id) && all;
    if (full || (chosen.has(node.id) && children.length === 0)) out.push(node.id);
    return full;
  };
  // pushed children first: restore tree order (parents before their children)
  for (const node of nodes) walk(node);
  const order = treeOrder(nodes);
  return out.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
}

/** Every node's position in a depth-first walk (a parent before its children). */
export function treeOrder(nodes: readonly GrantNode[]): Map<string, number> {
  const order = new Map<string, number>();
  const walk = (list: readonly GrantNode[]) => {
    for (const n of list) {
      order.set(n.id, order.size);
      if (n.children) walk(n.children);
    }
  };
  walk(nodes);
  return order;
}

/** Keys in tree order, each once; keys the tree does not hold are dropped. */
export function sortedKeys(nodes: readonly GrantNode[], keys: Iterable<string>): string[] {
  const order = treeOrder(nodes);
  return [...new Set(keys)].filter((k) => order.has(k)).sort((a, b) => order.get(a)! - order.get(b)!);
}

/** The ids of a tree's nodes, by category: 1 menus, 2 buttons. */
export function countByCategory(nodes: readonly GrantNode[], ids: Iterable<string>): { menus: number; buttons: number } {
  const category = new Map<string, number | undefined>();
  const walk = (list: readonly GrantNode[]) => {
    for (const n of list) {
      category.set(n.id, n.category);
      if (n.children) walk(n.children);
    }
  };
  walk(nodes);
  let menus = 0;
  let buttons = 0;
  for (const id of new Set(ids)) {
    if (!category.has(id)) continue;
    if (category.get(id) === 2) buttons += 1;
    else menus += 1;
  }
  return { menus, buttons };
}
