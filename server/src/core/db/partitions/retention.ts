import { PLATFORM_TENANT } from '@console/contract';
import { getTableName, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { type Db, inTenant, rowsAffected } from '../index.js';
import { maintainTimePartitions, type PartitionUpkeep, partmanAbsence } from './maintain.js';

/** A table partitioned by month of `key` (a timestamptz column), its rows kept for its group's retention. */
export interface RetainedTable {
  table: PgTable;
  key: PgColumn;
}

/**
 * Append-only tables an area keeps for a number of days (`AreaManifest.retention`): their month partitions made
 * ahead and dropped past the retention, and the rows older than it deleted, every hour on every instance.
 */
export interface RetentionGroup {
  /** for the server's log */
  name: string;
  tables: readonly RetainedTable[];
  /** how many days rows are kept; null: forever */
  days(db: Db): Promise<number | null>;
  /**
   * Removes first, with what they hold elsewhere (stored files), the rows older than the cutoff that hold
   * something; answers the rows deleted by table. When it throws, the group's rows wait for the next upkeep, so no row is dropped
   * with its partition before what it holds is gone.
   */
  removeHolders?(db: Db, cutoff: Date): Promise<Record<string, number>>;
  /** what else the group keeps short (rows deleted by table), after its tables; `now` is the upkeep's time */
  trim?(db: Db, now: Date): Promise<Record<string, number>>;
}

/** Rows one purge statement deletes: short statements, so the purge never holds the database for long. */
export const PURGE_BATCH = 5000;

export interface PurgeResult {
  group: string;
  cutoff: Date | null;
  /** rows deleted one by one, by table: those of the partition holding the cutoff and of the default partition */
  deleted: Record<string, number>;
  /** what the partitions' maintenance did (months made ahead, months past the retention dropped whole) */
  partitions: PartitionUpkeep[];
}

export interface PurgeOptions {
  now?: Date;
  batch?: number;
  usePartman?: boolean;
}

/**
 * Keeps a group to its retention: the rows holding something removed first (`removeHolders`), then the months
 * wholly older than the retention dropped with their partitions and the next months made (core/db/partitions), then
 * the older rows left (in the month holding the cutoff, and strays in the default partition) deleted oldest first,
 * in batches of `batch` rows, each its own short transaction, until none is left. The partitions are maintained
 * with no retention too.
 */
export async function purgeRetained(db: Db, group: RetentionGroup, opts: PurgeOptions = {}): Promise<PurgeResult> {
  const days = await group.days(db);
  const now = opts.now ?? new Date();
  const cutoff = days === null ? null : new Date(now.getTime() - days * 86_400_000);
  const deleted: Record<string, number> = {};
  const count = (counts: Record<string, number>) => {
    for (const [table, n] of Object.entries(counts)) deleted[table] = (deleted[table] ?? 0) + n;
  };
  if (cutoff && group.removeHolders) count(await group.removeHolders(db, cutoff));
  const tables = group.tables.map((t) => ({ table: getTableName(t.table), key: t.key.name }));
  const partitions = await maintainTimePartitions(db, tables, { retentionDays: days, now, usePartman: opts.usePartman });
  if (cutoff) {
    const batch = opts.batch ?? PURGE_BATCH;
    for (const { table, key } of group.tables) {
      let total = 0;
      const older = sql`${key} < ${cutoff}`;
      for (;;) {
        // the key with the time, so each side reads only the partitions that may hold rows older than the cutoff
        const res = await inTenant(db, { tenantId: PLATFORM_TENANT, allTenants: true, timeoutMs: 60_000 }, (tx) => tx.execute(sql`
          delete from ${table} where ${older} and (id, ${key}) in (select id, ${key} from ${table} where ${older} order by ${key} limit ${batch})`));
        const n = rowsAffected(res);
        total += n;
        if (n < batch) break;
      }
      count({ [getTableName(table)]: total });
    }
  }
  if (group.trim) count(await group.trim(db, now));
  return { group: group.name, cutoff, deleted, partitions };
}

export interface RetentionLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** What a purge changed, for the server's log: partitions made or dropped, rows deleted, a table's maintenance failed. */
export function reportPurge(log: RetentionLog, result: PurgeResult): void {
  for (const p of result.partitions) {
    if (p.error) log.warn({ table: p.table, manager: p.manager, err: p.error }, 'partition maintenance failed; tried again at the next purge');
    else if (p.created.length || p.dropped.length || p.filed) log.info({ table: p.table, manager: p.manager, created: p.created, dropped: p.dropped, filed: p.filed }, 'partitions maintained');
  }
  const deleted = Object.entries(result.deleted).filter(([, n]) => n > 0);
  if (deleted.length) log.info({ group: result.group, cutoff: result.cutoff, deleted: Object.fromEntries(deleted) }, 'rows past the retention deleted');
}

const PURGE_EVERY_MS = 60 * 60 * 1000;
const FIRST_PURGE_MS = 10_000;

/**
 * Runs every group's purge 10 s after start and then hourly, one group after another (a failed group is logged and
 * tried again an hour later). Every instance runs it: each table's partitions are maintained under an advisory lock
 * another instance finds taken, and deleting rows already deleted does nothing.
 */
export class RetentionSchedule {
  private running: Promise<unknown> = Promise.resolve();
  private closed = false;
  private managerTold = false;
  private first?: NodeJS.Timeout;
  private every?: NodeJS.Timeout;

  constructor(private readonly db: Db, private readonly groups: readonly RetentionGroup[], private readonly log: RetentionLog) {}

  start(): void {
    if (this.groups.length === 0) return;
    this.first = setTimeout(() => this.purge(), FIRST_PURGE_MS);
    this.every = setInterval(() => this.purge(), PURGE_EVERY_MS);
    this.first.unref();
    this.every.unref();
  }

  private purge(): void {
    if (this.closed) return;
    this.running = this.running.then(async () => {
      for (const group of this.groups) {
        if (this.closed) return;
        try {
          reportPurge(this.log, await purgeRetained(this.db, group));
        } catch (e) {
          this.log.error({ err: e, group: group.name }, 'purge failed; tried again in an hour');
        }
      }
      if (this.managerTold) return;
      this.managerTold = true;
      const why = await partmanAbsence(this.db);
      this.log.info({}, why ? `partitions are managed by the server: ${why}` : 'partitions are managed by pg_partman');
    }).catch((e: unknown) => this.log.error({ err: e }, 'purge failed'));
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.first);
    clearInterval(this.every);
    await this.running;
  }
}
