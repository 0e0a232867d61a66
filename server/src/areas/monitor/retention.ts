import { PLATFORM_TENANT } from '@console/contract';
import { and, eq, getTableName, sql } from 'drizzle-orm';
import type { Db } from '../../core/db/index.js';
import { inTenant, rowsAffected, schema } from '../../core/db/index.js';
import { maintainTimePartitions, type PartitionUpkeep, type TimePartitionedTable } from '../../core/db/partitions/maintain.js';
import { param } from '../system/index.js';

/** The parameter (blade_param) holding how many days logs are kept; 0 or less keeps them forever. */
export const LOG_RETENTION_PARAM = 'log.retentionDays';
export const DEFAULT_RETENTION_DAYS = 90;
/** Rows one purge statement deletes: short statements, so the purge never holds the database for long. */
export const PURGE_BATCH = 5000;

const LOG_TABLES = [schema.logUsual, schema.logApi, schema.logError] as const;

/** the logs, partitioned by month of create_time (migration 0036) */
export const LOG_PARTITIONS: readonly TimePartitionedTable[] = LOG_TABLES.map((t) => ({ table: getTableName(t), key: t.createTime.name }));

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
  /** rows deleted one by one, by table: those of the partition holding the cutoff and of the default partition */
  deleted: Record<string, number>;
  /** what the partitions' maintenance did (months made ahead, months past the retention dropped whole) */
  partitions: PartitionUpkeep[];
}

/**
 * Keeps the logs to the retention: the months wholly older than it dropped with their partitions and the next
 * months made (core/db/partitions), then the older rows left (in the month holding the cutoff, and strays in the
 * default partition) deleted oldest first, in batches of `batch` rows, each its own short transaction, until none is
 * left. The partitions are maintained with no retention too.
 */
export async function purgeLogs(db: Db, opts: { now?: Date; batch?: number; usePartman?: boolean } = {}): Promise<PurgeResult> {
  const days = await retentionDays(db);
  const now = opts.now ?? new Date();
  const partitions = await maintainTimePartitions(db, LOG_PARTITIONS, { retentionDays: days, now, usePartman: opts.usePartman });
  const deleted: Record<string, number> = {};
  if (days === null) return { cutoff: null, deleted, partitions };
  const cutoff = new Date(now.getTime() - days * 86_400_000);
  const batch = opts.batch ?? PURGE_BATCH;
  for (const table of LOG_TABLES) {
    let total = 0;
    const older = sql`${table.createTime} < ${cutoff}`;
    for (;;) {
      // the key with the time, so each side reads only the partitions that may hold rows older than the cutoff
      const res = await inTenant(db, { tenantId: PLATFORM_TENANT, allTenants: true, timeoutMs: 60_000 }, (tx) => tx.execute(sql`
        delete from ${table} where ${older} and (id, ${table.createTime}) in (
          select id, ${table.createTime} from ${table} where ${older} order by ${table.createTime} limit ${batch}
        )`));
      const n = rowsAffected(res);
      total += n;
      if (n < batch) break;
    }
    deleted[getTableName(table)] = total;
  }
  return { cutoff, deleted, partitions };
}

interface PurgeLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** What a purge changed, for the server's log: partitions made or dropped, rows deleted, a table's maintenance failed. */
export function reportPurge(log: PurgeLog, result: PurgeResult): void {
  for (const p of result.partitions) {
    if (p.error) log.warn({ table: p.table, manager: p.manager, err: p.error }, 'log partition maintenance failed; tried again at the next purge');
    else if (p.created.length || p.dropped.length || p.filed) log.info({ table: p.table, manager: p.manager, created: p.created, dropped: p.dropped, filed: p.filed }, 'log partitions maintained');
  }
  const deleted = Object.entries(result.deleted).filter(([, n]) => n > 0);
  if (deleted.length) log.info({ cutoff: result.cutoff, deleted: Object.fromEntries(deleted) }, 'log rows past the retention deleted');
}
