import type { Query } from '../api/client';

/** A row of a tree resource's table: its own fields, whether it has children, and those loaded so far. */
export interface TreeRow {
  id: string;
  hasChildren?: boolean;
  children?: TreeRow[];
}

/** The list query's keys that are not filters. */
const NOT_FILTERS = new Set(['current', 'size', 'ascs', 'descs']);

/** Whether a list query searches (has a filter): a lazy tree then searches every level at once. */
export function isSearching(query: Query): boolean {
  return Object.keys(query).some((key) => !NOT_FILTERS.has(key));
}

/** The query without paging: the unpaged tree calls take the filters and the order only. */
export function withoutPaging(query: Query): Query {
  const { current: _current, size: _size, ...rest } = query;
  return rest;
}

/**
 * Rows of a lazily loaded level: a row with children gets an empty `children` list (the table shows its
 * expand icon; the children load when it opens); a row without has none.
 */
export function withPlaceholders<R extends TreeRow>(rows: readonly R[]): R[] {
  return rows.map((row) => {
    const { children: _children, ...own } = row;
    return (row.hasChildren ? { ...own, children: [] } : own) as R;
  });
}

/** Whether the row's children are still to be loaded (an empty placeholder list). */
export function childrenPending(row: TreeRow): boolean {
  return row.hasChildren === true && Array.isArray(row.children) && row.children.length === 0;
}

/** The rows with `children` put under the row `parentId`, wherever it sits (a new array; the rest is shared). */
export function insertChildren<R extends TreeRow>(rows: readonly R[], parentId: string, children: readonly R[]): R[] {
  let found = false;
  const walk = (level: readonly R[]): R[] =>
    level.map((row) => {
      if (found) return row;
      if (row.id === parentId) {
        found = true;
        return { ...row, children: [...children], hasChildren: children.length > 0 };
      }
      return row.children?.length ? { ...row, children: walk(row.children as R[]) } : row;
    });
  return walk(rows);
}

/** The ids of the rows that have children among `rows` (one level): the unpaged tree opens its first level. */
export function parentIds(rows: readonly TreeRow[]): string[] {
  return rows.filter((row) => (row.children?.length ?? 0) > 0).map((row) => row.id);
}

/** Every row id of a nested list. */
export function treeIds(rows: readonly TreeRow[], into: Set<string> = new Set()): Set<string> {
  for (const row of rows) {
    into.add(row.id);
    if (row.children) treeIds(row.children, into);
  }
  return into;
}

/**
 * Reloads the children of the open rows (after an add, edit or delete the tree keeps what was open):
 * level by level, the open rows' children in parallel; a row whose load fails stays closed.
 */
export async function reopen<R extends TreeRow>(rows: R[], open: ReadonlySet<string>, load: (parentId: string) => Promise<R[]>): Promise<R[]> {
  const level = await Promise.all(
    rows.map(async (row) => {
      if (!open.has(row.id) || !row.hasChildren) return row;
      try {
        const children = await reopen(withPlaceholders(await load(row.id)), open, load);
        return { ...row, children, hasChildren: children.length > 0 };
      } catch {
        return row;
      }
    }),
  );
  return level;
}
