import { and, getTableName, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/index.js';
import type { Filters, TextMatch } from './filters.js';

export interface CountLimits {
  /** totals up to this many rows are counted exactly; above it they are estimated */
  exact: number;
  /** a substring filter whose matches are at most this many is answered from the trigram index */
  textMatch: number;
}

export interface ListScope {
  /** the WHERE condition of the list, possibly narrowed to the ids of a text match */
  where: SQL | undefined;
  total: number;
  /** false when total is the planner's estimate (the list has more rows than the exact limit) */
  exact: boolean;
}

/** Reads the planner's row estimate, which the driver answers as JSON text or parsed JSON. */
function planRows(result: unknown): number {
  const rows = (result as { rows?: Array<Record<string, unknown>> }).rows ?? [];
  const raw = rows[0]?.['QUERY PLAN'];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{ Plan?: { 'Plan Rows'?: number } }> | undefined;
  return Math.round(plan?.[0]?.Plan?.['Plan Rows'] ?? 0);
}

/**
 * Counts a list without scanning millions of rows. Exact totals come from a count bounded at
 * `limits.exact + 1`; beyond that the total is PostgreSQL's estimate (never below the bound) and marked
 * inexact. A substring filter on tenant data first asks app_text_match (trigram index, see migration
 * 0003) for the matching ids: when they are at most `limits.textMatch`, the list is narrowed to exactly
 * those ids and counted exactly; when there are more, the total is estimated.
 */
export async function scopeList(
  tx: Executor,
  table: PgTable,
  idColumn: PgColumn,
  base: SQL[],
  filters: Filters,
  limits: CountLimits,
  useTextMatch: boolean,
  /** the ids of the first text match, already found by scanTextMatch (or 'many': more than the limit) */
  preMatched?: string[] | 'many',
): Promise<ListScope> {
  const conditions = [...base, ...filters.conditions];
  const match = useTextMatch ? filters.textMatches[0] : undefined;
  if (match) {
    const ids = preMatched === 'many'
      ? null
      : preMatched ?? ((await tx.execute(sql`select app_text_match(${getTableName(table)}::regclass, ${match.column.name}, ${match.pattern}, ${limits.textMatch + 1}) as id`)) as unknown as { rows: Array<{ id: string | number | bigint }> })
        .rows.map((r) => String(r.id));
    if (ids !== null && ids.length <= limits.textMatch) {
      if (ids.length === 0) return { where: sql`false`, total: 0, exact: true };
      const narrowed = [...conditions];
      narrowed[base.length + match.index] = inArray(idColumn, ids);
      const where = and(...narrowed);
      const [row] = await tx.select({ n: sql<number>`count(*)` }).from(table).where(where);
      return { where, total: Number(row?.n ?? 0), exact: true };
    }
    // More matches than the limit: counting them would scan the tenant's rows, so estimate at once. With
    // the substring as the only filter, the owner-side estimate sees the trigram statistics.
    const where = and(...conditions);
    const guess = filters.conditions.length === 1
      ? await textMatchEstimate(tx, table, match.column, match.pattern)
      : await estimate(tx, table, where);
    return { where, total: Math.max(guess, limits.textMatch + 1), exact: false };
  }
  const where = and(...conditions);
  const bounded = await tx.execute(sql`select count(*) as n from (select 1 from ${table} where ${where ?? sql`true`} limit ${limits.exact + 1}) s`);
  const n = Number((bounded as unknown as { rows: Array<{ n: string | number }> }).rows[0]?.n ?? 0);
  if (n <= limits.exact) return { where, total: n, exact: true };
  return { where, total: Math.max(await estimate(tx, table, where), limits.exact + 1), exact: false };
}

async function textMatchEstimate(tx: Executor, table: PgTable, column: PgColumn, pattern: string): Promise<number> {
  const res = await tx.execute(sql`select app_text_match_estimate(${getTableName(table)}::regclass, ${column.name}, ${pattern}) as n`);
  return Number((res as unknown as { rows: Array<{ n: string | number }> }).rows[0]?.n ?? 0);
}

async function estimate(tx: Executor, table: PgTable, where: SQL | undefined): Promise<number> {
  return planRows(await tx.execute(sql`explain (format json) select 1 from ${table} where ${where ?? sql`true`}`));
}

/** Rows one chunk of a scan reads: it adapts so a chunk takes about CHUNK_TARGET_MS. */
const FIRST_CHUNK = 10_000;
const MAX_CHUNK = 200_000;
const CHUNK_TARGET_MS = 20;

export interface ScanChunkRunner {
  /** runs one chunk's statement in a transaction of its own (so others run between chunks) */
  <T>(fn: (tx: Executor) => Promise<T>): Promise<T>;
}

/**
 * Finds the rows of a tenant matching a substring no index can serve (under 3 characters: no trigram),
 * without one long statement: the tenant's live rows are read newest first through the list index
 * (tenant_id, create_time DESC, id DESC) in chunks of ~20 ms, each its own transaction, so other requests
 * run between them (PGlite is one connection; on PostgreSQL the connection goes back to the pool).
 * Answers the matching ids (at most `limits.textMatch`), 'many' as soon as there are more (the list then
 * walks its order and estimates), or throws `tooBroad` once `budgetMs` is spent.
 */
export async function scanTextMatch(
  runChunk: ScanChunkRunner,
  table: PgTable,
  /** isDeleted: absent for an append-only table (every row is live) */
  columns: { id: PgColumn; createTime: PgColumn; tenantId: PgColumn; isDeleted?: PgColumn },
  tenantId: string,
  match: TextMatch,
  limits: CountLimits,
  budgetMs: number,
  tooBroad: () => Error,
): Promise<string[] | 'many'> {
  const started = performance.now();
  const found: string[] = [];
  let after: { time: unknown; id: string } | null = null;
  let chunk = FIRST_CHUNK;
  for (;;) {
    const from: SQL = after ? sql`and (${columns.createTime}, ${columns.id}) < (${after.time}::timestamptz, ${after.id}::bigint)` : sql``;
    const t0 = performance.now();
    const res: unknown = await runChunk<unknown>((tx) => tx.execute(sql`
      with c as (
        select ${columns.id} as id, ${columns.createTime} as t, ${match.column} as v from ${table}
        where ${columns.tenantId} = ${tenantId} ${columns.isDeleted ? sql`and ${columns.isDeleted} = 0` : sql``} ${from}
        order by ${columns.createTime} desc, ${columns.id} desc limit ${chunk}
      )
      select id, t, true as hit, null::bigint as n from c where v ilike ${match.pattern}
      union all (select id, t, false, (select count(*) from c) from c order by t, id limit 1)`));
    type ChunkRow = { id: string | number | bigint; t: unknown; hit: boolean; n: string | number | null };
    const rows = (res as { rows: ChunkRow[] }).rows;
    const last: ChunkRow | undefined = rows.find((r) => !r.hit);
    for (const r of rows) if (r.hit) found.push(String(r.id));
    if (found.length > limits.textMatch) return 'many';
    if (!last || Number(last.n) < chunk) return found;
    after = { time: last.t, id: String(last.id) };
    const spent = performance.now() - t0;
    chunk = Math.min(MAX_CHUNK, Math.max(1000, Math.round(chunk * Math.min(4, Math.max(0.25, CHUNK_TARGET_MS / Math.max(spent, 1))))));
    if (budgetMs > 0 && performance.now() - started > budgetMs) throw tooBroad();
  }
}
