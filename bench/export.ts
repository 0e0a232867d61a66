/**
 * Export bench: `GET /export` of 100,000 notices (or, with `--resource=user`, `GET user/export-user` of
 * 100,000 users in 1,000 departments, see users.ts; with `--resource=appuser`, `GET postsaleuser/export-user` of
 * 1,000,000 app users, issue 28) of one tenant as .xlsx, over HTTP, with the time to the
 * last byte and the server process's peak RSS while it streams (sampled every 10 ms, and the kernel's
 * high-water mark). The notices are loaded with COPY as in seed.ts; the export is declared on a
 * bench-only definition over the notice table (the product's notice screen declares none), whose
 * permission code is granted to the tenant's admin role here.
 *
 *   npx tsx bench/export.ts [--db=postgres|pglite] [--resource=notice|user|appuser] [--rows=102100] [--keep] [--pg-url=…]
 */
import { createHash } from 'node:crypto';
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, readFileSync, rmSync, statSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { CONSOLE_CLIENT, defineResource } from '@console/contract';
import { noticeResource } from '@console/contract/areas/desk/index';
import { loadConfig } from '@console/server/src/core/config.js';
import { bind } from '@console/server/src/areas/index.js';
import { createServer } from '@console/server/src/server.js';
import { build } from 'esbuild';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { seedUsers, type SqlQuery } from './users.js';
import { BENCH_TENANT, type PgliteLike, type SeedPlan, seededPlan, seedPglite, seedPostgres } from './seed.js';
import { notice } from '@console/server/src/areas/desk/tables.js';

const { values: opt } = parseArgs({
  options: {
    db: { type: 'string', default: 'postgres' },
    resource: { type: 'string', default: 'notice' },
    rows: { type: 'string', default: '' },
    keep: { type: 'boolean', default: false },
    'pg-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
    // internal: run only the server (a child process, so that its RSS and CPU are the server's alone)
    serve: { type: 'boolean', default: false },
    'database-url': { type: 'string', default: '' },
    'data-dir': { type: 'string', default: '' },
  },
});
const users = opt.resource === 'user';
const appUsers = opt.resource === 'appuser';
if (!users && !appUsers && opt.resource !== 'notice') throw new Error('--resource is notice, user or appuser');
const PG_DB = users ? 'console_bench_export_users' : appUsers ? 'console_bench_export_app_users' : 'console_bench_export';
const plan: SeedPlan = { rows: Number(opt.rows || (users ? 100_000 : appUsers ? 1_000_000 : 102_100)), otherRows: 1000 };
const log = (s: string) => console.log(s);
const BASIC = `Basic ${Buffer.from(`${CONSOLE_CLIENT.id}:${CONSOLE_CLIENT.secret}`).toString('base64')}`;

const benchNotice = defineResource({ ...noticeResource, code: 'notice_xb', path: '/api/blade-desk/notice-xb', menu: undefined, io: { export: {} } });
const extraResources = [bind(benchNotice, notice)];

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Gives the bench tenant's admin role the export code (a button row with the code, and the grant). */
async function grant(query: (text: string) => Promise<unknown>) {
  await query(`insert into blade_menu (id, code, name, alias, category, create_time, update_time, status, is_deleted)
    select 7000000000000000001, 'notice_xb_export', 'export', 'export', 2, now(), now(), 1, 0
    where not exists (select 1 from blade_menu where code = 'notice_xb_export' and is_deleted = 0)`);
  await query(`insert into blade_role_menu (role_id, menu_id)
    select r.id, m.id from blade_role r, blade_menu m
    where r.tenant_id = '${BENCH_TENANT}' and r.role_alias = 'admin' and m.code = 'notice_xb_export' on conflict do nothing`);
}

/** The users of the bench tenant in their departments, unless a kept database holds them already. */
async function seedUsersOnce(query: SqlQuery): Promise<void> {
  const { rows } = await query(`select count(*)::int as n from blade_user where tenant_id = '${BENCH_TENANT}' and account like 'user%'`);
  if (Number(rows[0]?.n) === plan.rows) return;
  log(`seeding: ${plan.rows} users of ${BENCH_TENANT} in 1,000 departments`);
  await seedUsers(query, BENCH_TENANT, plan.rows);
  await query('vacuum analyze');
}

/** The app users of the bench tenant (phones, nicknames, avatars, sign-in times over a year), unless a kept database holds them. */
async function seedAppUsersOnce(query: SqlQuery): Promise<void> {
  const { rows } = await query(`select count(*)::int as n from ymy_postsale_user where tenant_id = '${BENCH_TENANT}' and is_deleted = 0`);
  if (Number(rows[0]?.n) === plan.rows) return;
  log(`seeding: ${plan.rows} app users of ${BENCH_TENANT}`);
  await query(`delete from ymy_postsale_user where tenant_id = '${BENCH_TENANT}'`);
  await query(`insert into ymy_postsale_user (id, tenant_id, phone, nickname, avatar, password, password_time, register_time, last_login_time, status)
    select 6000000000000000 + g, '${BENCH_TENANT}', '13' || lpad(g::text, 9, '0'), '用户' || g || ' 的门锁',
      case when g % 3 = 0 then '/files/avatars/' || md5(g::text) || '.jpg' end, '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA', now(),
      now() - (g % 31536000) * interval '1 second', case when g % 5 > 0 then now() - (g % 86400) * interval '1 second' end, case when g % 50 = 0 then 0 else 1 end
    from generate_series(1, ${plan.rows}) g`);
  await query('vacuum analyze ymy_postsale_user');
}

/** /proc/<pid>/status and stat of the server process: RSS now, its high-water mark, CPU seconds so far. */
function procOf(pid: number) {
  const status = () => readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (text: string, key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(text)?.[1] ?? 0) * 1024;
  return {
    rss: () => kb(status(), 'VmRSS'),
    hwm: () => kb(status(), 'VmHWM'),
    cpuSeconds: () => {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks of 1/100 s
    },
  };
}

/**
 * The heap bound the product starts the server with (the root package.json's `serve` script): without one,
 * V8 on a large machine lets garbage pile up to hundreds of MB before it collects.
 */
function heapFlags(here: string): string[] {
  const serve = (JSON.parse(readFileSync(join(here, '..', 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.serve ?? '';
  const mb = /--max-old-space-size=\$\{SERVER_HEAP_MB:-(\d+)\}/.exec(serve)?.[1];
  if (!mb) throw new Error('the serve script no longer sets --max-old-space-size: update the export bench');
  return [`--max-old-space-size=${process.env.SERVER_HEAP_MB ?? mb}`];
}

/**
 * Starts the server in a child process on the seeded database and answers its base URL and pid. The child
 * runs this file bundled by esbuild as the server's own build does (dependencies left in node_modules), so
 * its memory is that of the built server, not of a TypeScript loader.
 */
async function serve(databaseUrl: string, dataDir: string): Promise<{ base: string; child: ChildProcess }> {
  const here = dirname(fileURLToPath(import.meta.url));
  const bundle = join(here, '..', 'server', 'dist', 'export-bench.mjs');
  const external = Object.keys((JSON.parse(readFileSync(join(here, '..', 'server', 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies)
    .filter((d) => !d.startsWith('@console/'));
  await build({
    entryPoints: [fileURLToPath(import.meta.url)], outfile: bundle, bundle: true, platform: 'node', target: 'node20', format: 'esm',
    external: [...external, 'exceljs', 'pg-copy-streams', 'tsx'], logLevel: 'warning',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  const child = spawn(process.execPath, [...heapFlags(here), bundle, '--serve', `--database-url=${databaseUrl}`, `--data-dir=${dataDir}`], {
    cwd: join(here, '..', 'server'), stdio: ['pipe', 'pipe', 'inherit'],
  });
  const base = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (b: Buffer) => {
      text += b.toString();
      const m = /READY (\S+)/.exec(text);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { base, child };
}

async function measure(databaseUrl: string, dataDir: string): Promise<string> {
  const { base, child } = await serve(databaseUrl, dataDir);
  const proc = procOf(child.pid!);
  const params = new URLSearchParams({ grant_type: 'password', tenantId: BENCH_TENANT, username: 'admin', password: createHash('md5').update('admin').digest('hex'), scope: 'all', type: 'account' });
  const tokenRes = await fetch(`${base}/api/blade-auth/oauth/token?${params}`, { method: 'POST', headers: { authorization: BASIC, 'tenant-id': BENCH_TENANT } });
  const token = ((await tokenRes.json()) as { access_token: string }).access_token;
  const dir = await mkdtemp(join(tmpdir(), 'console-export-bench-'));
  const lines: string[] = [`server idle after start: RSS ${(proc.rss() / 1048576).toFixed(0)} MB`];
  log(`  ${lines[0]}`);
  try {
    for (let run = 1; run <= 3; run++) {
      const before = proc.rss();
      const cpu0 = proc.cpuSeconds();
      const load0 = loadavg()[0]!;
      let peak = before;
      const sampler = setInterval(() => { peak = Math.max(peak, proc.rss()); }, 10);
      const t0 = performance.now();
      const path = users ? '/api/blade-system/user/export-user' : appUsers ? '/api/ymy-sale/postsaleuser/export-user' : `${benchNotice.path}/export`;
      const res = await fetch(`${base}${path}`, { headers: { authorization: BASIC, 'blade-auth': `bearer ${token}` } });
      if (res.status !== 200 || !res.body) throw new Error(`export answered ${res.status}: ${await res.text()}`);
      const first = performance.now() - t0;
      const file = join(dir, `export-${run}.xlsx`);
      await pipeline(Readable.fromWeb(res.body as never), createWriteStream(file));
      const seconds = (performance.now() - t0) / 1000;
      clearInterval(sampler);
      peak = Math.max(peak, proc.rss());
      const cpu = proc.cpuSeconds() - cpu0;
      let rows = 0;
      const book = new ExcelJS.stream.xlsx.WorkbookReader(file, { worksheets: 'emit', sharedStrings: 'cache', styles: 'ignore', hyperlinks: 'ignore', entries: 'ignore' });
      for await (const sheet of book) for await (const _row of sheet) rows++;
      const line = `run ${run}: ${rows - 1} rows, ${(statSync(file).size / 1024 / 1024).toFixed(1)} MB; first byte ${first.toFixed(0)} ms, last byte ${seconds.toFixed(2)} s; `
        + `server CPU ${cpu.toFixed(2)} s; server RSS ${(before / 1048576).toFixed(0)} MB before, peak ${(peak / 1048576).toFixed(0)} MB `
        + `(high-water mark since start ${(proc.hwm() / 1048576).toFixed(0)} MB); load average ${load0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`;
      log(`  ${line}`);
      lines.push(line);
    }
  } finally {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
  return lines.join('\n');
}

/** The child: the server alone, until it is told to stop. */
async function serveOnly(): Promise<void> {
  const server = await createServer(loadConfig({ LOG_LEVEL: 'warn', DATABASE_URL: opt['database-url'], REDIS_URL: '', NODE_ENV: 'production' }, { dataDir: opt['data-dir'] }), { extraResources });
  await server.ctx.permissions.invalidate();
  const base = await server.app.listen({ port: 0, host: '127.0.0.1' });
  console.log(`READY ${base}`);
  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
}

async function onPostgres(): Promise<string> {
  const admin = new pg.Client({ connectionString: withDatabase(opt['pg-url'], 'postgres') });
  await admin.connect();
  if (!(await admin.query(`select 1 from pg_database where datname = '${PG_DB}'`)).rowCount) await admin.query(`create database ${PG_DB}`);
  await admin.end();
  const url = withDatabase(opt['pg-url'], PG_DB);
  const dataDir = await mkdtemp(join(tmpdir(), 'console-export-bench-data-'));
  // started once for the migrations and seed data
  await (await createServer(loadConfig({ LOG_LEVEL: 'warn', DATABASE_URL: url, REDIS_URL: '' }, { dataDir }), { extraResources })).close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    if (users) await seedUsersOnce((t) => client.query(t));
    if (appUsers) await seedAppUsersOnce((t) => client.query(t));
    const have = users || appUsers ? plan : await seededPlan((t) => client.query(t));
    if (have.rows !== plan.rows || have.otherRows !== plan.otherRows) {
      log(`seeding ${PG_DB}: ${plan.rows} notices of ${BENCH_TENANT} (+ 9 × ${plan.otherRows})`);
      await client.query('truncate blade_notice');
      await seedPostgres(client, plan, log);
    }
    await grant((t) => client.query(t));
    return await measure(url, dataDir);
  } finally {
    await client.end();
    rmSync(dataDir, { recursive: true, force: true });
    if (!opt.keep) {
      const again = new pg.Client({ connectionString: withDatabase(opt['pg-url'], 'postgres') });
      await again.connect();
      await again.query(`drop database if exists ${PG_DB} with (force)`);
      await again.end();
    }
  }
}

async function onPglite(): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'console-export-bench-pglite-'));
  const server = await createServer(loadConfig({ LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '' }, { dataDir }), { extraResources });
  try {
    const client = (server.ctx.db as unknown as { $client: PgliteLike }).$client;
    if (users) await seedUsersOnce((t) => client.query(t));
    else if (appUsers) await seedAppUsersOnce((t) => client.query(t));
    else {
      log(`seeding PGlite: ${plan.rows} notices of ${BENCH_TENANT} (+ 9 × ${plan.otherRows})`);
      await seedPglite(client, plan, log);
    }
    await grant((t) => client.query(t));
    await server.close();
    return await measure('', dataDir);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (opt.serve) {
  await serveOnly();
} else {
  const result = opt.db === 'pglite' ? await onPglite() : await onPostgres();
  log(`\n${opt.db}:\n${result}`);
}
