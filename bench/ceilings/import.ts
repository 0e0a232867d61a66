/**
 * Close to the ceilings (issue 30), imports: the console's certificate import beside COPY of the same rows, on
 * PostgreSQL, paired rounds, medians.
 *
 *   - the console: `server/dist/main.js` in a process of its own; a `--rows` .xlsx uploaded to
 *     `import-cert-list` over HTTP, then the job polled to its end (the time from the upload's first byte to the
 *     answer that says done);
 *   - the ceiling: the same rows as the import stored them (read back once, as text: every column but the
 *     generated search grams) COPYed through pg-copy-streams into `bench_cert_like`, a table made
 *     `like ymy_cert including all` (its indexes, constraints and generated grams).
 *
 * Both tables are emptied before each round (TRUNCATE), so rounds are alike; the server's table upkeep after an
 * import (analyze) is waited for before the COPY; a warm-up import of 20,000 rows comes first. Each round logs the
 * CPU time of the server and of the database's backends. `--load`: two CPU burners (spinning at nice 0, each in a
 * session of its own) beside every round, the same for both sides. `--profile`: the server's CPU profile over the
 * run, heaviest first. `--write`: the section `ceilings-import-postgres` of RESULTS.md, the other mode's row kept.
 * Also `npm run bench:ceilings -w bench -- --measure=import […]`.
 *
 *   npx tsx bench/ceilings/import.ts [--rows=100000] [--rounds=3] [--load] [--skip-build] [--write] [--profile]
 *     [--keep] [--pg-url=postgres://postgres@127.0.0.1:5432/postgres]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { intOption, queryOnce, withDatabase } from '../data.js';
import { BASIC } from '../measure.js';
import { machine, revision, writeSection } from '../report.js';
import { log, median, profileReport, RESULTS, ratioRow, startBuiltServer } from './common.js';

const DB = 'console_bench_ceilings_import';
const IPC = '/sc/ymy-ipc/back';
const KEY = 'ceilings-import-postgres';

const { values: opt } = parseArgs({
  strict: false,
  options: {
    rows: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '3' },
    load: { type: 'boolean', default: false },
    'skip-build': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    write: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    'pg-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const str = (v: string | boolean | undefined, fallback: string) => (typeof v === 'string' ? v : fallback);
const ROWS = intOption('rows', str(opt.rows, '100000'), 1000, 100_000);
const ROUNDS = intOption('rounds', str(opt.rounds, '3'), 1, 20);
const LOAD = opt.load === true;
const PG_URL = str(opt['pg-url'], 'postgres://postgres@127.0.0.1:5432/postgres');
const BURNERS = 2;

/**
 * `n` processes spinning at nice 0 until stopped: the busy machine both sides share. Each in a session of its own
 * (`detached`: setsid), as other programs on a server are: with the kernel's autogroup scheduling
 * (/proc/sys/kernel/sched_autogroup_enabled) CPU time is shared between sessions first, and PostgreSQL puts each
 * backend in a session of its own, so a burner in the bench's session would take its time from the console's
 * process only (which the bench starts, in its session) and never from the backends that run the COPY.
 */
function startBurners(n: number): ChildProcess[] {
  // spinning, and gone once the bench is (a bench killed outright leaves no burner behind: its parent changes)
  const spin = `const parent = ${process.pid}; for (let i = 1; ; i++) if (i % 5e7 === 0 && process.ppid !== parent) process.exit(0);`;
  return Array.from({ length: n }, () => spawn(process.execPath, ['-e', spin], { stdio: 'ignore', detached: true }));
}

/** the certificate rows of the sheet: Tencent PSKs of one registered cloud product */
function certRows(n: number, prefix = 'C'): Array<[number, string, string, string]> {
  return Array.from({ length: n }, (_, i) => [1, 'BENCHPROD', `${prefix}${String(i + 1).padStart(9, '0')}`, Buffer.from(`bench-psk-${i + 1}`).toString('base64')]);
}

async function writeXlsx(path: string, rows: Array<[number, string, string, string]>): Promise<void> {
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useStyles: false, useSharedStrings: false });
  const sheet = book.addWorksheet('certs');
  sheet.addRow(['cloudVendor', 'cloudProductId', 'deviceName', 'deviceSecret']).commit();
  for (const r of rows) sheet.addRow([...r]).commit();
  await book.commit();
}

interface Api { get: <T>(path: string) => Promise<T>; post: <T>(path: string, body: unknown) => Promise<T>; upload: (path: string, file: Uint8Array<ArrayBuffer>, name: string) => Promise<string> }

function api(base: string, token: string): Api {
  const headers = { authorization: BASIC, 'blade-auth': `bearer ${token}` };
  const answer = async <T>(path: string, res: Response): Promise<T> => {
    const json = (await res.json()) as { code: number; msg: string; data: T };
    if (json.code !== 200) throw new Error(`${path}: ${json.code} ${json.msg}`);
    return json.data;
  };
  return {
    get: async (path) => answer(path, await fetch(`${base}${path}`, { headers })),
    post: async (path, body) => answer(path, await fetch(`${base}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) })),
    upload: async (path, file, name) => {
      const form = new FormData();
      form.append('file', new Blob([file]), name);
      return (await answer<{ id: string }>(path, await fetch(`${base}${path}`, { method: 'POST', headers, body: form }))).id;
    },
  };
}

async function signInPlatform(base: string): Promise<string> {
  const params = new URLSearchParams({
    grant_type: 'password', tenantId: '000000', username: 'admin', password: createHash('md5').update('admin').digest('hex'), scope: 'all', type: 'account',
  });
  const res = await fetch(`${base}/api/blade-auth/oauth/token?${params}`, { method: 'POST', headers: { authorization: BASIC, 'tenant-id': '000000' } });
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

interface Progress { status: string; total: number; succeeded: number; failed: number; errors: Array<{ row: number; message: string }> }

/** the import over HTTP: the upload, then the job polled every 100 ms until it ends; answers the milliseconds */
async function importOnce(a: Api, xlsx: Uint8Array<ArrayBuffer>, rows = ROWS): Promise<number> {
  const t0 = performance.now();
  const id = await a.upload(`${IPC}/import-cert-list`, xlsx, 'certs.xlsx');
  for (;;) {
    await new Promise((r) => setTimeout(r, 100));
    const p = await a.get<Progress>(`${IPC}/get-upload-progress?id=${id}`);
    if (p.status === 'running') continue;
    const ms = performance.now() - t0;
    if (p.status !== 'done' || p.succeeded !== rows) throw new Error(`the import ended ${p.status}, ${p.succeeded} rows: ${JSON.stringify(p.errors).slice(0, 500)}`);
    return ms;
  }
}

/** CPU seconds (user + system) process `pid` has used so far; 0 once it is gone */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** the CPU seconds of every client backend of the bench database (the server's pool, the upkeep, this client) */
async function backendsCpu(c: pg.Client): Promise<Map<number, number>> {
  const { rows } = await c.query<{ pid: number }>(`select pid from pg_stat_activity where datname = current_database() and backend_type = 'client backend'`);
  return new Map(rows.map((r) => [r.pid, cpuSeconds(r.pid)]));
}

/** CPU seconds the backends used since `before` (a backend started since counts whole) */
async function backendsCpuSince(c: pg.Client, before: Map<number, number>): Promise<number> {
  let sum = 0;
  for (const [pid, now] of await backendsCpu(c)) sum += now - (before.get(pid) ?? 0);
  return sum;
}

/** waits until the bench database runs no statement but this client's (the server's upkeep after a bulk write) */
async function quiet(c: pg.Client): Promise<void> {
  let calm = 0;
  for (let i = 0; i < 600 && calm < 3; i++) {
    const { rows } = await c.query<{ n: number }>(`select count(*)::int as n from pg_stat_activity where datname = current_database() and state = 'active' and pid <> pg_backend_pid()`);
    calm = rows[0]!.n === 0 ? calm + 1 : 0;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function copyOut(c: pg.Client, statement: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  await pipeline(c.query(copyTo(statement)), new Writable({ write(chunk: Buffer, _e, done) { parts.push(chunk); done(); } }));
  return Buffer.concat(parts);
}

/** COPY of `text` (COPY's text format) through pg-copy-streams; answers the milliseconds */
async function copyIn(c: pg.Client, statement: string, text: Buffer): Promise<number> {
  const t0 = performance.now();
  await pipeline(Readable.from([text]), c.query(copyFrom(statement)));
  return performance.now() - t0;
}

/** the section's table rows of the other mode (quiet, under load), measured by an earlier run: kept beside this run's */
function otherModeRows(loaded: boolean): string[] {
  const text = readFileSync(RESULTS, 'utf8');
  const start = text.indexOf(`<!-- results:${KEY} -->`);
  const end = text.indexOf(`<!-- /results:${KEY} -->`);
  if (start < 0 || end < 0) return [];
  return text.slice(start, end).split('\n').filter((l) => l.startsWith('| import') && l.includes(loaded ? ', quiet,' : ', under load'));
}

async function main(): Promise<void> {
  const burners: ChildProcess[] = [];
  const stopBurners = () => { for (const b of burners) b.kill('SIGKILL'); };
  process.once('exit', stopBurners);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(1));
  const dir = mkdtempSync(join(tmpdir(), 'console-bench-import-'));
  const profileDir = opt.profile ? join(dir, 'profile') : undefined;
  const dbUrl = withDatabase(PG_URL, DB);
  await queryOnce(PG_URL, `drop database if exists ${DB} with (force)`);
  await queryOnce(PG_URL, `create database ${DB}`);
  const server = await startBuiltServer({ databaseUrl: dbUrl, dataDir: dir, skipBuild: opt['skip-build'] === true, profileDir, env: { PUBLIC_RATE_PER_MINUTE: '100000' } });
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  const consoleMs: number[] = [];
  const copyMs: number[] = [];
  const load: number[] = [loadavg()[0]!];
  try {
    const base = `http://127.0.0.1:${server.port}`;
    const a = api(base, await signInPlatform(base));
    const type = await a.post<{ id: string }>('/api/ymy-product/type/submit', { typeName: '压测门锁', typeCode: 'BENCH' });
    const model = await a.post<{ id: string }>('/api/ymy-product/model/submit', { typeId: type.id, modelName: 'B1', modelCode: 'B1' });
    await a.post('/api/ymy-product/product/submit', { productName: 'B1', productCode: 'B1', typeId: type.id, modelId: model.id, cloudVendor: 1, cloudProductId: 'BENCHPROD' });
    const xlsxPath = join(dir, 'certs.xlsx');
    await writeXlsx(xlsxPath, certRows(ROWS));
    const xlsx = readFileSync(xlsxPath);
    // the server's first import loads and compiles the code it runs: once, before the rounds
    const warmPath = join(dir, 'warm.xlsx');
    const warmRows = Math.min(ROWS, 20_000);
    await writeXlsx(warmPath, certRows(warmRows, 'W'));
    await importOnce(a, readFileSync(warmPath), warmRows);
    // the burners beside every round of both sides (not the server's start: migrations and seeds)
    if (LOAD) burners.push(...startBurners(BURNERS));
    log(`${ROWS.toLocaleString('en')} certificates in ${(xlsx.length / 1024 / 1024).toFixed(1)} MB of .xlsx${LOAD ? `, ${BURNERS} CPU burners beside the rounds` : ''}`);

    // every column the import writes (not the generated grams), in COPY's text format
    const { rows: cols } = await c.query<{ name: string }>(`select column_name as name from information_schema.columns
      where table_name = 'ymy_cert' and is_generated = 'NEVER' order by ordinal_position`);
    const columns = cols.map((r) => `"${r.name}"`).join(', ');
    await c.query('drop table if exists bench_cert_like; create table bench_cert_like (like ymy_cert including all)');
    let rowsText: Buffer | undefined;
    for (let round = 1; round <= ROUNDS; round++) {
      await c.query('truncate ymy_cert');
      await quiet(c);
      const serverCpu = cpuSeconds(server.child.pid!);
      const dbCpu = await backendsCpu(c);
      consoleMs.push(await importOnce(a, xlsx));
      await quiet(c);
      const cpu = `server ${(cpuSeconds(server.child.pid!) - serverCpu).toFixed(2)} s + database ${(await backendsCpuSince(c, dbCpu)).toFixed(2)} s of CPU`;
      rowsText ??= await copyOut(c, `copy (select ${columns} from ymy_cert) to stdout`);
      await c.query('truncate bench_cert_like');
      const copyCpu = await backendsCpu(c);
      copyMs.push(await copyIn(c, `copy bench_cert_like (${columns}) from stdin`, rowsText));
      const copyCpuText = `database ${(await backendsCpuSince(c, copyCpu)).toFixed(2)} s of CPU`;
      log(`round ${round}: console ${(consoleMs.at(-1)! / 1000).toFixed(2)} s (${cpu}), COPY ${(copyMs.at(-1)! / 1000).toFixed(2)} s (${copyCpuText}): ×${(consoleMs.at(-1)! / copyMs.at(-1)!).toFixed(2)}`);
    }
    load.push(loadavg()[0]!);
  } finally {
    await c.end();
    await server.stop();
    stopBurners();
    if (!opt.keep) await queryOnce(PG_URL, `drop database if exists ${DB} with (force)`).catch(() => undefined);
  }

  const mode = LOAD ? `under load (${BURNERS} CPU burners)` : 'quiet';
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const rev = revision();
  const measure = `import of ${ROWS.toLocaleString('en')} certificates (.xlsx over HTTP), ${mode}, ${when}, revision ${rev}, load ${load[0]!.toFixed(2)} → ${load[1]!.toFixed(2)}`;
  const row = ratioRow(measure, consoleMs.map((ms) => ms / 1000), copyMs.map((ms) => ms / 1000), 'time', 2);
  log(`median: console ${(median(consoleMs) / 1000).toFixed(2)} s, COPY ${(median(copyMs) / 1000).toFixed(2)} s: ×${(median(consoleMs) / median(copyMs)).toFixed(2)}`);
  if (profileDir) console.log(`\nthe server's heaviest functions (self time):\n${profileReport(profileDir)}`);
  if (opt.write) {
    const pgVersion = (await queryOnce(PG_URL, 'show server_version')).rows[0] as { server_version: string };
    const lines = [
      `On ${machine()}, PostgreSQL ${pgVersion.server_version}, ${ROUNDS} paired rounds each. The console: server/dist/main.js in its own process, `
        + 'the certificates\' import (`import-cert-list`) of an .xlsx over HTTP, from the upload\'s first byte to the progress answer that says done '
        + '(polled every 100 ms). The ceiling: COPY (pg-copy-streams, text format) of the same rows as the import stored them (every column but the '
        + 'generated grams, read back once) into a table `like ymy_cert including all` (its indexes, constraints and generated search grams). '
        + `Both tables emptied before each round. Under load: ${BURNERS} processes spinning at nice 0 beside every round of both sides, each in a session of its own (with the kernel's autogroup scheduling, sessions share the CPU first; PostgreSQL gives each backend a session of its own). Times in seconds.`,
      '',
      '| measure | console (median s) | COPY (median s) | ratio | rounds (console / COPY) |',
      '|---|---:|---:|---:|---|',
      ...(LOAD ? [...otherModeRows(LOAD), row] : [row, ...otherModeRows(LOAD)]),
    ];
    writeSection(RESULTS, KEY, lines.join('\n'));
    log(`written to ${RESULTS} (${KEY})`);
  }
  if (opt.keep) log(`kept: the database ${DB}, the files in ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}

// awaited here: bench/ceilings.ts imports this module and exits once the import has settled
await main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
process.exit(0);
