import type { Lang, MenuRoute } from '@console/contract';

/** A menu node's name in the UI language. */
export function menuLabel(node: MenuRoute, lang: Lang): string {
  return node.i18n?.[lang] || node.name;
}

/** Menu option 2 opens the entry in a new window. */
export function opensNewWindow(node: MenuRoute): boolean {
  return node.isOpen === 2;
}

/** The chain of nodes from a root to the node with this path, or [] when no node has it. */
export function menuTrail(tree: readonly MenuRoute[], path: string): MenuRoute[] {
  for (const node of tree) {
    if (node.path === path) return [node];
    const below = menuTrail(node.children ?? [], path);
    if (below.length > 0) return [node, ...below];
  }
  return [];
}

function bySort(a: MenuRoute, b: MenuRoute): number {
  return a.sort - b.sort;
}

/** The tree the sidebar shows: sorted, and the production root only when it is the first entry (spec 2). */
export function sidebarTree(tree: readonly MenuRoute[]): MenuRoute[] {
  const sorted = [...tree].sort(bySort);
  return sorted.filter((node, i) => node.path !== '/production' || i === 0);
}

export function sortedChildren(node: MenuRoute): MenuRoute[] {
  return [...(node.children ?? [])].sort(bySort);
}
