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
import { Agent, request } from 'node:http';
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
import { log, median, profileReport, RESULTS, rate, startBuiltServer } from './common.js';

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

/** one list call over a kept-alive connection; fails on anything but a full page */
function listCall(port: number, token: string): () => Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const path = `${LIST_PATH}?${new URLSearchParams(PAGE_ONE.query)}`;
  const headers = { authorization: BASIC, 'blade-auth': `bearer ${token}` };
  return () => new Promise<void>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { code: number; data?: { records: unknown[] } };
        if (res.statusCode !== 200 || body.data?.records.length !== Number(PAGE_ONE.query.size)) reject(new Error(`list: ${res.statusCode} ${JSON.stringify(body).slice(0, 200)}`));
        else resolve();
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

interface Paired { console: number[]; ceiling: number[]; loadBefore: number; loadAfter: number; engine: string }

/** warm both sides, then `ROUNDS` paired rounds */
async function pairedRounds(api: () => Promise<void>, direct: () => Promise<void>): Promise<Omit<Paired, 'engine'>> {
  for (let i = 0; i < 50; i++) await Promise.all([api(), direct()]);
  const loadBefore = loadavg()[0]!;
  const apiRates: number[] = [];
  const sqlRates: number[] = [];
  for (let r = 1; r <= ROUNDS; r++) {
    apiRates.push(await rate(api, SECONDS, CONCURRENCY));
    sqlRates.push(await rate(direct, SECONDS, CONCURRENCY));
    log(`round ${r}: console ${apiRates.at(-1)!.toFixed(0)} req/s, the same statements alone ${sqlRates.at(-1)!.toFixed(0)} req/s`);
  }
  return { console: apiRates, ceiling: sqlRates, loadBefore, loadAfter: loadavg()[0]! };
}

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
    });
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
    const paired = await pairedRounds(listCall(Number(new URL(base).port), token), async () => {
      await runSql(PAGE_ONE);
    });
    const version = (await client.query<{ v: string }>('select version() as v')).rows[0]!.v.split(' ').slice(0, 2).join(' ');
    return { ...paired, engine: `PGlite (${version}, WASM, in this process)` };
  } finally {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
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
    '| measure | console (median req/s) | ceiling (median req/s) | ratio | rounds (console / ceiling) |',
    '|---|---:|---:|---:|---|',
    `| notice list page 1, ${plan.rows.toLocaleString('en')} rows, ${CONCURRENCY} concurrent | ${a.toFixed(0)} | ${s.toFixed(0)} | ${(a / s).toFixed(2)} | `
      + `${p.console.map((x) => x.toFixed(0)).join(', ')} / ${p.ceiling.map((x) => x.toFixed(0)).join(', ')} |`,
  ].join('\n');
}

for (const db of dbs) {
  log(`the list on ${db}`);
  const text = report(db, db === 'postgres' ? await onPostgres() : await onPglite());
  console.log(`\n${text}\n`);
  if (opt.write) writeSection(RESULTS, `ceilings-list-${db}`, text);
}
