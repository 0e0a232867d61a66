/** Trees the server answers, as the lists beside them and the grant dialogs show them. */

/** A node of a tree the server answers (`menu/grant-tree`, `dept/tree`, `role/tree`). */
export interface TreeItem {
  id: string;
  title: string;
  children?: TreeItem[];
}

/** All ids of a tree, depth first. */
export function allIds(nodes: readonly TreeItem[]): string[] {
  return nodes.flatMap((n) => [n.id, ...allIds(n.children ?? [])]);
}

/**
 * The nodes whose title contains `query` (case-insensitive), with their ancestors (to reach them) and
 * their subtrees; the whole tree for a blank query.
 */
export function filterTree<T extends TreeItem>(nodes: readonly T[], query: string): T[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...nodes];
  const out: T[] = [];
  for (const n of nodes) {
    if (n.title.toLowerCase().includes(q)) {
      out.push(n);
      continue;
    }
    const kept = filterTree((n.children ?? []) as T[], q);
    if (kept.length) out.push({ ...n, children: kept });
  }
  return out;
}
