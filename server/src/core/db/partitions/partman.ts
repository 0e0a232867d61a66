import { sql } from 'drizzle-orm';
import type { Db, Executor } from '../index.js';
import { insertableColumns, partitionsOf, rowsOf } from './catalog.js';
import { ensureDefault, type TimePartitionedTable } from './monthPartitions.js';
import { addMonths, monthStart, PREMAKE_MONTHS } from './months.js';

/** pg_partman in this database: its schema, or why the server manages the partitions itself. */
export type PartmanState = { schema: string } | { reason: string };

const SCHEMA = 'partman';
const installed = new WeakMap<Db, Promise<PartmanState>>();

async function findPartman(ex: Executor): Promise<PartmanState | null> {
  const [found] = await rowsOf<{ schema: string; version: string }>(ex, sql`
    select n.nspname as schema, e.extversion as version from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = 'pg_partman'`);
  if (!found) return null;
  // 5.x names a monthly set's partitions _pYYYYMMDD and takes other arguments: the server's months would overlap its own
  if (!found.version.startsWith('4.')) return { reason: `pg_partman ${found.version} is installed; the server hands its partitions to 4.x only` };
  return { schema: found.schema };
}

async function installPartman(db: Db): Promise<PartmanState> {
  const present = await findPartman(db);
  if (present) return present;
  const [available] = await rowsOf<{ yes: boolean }>(db, sql`select exists (select 1 from pg_available_extensions where name = 'pg_partman') as yes`);
  if (!available?.yes) return { reason: 'pg_partman is not available to this database' };
  try {
    await db.transaction(async (tx) => {
      await tx.execute(sql`create schema if not exists ${sql.identifier(SCHEMA)}`);
      await tx.execute(sql`create extension if not exists pg_partman schema ${sql.identifier(SCHEMA)}`);
    });
  } catch (e) {
    return { reason: `pg_partman could not be installed: ${e instanceof Error ? e.message : String(e)}` };
  }
  return (await findPartman(db)) ?? { reason: 'pg_partman was not found after its installation' };
}

/**
 * pg_partman 4.x, installed into schema `partman` when the database offers it and the server's role may (a
 * superuser's); looked for once per process (a refused installation is not tried again every hour).
 */
export function partmanOf(db: Db): Promise<PartmanState> {
  let state = installed.get(db);
  if (!state) {
    state = installPartman(db);
    installed.set(db, state);
  }
  return state;
}

const parentName = (table: string) => `public.${table}`;

/**
 * Registers a partitioned table with pg_partman (once): monthly, from the previous month to PREMAKE_MONTHS ahead,
 * maintained only when the server calls it (`automatic_maintenance` off: its background worker would count months
 * in the database's time zone, the server in UTC; partmanMaintenance sets the rest). The months already made keep
 * their names, which are pg_partman's. create_parent makes a default partition of its own (or none, when every
 * month it would premake exists): the server's is set aside meanwhile, then emptied into the table or put back.
 */
export async function handOver(tx: Executor, schema: string, t: TimePartitionedTable, now: Date): Promise<boolean> {
  const s = sql.identifier(schema);
  const [known] = await rowsOf<{ yes: boolean }>(tx, sql`select exists (select 1 from ${s}.part_config where parent_table = ${parentName(t.table)}) as yes`);
  if (known?.yes) return false;
  const table = sql.identifier(t.table);
  const { defaultName } = await partitionsOf(tx, t.table);
  const aside = `${t.table}_default_aside`;
  if (defaultName) {
    await tx.execute(sql`alter table ${table} detach partition ${sql.identifier(defaultName)}`);
    await tx.execute(sql`alter table ${sql.identifier(defaultName)} rename to ${sql.identifier(aside)}`);
  }
  await tx.execute(sql`select ${s}.create_parent(p_parent_table := ${parentName(t.table)}, p_control := ${t.key}, p_type := 'native',
    p_interval := 'monthly', p_premake := ${PREMAKE_MONTHS}, p_start_partition := ${addMonths(monthStart(now), -1).toISOString()},
    p_automatic_maintenance := 'off', p_jobmon := false)`);
  if (defaultName) {
    if ((await partitionsOf(tx, t.table)).defaultName) {
      const cols = await insertableColumns(tx, t.table);
      await tx.execute(sql`insert into ${table} (${cols}) select ${cols} from ${sql.identifier(aside)}`);
      await tx.execute(sql`drop table ${sql.identifier(aside)}`);
    } else {
      await tx.execute(sql`alter table ${sql.identifier(aside)} rename to ${sql.identifier(defaultName)}`);
      await tx.execute(sql`alter table ${table} attach partition ${sql.identifier(defaultName)} default`);
    }
  }
  await ensureDefault(tx, t.table);
  return true;
}

/**
 * pg_partman's maintenance of one table: the months ahead made, and with a retention (days), the partitions wholly
 * older than it dropped. Its configuration is set first, so that its own tools agree with the server: the retention;
 * months made ahead of the clock, not of the newest row (`infinite_time_partitions`), and never of a row waiting in
 * the default partition (`ignore_default_data`: a row stamped years ahead would have it make every month up to
 * there, and fail on the month holding that row); partitions past the retention dropped, not kept detached.
 * Runs in the caller's transaction, whose time zone is UTC (pg_partman counts months in the session's zone).
 */
export async function partmanMaintenance(tx: Executor, schema: string, table: string, retentionDays: number | null): Promise<void> {
  const s = sql.identifier(schema);
  await tx.execute(sql`update ${s}.part_config set retention = ${retentionDays === null ? null : `${retentionDays} days`},
    infinite_time_partitions = true, ignore_default_data = true, retention_keep_table = false, retention_keep_index = false
    where parent_table = ${parentName(table)}`);
  await tx.execute(sql`select ${s}.run_maintenance(p_parent_table := ${parentName(table)}, p_analyze := false, p_jobmon := false)`);
}
