import { PLATFORM_TENANT } from '@console/contract';
import { and, eq, getTableName, sql } from 'drizzle-orm';
import type { Db } from '../../core/db/index.js';
import { inTenant, rowsAffected, schema } from '../../core/db/index.js';
import { param } from '../system/index.js';

/** The parameter (blade_param) holding how many days logs are kept; 0 or less keeps them forever. */
export const LOG_RETENTION_PARAM = 'log.retentionDays';
export const DEFAULT_RETENTION_DAYS = 90;
/** Rows one purge statement deletes: short statements, so the purge never holds the database for long. */
export const PURGE_BATCH = 5000;

const LOG_TABLES = [schema.logUsual, schema.logApi, schema.logError] as const;

/** The retention in days from the parameter (the default when absent or unreadable; null: keep forever). */
export async function retentionDays(db: Db): Promise<number | null> {
  const [row] = await db.select({ value: param.paramValue }).from(param)
    .where(and(eq(param.paramKey, LOG_RETENTION_PARAM), eq(param.isDeleted, 0))).limit(1);
  if (!row) return DEFAULT_RETENTION_DAYS;
  const days = Number(row.value.trim());
  if (!Number.isFinite(days)) return DEFAULT_RETENTION_DAYS;
  return days > 0 ? days : null;
}

export interface PurgeResult {
  cutoff: Date | null;
  deleted: Record<string, number>;
}

/**
 * Deletes the log rows (every tenant's) older than the retention, oldest first, in batches of `batch`
 * rows, each its own short transaction (found through the create_time index), until none is left.
 */
export async function purgeLogs(db: Db, opts: { now?: Date; batch?: number } = {}): Promise<PurgeResult> {
  const days = await retentionDays(db);
  const deleted: Record<string, number> = {};
  if (days === null) return { cutoff: null, deleted };
  const cutoff = new Date((opts.now ?? new Date()).getTime() - days * 86_400_000);
  const batch = opts.batch ?? PURGE_BATCH;
  for (const table of LOG_TABLES) {
    let total = 0;
    for (;;) {
      const res = await inTenant(db, { tenantId: PLATFORM_TENANT, allTenants: true, timeoutMs: 60_000 }, (tx) => tx.execute(sql`
        delete from ${table} where id in (
          select id from ${table} where ${table.createTime} < ${cutoff} order by ${table.createTime} limit ${batch}
        )`));
      const n = rowsAffected(res);
      total += n;
      if (n < batch) break;
    }
    deleted[getTableName(table)] = total;
  }
  return { cutoff, deleted };
}
