import type { Lang, MenuRoute } from '@console/contract';
import { menuLabel, opensNewWindow, sidebarTree, sortedChildren } from '../menuTree';

/** A page the menu search can open. */
export interface MenuEntry {
  path: string;
  /** the name in the UI language */
  label: string;
  /** the parents' names, outermost first */
  trail: string[];
  /** every name the entry answers to (both languages) */
  names: string[];
  newWindow: boolean;
}

/** The menu's pages (leaves with a path) in sidebar order, after the home entry. */
export function menuEntries(tree: readonly MenuRoute[], lang: Lang, home: { path: string; label: string; names: string[] }): MenuEntry[] {
  const out: MenuEntry[] = [{ path: home.path, label: home.label, trail: [], names: home.names, newWindow: false }];
  const walk = (nodes: MenuRoute[], trail: string[]) => {
    for (const node of nodes) {
      const children = sortedChildren(node);
      const label = menuLabel(node, lang);
      if (children.length > 0) walk(children, [...trail, label]);
      else if (node.path) {
        const names = [...new Set([label, node.name, ...Object.values(node.i18n ?? {})].filter(Boolean))];
        out.push({ path: node.path, label, trail, names, newWindow: opensNewWindow(node) });
      }
    }
  };
  walk(sidebarTree(tree), []);
  return out;
}

/**
 * Entries matching the query (case-insensitive, any name or the path), best first: a name starting
 * with the query, then a name containing it, then the path or a parent's name containing it.
 * Whitespace-separated words must all match. An empty query lists everything.
 */
export function searchMenu(entries: readonly MenuEntry[], query: string): MenuEntry[] {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...entries];
  const scored: Array<{ entry: MenuEntry; score: number; index: number }> = [];
  entries.forEach((entry, index) => {
    const names = entry.names.map((n) => n.toLowerCase());
    const haystacks = [...names, entry.path.toLowerCase(), ...entry.trail.map((n) => n.toLowerCase())];
    if (!words.every((w) => haystacks.some((h) => h.includes(w)))) return;
    const first = words[0] ?? '';
    const score = names.some((n) => n.startsWith(first)) ? 0 : names.some((n) => n.includes(first)) ? 1 : 2;
    scored.push({ entry, score, index });
  });
  return scored.sort((a, b) => a.score - b.score || a.index - b.index).map((s) => s.entry);
}
