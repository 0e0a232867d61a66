import type { Lang, MenuRoute } from '@console/contract';
import { embeddableUrl, IFRAME_ROUTE, iframeRoute } from '../pages/iframe/embedUrl';

/** A menu node's name in the UI language. */
export function menuLabel(node: MenuRoute, lang: Lang): string {
  return node.i18n?.[lang] || node.name;
}

/** Menu option 2 opens the entry in a new window. */
export function opensNewWindow(node: MenuRoute): boolean {
  return node.isOpen === 2;
}

/**
 * Where choosing a menu entry leads: option 2 opens its path in a new window; an entry whose path is
 * an http(s) URL shows it inside the console (/myiframe); any other path is a console route.
 */
export type MenuTarget = { kind: 'window'; url: string } | { kind: 'route'; to: string };

export function menuTarget(node: MenuRoute): MenuTarget {
  if (opensNewWindow(node)) return { kind: 'window', url: node.path };
  const url = embeddableUrl(node.path);
  return { kind: 'route', to: url ? iframeRoute(node.code || node.id, url) : node.path };
}

/** The node with this code anywhere in the tree. */
export function menuByCode(tree: readonly MenuRoute[], code: string): MenuRoute | undefined {
  for (const node of tree) {
    if (node.code === code) return node;
    const below = menuByCode(node.children ?? [], code);
    if (below) return below;
  }
  return undefined;
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

/** The menu entry an embedded page (`/myiframe/<menu code>`) shows, if the path is one and the code is known. */
export function embeddedMenuEntry(tree: readonly MenuRoute[], pathname: string): MenuRoute | undefined {
  const prefix = `${IFRAME_ROUTE}/`;
  if (!pathname.startsWith(prefix)) return undefined;
  try {
    return menuByCode(tree, decodeURIComponent(pathname.slice(prefix.length)));
  } catch {
    return undefined;
  }
}

/** The menu key (a node's path) of the page on screen; an embedded page marks the menu entry it embeds. */
export function menuKeyOf(tree: readonly MenuRoute[], pathname: string): string {
  return embeddedMenuEntry(tree, pathname)?.path || pathname;
}
