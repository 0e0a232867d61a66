/**
 * The list beside its ceiling (issue 30): page 1 of the notice list (`--rows` notices of the bench tenant),
 * `--concurrency` callers for `--seconds` each round, paired rounds.
 *
 *   - PostgreSQL: the console is `server/dist/main.js` in a process of its own, called over HTTP with kept-alive
 *     connections; the ceiling is the same statements (the tenant transaction, the bounded count, the page, built by
 *     the server's own filter and order code: measure.ts `directRunner`) through a plain `pg.Pool(concurrency)`.
 *   - PGlite: one database in one process, so both sides share it: the console is the server created in this
 *     process and called over HTTP on loopback; the ceiling is the same statements on the server's own PGlite.
 *
 *   npx tsx bench/ceilings.ts --measure=list [--db=postgres|pglite|both] [--rows=100000] [--seconds=10] [--rounds=3]
 *     [--concurrency=10] [--skip-build] [--keep] [--write] [--profile] [--pg-url=postgres://postgres@127.0.0.1:5432/postgres]
 */
import { connect, type Socket } from 'node:net';
import { mkdtemp } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '@console/server/src/core/config.js';
import { type Db, schema } from '@console/server/src/core/db/index.js';
import { createServer, type Server } from '@console/server/src/server.js';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { intOption, samePlan, withDatabase } from '../data.js';
import { BASIC, type Case, directRunner, LIST_PATH, signIn } from '../measure.js';
import { machine, revision, writeSection } from '../report.js';
import { type PgliteLike, type SeedPlan, seededPlan, seedPglite, seedPostgres } from '../seed.js';
import { log, median, processCpuMs, profileReport, RESULTS, rate, startBuiltServer } from './common.js';

const DB = 'console_bench_ceilings';

const { values: opt } = parseArgs({
  strict: false,
  options: {
    db: { type: 'string', default: 'both' },
    rows: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '10' },
    'skip-build': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    write: { type: 'boolean', default: false },
    /** the server's CPU profile while the console's rounds run (PostgreSQL): its heaviest functions by self time */
    profile: { type: 'boolean', default: false },
    'pg-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const str = (k: keyof typeof opt) => String(opt[k]);
const plan: SeedPlan = { rows: intOption('rows', str('rows'), 1000, 10_000_000), otherRows: 1000 };
const SECONDS = intOption('seconds', str('seconds'), 1, 600);
const ROUNDS = intOption('rounds', str('rounds'), 1, 20);
const CONCURRENCY = intOption('concurrency', str('concurrency'), 1, 200);
const dbs = str('db') === 'both' ? ['postgres', 'pglite'] : [str('db')];
if (!dbs.every((d) => d === 'postgres' || d === 'pglite')) throw new Error(`--db: postgres, pglite or both, got ${str('db')}`);
const PAGE_ONE: Case = { name: 'page 1', query: { current: '1', size: '10' } };

/**
 * List calls over `CONCURRENCY` kept-alive connections of a lean HTTP/1.1 client of its own (a prebuilt request, the
 * answer read by its content-length), so that the callers, which share the machine's two cores with the server and
 * the database, cost as little as a load generator should. Each answer is parsed and must hold a full page.
 */
function listCall(port: number, token: string): () => Promise<void> {
  const path = `${LIST_PATH}?${new URLSearchParams(PAGE_ONE.query)}`;
  const requestBytes = Buffer.from(`GET ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nauthorization: ${BASIC}\r\nblade-auth: bearer ${token}\r\nconnection: keep-alive\r\n\r\n`);
  const idle: KeptConnection[] = [];
  return async () => {
    const c = idle.pop() ?? await KeptConnection.open(port);
    const { status, body } = await c.call(requestBytes);
    idle.push(c);
    const parsed = JSON.parse(body.toString('utf8')) as { code: number; data?: { records: unknown[] } };
    if (status !== 200 || parsed.data?.records.length !== Number(PAGE_ONE.query.size)) throw new Error(`list: ${status} ${body.toString('utf8').slice(0, 200)}`);
  };
}

/** one kept-alive HTTP/1.1 connection, one call at a time; answers must carry a content-length (the server's do) */
class KeptConnection {
  private buffered: Buffer<ArrayBufferLike> = Buffer.alloc(0);
  private waiting: ((answer: { status: number; body: Buffer }) => void) | null = null;
  private failed: ((e: Error) => void) | null = null;

  private constructor(private readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
      this.settle();
    });
    const fail = (e: Error) => this.failed?.(e);
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('the server closed the connection')));
  }

  static open(port: number): Promise<KeptConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port }, () => resolve(new KeptConnection(socket)));
      socket.once('error', reject);
    });
  }

  call(request: Buffer): Promise<{ status: number; body: Buffer }> {
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.failed = reject;
      this.socket.write(request);
    });
  }

  private settle(): void {
    const end = this.buffered.indexOf('\r\n\r\n');
    if (end < 0 || !this.waiting) return;
    const head = this.buffered.subarray(0, end).toString('latin1');
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? NaN);
    if (!Number.isFinite(length)) {
      this.failed?.(new Error(`an answer without content-length: ${head.slice(0, 200)}`));
      return;
    }
    if (this.buffered.length < end + 4 + length) return;
    const body = this.buffered.subarray(end + 4, end + 4 + length);
    this.buffered = this.buffered.subarray(end + 4 + length);
    const done = this.waiting;
    this.waiting = null;
    done({ status: Number(head.slice(9, 12)), body });
  }
}

/** CPU ms per call of each process taking part: the server, the database, the bench (the callers) */
interface CpuPerCall { server: number; database: number; bench: number }
interface Paired { console: number[]; ceiling: number[]; cpu: { console: CpuPerCall[]; ceiling: CpuPerCall[] }; loadBefore: number; loadAfter: number; engine: string }

/** where CPU is counted: the server's process (none when it is this one) and the database's processes */
interface Meters { serverPid?: number; databasePids: () => Promise<number[]> }

const benchCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** CPU ms the database's backends spent since `before` (a backend that ended meanwhile is left out, not subtracted) */
function databaseCpuSince(before: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of before) {
    const now = processCpuMs(pid);
    if (now >= ms) total += now - ms;
  }
  return total;
}

/** one round of `call`: its rate and the CPU each process spent per call */
async function meteredRound(call: () => Promise<void>, meters: Meters): Promise<{ rate: number; cpu: CpuPerCall }> {
  const pids = await meters.databasePids();
  const server0 = meters.serverPid ? processCpuMs(meters.serverPid) : 0;
  const db0 = new Map(pids.map((pid) => [pid, processCpuMs(pid)]));
  const bench0 = benchCpuMs();
  const t = performance.now();
  const r = await rate(call, SECONDS, CONCURRENCY);
  const calls = r * ((performance.now() - t) / 1000);
  const per = (ms: number) => ms / calls;
  return {
    rate: r,
    cpu: { server: per(meters.serverPid ? processCpuMs(meters.serverPid) - server0 : 0), database: per(databaseCpuSince(db0)), bench: per(benchCpuMs() - bench0) },
  };
}

/** warm both sides, then `ROUNDS` paired rounds */
async function pairedRounds(api: () => Promise<void>, direct: () => Promise<void>, meters: Meters): Promise<Omit<Paired, 'engine'>> {
  // every connection of both sides opened and warm before the first round (CPU is counted per connection)
  for (let i = 0; i < 20; i++) {
    await Promise.all(Array.from({ length: CONCURRENCY }, api));
    await Promise.all(Array.from({ length: CONCURRENCY }, direct));
  }
  const loadBefore = loadavg()[0]!;
  const out: Omit<Paired, 'engine' | 'loadAfter'> = { console: [], ceiling: [], cpu: { console: [], ceiling: [] }, loadBefore };
  for (let r = 1; r <= ROUNDS; r++) {
    const a = await meteredRound(api, meters);
    const s = await meteredRound(direct, meters);
    out.console.push(a.rate);
    out.ceiling.push(s.rate);
    out.cpu.console.push(a.cpu);
    out.cpu.ceiling.push(s.cpu);
    const f = (c: CpuPerCall) => `CPU per call: server ${c.server.toFixed(2)}, database ${c.database.toFixed(2)}, bench ${c.bench.toFixed(2)} ms`;
    log(`round ${r}: console ${a.rate.toFixed(0)} req/s (${f(a.cpu)}), the same statements alone ${s.rate.toFixed(0)} req/s (${f(s.cpu)})`);
  }
  return { ...out, loadAfter: loadavg()[0]! };
}

/** the backends of database `name` */
const backendsOf = (pool: pg.Pool, name: string) => async () => (await pool.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [name])).rows.map((r) => r.pid);

async function onPostgres(): Promise<Paired> {
  const admin = new pg.Client({ connectionString: withDatabase(str('pg-url'), 'postgres') });
  await admin.connect();
  if (!(await admin.query(`select 1 from pg_database where datname = '${DB}'`)).rowCount) await admin.query(`create database ${DB}`);
  const url = withDatabase(str('pg-url'), DB);
  const dataDir = await mkdtemp(join(tmpdir(), 'console-bench-ceilings-'));
  const profileDir = opt.profile ? await mkdtemp(join(tmpdir(), 'console-bench-profile-')) : undefined;
  const pool = new pg.Pool({ connectionString: url, max: CONCURRENCY });
  // an idle connection ended by the database's drop at the end is no error of the run
  pool.on('error', () => undefined);
  let stop = async () => undefined as void;
  try {
    // migrations and seed data, then the notices
    const seeding = await createServer(loadConfig({ LOG_LEVEL: 'warn', DATABASE_URL: url, REDIS_URL: '', MQTT_PORT: 'off' }, { dataDir }));
    const limits = seeding.ctx.config.listCount;
    await seeding.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    if (samePlan(await seededPlan((text) => client.query(text)), plan)) log(`reusing the seeded database ${DB}`);
    else {
      log(`seeding ${DB}: ${plan.rows.toLocaleString('en')} notices of the bench tenant`);
      await client.query('truncate blade_notice');
      await seedPostgres(client, plan, log);
    }
    await client.query('vacuum analyze blade_notice');
    await client.end();

    const product = await startBuiltServer({ databaseUrl: url, dataDir, skipBuild: Boolean(opt['skip-build']), profileDir });
    stop = product.stop;
    const token = await signIn(`http://127.0.0.1:${product.port}`);
    const runSql = directRunner(drizzle({ client: pool, schema }) as unknown as Db, limits);
    const paired = await pairedRounds(listCall(product.port, token), async () => {
      await runSql(PAGE_ONE);
    }, { serverPid: product.child.pid, databasePids: backendsOf(pool, DB) });
    const engine = `PostgreSQL ${(await pool.query('show server_version')).rows[0].server_version}`;
    if (profileDir) {
      await product.stop();
      console.log(`the server's heaviest functions by self time (whole run, warm-up and rounds):\n${profileReport(profileDir)}`);
    }
    return { ...paired, engine };
  } finally {
    await stop();
    if (profileDir) rmSync(profileDir, { recursive: true, force: true });
    await pool.end();
    rmSync(dataDir, { recursive: true, force: true });
    if (!opt.keep) await admin.query(`drop database if exists ${DB} with (force)`);
    await admin.end();
  }
}

/** The PGlite client behind the server's drizzle instance. */
function pgliteOf(server: Server): PgliteLike {
  const client = (server.ctx.db as unknown as { $client?: PgliteLike }).$client;
  if (!client || typeof client.query !== 'function') throw new Error('the server does not run on PGlite');
  return client;
}

async function onPglite(): Promise<Paired> {
  const dataDir = await mkdtemp(join(tmpdir(), 'console-bench-ceilings-pglite-'));
  let server: Server | undefined;
  try {
    server = await createServer(loadConfig({ LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '', MQTT_PORT: 'off', NODE_ENV: 'production' }, { dataDir }));
    const client = pgliteOf(server);
    log(`seeding PGlite: ${plan.rows.toLocaleString('en')} notices of the bench tenant`);
    await seedPglite(client, plan, log);
    await client.query('vacuum analyze blade_notice');
    const base = await server.app.listen({ port: 0, host: '127.0.0.1' });
    const token = await signIn(base);
    const runSql = directRunner(server.ctx.db as Db, server.ctx.config.listCount);
    // the server, its database and the callers are all this process: its CPU is counted as the bench's
    const paired = await pairedRounds(listCall(Number(new URL(base).port), token), async () => {
      await runSql(PAGE_ONE);
    }, { databasePids: async () => [] });
    const version = (await client.query<{ v: string }>('select version() as v')).rows[0]!.v.split(' ').slice(0, 2).join(' ');
    return { ...paired, engine: `PGlite (${version}, WASM, in this process)` };
  } finally {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** the rounds' median CPU per call, by process */
function cpuCell(rounds: CpuPerCall[], withServer: boolean): string {
  const m = (k: keyof CpuPerCall) => median(rounds.map((c) => c[k])).toFixed(2);
  if (rounds.every((c) => c.database === 0 && c.server === 0)) return `${m('bench')} (one process)`;
  return withServer ? `${m('server')} + ${m('database')} + ${m('bench')}` : `${m('database')} + ${m('bench')}`;
}

function report(db: string, p: Paired): string {
  const a = median(p.console);
  const s = median(p.ceiling);
  const sides = db === 'postgres'
    ? `The console: server/dist/main.js in its own process, over HTTP with kept-alive connections. The ceiling: the same statements (the tenant transaction, the bounded count, the page) through a plain pg.Pool(${CONCURRENCY}).`
    : 'The console: the server created in the bench\'s process on its embedded database, over HTTP on loopback with kept-alive connections (the callers run in the same process). The ceiling: the same statements (the tenant transaction, the bounded count, the page) on the server\'s own PGlite instance, no HTTP.';
  return [
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} on ${machine()}, revision ${revision()}: page 1 (10 rows) of the notice list of a tenant `
      + `holding ${plan.rows.toLocaleString('en')} notices, ${CONCURRENCY} concurrent callers, ${ROUNDS} paired rounds of ${SECONDS} s, ${p.engine}. `
      + `${sides} Load average ${p.loadBefore.toFixed(2)} → ${p.loadAfter.toFixed(2)}.`,
    '',
    '| measure | console (median req/s) | ceiling (median req/s) | ratio | rounds (console / ceiling) | each round\'s ratio | CPU ms per call, console: server + database + callers | CPU ms per call, ceiling: database + caller |',
    '|---|---:|---:|---:|---|---|---|---|',
    `| notice list page 1, ${plan.rows.toLocaleString('en')} rows, ${CONCURRENCY} concurrent | ${a.toFixed(0)} | ${s.toFixed(0)} | ${(a / s).toFixed(2)} | `
      + `${p.console.map((x) => x.toFixed(0)).join(', ')} / ${p.ceiling.map((x) => x.toFixed(0)).join(', ')} | ${p.console.map((x, i) => (x / p.ceiling[i]!).toFixed(2)).join(', ')} | `
      + `${cpuCell(p.cpu.console, true)} | ${cpuCell(p.cpu.ceiling, false)} |`,
  ].join('\n');
}

for (const db of dbs) {
  log(`the list on ${db}`);
  const text = report(db, db === 'postgres' ? await onPostgres() : await onPglite());
  console.log(`\n${text}\n`);
  if (opt.write) writeSection(RESULTS, `ceilings-list-${db}`, text);
}
