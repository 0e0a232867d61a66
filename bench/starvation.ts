/**
 * Starvation benchmark ("one request never starves the others"), bench/RESULTS.md section "Starvation":
 *
 *   npm run bench:starvation -w bench -- --db=postgres|pglite [--rows=1000000] [--others=20000]
 *     [--seconds=8] [--settle=2] [--signins=50] [--searches=10] [--search=召回] [--probe-ms=50]
 *     [--keep] [--skip-build | --rev=<commit>] [--redis] [--redis-url=redis://127.0.0.1:6379] [--proxy-addresses]
 *     [--pg-url=postgres://postgres@127.0.0.1:5432/postgres] [--label=before] [--results=bench/RESULTS.md]
 *     [--print-only]
 *
 * 1. builds the server (`npm run build -w server`; `--skip-build` uses server/dist as it is; `--rev=<commit>`
 *    builds that commit's server/ and contract/ from `git archive` in bench/.data/rev-<sha>/, so a
 *    measurement is not disturbed by edits in the working tree);
 * 2. prepares the data shared with run.ts (database `console_bench` / folder `$TMPDIR/console-bench-pglite`,
 *    reused when it holds the same row counts): the build migrates it, then the notices are loaded
 *    (seed.ts); counts the search term's matches directly in SQL;
 * 3. starts `node <build>/main.js` as a process of its own on 127.0.0.1 and, from this process, runs three
 *    phases of `seconds` each, always with one client calling list page 1 one call after the other and a
 *    `/version.json` probe every `probe-ms`:
 *      quiet · `signins` clients looping the password grant of one account (admin of 541742, correct
 *      password) · `searches` clients looping a worst-case substring search (`title=<search>`);
 * 4. prints the tables and writes its section of RESULTS.md (between `<!-- starvation:<db>[:<label>] -->`
 *    markers; the rest of the file is left as it is). Drops the data it seeded unless --keep.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { mkdtemp } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CONSOLE_CLIENT } from '@console/contract';
import pg from 'pg';
import {
  appliedMigrations, openPgliteFolder, PG_DB, pgDatabaseExists, PGLITE_KEEP_DIR, PGLITE_MARKER, pgliteMarkedPlan,
  pgSeededPlan, queryOnce, samePlan, withDatabase, dbOption, intOption, planOption,
} from './data.js';
import { type Call, closedLoop, type Notes, openLoop, type Outcome, request, type Sample, tally, type Target } from './load.js';
import { freePort, LIST_PATH, signIn, stats } from './measure.js';
import { machine } from './report.js';
import { BENCH_TENANT, OTHER_TENANTS, seedPglite, seedPostgres } from './seed.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = dirname(here);

const { values: opt } = parseArgs({
  options: {
    db: { type: 'string', default: 'postgres' },
    rows: { type: 'string', default: '1000000' },
    others: { type: 'string', default: '20000' },
    seconds: { type: 'string', default: '8' },
    settle: { type: 'string', default: '2' },
    signins: { type: 'string', default: '50' },
    searches: { type: 'string', default: '10' },
    // Worst case until migration 0012: two word characters give pg_trgm no trigram, so app_text_match read
    // every row of the tenant while it found at most LIST_TEXT_MATCH_LIMIT matches (since 0009 the grams
    // index answers it at once; a search on the content, which has no grams, is the scan now). 召回 ("recall") is in no title. The data
    // has no such term with 1–1,000 matches: in-word pairs are in ≥ 1/28 of the titles, pairs across two
    // words in ~0.25% (e.g. 于关: 2,440 per million, and LIMIT 1001 stops the scan early), and a character
    // next to punctuation gets a trigram (】关: 363 rows, found through the index in ~0.15 s).
    search: { type: 'string', default: '召回' },
    'probe-ms': { type: 'string', default: '50' },
    keep: { type: 'boolean', default: false },
    'skip-build': { type: 'boolean', default: false },
    rev: { type: 'string' },
    redis: { type: 'boolean', default: false },
    // the server trusts X-Forwarded-For (TRUST_PROXY=true, as behind a reverse proxy) and each sign-in client
    // sends an address of its own, so the per-address sign-in budget applies per client, not to the storm
    'proxy-addresses': { type: 'boolean', default: false },
    'redis-url': { type: 'string', default: 'redis://127.0.0.1:6379' },
    'pg-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
    label: { type: 'string' },
    results: { type: 'string', default: join(here, 'RESULTS.md') },
    'print-only': { type: 'boolean', default: false },
  },
});

const db = dbOption(opt.db);
const plan = planOption(opt.rows, opt.others);
const SECONDS = intOption('seconds', opt.seconds, 1, 600);
const SETTLE = intOption('settle', opt.settle, 0, 60);
const SIGNINS = intOption('signins', opt.signins, 1, 500);
const SEARCHES = intOption('searches', opt.searches, 1, 200);
const PROBE_MS = intOption('probe-ms', opt['probe-ms'], 5, 10_000);
const SEARCH = opt.search;
if (!SEARCH) throw new Error('--search must not be empty');
if (opt.rev && opt['skip-build']) throw new Error('--rev builds that commit; it does not go with --skip-build');
if (opt.label && !/^[\w.-]{1,40}$/.test(opt.label)) throw new Error('--label: letters, digits, . _ - only');
/** a call that gets no answer in this time counts as failed (a PGlite backlog can take tens of seconds) */
const CALL_TIMEOUT_MS = 180_000;
const log = (s: string) => console.log(s);
const BASIC = `Basic ${Buffer.from(`${CONSOLE_CLIENT.id}:${CONSOLE_CLIENT.secret}`).toString('base64')}`;

// ---------- the server build ----------

interface Build {
  mainJs: string;
  revision: string;
  /** migrations the build knows (drizzle journal) */
  migrations: number;
}

const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();

function serverBuild(): Build {
  let mainJs = join(root, 'server', 'dist', 'main.js');
  let revision: string;
  if (opt.rev) {
    const sha = git('rev-parse', '--verify', `${opt.rev}^{commit}`);
    const short = sha.slice(0, 7);
    const dir = join(here, '.data', `rev-${short}`);
    mainJs = join(dir, 'server', 'dist', 'main.js');
    if (!existsSync(mainJs)) {
      log(`building the server of ${short} (git archive into ${dir})`);
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(join(dir, 'node_modules', '@console'), { recursive: true });
      execFileSync('sh', ['-c', 'git archive --format=tar "$0" server contract tsconfig.base.json | tar -x -C "$1"', sha, dir], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
      // the bundle takes @console/contract from the commit too; every other package from the root node_modules
      symlinkSync('../../contract', join(dir, 'node_modules', '@console', 'contract'));
      execFileSync(process.execPath, ['build.mjs'], { cwd: join(dir, 'server'), stdio: ['ignore', 'ignore', 'inherit'] });
    } else {
      log(`using the server built from ${short} (${mainJs})`);
    }
    revision = `${short} (built from the commit alone with git archive; the working tree was not used)`;
  } else {
    if (!opt['skip-build']) {
      log('building the server (npm run build -w server)');
      execFileSync('npm', ['run', 'build', '-w', 'server'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    }
    try {
      revision = `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--', 'server', 'contract') ? ' + uncommitted changes in server/ or contract/' : ''}`;
    } catch {
      revision = 'unknown (no git)';
    }
  }
  if (!existsSync(mainJs)) throw new Error(`${mainJs} is missing: run npm run build -w server`);
  const journal = JSON.parse(readFileSync(join(dirname(dirname(mainJs)), 'drizzle', 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
  return { mainJs, revision, migrations: journal.entries.length };
}

// ---------- the server process ----------

interface ServerProc {
  port: number;
  pid: number;
  /** CPU seconds (user + system) the process has used */
  cpuSeconds(): number;
  /** the last lines it wrote, and how many pino lines at error level or above */
  tail: string[];
  errors: () => { count: number; first?: string };
  stop(): Promise<void>;
}

const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

let running: ServerProc | undefined;

async function startServer(mainJs: string, env: Record<string, string>, timeoutMs: number): Promise<ServerProc> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [mainJs], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tail: string[] = [];
  let errorCount = 0;
  let firstError: string | undefined;
  const onData = (d: Buffer) => {
    for (const line of d.toString().split('\n')) {
      if (!line.trim()) continue;
      const level = /"level":(\d+)/.exec(line);
      if (level && Number(level[1]) >= 50) {
        errorCount++;
        firstError ??= line.slice(0, 500);
      }
      tail.push(line.slice(0, 500));
      if (tail.length > 40) tail.shift();
    }
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  let exited: number | null | undefined;
  const exit = new Promise<void>((resolve) => child.once('exit', (code) => {
    exited = code;
    resolve();
  }));
  const proc: ServerProc = {
    port,
    pid: child.pid!,
    tail,
    errors: () => ({ count: errorCount, first: firstError }),
    cpuSeconds() {
      const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(rest[11]) + Number(rest[12])) / CLK_TCK;
    },
    async stop() {
      if (running === proc) running = undefined;
      if (exited !== undefined) return;
      child.kill('SIGTERM');
      const done = await Promise.race([exit.then(() => true), sleep(20_000).then(() => false)]);
      if (!done) {
        child.kill('SIGKILL');
        await exit;
      }
    },
  };
  running = proc;
  const t0 = performance.now();
  while (performance.now() - t0 < timeoutMs) {
    if (exited !== undefined) throw new Error(`the server exited (${exited}) before answering:\n${tail.join('\n')}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/version.json`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status === 200) return proc;
    } catch {
      /* not listening yet */
    }
    await sleep(100);
  }
  await proc.stop();
  throw new Error(`the server did not answer /version.json within ${timeoutMs} ms:\n${tail.join('\n')}`);
}

process.once('SIGINT', () => {
  void (running?.stop() ?? Promise.resolve()).finally(() => process.exit(130));
});

// ---------- the data ----------

const escapeLike = (v: string) => v.replace(/[\\%_]/g, '\\$&');
const MATCH_SQL = `select count(*)::int as n from blade_notice where tenant_id = $1 and is_deleted = 0 and title ilike $2`;

interface Prepared {
  env: Record<string, string>;
  /** live notices of the bench tenant whose title contains SEARCH, counted in SQL, and how long the count took */
  matches: number;
  matchMs: number;
  /** migrations applied to the database, -1 unknown */
  applied: number;
  seededNow: boolean;
  cleanup(): Promise<void>;
}

async function preparePostgres(build: Build, baseEnv: Record<string, string>): Promise<Prepared> {
  const adminUrl = opt['pg-url'];
  const url = withDatabase(adminUrl, PG_DB);
  const dataDir = await mkdtemp(join(tmpdir(), 'console-bench-starvation-'));
  const env = { ...baseEnv, DATABASE_URL: url, DATA_DIR: dataDir };
  let seededNow = false;
  if (!(await pgDatabaseExists(adminUrl, PG_DB))) await queryOnce(withDatabase(adminUrl, 'postgres'), `create database ${PG_DB}`);
  const have = await pgSeededPlan(url);
  if (have && samePlan(have, plan)) {
    log(`reusing the seeded database ${PG_DB}`);
  } else {
    log(`migrating ${PG_DB} with the build (a server start)`);
    await (await startServer(build.mainJs, env, 600_000)).stop();
    log(`seeding ${PG_DB}: ${plan.rows} + ${OTHER_TENANTS.length} × ${plan.otherRows} notices`);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('truncate blade_notice');
      await seedPostgres(client, plan, log);
    } finally {
      await client.end();
    }
    seededNow = true;
  }
  const t = performance.now();
  const matches = Number((await queryOnce(url, MATCH_SQL, [BENCH_TENANT, `%${escapeLike(SEARCH)}%`])).rows[0].n);
  const matchMs = performance.now() - t;
  return {
    env, matches, matchMs, applied: -1, seededNow,
    async cleanup() {
      rmSync(dataDir, { recursive: true, force: true });
      if (!opt.keep && seededNow) await queryOnce(withDatabase(adminUrl, 'postgres'), `drop database if exists ${PG_DB} with (force)`);
    },
  };
}

function lockHolder(dir: string): number | null {
  const file = join(dir, 'console.lock');
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, 'utf8').trim());
  if (!pid) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM' ? pid : null;
  }
}

async function preparePglite(build: Build, baseEnv: Record<string, string>): Promise<Prepared> {
  const dir = PGLITE_KEEP_DIR;
  const env = { ...baseEnv, DATABASE_URL: '', DATA_DIR: dir };
  const holder = lockHolder(dir);
  if (holder) throw new Error(`${dir} is in use by process ${holder} (another bench run?)`);
  const have = pgliteMarkedPlan(dir);
  let seededNow = false;
  if (have && samePlan(have, plan)) {
    log(`reusing the seeded data folder ${dir}`);
  } else {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    log(`migrating ${dir} with the build (a server start)`);
    await (await startServer(build.mainJs, env, 600_000)).stop();
    log(`seeding PGlite in ${dir}: ${plan.rows} + ${OTHER_TENANTS.length} × ${plan.otherRows} notices`);
    const client = await openPgliteFolder(dir);
    try {
      await seedPglite(client, plan, log);
    } finally {
      await client.close();
    }
    writeFileSync(join(dir, PGLITE_MARKER), JSON.stringify(plan));
    seededNow = true;
  }
  log('counting the search term\'s matches in SQL (a PGlite instance of the bench\'s own, before the server starts)');
  const client = await openPgliteFolder(dir);
  let matches: number;
  let matchMs: number;
  let applied: number;
  try {
    const t = performance.now();
    matches = Number((await client.query<{ n: number }>(MATCH_SQL, [BENCH_TENANT, `%${escapeLike(SEARCH)}%`])).rows[0]!.n);
    matchMs = performance.now() - t;
    applied = await appliedMigrations((text) => client.query(text));
  } finally {
    await client.close();
  }
  return {
    env, matches, matchMs, applied, seededNow,
    async cleanup() {
      if (!opt.keep && seededNow) rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ---------- the clients ----------

interface Envelope {
  code?: number;
  msg?: string;
  error_description?: string;
  access_token?: string;
  data?: { total?: number; records?: unknown[] };
}

function parse(body: string): Envelope {
  try {
    return JSON.parse(body) as Envelope;
  } catch {
    return {};
  }
}

function clients(target: Target, token: string) {
  const agent = (maxSockets: number) => new http.Agent({ keepAlive: true, maxSockets });
  const listAgent = agent(1);
  const probeAgent = agent(256);
  const signInAgent = agent(SIGNINS);
  const searchAgent = agent(SEARCHES);
  const auth = { authorization: BASIC, 'blade-auth': `bearer ${token}` };
  const listPath = `${LIST_PATH}?${new URLSearchParams({ current: '1', size: '10' })}`;
  const searchPath = `${LIST_PATH}?${new URLSearchParams({ current: '1', size: '10', title: SEARCH })}`;
  const signInPath = `/api/blade-auth/oauth/token?${new URLSearchParams({
    grant_type: 'password', tenantId: BENCH_TENANT, username: 'admin', password: createHash('md5').update('admin').digest('hex'), scope: 'all', type: 'account',
  })}`;
  const refusal = (status: number, b: Envelope): Outcome => ({ ok: false, key: String(status), note: (b.msg ?? b.error_description ?? '').slice(0, 200) });

  const list: Call = async () => {
    const r = await request(target, listAgent, 'GET', listPath, auth, CALL_TIMEOUT_MS);
    const b = parse(r.body);
    if (r.status !== 200 || b.code !== 200) return refusal(r.status, b);
    if (b.data?.records?.length !== 10) return { ok: false, key: 'short page', note: `${b.data?.records?.length} records` };
    return { ok: true, key: '200' };
  };
  const version: Call = async () => {
    const r = await request(target, probeAgent, 'GET', '/version.json', {}, CALL_TIMEOUT_MS);
    return { ok: r.status === 200, key: String(r.status) };
  };
  let nextClient = 0;
  /** one sign-in client: with --proxy-addresses each has an address of its own (10.77.x.y) */
  const signInClient = (): Call => {
    const i = nextClient++;
    const headers: Record<string, string> = { authorization: BASIC, 'tenant-id': BENCH_TENANT };
    if (opt['proxy-addresses']) headers['x-forwarded-for'] = `10.77.${(i >> 8) & 255}.${(i & 255) + 1}`;
    return async () => {
      const r = await request(target, signInAgent, 'POST', signInPath, headers, CALL_TIMEOUT_MS);
      const b = parse(r.body);
      if (r.status === 200 && b.access_token) return { ok: true, key: '200' };
      return refusal(r.status, b);
    };
  };
  const search: Call = async () => {
    const r = await request(target, searchAgent, 'GET', searchPath, auth, CALL_TIMEOUT_MS);
    const b = parse(r.body);
    if (r.status !== 200 || b.code !== 200) return refusal(r.status, b);
    return { ok: true, key: '200', note: `total ${b.data?.total}` };
  };
  const close = () => [listAgent, probeAgent, signInAgent, searchAgent].forEach((a) => a.destroy());
  return { list, version, signInClient, search, close };
}

// ---------- PostgreSQL connections of the server, sampled during a phase ----------

interface PgPeak {
  conns: number;
  active: number;
  lockWaits: number;
}

function pgSampler(url: string) {
  const client = new pg.Client({ connectionString: url });
  const ready = client.connect();
  return {
    /** samples every 250 ms until the returned stop() */
    start() {
      const peak: PgPeak = { conns: 0, active: 0, lockWaits: 0 };
      let stopped = false;
      const loop = (async () => {
        await ready;
        while (!stopped) {
          const { rows } = await client.query(`select count(*)::int as conns,
              count(*) filter (where state = 'active')::int as active,
              count(*) filter (where wait_event_type = 'Lock')::int as lock_waits
            from pg_stat_activity where datname = $1 and backend_type = 'client backend' and pid <> pg_backend_pid()`, [PG_DB]);
          const r = rows[0] as { conns: number; active: number; lock_waits: number };
          peak.conns = Math.max(peak.conns, r.conns);
          peak.active = Math.max(peak.active, r.active);
          peak.lockWaits = Math.max(peak.lockWaits, r.lock_waits);
          await sleep(250);
        }
      })();
      return async () => {
        stopped = true;
        await loop;
        return peak;
      };
    },
    close: () => client.end(),
  };
}

// ---------- phases ----------

interface Latency {
  n: number;
  /** answers that arrived within the phase */
  inWindow: number;
  perSecond: number;
  p50: number;
  p95: number;
  max: number;
  failed: number;
  tally: Array<[string, number]>;
  notes: Notes;
}

function latency(samples: Sample[], deadline: number, seconds: number, notes: Notes): Latency {
  const inWindow = samples.filter((s) => s.end <= deadline).length;
  const ms = samples.map((s) => s.end - s.start);
  const st = ms.length ? stats(ms) : { median: NaN, p95: NaN, max: NaN };
  return {
    n: samples.length, inWindow, perSecond: inWindow / seconds, p50: st.median, p95: st.p95, max: st.max,
    failed: samples.filter((s) => !s.ok).length, tally: tally(samples), notes,
  };
}

interface Phase {
  name: string;
  storm?: { kind: 'sign-in' | 'search'; clients: number; result: Latency };
  list: Latency;
  version: Latency;
  /** ms after the phase's end until every client's last call had answered */
  drainMs: number;
  load: [number, number];
  /** server process CPU, % of one core */
  cpuPct: number;
  /** this process's event-loop delay: p99 and max (ms); high values mean the load generator itself lagged */
  lag: [number, number];
  pg?: PgPeak;
}

async function runPhase(
  name: string, server: ServerProc, c: ReturnType<typeof clients>, storm: { kind: 'sign-in' | 'search'; clients: number; call: () => Call } | undefined,
  sampler: ReturnType<typeof pgSampler> | undefined,
): Promise<Phase> {
  log(`phase "${name}" (${SECONDS} s)`);
  const load0 = loadavg()[0]!;
  const cpu0 = server.cpuSeconds();
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const stopSampler = sampler?.start();
  const t0 = performance.now();
  const deadline = t0 + SECONDS * 1000;
  const list: Sample[] = [];
  const version: Sample[] = [];
  const stormSamples: Sample[] = [];
  const notes = { list: new Map(), version: new Map(), storm: new Map() } satisfies Record<string, Notes>;
  const loops = [closedLoop(c.list, deadline, list, notes.list), openLoop(c.version, PROBE_MS, deadline, version, notes.version)];
  for (let i = 0; storm && i < storm.clients; i++) loops.push(closedLoop(storm.call(), deadline, stormSamples, notes.storm));
  await Promise.all(loops);
  const end = performance.now();
  lag.disable();
  const pgPeak = await stopSampler?.();
  const phase: Phase = {
    name,
    list: latency(list, deadline, SECONDS, notes.list),
    version: latency(version, deadline, SECONDS, notes.version),
    drainMs: end - deadline,
    load: [load0, loadavg()[0]!],
    cpuPct: ((server.cpuSeconds() - cpu0) / ((end - t0) / 1000)) * 100,
    lag: [lag.percentile(99) / 1e6, lag.max / 1e6],
    pg: pgPeak,
  };
  if (storm) phase.storm = { kind: storm.kind, clients: storm.clients, result: latency(stormSamples, deadline, SECONDS, notes.storm) };
  log(`  list ${phase.list.perSecond.toFixed(1)} req/s, p50 ${phase.list.p50.toFixed(1)} / p95 ${phase.list.p95.toFixed(1)} / max ${phase.list.max.toFixed(1)} ms`
    + `, /version.json p95 ${phase.version.p95.toFixed(1)} / max ${phase.version.max.toFixed(1)} ms`
    + (phase.storm ? `; ${storm!.kind}: ${phase.storm.result.n} answers (${phase.storm.result.tally.map(([k, n]) => `${k}: ${n}`).join(', ')}), p95 ${phase.storm.result.p95.toFixed(0)} ms` : '')
    + `; drain ${(phase.drainMs / 1000).toFixed(1)} s`);
  return phase;
}

// ---------- report ----------

const f1 = (v: number) => (Number.isFinite(v) ? v.toLocaleString('en', { minimumFractionDigits: 1, maximumFractionDigits: 1 }) : '–');
const f0 = (v: number) => (Number.isFinite(v) ? v.toLocaleString('en', { maximumFractionDigits: 0 }) : '–');
const mark = (ok: boolean) => (ok ? '✅' : '❌');
const tallyText = (t: Array<[string, number]>) => t.map(([k, n]) => `${k}: ${n.toLocaleString('en')}`).join(', ') || '–';

interface Run {
  engine: string;
  build: Build;
  prepared: Prepared;
  solo: Array<{ ms: number; status: number; total?: number; msg?: string }>;
  phases: Phase[];
  loadBefore: number[];
  date: string;
  kv: string;
  serverErrors: { count: number; first?: string };
}

function render(r: Run): string {
  const title = db === 'postgres' ? 'PostgreSQL' : 'PGlite (embedded)';
  const [quiet, signIns, searches] = r.phases as [Phase, Phase, Phase];
  const ratio = (p: Phase) => p.list.perSecond / quiet.list.perSecond;
  const lines = [
    `### Starvation: ${title}${opt.label ? ` (${opt.label})` : ''}`,
    '',
    `${r.engine}, ${machine()}. Run ${r.date} on revision ${r.build.revision}. Data: ${plan.rows.toLocaleString('en')} notices for tenant `
      + `${BENCH_TENANT} and ${plan.otherRows.toLocaleString('en')} for each of ${OTHER_TENANTS.length} other tenants. The server: `
      + `\`node ${relative(root, r.build.mainJs)}\` as a process of its own on 127.0.0.1 (cache: ${r.kv}), driven over loopback from the bench's `
      + `process. Phases of ${SECONDS} s, ${SETTLE} s apart; in each, one client calls list page 1 (\`current=1&size=10\`, tenant `
      + `admin's token) one call after the other on one keep-alive connection, and \`/version.json\` is called every ${PROBE_MS} ms `
      + `without waiting for earlier answers. Sign-in storm: ${SIGNINS} clients, each one password grant after the other for `
      + `\`admin\` of ${BENCH_TENANT} with the correct password, ${opt['proxy-addresses']
        ? 'each from an address of its own (`X-Forwarded-For` to a server started with `TRUST_PROXY=true`)'
        : 'all from 127.0.0.1 (one address: the per-address sign-in budget applies to the whole storm)'}. Search storm: ${SEARCHES} clients, each \`title=${SEARCH}\` after the `
      + `other: ${r.prepared.matches.toLocaleString('en')} live rows of the tenant match (counted in SQL as superuser, no RLS: `
      + `${f0(r.prepared.matchMs)} ms). Load average (1 / 5 / 15 min) before the run: ${r.loadBefore.map((v) => v.toFixed(2)).join(' / ')}. `
      + 'Times in ms; "req/s" counts answers that arrived within the phase, latencies include calls that answered after it.',
    '',
    '| phase | list req/s | vs quiet | list p50 | list p95 | list max | list answers | `/version.json` p95 | `/version.json` max | server CPU | load (1 min) start → end |',
    '|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---|',
  ];
  for (const p of r.phases) {
    lines.push(`| ${p.name} | ${f1(p.list.perSecond)} | ${p === quiet ? '–' : `${f0(ratio(p) * 100)}%`} | ${f1(p.list.p50)} | ${f1(p.list.p95)} | ${f1(p.list.max)} | `
      + `${tallyText(p.list.tally)} | ${f1(p.version.p95)} | ${f1(p.version.max)} | ${f0(p.cpuPct)}% | ${p.load[0].toFixed(2)} → ${p.load[1].toFixed(2)} |`);
  }
  lines.push('', '| storm | clients | answers | answers/s | by status | p50 | p95 | max | last answer after the phase |', '|---|---:|---:|---:|---|---:|---:|---:|---:|');
  for (const p of r.phases) {
    if (!p.storm) continue;
    const s = p.storm.result;
    lines.push(`| ${p.storm.kind} | ${p.storm.clients} | ${s.n.toLocaleString('en')} | ${f1(s.perSecond)} | ${tallyText(s.tally)} | ${f0(s.p50)} | ${f0(s.p95)} | ${f0(s.max)} | ${f0(p.drainMs)} |`);
  }
  const solo = r.solo.map((s) => `${f0(s.ms)} ms (${s.status}${s.total !== undefined ? `, total ${s.total.toLocaleString('en')}` : ''}${s.msg ? `: ${s.msg}` : ''})`).join(', ');
  lines.push('', `One worst-case search alone, before the phases: ${solo}.`);

  const listTarget = (p: Phase) => ratio(p) >= 0.5 && p.list.p95 < 50;
  const listText = (p: Phase) => `${f0(ratio(p) * 100)}% of quiet, p95 ${f1(p.list.p95)} ms`;
  const versionMax = Math.max(signIns.version.max, searches.version.max);
  const pgTargets = db === 'postgres';
  lines.push(
    '',
    'Targets ("one request never starves the others"):',
    '',
    `- list page 1 during ${SIGNINS} sign-ins keeps ≥ 50% of its quiet throughput and p95 < 50 ms${pgTargets ? '' : ' (the target is set for PostgreSQL; shown for comparison)'}: `
      + `${mark(listTarget(signIns))} ${listText(signIns)}`,
    `- the same during ${SEARCHES} worst-case searches${pgTargets ? '' : ' (for comparison)'}: ${mark(listTarget(searches))} ${listText(searches)}`,
    `- \`/version.json\` answers in < 100 ms during both storms${pgTargets ? ' (the target is set for the embedded database; shown for comparison)' : ''}: `
      + `${mark(versionMax < 100)} max ${f1(versionMax)} ms (sign-ins ${f1(signIns.version.max)}, searches ${f1(searches.version.max)}; `
      + `p95 ${f1(signIns.version.p95)} and ${f1(searches.version.p95)})`,
  );

  const notes: string[] = [];
  for (const p of r.phases) {
    for (const [key, text] of [...p.list.notes, ...(p.storm?.result.notes ?? [])]) {
      if (key !== '200' && text) notes.push(`${p.name}: answer ${key}: "${text}"`);
    }
    const searchTotals = p.storm?.kind === 'search' ? p.storm.result.notes.get('200') : undefined;
    if (searchTotals) notes.push(`${p.name}: a 200 answer carried ${searchTotals}`);
    if (p.version.notes.has('skipped')) notes.push(`${p.name}: ${p.version.notes.get('skipped')}`);
  }
  if (r.phases.some((p) => p.pg)) {
    notes.push(`connections of the server to ${PG_DB}, most at once (pg_stat_activity every 250 ms; the server's pool holds 10): `
      + r.phases.map((p) => `${p.name} ${p.pg!.conns} (${p.pg!.active} active, ${p.pg!.lockWaits} waiting on a lock)`).join('; '));
  }
  notes.push(`event-loop delay of the bench's own process (p99 / max): ${r.phases.map((p) => `${p.name} ${f0(p.lag[0])} / ${f0(p.lag[1])} ms`).join('; ')}`);
  if (r.prepared.applied > r.build.migrations) {
    notes.push(`the data folder carries ${r.prepared.applied} migrations, the build knows ${r.build.migrations}: it was migrated by a newer server`);
  }
  if (r.serverErrors.count) notes.push(`the server logged ${r.serverErrors.count} errors; the first: \`${r.serverErrors.first}\``);
  lines.push('', 'Notes:', '', ...notes.map((n) => `- ${n}`));
  return lines.join('\n');
}

const INTRO = `"One request never starves the others." Targets: during 50 concurrent sign-ins and during 10 concurrent worst-case
searches, list page 1 keeps ≥ 50% of its quiet throughput and p95 < 50 ms on PostgreSQL, and \`/version.json\` answers
in < 100 ms on the embedded database. \`bench/starvation.ts\` starts the built server as a process of its own (so the load
generator does not share its event loop) on the data \`run.ts --keep\` keeps, and measures list page 1 and
\`/version.json\` while nothing else runs, during a sign-in storm and during a search storm. Each run rewrites its own
subsection below (\`--label=<name>\` keeps a run apart, e.g. \`--label=before\`).

\`\`\`sh
npm run bench:starvation -w bench -- --db=postgres --keep          # builds server/; ~1 min with the data kept
npm run bench:starvation -w bench -- --db=pglite --keep            # the first run seeds (minutes)
npm run bench:starvation -w bench -- --db=postgres --keep --rev=HEAD --label=before   # a commit, built apart
\`\`\`

Options: \`--rows=1000000 --others=20000\` (as run.ts), \`--seconds=8\` (per phase), \`--settle=2\`, \`--signins=50\`,
\`--searches=10\`, \`--search=召回\` (two characters without a trigram, in no title: the scan a rare term costs, see
starvation.ts), \`--probe-ms=50\`, \`--redis\` (\`REDIS_URL\` for the server, \`--redis-url=redis://127.0.0.1:6379\`, with a
key prefix of its own), \`--proxy-addresses\` (the server trusts \`X-Forwarded-For\` and each sign-in client sends an
address of its own; by default all come from 127.0.0.1), \`--skip-build\`, \`--rev=<commit>\` (builds that commit's server apart, in \`bench/.data/\`),
\`--pg-url=…\`, \`--label=…\`, \`--results=…\`, \`--print-only\`.`;

function writeSection(file: string, body: string): void {
  const key = `starvation:${db}${opt.label ? `:${opt.label}` : ''}`;
  const open = `<!-- ${key} -->`;
  const close = `<!-- /${key} -->`;
  const endMark = '<!-- starvation:end -->';
  let text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmark results\n';
  if (!text.includes(endMark)) {
    text = `${text.trimEnd()}\n\n## Starvation (\`npm run bench:starvation -w bench\`)\n\n<!-- starvation:intro -->\n<!-- /starvation:intro -->\n\n${endMark}\n`;
  }
  const replace = (o: string, c: string, b: string): boolean => {
    const i = text.indexOf(o);
    const j = text.indexOf(c);
    if (i < 0 || j < i) return false;
    text = `${text.slice(0, i + o.length)}\n${b}\n${text.slice(j)}`;
    return true;
  };
  replace('<!-- starvation:intro -->', '<!-- /starvation:intro -->', INTRO);
  if (!replace(open, close, body)) {
    const e = text.indexOf(endMark);
    text = `${text.slice(0, e)}${open}\n${body}\n${close}\n\n${text.slice(e)}`;
  }
  writeFileSync(file, text);
}

// ---------- main ----------

async function main(): Promise<void> {
  const loadBefore = loadavg();
  const build = serverBuild();
  const kv = opt.redis ? `Redis at ${opt['redis-url']}` : 'memory';
  const baseEnv: Record<string, string> = {
    REDIS_URL: opt.redis ? opt['redis-url'] : '',
    // counters (sign-in budgets) of their own when the Redis is shared with other runs
    REDIS_PREFIX: `console-bench-starvation-${process.pid}-${Date.now()}:`,
    TRUST_PROXY: opt['proxy-addresses'] ? 'true' : 'false',
  };
  const prepared = db === 'postgres' ? await preparePostgres(build, baseEnv) : await preparePglite(build, baseEnv);
  log(`search term "${SEARCH}": ${prepared.matches} live rows of tenant ${BENCH_TENANT} match (SQL count ${prepared.matchMs.toFixed(0)} ms)`);
  let server: ServerProc | undefined;
  let sampler: ReturnType<typeof pgSampler> | undefined;
  try {
    log(`starting ${build.mainJs} (${build.revision})`);
    server = await startServer(build.mainJs, prepared.env, 600_000);
    const base = `http://127.0.0.1:${server.port}`;
    let engine: string;
    if (db === 'postgres') {
      const url = withDatabase(opt['pg-url'], PG_DB);
      engine = String((await queryOnce(url, 'select version() as v')).rows[0].v).replace(/ on .*/, '');
      prepared.applied = await appliedMigrations((text) => queryOnce(url, text));
      sampler = pgSampler(url);
    } else {
      const pkg = JSON.parse(readFileSync(join(root, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8')) as { version: string };
      engine = `PGlite ${pkg.version} (WASM, in the server process)`;
    }
    const token = await signIn(base);
    const c = clients({ host: '127.0.0.1', port: server.port }, token);
    // warm-up: list and probe, then the worst-case search alone (twice: the first may read from disk)
    for (let i = 0; i < 20; i++) await c.list();
    for (let i = 0; i < 5; i++) await c.version();
    const solo: Run['solo'] = [];
    for (let i = 0; i < 2; i++) {
      const t = performance.now();
      const r = await request({ host: '127.0.0.1', port: server.port }, http.globalAgent, 'GET',
        `${LIST_PATH}?${new URLSearchParams({ current: '1', size: '10', title: SEARCH })}`,
        { authorization: BASIC, 'blade-auth': `bearer ${token}` }, CALL_TIMEOUT_MS);
      const b = parse(r.body);
      solo.push({ ms: performance.now() - t, status: r.status, total: b.code === 200 ? b.data?.total : undefined, msg: b.code === 200 ? undefined : (b.msg ?? '').slice(0, 200) });
    }
    log(`one worst-case search alone: ${solo.map((s) => `${s.ms.toFixed(0)} ms (${s.status}${s.total !== undefined ? `, total ${s.total}` : ''})`).join(', ')}`);
    if (solo[0]!.total !== undefined && solo[0]!.total <= 1000 && solo[0]!.total !== prepared.matches) {
      log(`  note: the API's total ${solo[0]!.total} differs from the SQL count ${prepared.matches}`);
    }

    const phases: Phase[] = [];
    phases.push(await runPhase('quiet', server, c, undefined, sampler));
    await sleep(SETTLE * 1000);
    phases.push(await runPhase(`${SIGNINS} sign-ins`, server, c, { kind: 'sign-in', clients: SIGNINS, call: c.signInClient }, sampler));
    await sleep(SETTLE * 1000);
    phases.push(await runPhase(`${SEARCHES} searches`, server, c, { kind: 'search', clients: SEARCHES, call: () => c.search }, sampler));
    c.close();

    const run: Run = {
      engine, build, prepared, solo, phases, loadBefore, kv,
      date: `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
      serverErrors: server.errors(),
    };
    const section = render(run);
    log(`\n${section}\n`);
    log(machine());
    if (!opt['print-only']) {
      writeSection(opt.results, section);
      log(`written to ${opt.results}`);
    }
  } finally {
    await sampler?.close().catch(() => undefined);
    await server?.stop();
    await prepared.cleanup();
    if (opt.keep || !prepared.seededNow) log(`data kept: ${db === 'postgres' ? `database ${PG_DB}` : PGLITE_KEEP_DIR}`);
  }
}

await main();
