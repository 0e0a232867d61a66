/**
 * Close to the ceilings (issue 30): what the console does beside what its own parts do alone, in one run, paired
 * rounds, medians (a busy machine moves both sides; the ratio is what counts).
 *
 * `--measure=list`: page 1 of the notice list (100,000 notices of the bench tenant), `--concurrency` callers for
 * `--seconds` each round:
 *   - the console: `server/dist/main.js` in a process of its own on PostgreSQL, called over HTTP (keep-alive);
 *   - the ceiling: the same statements (the tenant transaction, the bounded count, the page, built by the server's
 *     own filter and order code: measure.ts `directRunner`) through a plain `pg.Pool` of `--concurrency`
 *     connections from this process.
 *
 *   npm run bench:ceilings -w bench -- [--measure=list] [--rows=100000] [--seconds=10] [--rounds=3]
 *     [--concurrency=10] [--skip-build] [--keep] [--write] [--profile] [--pg-url=postgres://postgres@127.0.0.1:5432/postgres]
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig } from '@console/server/src/core/config.js';
import { type Db, schema } from '@console/server/src/core/db/index.js';
import { createServer } from '@console/server/src/server.js';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { intOption, samePlan, withDatabase } from './data.js';
import { BASIC, type Case, directRunner, freePort, LIST_PATH, signIn } from './measure.js';
import { machine, revision, writeSection } from './report.js';
import { type SeedPlan, seededPlan, seedPostgres } from './seed.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = dirname(here);
const DB = 'console_bench_ceilings';

const { values: opt } = parseArgs({
  options: {
    measure: { type: 'string', default: 'list' },
    rows: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '10' },
    'skip-build': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    write: { type: 'boolean', default: false },
    /** the server's CPU profile while the console's rounds run: its heaviest functions by self time */
    profile: { type: 'boolean', default: false },
    'pg-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
if (opt.measure !== 'list') throw new Error(`--measure: list is the one measured so far, got ${opt.measure}`);
const plan: SeedPlan = { rows: intOption('rows', opt.rows, 1000, 10_000_000), otherRows: 1000 };
const SECONDS = intOption('seconds', opt.seconds, 1, 600);
const ROUNDS = intOption('rounds', opt.rounds, 1, 20);
const CONCURRENCY = intOption('concurrency', opt.concurrency, 1, 200);
const log = (s: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${s}`);
const PAGE_ONE: Case = { name: 'page 1', query: { current: '1', size: '10' } };
const profileDir = join(tmpdir(), `console-bench-profile-${process.pid}`);

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface CpuProfile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

/** the profile's functions by self time, heaviest first: `share` of all samples, where */
function heaviest(profile: CpuProfile, top: number): Array<{ share: number; where: string }> {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  // the process waiting (the rounds of the ceiling, the pauses) is no work
  const busy = profile.samples.filter((id) => byNode.get(id)!.callFrame.functionName !== '(idle)');
  for (const id of busy) {
    const f = byNode.get(id)!.callFrame;
    const file = f.url.replace(/^.*\/node_modules\//, '').replace(/^.*\/server\/dist\//, 'dist/').replace(/^file:\/\//, '');
    const key = `${f.functionName || '(anonymous)'} ${file ? `${file}:${f.lineNumber + 1}` : ''}`.trim();
    self.set(key, (self.get(key) ?? 0) + 1);
  }
  const total = busy.length;
  return [...self].sort((a, b) => b[1] - a[1]).slice(0, top).map(([where, n]) => ({ share: n / total, where }));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** `CONCURRENCY` callers of `call` for `SECONDS`: completed calls per second (a failed call stops the run) */
async function rate(call: () => Promise<void>): Promise<number> {
  const end = performance.now() + SECONDS * 1000;
  let done = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (performance.now() < end) {
      await call();
      done += 1;
    }
  }));
  return done / ((performance.now() - started) / 1000);
}

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

async function startProduct(url: string, dataDir: string): Promise<{ port: number; child: ChildProcess }> {
  const mainJs = join(root, 'server', 'dist', 'main.js');
  if (!opt['skip-build'] || !existsSync(mainJs)) {
    log('building the server (npm run build -w server)');
    execFileSync('npm', ['run', 'build', '-w', 'server'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const port = await freePort();
  const profiling = opt.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawn(process.execPath, ['--max-old-space-size=512', ...profiling, mainJs], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: url, DATA_DIR: dataDir, REDIS_URL: '', NODE_ENV: 'production', LOG_LEVEL: 'warn', MQTT_PORT: 'off' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 300; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/version.json`).then((r) => r.ok, () => false);
    if (ok) return { port, child };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('the server did not answer within 30 s');
}

async function main(): Promise<void> {
  const admin = new pg.Client({ connectionString: withDatabase(opt['pg-url'], 'postgres') });
  await admin.connect();
  if (!(await admin.query(`select 1 from pg_database where datname = '${DB}'`)).rowCount) await admin.query(`create database ${DB}`);
  const url = withDatabase(opt['pg-url'], DB);
  const dataDir = await mkdtemp(join(tmpdir(), 'console-bench-ceilings-'));
  let child: ChildProcess | undefined;
  const pool = new pg.Pool({ connectionString: url, max: CONCURRENCY });
  // an idle connection ended by the database's drop at the end is no error of the run
  pool.on('error', () => undefined);
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

    const product = await startProduct(url, dataDir);
    child = product.child;
    const token = await signIn(`http://127.0.0.1:${product.port}`);
    const api = listCall(product.port, token);
    const runSql = directRunner(drizzle({ client: pool, schema }) as unknown as Db, limits);
    const direct = async () => {
      await runSql(PAGE_ONE);
    };
    // warm both: plans cached, connections open
    for (let i = 0; i < 50; i++) await Promise.all([api(), direct()]);

    const loadBefore = loadavg()[0]!;
    const apiRates: number[] = [];
    const sqlRates: number[] = [];
    for (let r = 1; r <= ROUNDS; r++) {
      apiRates.push(await rate(api));
      sqlRates.push(await rate(direct));
      log(`round ${r}: console ${apiRates.at(-1)!.toFixed(0)} req/s, the same statements through pg.Pool(${CONCURRENCY}) ${sqlRates.at(-1)!.toFixed(0)} req/s`);
    }
    const loadAfter = loadavg()[0]!;
    const a = median(apiRates);
    const s = median(sqlRates);
    const report = [
      `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} on ${machine()}, revision ${revision()}: page 1 (10 rows) of the notice list of a tenant `
        + `holding ${plan.rows.toLocaleString('en')} notices, ${CONCURRENCY} concurrent callers, ${ROUNDS} paired rounds of ${SECONDS} s, PostgreSQL `
        + `(${(await pool.query('show server_version')).rows[0].server_version}). The console: server/dist/main.js in its own process, over HTTP with kept-alive connections. `
        + `The ceiling: the same statements (the tenant transaction, the bounded count, the page) through a plain pg.Pool(${CONCURRENCY}). Load average ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)}.`,
      '',
      '| measure | console (median req/s) | ceiling (median req/s) | ratio | rounds (console / ceiling) |',
      '|---|---:|---:|---:|---|',
      `| notice list page 1, ${plan.rows.toLocaleString('en')} rows, ${CONCURRENCY} concurrent | ${a.toFixed(0)} | ${s.toFixed(0)} | ${(a / s).toFixed(2)} | `
        + `${apiRates.map((x) => x.toFixed(0)).join(', ')} / ${sqlRates.map((x) => x.toFixed(0)).join(', ')} |`,
    ].join('\n');
    console.log(`\n${report}\n`);
    if (opt.write) writeSection(join(here, 'RESULTS.md'), 'ceilings-list-postgres', report);
    if (opt.profile) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
      if (!file) throw new Error('the server wrote no CPU profile');
      const rows = heaviest(JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as CpuProfile, 30);
      console.log(`the server's heaviest functions by self time (whole run, warm-up and rounds):\n${rows.map((r) => `${(r.share * 100).toFixed(1).padStart(5)} %  ${r.where}`).join('\n')}`);
    }
  } finally {
    rmSync(profileDir, { recursive: true, force: true });
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await pool.end();
    rmSync(dataDir, { recursive: true, force: true });
    if (!opt.keep) await admin.query(`drop database if exists ${DB} with (force)`);
    await admin.end();
  }
}

await main();
process.exit(0);
