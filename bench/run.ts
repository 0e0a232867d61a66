/**
 * List-endpoint and start-up benchmark (bench/RESULTS.md).
 *
 *   npm run bench -w bench -- --db=postgres|pglite [--rows=1000000] [--others=20000] [--calls=200]
 *     [--starts=5] [--keep] [--skip-build] [--results=bench/RESULTS.md]
 *     [--pg-url=postgres://postgres@127.0.0.1:5432/postgres]
 *     [--cases=all|list|search] [--warmup=20] [--label=after] [--statement-timeout=3000]
 *
 * `--cases=search` measures only the substring searches of 1–4 characters (SEARCH_CASES), written to the
 * section `search:<db>:<label>`; the list cases go to `results:<db>`.
 *
 * 1. seeds the notices (PostgreSQL: database console_bench; PGlite: a data folder), through a server
 *    started in-process so that migrations and seed data run first;
 * 2. starts the server in-process on 127.0.0.1 and calls the list endpoint over HTTP, then runs the
 *    same statements directly (pg client / the server's PGlite instance), `calls` times per case;
 * 3. starts `node server/dist/main.js` on the same data `starts` times: time to answer /version.json and
 *    idle RSS;
 * 4. writes bench/RESULTS.md, and drops the database / data folder unless --keep.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig } from '@console/server/src/core/config.js';
import { createServer, type Server } from '@console/server/src/server.js';
import { type Db, schema } from '@console/server/src/core/db/index.js';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import {
  apiCall, type Case, CASES, directRunner, sample, SEARCH_CASES, signIn, type SqlRunner, startOnce, stats,
} from './measure.js';
import { type CaseResult, type DbResult, revision, writeResults } from './report.js';
import { dbOption, intOption, PG_DB, PGLITE_KEEP_DIR, PGLITE_MARKER, planOption, samePlan } from './data.js';
import { OTHER_TENANTS, type PgliteLike, type SeedPlan, seededPlan, seedPglite, seedPostgres } from './seed.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = dirname(here);
const IDLE_MS = 5000;

const { values: opt } = parseArgs({
  options: {
    db: { type: 'string', default: 'postgres' },
    rows: { type: 'string', default: '1000000' },
    others: { type: 'string', default: '20000' },
    calls: { type: 'string', default: '200' },
    starts: { type: 'string', default: '5' },
    keep: { type: 'boolean', default: false },
    'skip-build': { type: 'boolean', default: false },
    'pg-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
    results: { type: 'string', default: join(here, 'RESULTS.md') },
    cases: { type: 'string', default: 'all' },
    warmup: { type: 'string', default: '20' },
    label: { type: 'string', default: 'after' },
    /** STATEMENT_TIMEOUT_MS of the in-process server (default: the server's own, 3000); 0 lets slow searches finish */
    'statement-timeout': { type: 'string' },
  },
});

const db = dbOption(opt.db);
const plan = planOption(opt.rows, opt.others);
const calls = intOption('calls', opt.calls, 1, 10_000);
const starts = intOption('starts', opt.starts, 0, 20);
const WARMUP = intOption('warmup', opt.warmup, 0, 1000);
if (!['all', 'list', 'search'].includes(opt.cases)) throw new Error(`--cases must be all, list or search, got ${opt.cases}`);
const runList = opt.cases !== 'search';
const runSearch = opt.cases !== 'list';
const log = (s: string) => console.log(s);
/** 1-minute load average when the list measurements start and end: above ~1 means something else ran */
let loadBefore = 0;
let loadAfter = 0;

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function adminQuery(text: string): Promise<pg.QueryResult> {
  const c = new pg.Client({ connectionString: withDatabase(opt['pg-url'], 'postgres') });
  await c.connect();
  try {
    return await c.query(text);
  } finally {
    await c.end();
  }
}

const timeoutEnv: Record<string, string> = opt['statement-timeout'] === undefined ? {} : { STATEMENT_TIMEOUT_MS: String(intOption('statement-timeout', opt['statement-timeout'], 0, 600_000)) };
const startServer = (env: Record<string, string>, dataDir: string) => createServer(loadConfig({ LOG_LEVEL: 'warn', ...timeoutEnv, ...env }, { dataDir }));

/** The list cases over HTTP, then the same statements directly. */
async function measureCases(server: Server, runSql: SqlRunner): Promise<{ list: CaseResult[]; search: CaseResult[] }> {
  loadBefore = loadavg()[0]!;
  const base = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const token = await signIn(base);
  const list = runList ? await measureSet(base, token, runSql, CASES) : [];
  const search = runSearch ? await measureSet(base, token, runSql, SEARCH_CASES) : [];
  loadAfter = loadavg()[0]!;
  return { list, search };
}

async function measureSet(base: string, token: string, runSql: SqlRunner, cases: Case[]): Promise<CaseResult[]> {
  const out: CaseResult[] = [];
  for (const c of cases) {
    const call = apiCall(base, token, c);
    // untimed first call; retried once if the kept-alive connection was closed while idle (on PGlite the
    // SQL phase blocks the event loop for minutes, so the server's and fetch's keep-alive timers race)
    const matched = await call().catch((e: unknown) => {
      if ((e as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw e;
      return call();
    });
    const api = stats(await sample(calls, WARMUP, call));
    const sqlTotal = await runSql(c);
    if (sqlTotal !== matched) throw new Error(`${c.name}: API total ${matched} but SQL count ${sqlTotal}`);
    const sql = stats(await sample(calls, WARMUP, () => runSql(c)));
    const query = new URLSearchParams(c.query).toString();
    out.push({ name: c.name, query, matched, api, sql });
    log(`  ${c.name.padEnd(34)} ${String(matched).padStart(8)} rows  API ${api.median.toFixed(1)} / ${api.p95.toFixed(1)} ms`
      + `  SQL ${sql.median.toFixed(1)} / ${sql.p95.toFixed(1)} ms  (median / p95)`);
  }
  return out;
}


function buildServer(): string {
  const mainJs = join(root, 'server', 'dist', 'main.js');
  if (!opt['skip-build']) {
    log('building the server (npm run build -w server)');
    execFileSync('npm', ['run', 'build', '-w', 'server'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  if (!existsSync(mainJs)) throw new Error(`${mainJs} is missing: run npm run build -w server`);
  return mainJs;
}

async function measureStarts(mainJs: string, env: Record<string, string>) {
  const runs = [];
  if (starts > 0) log('measuring start-up of server/dist/main.js');
  for (let i = 0; i < starts; i++) {
    const r = await startOnce(mainJs, { LOG_LEVEL: 'warn', NODE_ENV: 'production', REDIS_URL: '', ...env }, IDLE_MS);
    log(`  start ${i + 1}: ${r.startMs.toFixed(0)} ms, idle RSS ${r.rssMb.toFixed(0)} MB`);
    runs.push(r);
  }
  return runs;
}


async function benchPostgres(mainJs: string): Promise<DbResult> {
  const url = withDatabase(opt['pg-url'], PG_DB);
  const exists = (await adminQuery(`select 1 from pg_database where datname = '${PG_DB}'`)).rowCount;
  if (!exists) await adminQuery(`create database ${PG_DB}`);
  const dataDir = await mkdtemp(join(tmpdir(), 'console-bench-'));
  const client = new pg.Client({ connectionString: url });
  let server: Server | undefined;
  try {
    server = await startServer({ DATABASE_URL: url }, dataDir); // migrations + seed data
    await client.connect();
    const query = (text: string) => client.query(text);
    const have = await seededPlan(query);
    if (samePlan(have, plan)) {
      log(`reusing the seeded database ${PG_DB}`);
      await client.query('vacuum analyze blade_notice'); // after a migration that rewrote the table: visibility map, statistics
    } else {
      log(`seeding ${PG_DB}: ${plan.rows} + ${OTHER_TENANTS.length} × ${plan.otherRows} notices`);
      await client.query('truncate blade_notice');
      await seedPostgres(client, plan, log);
    }
    const version = String((await client.query('select version() as v')).rows[0].v).replace(/ on .*/, '');
    const settings = await client.query(`select name, setting, unit from pg_settings
      where name in ('shared_buffers', 'work_mem', 'max_parallel_workers_per_gather', 'jit') order by name`);
    const engine = `${version}, settings (${settings.rows.map((r) => `${r.name}=${r.unit === '8kB' ? `${(Number(r.setting) * 8) / 1024}MB` : `${r.setting}${r.unit ?? ''}`}`).join(', ')})`;
    log(`measuring the list endpoint (${engine})`);
    const cases = await measureCases(server, directRunner(drizzlePg({ client, schema }) as unknown as Db, server.ctx.config.listCount));
    await server.close();
    server = undefined;
    await client.end();
    const runs = await measureStarts(mainJs, { DATABASE_URL: url, DATA_DIR: dataDir });
    return {
      db: 'postgres', engine, ...plan, calls, warmup: WARMUP, ...cases, starts: runs, date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC', revision: revision(), load: [loadBefore, loadAfter],
      transport: 'HTTP over loopback: fetch() to the in-process server (createServer + app.listen on 127.0.0.1), one keep-alive connection; SQL: the same statements (tenant transaction, bounded count or text match, page) through a direct pg.Client, no HTTP',
    };
  } finally {
    await server?.close();
    await client.end().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    if (!opt.keep) await adminQuery(`drop database if exists ${PG_DB} with (force)`);
  }
}

/** The PGlite client behind the server's drizzle instance. */
function pgliteOf(server: Server): PgliteLike {
  const client = (server.ctx.db as unknown as { $client?: PgliteLike }).$client;
  if (!client || typeof client.query !== 'function') throw new Error('the server does not run on PGlite');
  return client;
}

async function benchPglite(mainJs: string): Promise<DbResult> {
  const dataDir = opt.keep ? PGLITE_KEEP_DIR : await mkdtemp(join(tmpdir(), 'console-bench-pglite-'));
  const marker = join(dataDir, PGLITE_MARKER);
  const seeded = existsSync(marker) && samePlan(JSON.parse(readFileSync(marker, 'utf8')) as SeedPlan, plan);
  if (!seeded) rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  let server: Server | undefined;
  try {
    const env = { DATABASE_URL: '' };
    if (seeded) {
      log(`reusing the seeded data folder ${dataDir}`);
    } else {
      log(`seeding PGlite in ${dataDir}: ${plan.rows} + ${OTHER_TENANTS.length} × ${plan.otherRows} notices`);
      server = await startServer(env, dataDir); // migrations + seed data; not listening
      await seedPglite(pgliteOf(server), plan, log);
      await server.close();
      server = undefined;
      writeFileSync(marker, JSON.stringify(plan));
    }
    server = await startServer(env, dataDir); // a fresh instance for the measurements
    const client = pgliteOf(server);
    const have = await seededPlan((text) => client.query(text));
    if (!samePlan(have, plan)) throw new Error(`data folder holds ${JSON.stringify(have)}, expected ${JSON.stringify(plan)}`);
    if (seeded) await client.query('vacuum analyze blade_notice'); // PGlite has no autovacuum: after a migration that rewrote the table
    const version = (await client.query<{ v: string }>('select version() as v')).rows[0]!.v.replace(/ on .*/, '');
    const pkg = JSON.parse(readFileSync(join(root, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8')) as { version: string };
    const engine = `PGlite ${pkg.version} (${version}, WASM, in the server process)`;
    log(`measuring the list endpoint (${engine})`);
    const cases = await measureCases(server, directRunner(drizzlePglite({ client: client as never, schema }) as unknown as Db, server.ctx.config.listCount));
    await server.close();
    server = undefined;
    const runs = await measureStarts(mainJs, { DATABASE_URL: '', DATA_DIR: dataDir });
    return {
      db: 'pglite', engine, ...plan, calls, warmup: WARMUP, ...cases, starts: runs, date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC', revision: revision(), load: [loadBefore, loadAfter],
      transport: 'HTTP over loopback: fetch() to the in-process server (createServer + app.listen on 127.0.0.1), one keep-alive connection; SQL: the same statements (tenant transaction, bounded count or text match, page) on the server\'s own PGlite instance, no HTTP',
    };
  } finally {
    await server?.close();
    if (!opt.keep) rmSync(dataDir, { recursive: true, force: true });
  }
}

const mainJs = starts > 0 ? buildServer() : '';
const result = db === 'postgres' ? await benchPostgres(mainJs) : await benchPglite(mainJs);
writeResults(opt.results, result, opt.label);
log(`\nwritten to ${opt.results}${opt.keep ? ` (kept: ${db === 'postgres' ? `database ${PG_DB}` : PGLITE_KEEP_DIR})` : ''}`);
