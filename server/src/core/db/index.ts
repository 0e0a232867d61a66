import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres/session';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { currentDeadline, TransactionDeadline, TransactionExpiredError, withDeadline } from './deadline.js';
import { acquireLock } from './folderLock.js';
import { dropBrokenClients, FailoverClient } from './hosts.js';
import { PgliteWorker } from './pgliteWorker.js';
import * as schema from './schema.js';
import { secureTenantTables } from './tenantSecurity.js';

export type { Db } from './types.js';
import type { Db } from './types.js';
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Anything that runs queries: the database or an open transaction. */
export type Executor = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** the connections now: open, idle, and callers waiting for one (embedded: one connection, its queue) */
  pool(): { total: number; idle: number; waiting: number };
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
    // about what a sequential read does (a count over a department's users then probes, not scans).
    // shared_buffers: those pages are in the OS cache already; each MB of buffers filled stays in the process's
    // memory for good (WebAssembly memory never shrinks): 16 MB instead of 32 kept 20–30 MB off the idle RSS of a
    // server holding 1,000,000 devices (bench/RESULTS.md, "The embedded database's idle memory")
    const client = new PgliteWorker(dir, ['shared_buffers = 16MB', 'random_page_cost = 1.1']);
    try {
      await client.waitReady;
      const migrating = drizzlePglite({ client: client as never, schema });
      await migratePglite(migrating, { migrationsFolder: migrationsFolder() });
      await secureTenantTables(migrating as unknown as Db);
    } catch (e) {
      await client.close();
      throw e;
    }
    const db = drizzlePglite({ client: client as never, schema }) as unknown as Db;
    withoutIdleTimeout.add(db);
    return {
      db,
      kind: 'pglite',
      pool: () => ({ total: 1, idle: client.queued === 0 ? 1 : 0, waiting: Math.max(0, client.queued - 1) }),
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

/**
 * A pool whose transactions keep their deadline (`currentDeadline`): at it, the connection is taken from the
 * code that holds it and closed (PostgreSQL rolls the transaction back and releases its locks), its slot is
 * freed for the next caller, and the code's further statements are refused. A COMMIT sent in time ends the
 * deadline.
 */
class DeadlinePool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): void;
  override connect(callback?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): Promise<pg.PoolClient> | void {
    if (callback) return super.connect(callback);
    const deadline = currentDeadline();
    const connecting = super.connect();
    return deadline ? connecting.then((client) => guardClient(client, deadline)) : connecting;
  }
}

function guardClient(client: pg.PoolClient, deadline: TransactionDeadline): pg.PoolClient {
  const query = client.query;
  const release = client.release;
  let released = false;
  // the backend may end while this code holds the client (the deadline, or the server's own idle timeout):
  // without a listener that 'error' would stop the process; the pool drops the client when it comes back
  const ignore = () => undefined;
  client.on('error', ignore);
  const guarded = client as unknown as { query: (...args: unknown[]) => unknown; release: (err?: Error | boolean) => void };
  guarded.release = (err?: Error | boolean) => {
    if (released) return;
    released = true;
    if (!deadline.hasExpired) {
      client.removeListener('error', ignore);
      guarded.query = query as never;
      guarded.release = release;
    }
    release.call(client, err);
  };
  guarded.query = (...args: unknown[]) => {
    if (deadline.hasExpired) return Promise.reject(new TransactionExpiredError());
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: unknown } | undefined)?.text;
    if (typeof text === 'string' && /^\s*commit\s*;?\s*$/i.test(text)) deadline.settle();
    const sent = (query as (...a: unknown[]) => unknown).apply(client, args);
    // a statement cut by the deadline (its connection closed) fails as the deadline, not as a lost connection
    return sent instanceof Promise ? sent.catch((e: unknown) => {
      throw deadline.hasExpired ? new TransactionExpiredError() : e;
    }) : sent;
  };
  // an error makes the pool close the connection instead of keeping it
  deadline.onExpire(() => guarded.release(new TransactionExpiredError()));
  deadline.start();
  return client;
}

export async function openPostgres(url: string, poolSize = 10): Promise<Database> {
  // a URL may name several hosts (a pg_auto_failover formation): each new connection goes to the one that takes
  // writes (target_session_attrs=read-write), so after a failover the pool reconnects to the promoted standby
  const pool = new DeadlinePool({ connectionString: url, max: poolSize, Client: FailoverClient });
  // An idle connection that breaks (server restart, admin termination) must not crash the process:
  // the pool drops it and opens a new one on the next query.
  pool.on('error', (e) => console.error(`PostgreSQL connection lost: ${e.message}`));
  // nor is a connection kept that a failover broke while lent out, or left on a node that became read-only
  dropBrokenClients(pool);
  // Several instances may start together: one migrates while the others wait on the advisory lock.
  const conn = await pool.connect();
  try {
    await conn.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const migrating = drizzlePg({ client: conn, schema });
    await migratePg(migrating, { migrationsFolder: migrationsFolder() });
    await secureTenantTables(migrating as unknown as Db);
  } finally {
    await conn.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    conn.release();
  }
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  return { db, kind: 'postgres', pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }), close: () => pool.end() };
}

export async function openDatabase(opts: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl) : openPglite(opts.dataDir);
}

export interface TenantScope {
  tenantId: string;
  /** a platform operation that crosses tenants on purpose */
  allTenants?: boolean;
  /**
   * statement time limit in ms for this transaction (default: setStatementTimeout's; 0 = none); background work
   * that gives its statements longer gets at least as long for the whole transaction
   */
  timeoutMs?: number;
  /** the transaction's deadline in ms (default: setTransactionTimeout's, or timeoutMs when longer; 0 = none) */
  deadlineMs?: number;
}

/**
 * Databases whose session must never be given `idle_in_transaction_session_timeout`: PGlite honours it by
 * stopping its single backend, and the next statement then waits forever (tested in transaction-deadline).
 * There the deadline alone frees the connection; on PostgreSQL the server also ends an idle session itself.
 */
const withoutIdleTimeout = new WeakSet<object>();
/** what a transaction `inTenant` opened knows of itself: its deadline, and whether its server may time it out idle */
interface TransactionState {
  deadline: TransactionDeadline | undefined;
  idleAllowed: boolean;
}
const transactionStates = new WeakMap<object, TransactionState>();

let defaultTimeoutMs = 0;
/** The time limit of every request transaction's statements (PostgreSQL cancels them with 57014). */
export function setStatementTimeout(ms: number): void {
  defaultTimeoutMs = ms;
}

let defaultDeadlineMs = 0;
/** The deadline of every request transaction, on both databases (`TRANSACTION_TIMEOUT_MS`; 0 = none). */
export function setTransactionTimeout(ms: number): void {
  defaultDeadlineMs = ms;
}

function deadlineOf(scope: TenantScope): number {
  if (scope.deadlineMs !== undefined) return scope.deadlineMs;
  if (scope.timeoutMs === undefined || defaultDeadlineMs === 0) return defaultDeadlineMs;
  return scope.timeoutMs === 0 ? 0 : Math.max(scope.timeoutMs, defaultDeadlineMs);
}

const SETTINGS = "select set_config('role', $1, true), set_config('app.tenant_id', $2, true), set_config('statement_timeout', $3, true), set_config('idle_in_transaction_session_timeout', $4, true)";

/**
 * a pooled connection's transaction object, made once (drizzle makes one a transaction, with a query builder a
 * table); each transaction gets an object of its own made from it, so what is kept by transaction (a WeakMap on
 * `tx`: the staging tables of COPY, …) never outlives it
 */
const transactionOf = new WeakMap<pg.PoolClient, Tx>();

/**
 * drizzle's `transaction` on PostgreSQL, its `begin`, settings, `commit` and `rollback` sent as they are on the
 * connection: through drizzle each was a prepared query built from a template, and a transaction object with a
 * query builder for every table was made each time (a request's transaction cost the server as much as the
 * statements of a workflow step, bench/ceilings/flow.ts). Savepoints (`tx.transaction`) are drizzle's, unchanged.
 */
async function pgTransaction<T>(db: Db, pool: pg.Pool, settings: string[], state: TransactionState, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    let made = transactionOf.get(client);
    if (!made) {
      const { dialect, schema, options } = (db as unknown as { session: { dialect: never; schema: never; options: never } }).session;
      made = new NodePgTransaction(dialect, new NodePgSession(client, dialect, schema, options), schema) as unknown as Tx;
      transactionOf.set(client, made);
    }
    const tx = Object.create(made) as Tx;
    transactionStates.set(tx, state);
    await client.query('begin');
    try {
      await client.query(SETTINGS, settings);
      const result = await fn(tx);
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback');
      throw error;
    }
  } finally {
    client.release();
  }
}

/**
 * Runs fn in a transaction as the restricted role console_app with the tenant set, so PostgreSQL's
 * row-level security confines every statement to that tenant's rows. A platform operation that must
 * cross tenants (allTenants) runs as console_platform instead.
 *
 * The transaction has a deadline: still open at it, it is rolled back, its connection freed and fn's further
 * statements refused; the caller gets a TransactionExpiredError (503). PostgreSQL also ends a session idle in
 * the transaction that long, should this process be unable to.
 */
export async function inTenant<T>(db: Db, scope: TenantScope, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const deadlineMs = deadlineOf(scope);
  const role = scope.allTenants ? 'console_platform' : 'console_app';
  const timeout = `${scope.timeoutMs ?? defaultTimeoutMs}ms`;
  const idleAllowed = !withoutIdleTimeout.has(db);
  const idle = `${idleAllowed ? deadlineMs : 0}ms`;
  const settings = [role, scope.tenantId, timeout, idle];
  const client = (db as { $client?: unknown }).$client;
  const pool = client instanceof pg.Pool ? client : undefined;
  const deadline = deadlineMs === 0 ? undefined : new TransactionDeadline(deadlineMs);
  const state: TransactionState = { deadline, idleAllowed };
  // the driver asks for its connection before its first await: `withDeadline` hands it the deadline then
  const run = () => (pool ? pgTransaction(db, pool, settings, state, fn) : db.transaction(async (tx) => {
    transactionStates.set(tx, state);
    await tx.execute(sql`select set_config('role', ${role}, true), set_config('app.tenant_id', ${scope.tenantId}, true), set_config('statement_timeout', ${timeout}, true), set_config('idle_in_transaction_session_timeout', ${idle}, true)`);
    return fn(tx);
  }));
  if (!deadline) return run();
  try {
    return await withDeadline(deadline, () => {
      const work = run();
      work.catch(() => undefined);
      return Promise.race([work, deadline.expired]);
    });
  } finally {
    deadline.settle();
  }
}

/**
 * Runs `fn` inside the current transaction as console_platform (every tenant's rows), then returns to the role
 * the transaction had: a platform row's remove counts the tenants' rows that use it, in the same transaction.
 */
export async function acrossTenants<T>(tx: Executor, fn: () => Promise<T>): Promise<T> {
  const [row] = await tx.execute(sql`select current_user as role`).then((r) => (r as unknown as { rows: Array<{ role: string }> }).rows);
  const restore = () => tx.execute(sql`select set_config('role', ${row!.role}, true)`);
  await tx.execute(sql`select set_config('role', 'console_platform', true)`);
  let answer: T;
  try {
    answer = await fn();
  } catch (e) {
    await restore().catch(() => undefined);
    throw e;
  }
  await restore();
  return answer;
}

/**
 * Gives the current transaction at least `ms` from now before its deadline: a bulk write or an all-or-nothing
 * import the caller asked for, which must not be cut like an over-broad search. Still a bound.
 */
export async function allowLongTransaction(tx: Executor, ms: number): Promise<void> {
  const state = transactionStates.get(tx);
  state?.deadline?.extend(ms);
  if (state?.idleAllowed === false) return;
  await tx.execute(sql`select set_config('idle_in_transaction_session_timeout', ${`${ms}ms`}, true)`);
}

/**
 * Lifts the statement time limit for the rest of this transaction, and its deadline as far: a bulk write the
 * caller asked for (a batch of 100,000 devices), which must not be cut like an over-broad search.
 */
export async function allowLongStatements(tx: Executor, ms: number): Promise<void> {
  const state = transactionStates.get(tx);
  state?.deadline?.extend(ms);
  const idle = state?.idleAllowed === false ? '0ms' : `${ms}ms`;
  await tx.execute(sql`select set_config('statement_timeout', ${`${ms}ms`}, true), set_config('idle_in_transaction_session_timeout', ${idle}, true)`);
}

export { schema };
export { TransactionExpiredError } from './deadline.js';

/** How many rows a raw `execute` (insert, update, delete) touched: node-postgres says rowCount, PGlite affectedRows. */
export function rowsAffected(result: unknown): number {
  const r = result as { rowCount?: number | null; affectedRows?: number };
  return Number(r.rowCount ?? r.affectedRows ?? 0);
}
