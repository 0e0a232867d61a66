/**
 * The kept bench data, shared by run.ts (`--keep`) and starvation.ts: the PostgreSQL database
 * `console_bench` and the PGlite folder `$TMPDIR/console-bench-pglite` (with `bench-seed.json`, the plan
 * it was seeded with). A run reuses them when they hold the same row counts.
 *
 * starvation.ts prepares them without the server's source: the built server it measures migrates the
 * database (it is started once for that), then the notices are loaded with a connection of the bench's
 * own (pg / a PGlite instance on the folder). So the schema is exactly the one of the build measured,
 * even while server/src is being edited.
 */
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @electric-sql/pglite is a dependency of @console/server, reached through the workspace's hoisting
// (bench/package.json cannot declare it without a change to the root package-lock.json).
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { type PgliteLike, type SeedPlan, seededPlan } from './seed.js';

export const PG_DB = 'console_bench';
export const PGLITE_KEEP_DIR = join(tmpdir(), 'console-bench-pglite');
/** in the PGlite data folder: the plan it was seeded with */
export const PGLITE_MARKER = 'bench-seed.json';

export const samePlan = (a: SeedPlan, b: SeedPlan) => a.rows === b.rows && a.otherRows === b.otherRows;

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** One statement on a connection of its own to `url`. */
export async function queryOnce(url: string, text: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await c.query(text, params);
  } finally {
    await c.end();
  }
}

export async function pgDatabaseExists(adminUrl: string, name: string): Promise<boolean> {
  return Boolean((await queryOnce(withDatabase(adminUrl, 'postgres'), 'select 1 from pg_database where datname = $1', [name])).rowCount);
}

/** Notices per tenant in a PostgreSQL database, or null when it has no notice table yet. */
export async function pgSeededPlan(url: string): Promise<SeedPlan | null> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const has = await c.query(`select to_regclass('public.blade_notice') is not null as ok`);
    if (!has.rows[0]?.ok) return null;
    return await seededPlan((text) => c.query(text));
  } finally {
    await c.end();
  }
}

/** The plan recorded in a PGlite data folder, or null. */
export function pgliteMarkedPlan(dir: string): SeedPlan | null {
  const file = join(dir, PGLITE_MARKER);
  if (!existsSync(file) || !existsSync(join(dir, 'pglite'))) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as SeedPlan;
  } catch {
    return null;
  }
}

/** A PGlite instance of the bench's own on a data folder (the server must not be running on it). */
export async function openPgliteFolder(dir: string): Promise<PGlite & PgliteLike> {
  const client = new PGlite({ dataDir: join(dir, 'pglite'), extensions: { pg_trgm } });
  await client.waitReady;
  return client as unknown as PGlite & PgliteLike;
}

/** Applied migrations (drizzle's journal table), or -1 when there is none. */
export async function appliedMigrations(query: (text: string) => Promise<{ rows: Array<Record<string, unknown>> }>): Promise<number> {
  const has = await query(`select to_regclass('drizzle.__drizzle_migrations') is not null as ok`);
  if (!has.rows[0]?.ok) return -1;
  return Number((await query('select count(*)::int as n from drizzle.__drizzle_migrations')).rows[0]?.n ?? 0);
}

/** A whole-number command-line option within bounds. */
export function intOption(name: string, raw: string, min: number, max: number): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be an integer in ${min}..${max}, got ${raw}`);
  return n;
}

export function dbOption(raw: string): 'postgres' | 'pglite' {
  if (raw !== 'postgres' && raw !== 'pglite') throw new Error(`--db must be postgres or pglite, got ${raw}`);
  return raw;
}

/** The notices to seed: `rows` in the bench tenant, `others` in each other tenant. */
export function planOption(rows: string, others: string): SeedPlan {
  return { rows: intOption('rows', rows, 10_000, 3_000_000), otherRows: intOption('others', others, 0, 100_000) };
}
