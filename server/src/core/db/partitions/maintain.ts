import { sql } from 'drizzle-orm';
import type { Db, Executor } from '../index.js';
import { secureTenantTables } from '../tenantSecurity.js';
import { partitionsOf, rowsOf } from './catalog.js';
import { createAhead, dropBefore, ensureDefault, fileStrays, type TimePartitionedTable } from './monthPartitions.js';
import { handOver, partmanMaintenance, partmanOf } from './partman.js';

export type { TimePartitionedTable } from './monthPartitions.js';

/** What one maintenance did to one table. */
export interface PartitionUpkeep {
  table: string;
  manager: 'server' | 'pg_partman';
  created: string[];
  dropped: string[];
  /** rows moved from the default partition into the partitions of their months */
  filed: number;
  /** another instance was maintaining the table: nothing was done */
  busy?: true;
  /** the maintenance failed (a lock not had in time): tried again at the next one */
  error?: string;
}

export interface MaintainOptions {
  /** days the rows are kept (partitions wholly older are dropped); null keeps them forever */
  retentionDays: number | null;
  now?: Date;
  /** false: the server manages the partitions even where pg_partman could (tests) */
  usePartman?: boolean;
  /** how long a maintenance waits for its table's lock (the partitions' DDL locks the table) */
  lockTimeoutMs?: number;
}

async function partitionNames(ex: Executor, table: string): Promise<Set<string>> {
  const { ranges, defaultName } = await partitionsOf(ex, table);
  return new Set([...ranges.map((r) => r.name), ...(defaultName ? [defaultName] : [])]);
}

/** the advisory lock (class) under which one instance at a time maintains a table's partitions */
const PARTITION_LOCK = 72_707_002;
const LOCK_TIMEOUT_MS = 5000;

/**
 * Keeps the month partitions of these tables: rows waiting in the default partition filed into their months, the
 * previous month, this one and the next PREMAKE_MONTHS made, the months wholly older than the retention dropped.
 * Where pg_partman 4.x is installed (or installable) the table is handed to it, and it makes and drops the months;
 * else the server does.
 * Each table in a transaction of its own, under an advisory lock that another instance finds taken (it then skips
 * the table), with a lock timeout: the DDL waits for no long reader, and a table missed is done an hour later. New
 * partitions are put under the tenants' row-level security at once (only queries through the table are planned, but
 * a partition read directly must not show every tenant's rows).
 */
export async function maintainTimePartitions(db: Db, tables: readonly TimePartitionedTable[], opts: MaintainOptions): Promise<PartitionUpkeep[]> {
  const now = opts.now ?? new Date();
  const cutoff = opts.retentionDays === null ? null : new Date(now.getTime() - opts.retentionDays * 86_400_000);
  const partman = opts.usePartman === false ? null : await partmanOf(db);
  const schema = partman && 'schema' in partman ? partman.schema : null;
  const out: PartitionUpkeep[] = [];
  for (const t of tables) {
    const upkeep: PartitionUpkeep = { table: t.table, manager: schema ? 'pg_partman' : 'server', created: [], dropped: [], filed: 0 };
    try {
      await db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('lock_timeout', ${`${opts.lockTimeoutMs ?? LOCK_TIMEOUT_MS}ms`}, true), set_config('TimeZone', 'UTC', true)`);
        const [lock] = await rowsOf<{ got: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${PARTITION_LOCK}, hashtext(${t.table})) as got`);
        if (!lock?.got) {
          upkeep.busy = true;
          return;
        }
        const before = await partitionNames(tx, t.table);
        upkeep.filed = await fileStrays(tx, t, cutoff, now);
        if (schema) {
          await handOver(tx, schema, t, now);
          await partmanMaintenance(tx, schema, t.table, opts.retentionDays);
        } else {
          await ensureDefault(tx, t.table);
          if (cutoff) await dropBefore(tx, t.table, cutoff);
          await createAhead(tx, t, now, cutoff);
        }
        const after = await partitionNames(tx, t.table);
        upkeep.created = [...after].filter((n) => !before.has(n)).sort();
        upkeep.dropped = [...before].filter((n) => !after.has(n)).sort();
      });
    } catch (e) {
      upkeep.created = [];
      upkeep.dropped = [];
      upkeep.filed = 0;
      upkeep.error = reasonOf(e);
    }
    out.push(upkeep);
  }
  // partitions made here, by pg_partman, or by its hand-over (a default partition of its own); one catalog query when none is new
  await secureTenantTables(db);
  return out;
}

/** the database's own words, not the failed statement's text (drizzle wraps the driver's error as its cause) */
function reasonOf(e: unknown): string {
  const cause = (e as { cause?: unknown }).cause;
  if (cause instanceof Error) return cause.message;
  return e instanceof Error ? e.message : String(e);
}

/** Why the server manages the partitions itself (null: pg_partman does); for the log, once. */
export async function partmanAbsence(db: Db): Promise<string | null> {
  const state = await partmanOf(db);
  return 'reason' in state ? state.reason : null;
}
