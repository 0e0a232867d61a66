import { asc, type SQL } from 'drizzle-orm';
import type { AuthUser } from '../../context.js';
import type { Executor } from '../../db/index.js';
import { visible } from '../mount/access.js';
import type { ResourceMount } from '../mount/resourceMount.js';

type Row = Record<string, unknown>;

/** a tree's default order: its `sort` column (where it has one), then id */
export function treeOrder(m: ResourceMount): SQL[] {
  const sort = m.columns.sort;
  return sort ? [asc(sort), asc(m.col('id'))] : [asc(m.col('id'))];
}

/** sets `hasChildren` on each row of a tree resource (one statement) */
export async function markParents(m: ResourceMount, tx: Executor, user: AuthUser, rows: Row[]): Promise<void> {
  const parents = await m.tree!.withChildren(tx, visible(m, user), rows.map((r) => String(r.id)));
  for (const r of rows) r.hasChildren = parents.has(String(r.id));
}
