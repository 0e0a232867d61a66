import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { acquireLock } from './folderLock.js';
import { PgliteWorker } from './pgliteWorker.js';
import * as schema from './schema.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Anything that runs queries: the database or an open transaction. */
export type Executor = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

/** Finds the migrations folder whether running from src (tsx) or from the bundle in dist. */
export function migrationsFolder(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'drizzle');
    if (existsSync(join(candidate, 'meta', '_journal.json'))) return candidate;
    dir = dirname(dir);
  }
  throw new Error('migrations folder (drizzle/) not found');
}

export async function openPglite(dataDir: string): Promise<Database> {
  const dir = join(dataDir, 'pglite');
  mkdirSync(dataDir, { recursive: true });
  const release = acquireLock(dataDir);
  try {
    // in a worker thread: a long statement must not stop this thread from answering other requests
    // random_page_cost: the embedded database's pages are read from the OS cache, so an index probe costs
    // about what a sequential read does (a count over a department's users then probes, not scans)
    const client = new PgliteWorker(dir, ['shared_buffers = 32MB', 'random_page_cost = 1.1']);
    try {
      await client.waitReady;
      await migratePglite(drizzlePglite({ client: client as never, schema }), { migrationsFolder: migrationsFolder() });
    } catch (e) {
      await client.close();
      throw e;
    }
    const db = drizzlePglite({ client: client as never, schema }) as unknown as Db;
    return {
      db,
      kind: 'pglite',
      async close() {
        await client.close();
        release();
      },
    };
  } catch (e) {
    release();
    throw e;
  }
}

const MIGRATION_LOCK = 72_707_001;

export async function openPostgres(url: string, poolSize = 10): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle connection that breaks (server restart, admin termination) must not crash the process:
  // the pool drops it and opens a new one on the next query.
  pool.on('error', (e) => console.error(`PostgreSQL connection lost: ${e.message}`));
  // Several instances may start together: one migrates while the others wait on the advisory lock.
  const conn = await pool.connect();
  try {
    await conn.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migratePg(drizzlePg({ client: conn, schema }), { migrationsFolder: migrationsFolder() });
  } finally {
    await conn.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    conn.release();
  }
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  return { db, kind: 'postgres', close: () => pool.end() };
}

export async function openDatabase(opts: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl) : openPglite(opts.dataDir);
}

export interface TenantScope {
  tenantId: string;
  /** a platform operation that crosses tenants on purpose */
  allTenants?: boolean;
  /** statement time limit in ms for this transaction (default: setStatementTimeout's; 0 = none) */
  timeoutMs?: number;
}

let defaultTimeoutMs = 0;
/** The time limit of every request transaction's statements (PostgreSQL cancels them with 57014). */
export function setStatementTimeout(ms: number): void {
  defaultTimeoutMs = ms;
}

/**
 * Runs fn in a transaction as the restricted role console_app with the tenant set, so PostgreSQL's
 * row-level security confines every statement to that tenant's rows. A platform operation that must
 * cross tenants (allTenants) runs as console_platform instead.
 */
export async function inTenant<T>(db: Db, scope: TenantScope, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    const role = scope.allTenants ? 'console_platform' : 'console_app';
    const timeout = `${scope.timeoutMs ?? defaultTimeoutMs}ms`;
    await tx.execute(sql`select set_config('role', ${role}, true), set_config('app.tenant_id', ${scope.tenantId}, true), set_config('statement_timeout', ${timeout}, true)`);
    return fn(tx);
  });
}

/**
 * Lifts the statement time limit for the rest of this transaction: a bulk write the caller asked for (a batch of
 * 100,000 devices), which must not be cut like an over-broad search.
 */
export async function allowLongStatements(tx: Executor, ms: number): Promise<void> {
  await tx.execute(sql`select set_config('statement_timeout', ${`${ms}ms`}, true)`);
}

export { schema };

/** How many rows a raw `execute` (insert, update, delete) touched: node-postgres says rowCount, PGlite affectedRows. */
export function rowsAffected(result: unknown): number {
  const r = result as { rowCount?: number | null; affectedRows?: number };
  return Number(r.rowCount ?? r.affectedRows ?? 0);
}
