import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../index.js';

export async function rowsOf<T>(ex: Executor, query: SQL): Promise<T[]> {
  return ((await ex.execute(query)) as unknown as { rows: T[] }).rows;
}

export interface RangePartition {
  name: string;
  from: Date;
  to: Date;
}

export interface Partitions {
  ranges: RangePartition[];
  /** the default partition's name, if the table has one */
  defaultName: string | null;
}

/** the partitions of `table` with their bounds (read back from the catalog's text of each bound), oldest first */
export async function partitionsOf(ex: Executor, table: string): Promise<Partitions> {
  const rows = await rowsOf<{ name: string; bound: string; from: Date | string | null; to: Date | string | null }>(ex, sql`
    select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound,
      (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM \\(''([^'']+)''\\)'))[1]::timestamptz as "from",
      (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'TO \\(''([^'']+)''\\)'))[1]::timestamptz as "to"
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = ${table}::regclass`);
  const ranges = rows
    .filter((r) => r.from !== null && r.to !== null)
    .map((r) => ({ name: r.name, from: new Date(r.from!), to: new Date(r.to!) }))
    .sort((a, b) => a.from.getTime() - b.from.getTime());
  return { ranges, defaultName: rows.find((r) => r.bound === 'DEFAULT')?.name ?? null };
}

/** whether `table` is a partitioned table (false for a plain one, or none) */
export async function isPartitioned(ex: Executor, table: string): Promise<boolean> {
  const [row] = await rowsOf<{ yes: boolean }>(ex, sql`
    select exists (select 1 from pg_partitioned_table p join pg_class c on c.oid = p.partrelid
      join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relname = ${table}) as yes`);
  return row?.yes === true;
}

/** the columns an insert writes (all but the generated ones: the search grams are computed again), quoted */
export async function insertableColumns(ex: Executor, table: string): Promise<SQL> {
  const rows = await rowsOf<{ name: string }>(ex, sql`
    select attname as name from pg_attribute
    where attrelid = ${table}::regclass and attnum > 0 and not attisdropped and attgenerated = '' order by attnum`);
  return sql.join(rows.map((r) => sql.identifier(r.name)), sql`, `);
}
