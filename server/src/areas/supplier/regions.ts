import { REGION_PATH_PATTERN } from '@console/contract/areas/supplier/index';
import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../core/db/index.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { region } from '../system/index.js';

/** Whether `path` walks down the region tree: its first code a province, each next a child of the one before. */
export async function isRegionPath(tx: Executor, path: string): Promise<boolean> {
  return (await regionPaths(tx, [path])).has(path);
}

/** Which of `paths` walk down the region tree (`isRegionPath` for many, in one statement). */
export async function regionPaths(tx: Executor, paths: readonly string[]): Promise<Set<string>> {
  const shaped = [...new Set(paths)].filter((p) => REGION_PATH_PATTERN.test(p));
  const codes = [...new Set(shaped.flatMap((p) => p.split(',')))];
  if (codes.length === 0) return new Set();
  const rows = await tx.select({ id: region.id, parentId: region.parentId }).from(region).where(and(inArray(region.id, codes), eq(region.isDeleted, 0)));
  const parentOf = new Map(rows.map((r) => [String(r.id), String(r.parentId)]));
  return new Set(shaped.filter((p) => p.split(',').every((code, i, all) => parentOf.get(code) === (i === 0 ? '0' : all[i - 1]))));
}

/** A region path as saved: codes trimmed, blanks dropped. */
export const normalPath = (v: unknown): string => String(v ?? '').split(',').map((p) => p.trim()).filter(Boolean).join(',');

/** The path of the region tree down to `code` (its ancestors, then itself), or undefined for no region. */
export async function pathOf(tx: Executor, code: string): Promise<string | undefined> {
  const [row] = await tx.select({ ancestors: region.ancestors }).from(region).where(and(eq(region.id, code), eq(region.isDeleted, 0)));
  if (!row) return undefined;
  return [...row.ancestors.split(',').filter((c) => c !== '' && c !== '0'), code].join(',');
}

/**
 * `code=`: the region chosen in the search form, as the console sends it (a path, or a code): its last code names
 * the region, and the rows of that region and of every region under it match (a prefix of the stored path).
 */
export const regionParam = (column: AnyPgColumn) => async (tx: Executor, _user: unknown, value: string): Promise<SQL> => {
  const last = value.split(',').map((c) => c.trim()).filter(Boolean).at(-1) ?? '';
  const path = /^\d{6,12}$/.test(last) ? await pathOf(tx, last) : undefined;
  if (!path) return sql`false`;
  return or(eq(column, path), sql`${column} COLLATE "C" like ${`${path},%`}`)!;
};

const codesOf = (v: unknown) => String(v ?? '').split(',').filter(Boolean);

/**
 * The names of each row's region paths, 浙江省 / 杭州市 / 西湖区, one name field per path field (`{ code: 'codeName' }`);
 * a code the tree lacks is shown as it is.
 */
export async function showRegionNames(tx: Executor, rows: Array<Record<string, unknown>>, names: Record<string, string>): Promise<void> {
  const fields = Object.keys(names);
  // a code is digits (a region's id); anything else is shown as it is
  const codes = [...new Set(rows.flatMap((r) => fields.flatMap((f) => codesOf(r[f]))))].filter((c) => /^\d{1,18}$/.test(c));
  const named = codes.length ? await tx.select({ id: region.id, name: region.name }).from(region).where(inArray(region.id, codes)) : [];
  const nameOf = new Map(named.map((r) => [String(r.id), r.name]));
  for (const row of rows) for (const f of fields) row[names[f]!] = codesOf(row[f]).map((c) => nameOf.get(c) ?? c).join(' / ');
}

/** `showRegionNames`'s name of a path column, as SQL (an export presented by PostgreSQL); null for no code */
function regionNamesSql(path: AnyPgColumn): SQL {
  return sql`(select string_agg(coalesce(r.${sql.identifier(region.name.name)}, u.code), ' / ' order by u.ord)
    from unnest(string_to_array(${path}, ',')) with ordinality u(code, ord)
    left join ${region} r on r.${sql.identifier(region.id.name)} = (case when u.code ~ '^[0-9]{1,18}$' then u.code::bigint end)
    where u.code <> '')`;
}

/**
 * The hooks of a resource whose region paths are shown by name: `{ code: ['codeName', table.code] }` (the path field,
 * the name field it fills, the path's column), in code (`shown`) and as SQL for its exports (`shownSql`).
 */
export function regionNameHooks(paths: Record<string, readonly [name: string, column: AnyPgColumn]>): Pick<ResourceHooks, 'shown' | 'shownReads' | 'shownSql'> {
  const names = Object.fromEntries(Object.entries(paths).map(([field, [name]]) => [field, name]));
  return {
    shown: (tx, rows) => showRegionNames(tx, rows, names),
    shownReads: Object.keys(paths),
    shownSql: Object.fromEntries(Object.values(paths).map(([name, column]) => [name, regionNamesSql(column)])),
  };
}

