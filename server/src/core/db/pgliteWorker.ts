import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { currentDeadline, TransactionExpiredError } from './deadline.js';

/**
 * PGlite runs PostgreSQL as WebAssembly, synchronously, in the thread that calls it: a 3-second scan
 * in the server's own thread froze every request for 3 seconds, even /version.json. Here PGlite runs
 * in a worker thread and the server talks to it through this proxy, which offers the part of PGlite's
 * interface that drizzle, the migrator and the benchmark use (query, exec, transaction, close).
 *
 * PGlite is one connection: everything sent to it runs in order, and a transaction must not see
 * statements of others between its BEGIN and COMMIT. The proxy keeps that with a queue on this side.
 */

/** The parsers drizzle passes for every query (dates and intervals stay text; drizzle maps them). */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { PGlite, types } = require(workerData.pglitePath);
const { pg_trgm } = require(workerData.trgmPath);
const keepText = (v) => v;
const parsers = {
  [types.TIMESTAMP]: keepText, [types.TIMESTAMPTZ]: keepText, [types.INTERVAL]: keepText, [types.DATE]: keepText,
  1231: keepText, 1115: keepText, 1185: keepText, 1187: keepText, 1182: keepText,
};
const plainError = (e) => {
  const out = { message: String(e && e.message || e), name: e && e.name || 'Error' };
  for (const k of ['code', 'detail', 'hint', 'position', 'severity', 'schema', 'table', 'column', 'constraint', 'where', 'routine']) {
    if (e && e[k] !== undefined) out[k] = e[k];
  }
  return out;
};
let db;
// this thread's young generation given back once idle, as the main thread's is (core/idleGc.ts): every 10 s, when
// this thread was busy less than a tenth of it, a scavenge lets V8 shrink it if allocation was slow; best effort
// (the collector is reachable only through --expose-gc, enabled for the one context made here)
let minorGc;
try {
  require('node:v8').setFlagsFromString('--expose-gc');
  minorGc = require('node:vm').runInNewContext('gc');
} catch {} finally {
  require('node:v8').setFlagsFromString('--no-expose-gc');
}
if (typeof minorGc === 'function') {
  const { performance } = require('node:perf_hooks');
  let last = performance.eventLoopUtilization();
  setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    if (busy < 0.1) minorGc({ type: 'minor', execution: 'sync' });
  }, 10000).unref();
}
parentPort.on('message', async (m) => {
  try {
    if (m.kind === 'open') {
      db = new PGlite({ dataDir: workerData.dataDir, extensions: { pg_trgm }, postgresqlconf: workerData.postgresqlconf });
      await db.waitReady;
      parentPort.postMessage({ id: m.id, result: null });
    } else if (m.kind === 'query') {
      const res = await db.query(m.sql, m.params, { rowMode: m.rowMode, parsers, ...(m.blob ? { blob: m.blob } : {}) });
      parentPort.postMessage({ id: m.id, result: { rows: res.rows, fields: res.fields, affectedRows: res.affectedRows } });
    } else if (m.kind === 'exec') {
      const res = await db.exec(m.sql);
      parentPort.postMessage({ id: m.id, result: res.map((r) => ({ rows: r.rows, fields: r.fields, affectedRows: r.affectedRows })) });
    } else if (m.kind === 'close') {
      if (db) await db.close();
      parentPort.postMessage({ id: m.id, result: null });
    }
  } catch (e) {
    parentPort.postMessage({ id: m.id, error: plainError(e) });
  }
});
`;

export interface QueryResult {
  rows: unknown[];
  fields: Array<{ name: string; dataTypeID: number }>;
  affectedRows?: number;
}

interface QueryOptions {
  rowMode?: 'array' | 'object';
  blob?: Blob | File;
}

type Message = { kind: 'open' } | { kind: 'close' } | { kind: 'exec'; sql: string } | ({ kind: 'query'; sql: string; params?: unknown[] } & QueryOptions);

/** A connection-like view that runs statements without queueing (inside a transaction that holds the queue). */
export interface PgliteQueryable {
  query(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult>;
  exec(sql: string): Promise<QueryResult[]>;
}

/** Rebuilds a database error thrown in the worker, with its SQLSTATE and details. */
function errorFrom(plain: Record<string, unknown>): Error {
  const e = new Error(String(plain.message));
  Object.assign(e, plain);
  return e;
}

export class PgliteWorker implements PgliteQueryable {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  /** the tail of the queue: every operation (statement or whole transaction) waits for the previous one */
  private tail: Promise<unknown> = Promise.resolve();
  private closed = false;
  readonly waitReady: Promise<void>;

  constructor(dataDir: string, postgresqlconf: string[]) {
    const require = createRequire(import.meta.url);
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        dataDir,
        postgresqlconf,
        pglitePath: require.resolve('@electric-sql/pglite'),
        trgmPath: require.resolve('@electric-sql/pglite/contrib/pg_trgm'),
      },
    });
    this.worker.on('message', (m: { id: number; result?: unknown; error?: Record<string, unknown> }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.error) p.reject(errorFrom(m.error));
      else p.resolve(m.result);
    });
    this.worker.on('error', (e) => this.failAll(e));
    this.worker.on('exit', (code) => this.failAll(new Error(`the database worker stopped (exit code ${code})`)));
    this.waitReady = this.enqueue(() => this.send({ kind: 'open' })).then(() => undefined);
  }

  private failAll(e: Error): void {
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }

  private send<T>(message: Message): Promise<T> {
    if (this.closed && message.kind !== 'close') return Promise.reject(new Error('the database is closed'));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ id, ...message });
    });
  }

  /** operations queued, the one running included (the pool metrics' waiting connections, embedded) */
  queued = 0;

  private enqueue<T>(op: () => Promise<T>): Promise<T> {
    this.queued++;
    const counted = () => op().finally(() => { this.queued--; });
    const run = this.tail.then(counted, counted);
    this.tail = run.catch(() => undefined);
    return run;
  }

  private direct(): PgliteQueryable {
    return {
      query: (sql, params, options) => this.send<QueryResult>({ kind: 'query', sql, params, rowMode: options?.rowMode, blob: options?.blob }),
      exec: (sql) => this.send<QueryResult[]>({ kind: 'exec', sql }),
    };
  }

  query(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult> {
    return this.enqueue(() => this.direct().query(sql, params, options));
  }

  exec(sql: string): Promise<QueryResult[]> {
    return this.enqueue(() => this.direct().exec(sql));
  }

  /**
   * Runs fn between BEGIN and COMMIT (ROLLBACK when it throws); no other statement runs in between. With a
   * deadline (the caller's `currentDeadline`), a transaction still open at it is rolled back and the queue
   * freed whatever fn is doing (awaiting forever, looping on statements); fn's later statements are refused,
   * so none runs outside a transaction or inside the next one. A statement already running in the worker
   * runs to its end first: PGlite cannot interrupt one (it has no statement timeout).
   */
  transaction<T>(fn: (tx: PgliteQueryable) => Promise<T>): Promise<T> {
    const deadline = currentDeadline();
    return this.enqueue(async () => {
      const direct = this.direct();
      let open = true;
      const guarded = <R>(send: () => Promise<R>): Promise<R> => (open ? send() : Promise.reject(new TransactionExpiredError()));
      const tx: PgliteQueryable = {
        query: (sql, params, options) => guarded(() => direct.query(sql, params, options)),
        exec: (sql) => guarded(() => direct.exec(sql)),
      };
      deadline?.start();
      await direct.exec('BEGIN');
      try {
        const work = fn(tx);
        work.catch(() => undefined);
        const result = await (deadline ? Promise.race([work, deadline.expired]) : work);
        open = false;
        deadline?.settle();
        await direct.exec('COMMIT');
        return result;
      } catch (e) {
        open = false;
        await direct.exec('ROLLBACK').catch(() => undefined);
        throw e;
      }
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.enqueue(() => this.send({ kind: 'close' })).catch(() => undefined);
    this.closed = true;
    await this.worker.terminate();
  }
}
