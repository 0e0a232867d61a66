import { and, getTableName, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/index.js';
import type { Filters } from './filters.js';

export interface CountLimits {
  /** totals up to this many rows are counted exactly; above it they are estimated */
  exact: number;
  /** a substring filter whose matches are at most this many is answered from the grams or trigram index */
  textMatch: number;
}

export interface ListScope {
  /** the WHERE condition of the list, possibly narrowed to the ids of a text match */
  where: SQL | undefined;
  total: number;
  /** false when total is the planner's estimate (the list has more rows than the exact limit) */
  exact: boolean;
}

/** A node of `explain (format json)`'s plan. */
export type PlanNode = { 'Node Type'?: string; 'Plan Rows'?: number; Plans?: PlanNode[] };

/** The top node of an `explain (format json)`, which the driver answers as JSON text or parsed JSON. */
export function planOf(result: unknown): PlanNode | undefined {
  const rows = (result as { rows?: Array<Record<string, unknown>> }).rows ?? [];
  const raw = rows[0]?.['QUERY PLAN'];
  return ((typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{ Plan?: PlanNode }> | undefined)?.[0]?.Plan;
}

/** Reads the planner's row estimate. */
function planRows(result: unknown): number {
  return Math.round(planOf(result)?.['Plan Rows'] ?? 0);
}

/**
 * Counts a list without scanning millions of rows. Exact totals come from a count bounded at
 * `limits.exact + 1`; beyond that the total is PostgreSQL's estimate (never below the bound) and marked
 * inexact. A substring filter on tenant data first asks app_text_match (grams or trigram index, see
 * migrations 0003 and 0009) for the matching ids: when they are at most `limits.textMatch`, the list is narrowed to exactly
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
): Promise<ListScope> {
  const conditions = [...base, ...filters.conditions];
  const match = useTextMatch ? filters.textMatches[0] : undefined;
  if (match) {
    const ids = ((await tx.execute(sql`select app_text_match(${getTableName(table)}::regclass, ${match.column.name}, ${match.pattern}, ${limits.textMatch + 1}) as id`)) as unknown as { rows: Array<{ id: string | number | bigint }> })
      .rows.map((r) => String(r.id));
    if (ids.length <= limits.textMatch) {
      if (ids.length === 0) return { where: sql`false`, total: 0, exact: true };
      const narrowed = [...conditions];
      narrowed[base.length + match.index] = inArray(idColumn, ids);
      const where = and(...narrowed);
      const [row] = await tx.select({ n: sql<number>`count(*)` }).from(table).where(where);
      return { where, total: Number(row?.n ?? 0), exact: true };
    }
    // More matches than the limit: counting them would scan the tenant's rows, so estimate at once. With
    // the substring as the only filter, the owner-side estimate sees the grams' or the titles' statistics.
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
