import { sql } from 'drizzle-orm';
import { type Executor, rowsAffected } from '../index.js';
import { insertableColumns, partitionsOf, rowsOf } from './catalog.js';
import { addMonths, defaultPartitionName, monthRange, monthStart, monthsToHave } from './months.js';

/** A time-partitioned table: its name and the timestamptz column it is partitioned by. */
export interface TimePartitionedTable {
  table: string;
  key: string;
}

/**
 * Creates the partition of one month. Rows of that month waiting in the default partition (the server was down
 * past the months made ahead, or a row's time lay outside every partition) move into it: a partition cannot be
 * created over rows the default partition holds. Answers how many rows moved.
 */
export async function addMonth(tx: Executor, { table, key }: TimePartitionedTable, month: Date): Promise<number> {
  const range = monthRange(table, month);
  const { defaultName } = await partitionsOf(tx, table);
  const t = sql.identifier(table);
  const k = sql.identifier(key);
  const create = sql`create table ${sql.identifier(range.name)} partition of ${t} for values from (${sql.raw(`'${range.from.toISOString()}'`)}) to (${sql.raw(`'${range.to.toISOString()}'`)})`;
  if (!defaultName) {
    await tx.execute(create);
    return 0;
  }
  const d = sql.identifier(defaultName);
  const inMonth = sql`${k} >= ${range.from} and ${k} < ${range.to}`;
  const [waiting] = await rowsOf<{ yes: boolean }>(tx, sql`select exists (select 1 from only ${d} where ${inMonth}) as yes`);
  if (!waiting?.yes) {
    await tx.execute(create);
    return 0;
  }
  const cols = await insertableColumns(tx, table);
  await tx.execute(sql`alter table ${t} detach partition ${d}`);
  await tx.execute(create);
  await tx.execute(sql`insert into ${t} (${cols}) select ${cols} from only ${d} where ${inMonth}`);
  const moved = await tx.execute(sql`delete from only ${d} where ${inMonth}`);
  await tx.execute(sql`alter table ${t} attach partition ${d} default`);
  return rowsAffected(moved);
}

/** Makes the default partition when the table has none (so a row outside every month is never refused). */
export async function ensureDefault(tx: Executor, table: string): Promise<boolean> {
  if ((await partitionsOf(tx, table)).defaultName) return false;
  await tx.execute(sql`create table ${sql.identifier(defaultPartitionName(table))} partition of ${sql.identifier(table)} default`);
  return true;
}

/**
 * Creates the partitions missing of the months to have (`monthsToHave`), but for a month wholly older than `cutoff`
 * (the retention would drop it again); answers their names.
 */
export async function createAhead(tx: Executor, t: TimePartitionedTable, now: Date, cutoff: Date | null): Promise<string[]> {
  const have = new Set((await partitionsOf(tx, t.table)).ranges.map((r) => r.from.getTime()));
  const made: string[] = [];
  for (const month of monthsToHave(now)) {
    if (have.has(month.getTime()) || (cutoff && addMonths(month, 1).getTime() <= cutoff.getTime())) continue;
    await addMonth(tx, t, month);
    made.push(monthRange(t.table, month).name);
  }
  return made;
}

/** Drops the partitions wholly older than `cutoff` (their last instant is before it); answers their names. */
export async function dropBefore(tx: Executor, table: string, cutoff: Date): Promise<string[]> {
  const old = (await partitionsOf(tx, table)).ranges.filter((r) => r.to.getTime() <= cutoff.getTime());
  for (const r of old) await tx.execute(sql`drop table ${sql.identifier(r.name)}`);
  return old.map((r) => r.name);
}

/**
 * Gives the rows waiting in the default partition the partitions of their months, from the month holding `since`
 * (none: any) up to the last month made ahead; rows of later months (a clock far off) stay where they are.
 * Answers how many rows moved.
 */
export async function fileStrays(tx: Executor, t: TimePartitionedTable, since: Date | null, now: Date): Promise<number> {
  const { defaultName } = await partitionsOf(tx, t.table);
  if (!defaultName) return 0;
  const k = sql.identifier(t.key);
  const until = addMonths(monthsToHave(now).at(-1)!, 1);
  const months = await rowsOf<{ month: Date | string }>(tx, sql`
    select distinct date_trunc('month', ${k}, 'UTC') as month from only ${sql.identifier(defaultName)}
    where ${k} < ${until} ${since ? sql`and ${k} >= ${monthStart(since)}` : sql``}`);
  let moved = 0;
  for (const { month } of months) moved += await addMonth(tx, t, new Date(month));
  return moved;
}
