/**
 * Regional business (issue 27), on PostgreSQL or PGlite:
 *  1. `import`: 100,000 device areas imported from an .xlsx (`POST /api/ymy-device/area/import`, the job polled with
 *     `get-upload-progress` until it ends) by the tenant that owns the 100,000 locks, beside a COPY of the same rows
 *     into the same table (emptied first) in the same run; on PostgreSQL, every statement the import sent is
 *     counted and timed (pg.Client's query wrapped), the database backends' CPU read from /proc, and the same rows
 *     are written a second time the chunked way (one statement per 2,000 rows for each check and each write,
 *     the modify log included: what the import would send with its modify log written per chunk) to price the fix;
 *  2. `warn`: 1,000,000 cross-region warnings of the tenant (bulk SQL) and the warning list
 *     (`GET /api/omc-log/device-area-warn/list`) over HTTP: first page, a later page, handled=0, an SN prefix, a week;
 *     p50/p95 of `--calls` calls; EXPLAIN ANALYZE of the statements of any case whose p95 is 50 ms or more;
 *  3. `activations`: `--ingest-devices` locks with device areas (dispatched to Zhejiang through the dispatch API)
 *     publish through raw mqtt.js clients (bench/supplier-fleet.ts, a child process) a mix of location reports
 *     with a `regionCode` (half inside Zhejiang, half outside) and the ingestion bench's usual reports, at each
 *     `--ingest-cases` rate:share; accepted and flushed msg/s from the gateway's counters, activations checked/s (the
 *     location reports handed to the gateway's location handlers, counted by a handler of the bench's own
 *     registered beside `foldCrossRegion`'s), warnings written; then `foldCrossRegion` alone on batches of 500.
 *
 *   npm run bench:supplier -w bench -- [--db=postgres|pglite] [--parts=import,warn,activations] [--rows=100000]
 *     [--format=xlsx|csv] [--warn-rows=1000000] [--calls=200] [--ingest-devices=2000] [--ingest-seconds=40]
 *     [--ingest-cases=6000:0.4,7000:0.2857] [--profile] [--keep] [--pg-url=…] [--results=RESULTS.md] [--section=supplier-<db>]
 *
 * `--section`: the marker key of RESULTS.md the run rewrites (a run of some parts kept beside a run of all).
 * `--profile`: a CPU profile of this process during the import, summarised in the section (and written to
 * $TMPDIR/supplier-import.cpuprofile), and during each ingestion case (logged, written to
 * $TMPDIR/supplier-ingest-<rate>.cpuprofile); it slows what it watches, so those runs' times are not the figures.
 *
 * The server runs in this process (createServer, listening on 127.0.0.1, the device gateway embedded with
 * MQTT_PORT=0), as in bench/devices.ts: its counters can be read, and its CPU is this process's. Setup calls go
 * through Fastify's inject, the import and the lists through fetch() over loopback.
 */
import { type ChildProcess, execSync, fork } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { copyCsv } from './pgCopy.js';
import { PLATFORM_TENANT } from '@console/contract';
import { loadConfig } from '@console/server/src/core/config.js';
import { insertRows } from '@console/server/src/core/db/bulk.js';
import { inTenant } from '@console/server/src/core/db/index.js';
import { nextId } from '@console/server/src/core/ids.js';
import { secretBox } from '@console/server/src/core/secrets.js';
import { sheetRows } from '@console/server/src/core/resource/io/sheet.js';
import type { FleetSession } from '@console/server/src/areas/device/gateway/fleet.js';
import type { DeviceGateway } from '@console/server/src/areas/device/gateway/gateway.js';
import type { Uplink } from '@console/server/src/areas/device/gateway/types.js';
import { GATEWAY } from '@console/server/src/areas/device/index.js';
import { foldCrossRegion } from '@console/server/src/areas/supplier/crossRegion.js';
import { deviceArea } from '@console/server/src/areas/supplier/tables.js';
import { createServer } from '@console/server/src/server.js';
import { dbOption, intOption, queryOnce, withDatabase } from './data.js';
import { machine } from './report.js';
import { stats, type Stats } from './measure.js';
import { writeSection } from './report.js';
import type { PublishPlan } from './supplier-fleet.js';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const db = dbOption(args.db ?? 'postgres');
const parts = new Set((args.parts ?? 'import,warn,activations').split(','));
const rows = intOption('rows', args.rows ?? '100000', 100, 100_000);
const format = args.format === 'csv' ? 'csv' : 'xlsx';
const warnRows = intOption('warn-rows', args['warn-rows'] ?? '1000000', 1000, 5_000_000);
const calls = intOption('calls', args.calls ?? '200', 10, 100_000);
const ingestDevices = intOption('ingest-devices', args['ingest-devices'] ?? '2000', 10, 10_000);
const ingestSeconds = intOption('ingest-seconds', args['ingest-seconds'] ?? '40', 5, 600);
const ingestCases = (args['ingest-cases'] ?? '6000:0.4,7000:0.2857').split(',').map((c) => {
  const [rate, share] = c.split(':');
  return { rate: intOption('ingest-cases rate', rate ?? '', 1, 100_000), share: Number(share) };
});
const profile = 'profile' in args;
const TENANT = '541742';
const BASIC = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;
const md5 = (s: string) => createHash('md5').update(s).digest('hex');
const log = (s: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${s}`);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const load = () => loadavg()[0]!.toFixed(2);
const n = (v: number) => Math.round(v).toLocaleString('en');
const s1 = (ms: number) => (ms / 1000).toFixed(1);
const HERE = dirname(fileURLToPath(import.meta.url));
const AREA = '/api/ymy-device/area';
const WARN = '/api/omc-log/device-area-warn';

type Row = Record<string, unknown>;

// ---------- every statement the server sends (PostgreSQL): counted and timed while `recording` ----------

interface StatementStat { count: number; ms: number; text: string }
const statements = new Map<string, StatementStat>();
let recording = false;
/** the statements on the warning table sent while `explaining` are kept, to be explained (EXPLAIN ANALYZE) after */
let explaining = false;
const captured: Array<{ text: string; values: unknown[] }> = [];
/** statements that failed while `recording` */
const failures: string[] = [];
{
  const original = pg.Client.prototype.query as (...a: unknown[]) => unknown;
  const key = (text: string) => text.replace(/\s+/g, ' ').trim().replace(/\$\d+/g, '$').replace(/'[^']*'/g, "'…'").slice(0, 160);
  const add = (text: string, ms: number) => {
    const k = key(text);
    const s = statements.get(k) ?? { count: 0, ms: 0, text: k };
    s.count++;
    s.ms += ms;
    statements.set(k, s);
  };
  pg.Client.prototype.query = function patched(this: pg.Client, ...a: unknown[]) {
    const first = a[0] as string | { text?: string; values?: unknown[] } | undefined;
    const text = typeof first === 'string' ? first : first?.text;
    if ((!recording && !explaining) || typeof text !== 'string') return original.apply(this, a);
    const t0 = performance.now();
    const cb = a.at(-1);
    if (typeof cb === 'function') {
      a[a.length - 1] = (...r: unknown[]) => {
        if (recording) add(text, performance.now() - t0);
        return (cb as (...x: unknown[]) => unknown)(...r);
      };
      return original.apply(this, a);
    }
    const result = original.apply(this, a) as Promise<unknown>;
    if (result && typeof result.then === 'function') {
      result.then(() => {
        if (recording) add(text, performance.now() - t0);
        if (explaining && /^select/i.test(text.trim()) && text.includes('ymy_device_area_warn')) {
          // drizzle passes the parameters as the second argument, beside a config object without values
          captured.push({ text, values: (typeof first === 'object' ? first.values : undefined) ?? (Array.isArray(a[1]) ? a[1] : []) });
        }
      }, (e: unknown) => {
        if (recording) {
          add(text, performance.now() - t0);
          failures.push(`${(performance.now() - t0).toFixed(0)} ms: ${String((e as Error).message).slice(0, 200)}: ${text.replace(/\s+/g, ' ').slice(0, 600)}`);
        }
      });
    }
    return result;
  } as typeof pg.Client.prototype.query;
}

// ---------- CPU of the database backends of one database (PostgreSQL), from /proc ----------

function procCpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

async function backendPids(adminUrl: string, dbName: string): Promise<number[]> {
  return (await queryOnce(adminUrl, 'select pid from pg_stat_activity where datname = $1', [dbName])).rows.map((r: { pid: number }) => r.pid);
}

// ---------- a CPU profile of this process (the server's JS), summarised by function self time ----------

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] }

/** a CPU profile of this process, sampled every 0.5 ms, started (stop it with `Profiler.stop`) */
async function startProfile(): Promise<Session> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
  return session;
}

function summariseProfile(p: { nodes: ProfileNode[]; samples?: number[]; timeDeltas?: number[]; startTime: number; endTime: number }) {
  const byNode = new Map<number, number>();
  (p.samples ?? []).forEach((id, i) => byNode.set(id, (byNode.get(id) ?? 0) + (p.timeDeltas?.[i] ?? 0)));
  const total = (p.endTime - p.startTime) / 1000;
  const fns = new Map<string, number>();
  const pkgs = new Map<string, number>();
  for (const node of p.nodes) {
    const us = byNode.get(node.id) ?? 0;
    if (!us) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? url.replace(/^file:\/\//, '').replace(/.*\/node_modules\//, 'node_modules/').replace(/.*\/(server|bench|contract)\/src\//, '$1/src/') : '';
    const fn = `${functionName || '(anonymous)'} ${where ? `${where}:${lineNumber + 1}` : ''}`.trim();
    fns.set(fn, (fns.get(fn) ?? 0) + us / 1000);
    const pkg = !url ? (functionName.startsWith('(') ? functionName : '(native)') : /node_modules\/(@[^/]+\/[^/]+|[^/]+)/.exec(url)?.[1] ?? (/\/(server|contract|bench)\/src\//.exec(url) ? `${/\/(server|contract|bench)\/src\//.exec(url)![1]}/src` : url.startsWith('node:') ? 'node:internal' : basename(url));
    pkgs.set(pkg, (pkgs.get(pkg) ?? 0) + us / 1000);
  }
  const top = (m: Map<string, number>, k: number) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, k);
  return { totalMs: total, functions: top(fns, 25), packages: top(pkgs, 15) };
}

// ---------- the bench ----------

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'console-bench-supplier-'));
  const adminUrl = args['pg-url'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const dbName = 'console_bench_supplier';
  const dbUrl = withDatabase(adminUrl, dbName);
  if (db === 'postgres') {
    await queryOnce(adminUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await queryOnce(adminUrl, `CREATE DATABASE ${dbName}`);
  }
  const root = `bs${randomBytes(3).toString('hex')}`;
  const config = loadConfig({
    NODE_ENV: 'production', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn', DATABASE_URL: db === 'postgres' ? dbUrl : '', REDIS_URL: '',
    PUBLIC_RATE_PER_MINUTE: '10000000', DEVICE_SIMULATOR: 'true',
    MQTT_PORT: '0', MQTT_HOST: '127.0.0.1', MQTT_TOPIC_ROOT: root, MQTT_MAX_CONNECTIONS_PER_ADDRESS: String(ingestDevices * 2 + 100),
  }, { dataDir: dir });
  const server = await createServer(config);
  const gw: DeviceGateway = server.ctx.services.get(GATEWAY);
  const children: ChildProcess[] = [];
  const out: string[] = [];
  const started = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const revision = (() => {
    try {
      return execSync('git rev-parse --short HEAD', { cwd: HERE }).toString().trim();
    } catch {
      return 'unknown';
    }
  })();
  const dirty = (() => {
    try {
      return execSync('git status --short -- ../server/src ../contract/src', { cwd: HERE }).toString().trim().split('\n').filter(Boolean).length;
    } catch {
      return 0;
    }
  })();
  try {
    const base = await server.app.listen({ port: 0, host: '127.0.0.1' });
    server.ctx.config.publicUrl = base;
    const exec = async <T extends Row>(q: ReturnType<typeof sql>) => ((await server.ctx.db.execute(q)) as unknown as { rows: T[] }).rows;
    const signIn = async (tenantId: string) => {
      const res = await server.app.inject({
        method: 'POST', url: '/api/blade-auth/oauth/token', headers: { authorization: BASIC, 'tenant-id': tenantId },
        query: { grant_type: 'password', tenantId, username: 'admin', password: md5('admin'), scope: 'all', type: 'account' },
      });
      const token = (res.json() as { access_token?: string }).access_token;
      if (!token) throw new Error(`sign-in to ${tenantId}: ${res.body.slice(0, 300)}`);
      return { authorization: BASIC, 'blade-auth': `bearer ${token}` };
    };
    const platform = await signIn(PLATFORM_TENANT);
    const call = async <T>(headers: Record<string, string>, method: 'GET' | 'POST', url: string, opts: { body?: unknown; query?: Record<string, string> } = {}): Promise<T> => {
      const res = await server.app.inject({ method, url, headers, query: opts.query, payload: opts.body as object });
      const json = res.json() as { code: number; msg: string; data: T };
      if (json.code !== 200) throw new Error(`${url}: ${json.code} ${json.msg}`);
      return json.data;
    };

    // ---- the catalogue: one type authorised to the tenant, a product per part, one factory
    const type = await call<{ id: string }>(platform, 'POST', '/api/ymy-product/type/submit', { body: { typeName: '压测门锁', typeCode: 'BENCHS' } });
    const model = await call<{ id: string }>(platform, 'POST', '/api/ymy-product/model/submit', { body: { typeId: type.id, modelName: 'S1', modelCode: 'S1' } });
    const factory = await call<{ id: string }>(platform, 'POST', '/sc/ymy-ipc/back/add-factory', { body: { factoryName: '压测工厂', factoryCode: 'BENCHS-F' } });
    await exec(sql`insert into ymy_product_auth (id, tenant_id, type_id) values (${nextId()}::bigint, ${TENANT}, ${type.id}::bigint)`);
    const product = async (code: string, cloudProductId: string) =>
      (await call<{ id: string }>(platform, 'POST', '/api/ymy-product/product/submit', { body: { productName: code, productCode: code, typeId: type.id, modelId: model.id, cloudVendor: 1, cloudProductId } })).id;
    /** a batch of `quantity` locks delivered to the tenant; answers the batch and its SNs */
    const lots = async (productId: string, batchNo: string, quantity: number, snPrefix: string) => {
      const t0 = performance.now();
      const b = await call<{ id: string }>(platform, 'POST', '/sc/ymy-ipc/back/add-batch', { body: { batchNo, factoryId: factory.id, productId, cloudVendor: 1, quantity, snPrefix } });
      await call(platform, 'POST', '/api/ymy-product/deliver/submit', { body: { productId, batchId: b.id, customerTenantId: TENANT, quantity, deliverTime: '2026-11-20 10:00:00' } });
      const sns = (await exec<{ sn: string }>(sql`select sn from ymy_factory_device where batch_id = ${b.id}::bigint and owner_tenant_id = ${TENANT} order by sn`)).map((r) => r.sn);
      if (sns.length !== quantity) throw new Error(`${sns.length} of ${quantity} locks delivered`);
      log(`${n(quantity)} locks of batch ${batchNo} made and delivered to ${TENANT} in ${s1(performance.now() - t0)} s`);
      return { id: b.id, batchNo, sns };
    };
    const tenant = await signIn(TENANT);
    const agent = await call<{ id: string }>(tenant, 'POST', '/api/omc-device/area-agent/submit', { body: { agentName: '浙江代理', regionCodes: '330000' } });

    // the region tree's districts: Zhejiang's (inside) and the others' (outside), with their paths
    const districts = await exec<{ code: string; ancestors: string; name: string; province: string }>(sql`
      select code, ancestors, concat_ws('', province_name, city_name, name) as name, province_code as province from blade_region
      where is_deleted = 0 and region_level = 3 and code ~ '^[0-9]{6}$' order by code`);
    const pathOf = (d: { code: string; ancestors: string }) => [...d.ancestors.split(',').filter((c) => c && c !== '0'), d.code].join(',');
    const inside = districts.filter((d) => d.province === '330000');
    const outside = districts.filter((d) => d.province !== '330000');
    if (inside.length < 10 || outside.length < 100) throw new Error(`the region tree has ${inside.length} Zhejiang districts and ${outside.length} others`);
    log(`region tree: ${inside.length} districts in Zhejiang, ${outside.length} elsewhere`);

    // ============ 1. the import of `rows` device areas, and a COPY of the same rows ============
    const importLines: string[] = [];
    const importNotes: string[] = [];
    if (parts.has('import')) {
      const productId = await product('S1', 'BENCHSUP1');
      const batch = await lots(productId, 'BENCHS-A', rows, 'A');
      const dispatchTime = '2026-11-20 10:00:00';
      const sheet = batch.sns.map((sn, i) => [sn, pathOf(inside[i % inside.length]!), agent.id, dispatchTime] as const);
      const header = ['设备 SN', '区域编号', '代理', '派发时间'];
      const file = join(dir, `areas.${format}`);
      if (format === 'xlsx') {
        const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useStyles: false, useSharedStrings: false });
        const ws = book.addWorksheet('areas');
        ws.addRow(header).commit();
        for (const r of sheet) ws.addRow([...r]).commit();
        await book.commit();
      } else {
        writeFileSync(file, `${header.join(',')}\n${sheet.map((r) => r.map((c) => (c.includes(',') ? `"${c}"` : c)).join(',')).join('\n')}\n`);
      }
      const bytes = readFileSync(file);
      log(`${format} of ${n(rows)} rows: ${(bytes.length / 1024 / 1024).toFixed(1)} MB`);
      // the server's own reader over the same file: the floor of reading it
      const tRead = performance.now();
      let read = 0;
      for await (const _r of sheetRows(file, format)) read++;
      const readMs = performance.now() - tRead;
      log(`the server's sheet reader alone: ${n(read)} rows in ${s1(readMs)} s`);

      await gw.flush();
      const pids0 = db === 'postgres' ? await backendPids(adminUrl, dbName) : [];
      const pgCpu0 = new Map(pids0.map((p) => [p, procCpuSeconds(p)]));
      const cpu0 = process.cpuUsage();
      const load0 = load();
      statements.clear();
      const session = profile ? await startProfile() : undefined;
      recording = true;
      const t0 = performance.now();
      const form = new FormData();
      form.append('file', new Blob([bytes]), `areas.${format}`);
      const res = await fetch(`${base}${AREA}/import`, { method: 'POST', headers: tenant, body: form });
      const answer = (await res.json()) as { code: number; msg: string; data: { id: string } };
      if (answer.code !== 200) throw new Error(`import: ${answer.code} ${answer.msg}`);
      let job: { status: string; succeeded: number; failed: number; processed: number; total: number; errors: Array<{ row: number; message: string }> };
      let lastLog = performance.now();
      for (;;) {
        await sleep(200);
        job = ((await (await fetch(`${base}${AREA}/get-upload-progress?id=${answer.data.id}`, { headers: tenant })).json()) as { data: typeof job }).data;
        if (job.status !== 'running') break;
        if (performance.now() - lastLog > 10_000) {
          lastLog = performance.now();
          log(`  import ${s1(performance.now() - t0)} s: read ${n(job.total)}, checked ${n(job.processed)}, written ${n(job.succeeded)}; load ${load()}`);
        }
      }
      const importMs = performance.now() - t0;
      recording = false;
      const cpu = process.cpuUsage(cpu0);
      const load1 = load();
      let summary: ReturnType<typeof summariseProfile> | undefined;
      if (session) {
        const { profile: p } = await session.post('Profiler.stop');
        session.disconnect();
        summary = summariseProfile(p as never);
        writeFileSync(join(tmpdir(), 'supplier-import.cpuprofile'), JSON.stringify(p));
      }
      const pids1 = db === 'postgres' ? await backendPids(adminUrl, dbName) : [];
      const pgCpu = pids1.reduce((a, p) => a + procCpuSeconds(p) - (pgCpu0.get(p) ?? 0), 0);
      if (job.status !== 'done') throw new Error(`the import ${job.status}: ${JSON.stringify(job.errors.slice(0, 5))}`);
      const [{ areas, logs }] = await exec<{ areas: number; logs: number }>(sql`
        select (select count(*)::int from ymy_device_area where tenant_id = ${TENANT} and is_deleted = 0) as areas,
               (select count(*)::int from ymy_device_area_modify where tenant_id = ${TENANT}) as logs`) as [{ areas: number; logs: number }];
      log(`import of ${n(rows)} rows: ${s1(importMs)} s (${n(job.succeeded)} written; ${n(areas)} areas, ${n(logs)} modify log rows); bench process CPU ${s1((cpu.user + cpu.system) / 1000)} s, database backends CPU ${pgCpu.toFixed(1)} s; load ${load0} → ${load1}`);
      const stmtRows = [...statements.values()].sort((a, b) => b.ms - a.ms);
      const stmtTotal = stmtRows.reduce((a, s) => a + s.ms, 0);
      const stmtCount = stmtRows.reduce((a, s) => a + s.count, 0);
      const label = (text: string) =>
        /^select "id", "parent_id" from "blade_region"/.test(text) ? 'region paths (area.ts `checkRows` → regions.ts `regionPaths`, each chunk; `isRegionPath` in beforeSave when unchecked)'
          : /^select "sn" from "ymy_factory_device"/.test(text) ? 'locks owned (area.ts `checkRows`, each chunk)'
            : /^select "id" from "ymy_factory_device"/.test(text) ? '`ownsDevice` (area.ts beforeSave, each row)'
              : /^select "device_sn" from "ymy_device_area"/.test(text) ? 'areas held (area.ts `checkRows`, each chunk)'
                : /^select "id" from "ymy_device_area" where/.test(text) ? 'duplicate check (area.ts beforeSave, each row)'
                  : /^insert into "ymy_device_area_modify"/.test(text) ? '`logChange` (area.ts afterSave → placement.ts, each row)'
                    : /^insert into "ymy_device_area"/.test(text) ? 'insert … values (500 rows) returning * (importJob.ts `writeChunk`: the area has an afterSave)'
                      : /ymy_area_agent/.test(text) ? 'agent reference check (importJob.ts `checkChunkReferences`, each chunk)'
                        : /set_config/.test(text) ? 'transaction settings (inTenant)'
                          : /^(begin|commit|rollback)/i.test(text) ? 'begin / commit'
                            : /blade_log_api/.test(text) ? 'the API log of the upload request'
                              : 'other (the server\'s other work, the progress polls)';
      for (const s of stmtRows.slice(0, 20)) log(`  ${String(s.count).padStart(7)} × ${(s.ms / s.count).toFixed(3)} ms = ${s1(s.ms)} s  ${s.text.slice(0, 120)}`);

      // ---- COPY of the same rows into the same table, emptied first
      await exec(sql`truncate ymy_device_area`);
      await exec(sql`delete from ymy_device_area_modify where tenant_id = ${TENANT}`);
      const ids = batch.sns.map(() => nextId());
      const csv = sheet.map((r, i) => `${ids[i]},${TENANT},${r[0]},"${r[1]}",${r[2]},${r[3]}+08,import,1123598821738675201,1123598821738675201`).join('\n') + '\n';
      const csvLog = sheet.map((r, i) => `${ids[i]},${TENANT},${r[0]},,"${r[1]}",管理员,,1123598821738675201,1123598821738675201`).join('\n') + '\n';
      const AREA_COPY = 'COPY ymy_device_area (id, tenant_id, device_sn, code, agent_id, dispatch_time, source, create_user, update_user) FROM';
      const LOG_COPY = 'COPY ymy_device_area_modify (id, tenant_id, device_sn, old_code, new_code, operator, reason, create_user, update_user) FROM';
      let copyMs = 0;
      let copyLogMs = 0;
      if (db === 'postgres') {
        const c = new pg.Client({ connectionString: dbUrl });
        await c.connect();
        const copy = (statement: string, text: string) => copyCsv(c, statement, text);
        copyMs = await copy(AREA_COPY, csv);
        copyLogMs = await copy(LOG_COPY, csvLog);
        await c.end();
      } else {
        const client = (server.ctx.db as unknown as { $client: { query(q: string, p: unknown[], o: { blob: Blob }): Promise<unknown> } }).$client;
        const copy = async (statement: string, text: string) => {
          const t = performance.now();
          await client.query(`${statement} '/dev/blob' WITH (FORMAT csv)`, [], { blob: new Blob([text]) });
          return performance.now() - t;
        };
        copyMs = await copy(AREA_COPY, csv);
        copyLogMs = await copy(LOG_COPY, csvLog);
      }
      const copied = (await exec<{ n: number }>(sql`select count(*)::int as n from ymy_device_area where tenant_id = ${TENANT}`))[0]!.n;
      log(`COPY of the same ${n(copied)} rows into ymy_device_area (emptied): ${s1(copyMs)} s (×${(importMs / copyMs).toFixed(1)}); of their ${n(rows)} modify log rows: ${s1(copyLogMs)} s`);

      // ---- the same rows the chunked way (what the fix would send), in one tenant transaction as the import's
      await exec(sql`truncate ymy_device_area`);
      await exec(sql`delete from ymy_device_area_modify where tenant_id = ${TENANT}`);
      const CHUNK = 2000;
      const tChunk = performance.now();
      const chunkTimes = { owned: 0, duplicate: 0, region: 0, agent: 0, insert: 0, log: 0 };
      await inTenant(server.ctx.db, { tenantId: TENANT, timeoutMs: 300_000 }, async (tx) => {
        const knownPaths = new Map<string, boolean>();
        const timed = async <T>(k: keyof typeof chunkTimes, fn: () => Promise<T>) => {
          const t = performance.now();
          try {
            return await fn();
          } finally {
            chunkTimes[k] += performance.now() - t;
          }
        };
        const textArray = (v: readonly string[]) => `{${v.map((x) => `"${x}"`).join(',')}}`;
        for (let at = 0; at < sheet.length; at += CHUNK) {
          const chunk = sheet.slice(at, at + CHUNK);
          const sns = chunk.map((r) => r[0]);
          // the locks by SN alone (their unique index), the owner compared here: with \`owner_tenant_id = …\` beside
          // \`sn in (…)\` (area.ts checkRows) or in a join from the chunk's SNs, the planner walks the (owner_tenant_id, sn)
          // index over every lock of the tenant for each chunk (6.7–8.2 s in all for 100,000 locks, against 0.9 s)
          const owned = new Set((await timed('owned', () => tx.execute(sql`select sn, owner_tenant_id from ymy_factory_device where sn = any(${textArray(sns)}::varchar[])`)) as unknown as { rows: Array<{ sn: string; owner_tenant_id: string }> }).rows
            .filter((r) => r.owner_tenant_id === TENANT).map((r) => r.sn));
          // the areas held as checkRows asks (no index leads with the SN: this walks the tenant's areas)
          const held = (await timed('duplicate', () => tx.execute(sql`select device_sn from ymy_device_area where tenant_id = ${TENANT} and is_deleted = 0 and device_sn = any(${textArray(sns)}::varchar[])`)) as unknown as { rows: unknown[] }).rows;
          const fresh = [...new Set(chunk.map((r) => r[1]))].filter((p) => !knownPaths.has(p));
          if (fresh.length) {
            const codes = [...new Set(fresh.flatMap((p) => p.split(',')))];
            const found = (await timed('region', () => tx.execute(sql`select id::text as id, parent_id::text as parent from blade_region where is_deleted = 0 and id = any(${`{${codes.join(',')}}`}::bigint[])`)) as unknown as { rows: Array<{ id: string; parent: string }> }).rows;
            const parentOf = new Map(found.map((r) => [r.id, r.parent]));
            for (const p of fresh) knownPaths.set(p, p.split(',').every((c, i, all) => parentOf.get(c) === (i === 0 ? '0' : all[i - 1])));
          }
          await timed('agent', () => tx.execute(sql`select id from ymy_area_agent where tenant_id = ${TENANT} and is_deleted = 0 and id = any(${`{${agent.id}}`}::bigint[])`));
          if (owned.size !== chunk.length || held.length || chunk.some((r) => !knownPaths.get(r[1]))) throw new Error('the chunked write found a bad row');
          const now = new Date();
          const records = chunk.map((r, i) => ({
            id: ids[at + i]!, tenantId: TENANT, deviceSn: r[0], code: r[1], agentId: r[2], dispatchTime: new Date(`${r[3]}+08:00`), source: 'import',
            createUser: '1123598821738675201', updateUser: '1123598821738675201', createTime: now, updateTime: now, status: 1, isDeleted: 0,
          }));
          await timed('insert', () => insertRows(tx, deviceArea, records));
          const logRows = JSON.stringify(records.map((r) => ({ id: nextId(), sn: r.deviceSn, code: r.code })));
          await timed('log', () => tx.execute(sql`
            insert into ymy_device_area_modify (id, tenant_id, device_sn, old_code, new_code, operator, reason, create_user, update_user)
            select r.id, ${TENANT}, r.sn, null, r.code, '管理员', null, 1123598821738675201, 1123598821738675201
            from json_to_recordset(${logRows}::json) as r(id bigint, sn text, code text)`));
        }
      });
      const chunkMs = performance.now() - tChunk;
      log(`the same rows chunked (${CHUNK} a statement, checks + insertRows + one modify-log insert per chunk): ${s1(chunkMs)} s (×${(chunkMs / copyMs).toFixed(1)} COPY): ${Object.entries(chunkTimes).map(([k, v]) => `${k} ${s1(v)} s`).join(', ')}`);
      server.ctx.upkeep.changed('ymy_device_area', rows);

      const ratio = importMs / copyMs;
      importLines.push(
        `| import of ${n(rows)} device areas from .${format} (${(bytes.length / 1024 / 1024).toFixed(1)} MB; \`POST ${AREA}/import\`, polled until done) | ${s1(importMs)} s, ${n(rows / (importMs / 1000))} rows/s | ${s1(copyMs)} s | ×${ratio.toFixed(1)} | ${ratio <= 2 ? '✅' : '❌'} | ${load0} → ${load1} |`,
      );
      importNotes.push(
        `Import: ${n(job.succeeded)} rows written, ${n(areas)} device areas and ${n(logs)} modify log rows after it. The bench process (server and bench) used ${s1((cpu.user + cpu.system) / 1000)} s of CPU during the import${db === 'postgres' ? `, the database backends of the bench's database ${pgCpu.toFixed(1)} s` : ''}. The server's sheet reader alone reads the file in ${s1(readMs)} s.`,
        `COPY: the same ${n(rows)} rows (id, tenant, SN, path, agent, dispatch time, source) into ymy_device_area emptied first (its primary key and 4 partial indexes), ${s1(copyMs)} s; the ${n(rows)} modify log rows the import also writes, by a second COPY into ymy_device_area_modify: ${s1(copyLogMs)} s (both: ${s1(copyMs + copyLogMs)} s, import ×${(importMs / (copyMs + copyLogMs)).toFixed(1)}).`,
        `Chunked (the fix priced): the same rows written again into the emptied table in one tenant transaction (the import's role and RLS), ${CHUNK} rows a step: the locks by SN alone (\`sn = any(…)\`, the unique index; the owner compared in JS), the areas held (as \`checkRows\` asks), , the chunk's new region paths (cached), the agent, then \`insertRows\` (json_populate_recordset) and one \`insert … select from json_to_recordset\` into the modify log: **${s1(chunkMs)} s** (×${(chunkMs / copyMs).toFixed(1)} COPY): ${Object.entries(chunkTimes).map(([k, v]) => `${k} ${s1(v)} s`).join(', ')}.`,
      );
      if (db === 'postgres') {
        importNotes.push('', `Statements the server sent during the import (${n(stmtCount)} in all, ${s1(stmtTotal)} s of round trips measured at the pg client; the import's transaction sends them one after the other):`, '',
          '| statement | what sends it | count | mean ms | total s | share of the import |', '|---|---|---:|---:|---:|---:|',
          ...stmtRows.slice(0, 9).map((s) => `| \`${s.text.slice(0, 90).replace(/\|/g, '\\|')}…\` | ${label(s.text)} | ${n(s.count)} | ${(s.ms / s.count).toFixed(3)} | ${s1(s.ms)} | ${((s.ms / importMs) * 100).toFixed(0)}% |`),
          `| everything else (${n(stmtRows.slice(9).reduce((a, s) => a + s.count, 0))} statements) | | | | ${s1(stmtRows.slice(9).reduce((a, s) => a + s.ms, 0))} | |`,
          `| outside any statement (the file read and parsed, rows validated, drizzle building the statements, the event loop) | | | | ${s1(importMs - stmtTotal)} | ${(((importMs - stmtTotal) / importMs) * 100).toFixed(0)}% |`);
      }
      if (summary) {
        importNotes.push('', `CPU profile of the bench process during the import (${s1(summary.totalMs)} s sampled; self time by package):`, '',
          '| package | self ms |', '|---|---:|', ...summary.packages.map(([k, v]) => `| ${k} | ${n(v)} |`), '',
          'Top functions by self time:', '', '| function | self ms |', '|---|---:|', ...summary.functions.slice(0, 15).map(([k, v]) => `| \`${k.replace(/\|/g, '\\|')}\` | ${n(v)} |`));
      }
    }

    // ============ 2. the warning list on `warnRows` warnings ============
    const listRows: string[] = [];
    const explains: string[] = [];
    let warnTotal = 0;
    if (parts.has('warn')) {
      const t0 = performance.now();
      const productId = await product('S2', 'BENCHSUP2');
      const count = Math.min(100_000, Math.ceil(warnRows / 10));
      const batch = await lots(productId, 'BENCHS-W', count, 'W');
      const per = Math.ceil(warnRows / count);
      const codes = outside.slice(0, per).map(pathOf);
      await exec(sql`select setseed(0.27)`);
      // the SN's i-th warning is in the i-th outside region; activation times spread over a year, newest first by g;
      // one in five unhandled
      await exec(sql`
        insert into ymy_device_area_warn (id, tenant_id, device_sn, dispatched_code, activated_code, location, activation_time, handled, handle_remark, create_time, update_time)
        select 7100000000000000 + g, ${TENANT}, d.sn, '330000', (${`{${codes.map((c) => `"${c}"`).join(',')}}`}::text[])[(g - 1) / ${count}::int + 1],
               '广东省深圳市南山区 22.53290,113.93050', ts, case when random() < 0.2 then 0 else 1 end,
               null, ts, ts
        from generate_series(1, ${warnRows}::int) g
        join (select sn, row_number() over (order by sn) as rn from ymy_factory_device where batch_id = ${batch.id}::bigint) d on d.rn = (g - 1) % ${count}::int + 1
        cross join lateral (select timestamptz '2026-11-29 00:00:00+08' - (g * (365 * 86400 / ${warnRows}::float8)) * interval '1 second' + (random() * 30) * interval '1 second' as ts) t`);
      await exec(sql`update ymy_device_area_warn set handle_remark = '已联系代理' where tenant_id = ${TENANT} and handled = 1 and id % 10 = 0`);
      // another tenant's warnings, so the tenant's condition matters
      await exec(sql`
        insert into ymy_device_area_warn (id, tenant_id, device_sn, dispatched_code, activated_code, location, activation_time, handled)
        select 7200000000000000 + g, '000000', 'X' || lpad(g::text, 9, '0'), '110000', '330000', 'x', now() - g * interval '1 minute', 0
        from generate_series(1, ${Math.ceil(warnRows / 10)}::int) g`);
      warnTotal = (await exec<{ n: number }>(sql`select count(*)::int as n from ymy_device_area_warn where tenant_id = ${TENANT}`))[0]!.n;
      server.ctx.upkeep.changed('ymy_device_area_warn', warnTotal);
      await server.ctx.upkeep.settled();
      log(`${n(warnTotal)} warnings of ${TENANT} (+ ${n(Math.ceil(warnRows / 10))} of 000000) in ${s1(performance.now() - t0)} s (with the product's upkeep)`);
      const sn = batch.sns[Math.floor(count / 2) + 17]!;
      const cases: Array<[string, Record<string, string>]> = [
        ['first page (activationTime desc, size 10)', {}],
        ['page 1,000 (rows 9,991–10,000)', { current: '1000', size: '10' }],
        ['page 10,000 (rows 99,991–100,000)', { current: '10000', size: '10' }],
        ['unhandled (handled=0)', { handled: '0', current: '1', size: '10' }],
        ['unhandled, page 100', { handled: '0', current: '100', size: '10' }],
        [`an SN typed in the console (its start, ${sn.slice(0, -1)})`, { deviceSn_likeright: sn.slice(0, -1), current: '1', size: '10' }],
        [`an SN's first ${sn.length - 3} characters (${sn.slice(0, -3)})`, { deviceSn_likeright: sn.slice(0, -3), current: '1', size: '10' }],
        ['a week (activationTime 2026-10-01 … 2026-10-07)', { activationTime_datege: '2026-10-01', activationTime_datele: '2026-10-07', current: '1', size: '10' }],
        ['a week, unhandled', { activationTime_datege: '2026-10-01', activationTime_datele: '2026-10-07', handled: '0', current: '1', size: '10' }],
      ];
      const warnHeaders = await signIn(TENANT);
      for (const [name, query] of cases) {
        const url = `${base}${WARN}/list?${new URLSearchParams(query)}`;
        let total = -1;
        let records = -1;
        const one = async () => {
          const res = await fetch(url, { headers: warnHeaders });
          const body = (await res.json()) as { code: number; data?: { total: number; records: unknown[] } };
          if (res.status !== 200 || body.code !== 200 || !body.data) throw new Error(`${name}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
          total = body.data.total;
          records = body.data.records.length;
        };
        for (let i = 0; i < 10; i++) await one();
        const load0 = load();
        const times: number[] = [];
        for (let i = 0; i < calls; i++) {
          const t = performance.now();
          await one();
          times.push(performance.now() - t);
        }
        const load1 = load();
        const s: Stats = stats(times);
        const ok = s.p95 < 50;
        listRows.push(`| ${name} <br>\`${new URLSearchParams(query).toString() || '(none)'}\` | ${n(total)} | ${records} | ${s.median.toFixed(1)} | ${s.p95.toFixed(1)} | ${ok ? '✅' : '❌'} | ${load0} → ${load1} |`);
        log(`warn list ${name}: total ${n(total)}, ${records} records, median ${s.median.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms (load ${load0} → ${load1})`);
        if (!ok && db === 'postgres') {
          captured.length = 0;
          explaining = true;
          await one();
          explaining = false;
          // each statement explained as the list ran it: the tenant transaction's role and settings (inTenant), then rolled back
          const c = new pg.Client({ connectionString: dbUrl });
          await c.connect();
          const plans: string[] = [];
          try {
            for (const q of captured) {
              await c.query('begin');
              await c.query(`select set_config('role', 'console_app', true), set_config('app.tenant_id', $1, true)`, [TENANT]);
              const p = await c.query(`explain (analyze, buffers) ${q.text}`, q.values);
              await c.query('rollback');
              plans.push(`${q.text.replace(/\s+/g, ' ')}\n  -- params: ${JSON.stringify(q.values)}\n${p.rows.map((r: Record<string, string>) => `  ${r['QUERY PLAN']}`).join('\n')}`);
            }
          } finally {
            await c.end();
          }
          explains.push(`<details><summary>${name} (<code>${new URLSearchParams(query).toString()}</code>, p95 ${s.p95.toFixed(1)} ms)</summary>\n\n\`\`\`\n${plans.join('\n\n')}\n\`\`\`\n\n</details>\n`);
        }
      }
    }

    // ============ 3. activations checked while the gateway ingests ============
    const ingestLines: string[] = [];
    const foldLines: string[] = [];
    const dispatchNotes: string[] = [];
    if (parts.has('activations')) {
      const cloudProductId = 'BENCHSUP3';
      const productId = await product('S3', cloudProductId);
      const batch = await lots(productId, 'BENCHS-G', ingestDevices, 'G');
      const box = secretBox(server.ctx.config.encryptionKey);
      for (let i = 0; i < batch.sns.length; i += 2000) {
        const records = batch.sns.slice(i, i + 2000).map((sn) => ({ id: nextId(), name: sn, secret: box.seal(randomBytes(16).toString('base64')), sn }));
        await exec(sql`
          insert into ymy_cert (id, cloud_vendor, cloud_product_id, device_name, device_secret, state, batch_id, device_sn)
          select r.id, 1, ${cloudProductId}, r.name, r.secret, 3, ${batch.id}::bigint, r.sn
          from json_to_recordset(${JSON.stringify(records)}::json) as r(id bigint, name text, secret text, sn text)`);
      }
      await exec(sql`update ymy_factory_device d set certificate_id = c.id, burn_time = now() from ymy_cert c where c.device_sn = d.sn and d.batch_id = ${batch.id}::bigint`);
      // every lock of the batch dispatched to Zhejiang (its device area written by the dispatch)
      // the batch dispatched at once, as a person would right after making it (before the product's table upkeep has
      // analyzed the new devices); if that fails, once more after the upkeep
      const dispatch = async () => {
        statements.clear();
        failures.length = 0;
        recording = true;
        const t = performance.now();
        try {
          await call(tenant, 'POST', '/api/omc-device/area-dispatch/update', { body: { code: '330000', agentId: agent.id, batchNo: batch.batchNo } });
          return { ok: true, ms: performance.now() - t };
        } catch (e) {
          log(`the dispatch failed after ${s1(performance.now() - t)} s (${(e as Error).message}); its slowest statements:`);
          for (const st of [...statements.values()].sort((x, y) => y.ms - x.ms).slice(0, 3)) log(`  ${st.count} × ${(st.ms / st.count).toFixed(1)} ms  ${st.text}`);
          for (const f of failures) log(`  failed: ${f}`);
          return { ok: false, ms: performance.now() - t, error: (e as Error).message, failure: failures[0] ?? '' };
        } finally {
          recording = false;
        }
      };
      const first = await dispatch();
      if (!first.ok) {
        dispatchNotes.push(`The dispatch of the ${n(ingestDevices)} new locks (\`area-dispatch/update\` by batch) right after the batch was made **failed after ${s1(first.ms)} s** (${first.error}): the statement of placement.ts \`placeDevices\` hit the 3 s statement limit (${(first.failure ?? "").slice(0, 160).replace(/\|/g, '\\|')}…).`);
        await server.ctx.upkeep.settled();
        const again = await dispatch();
        if (!again.ok) throw new Error(`the dispatch failed twice: ${again.error}`);
        dispatchNotes.push(`After the product's table upkeep (\`upkeep.settled()\`: ymy_factory_device analyzed) the same dispatch took ${s1(again.ms)} s.`);
      } else {
        dispatchNotes.push(`The dispatch of the ${n(ingestDevices)} new locks (\`area-dispatch/update\` by batch, right after the batch was made): ${s1(first.ms)} s.`);
      }
      log(dispatchNotes.join(' '));
      const placed = (await exec<{ n: number }>(sql`select count(*)::int as n from ymy_device_area a join ymy_factory_device f on f.sn = a.device_sn where f.batch_id = ${batch.id}::bigint and a.is_deleted = 0 and a.code = '330000'`))[0]!.n;
      if (placed !== ingestDevices) throw new Error(`${placed} of ${ingestDevices} locks have a device area`);
      const sessions = (await call<{ sessions: FleetSession[] }>(platform, 'POST', '/api/omc-device/simulator/sessions', { body: { batchNo: batch.batchNo } })).sessions;
      log(`${n(ingestDevices)} locks with certificates, dispatched to 330000; gateway ${gw.mode} at ${gw.deviceUrl()}`);
      const place = (d: { code: string; name: string }, i: number) => ({ code: d.code, lat: 20 + (i % 200) / 10, lng: 100 + (i % 300) / 10, address: d.name });

      // the bench's own handler beside foldCrossRegion's: counts the location reports handed over, with a region code
      let checked = 0;
      let withRegion = 0;
      gw.onUplink(['location'], async (b) => {
        checked += b.length;
        withRegion += b.filter((u) => typeof u.params.regionCode === 'string').length;
      });
      const warnCount = async () => (await exec<{ n: number }>(sql`select count(*)::int as n from ymy_device_area_warn w join ymy_factory_device f on f.sn = w.device_sn where f.batch_id = ${batch.id}::bigint`))[0]!.n;

      for (const c of ingestCases) {
        const planFile = join(dir, 'plan.json');
        const plan: PublishPlan = {
          sessions, rate: c.rate, seconds: ingestSeconds, spreadMs: Math.min(20_000, ingestDevices * 5), locationShare: c.share,
          inside: inside.map(place), outside: outside.map(place),
        };
        writeFileSync(planFile, JSON.stringify(plan));
        const child = fork(join(HERE, 'supplier-fleet.ts'), ['publish', planFile], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
        children.push(child);
        const messages: Row[] = [];
        const waiters = new Map<string, (m: Row) => void>();
        child.on('message', (m: Row) => {
          messages.push(m);
          waiters.get(String(m.type))?.(m);
        });
        const wait = (type: string) => new Promise<Row>((resolve, reject) => {
          waiters.set(type, resolve);
          child.once('exit', (code) => reject(new Error(`the publishers exited (${code}) before '${type}'`)));
        });
        const startedMsg = await wait('started');
        const pc0 = startedMsg.counters as Record<string, number>;
        log(`publishers: ${n(pc0.connected!)} connected, ${pc0.refused} refused`);
        await sleep(2000);
        await gw.flush();
        const warns0 = await warnCount();
        const s0 = gw.stats();
        const checked0 = checked;
        const region0 = withRegion;
        const cpu0 = process.cpuUsage();
        const load0 = load();
        const pids0 = db === 'postgres' ? await backendPids(adminUrl, dbName) : [];
        const pgCpu0 = new Map(pids0.map((p) => [p, procCpuSeconds(p)]));
        // --profile: the server's JS while the devices publish, written to $TMPDIR/supplier-ingest-<rate>.cpuprofile
        const session = profile ? await startProfile() : undefined;
        child.send({ type: 'go' });
        const t0 = performance.now();
        const seconds: Array<{ accepted: number; flushed: number; checked: number }> = [];
        let prev = { ...s0, checked: checked0 };
        let peak = process.memoryUsage.rss() / 2 ** 20;
        const timer = setInterval(() => {
          const s = gw.stats();
          seconds.push({ accepted: s.accepted - prev.accepted, flushed: s.flushed - prev.flushed, checked: checked - prev.checked });
          prev = { ...s, checked };
          peak = Math.max(peak, process.memoryUsage.rss() / 2 ** 20);
        }, 1000);
        const done = await wait('done');
        if (session) {
          const { profile: p } = await session.post('Profiler.stop');
          session.disconnect();
          writeFileSync(join(tmpdir(), `supplier-ingest-${c.rate}.cpuprofile`), JSON.stringify(p));
          const summary = summariseProfile(p as never);
          log(`  profile while publishing: ${summary.packages.map(([k, v]) => `${k} ${n(v)} ms`).join(', ')}`);
          log(`  top functions: ${summary.functions.slice(0, 25).map(([k, v]) => `${k} ${n(v)}`).join(' | ')}`);
        }
        log(`  per second (accepted/flushed/checked): ${seconds.map((x) => `${x.accepted}/${x.flushed}/${x.checked}`).join(' ')}`);
        const publishMs = performance.now() - t0;
        const sPub = gw.stats();
        const checkedPub = checked - checked0;
        const cpu = process.cpuUsage(cpu0);
        for (let until = Date.now() + 120_000; gw.stats().buffered > 0 && Date.now() < until;) await sleep(100);
        await gw.flush();
        const drainMs = performance.now() - t0 - publishMs;
        clearInterval(timer);
        const pids1 = db === 'postgres' ? await backendPids(adminUrl, dbName) : [];
        const pgCpu = pids1.reduce((a, p) => a + procCpuSeconds(p) - (pgCpu0.get(p) ?? 0), 0);
        const sEnd = gw.stats();
        const load1 = load();
        const warns1 = await warnCount();
        const pc = done.counters as Record<string, number>;
        const steady = seconds.slice(2, Math.floor(publishMs / 1000) - 1);
        const secs = publishMs / 1000;
        const accepted = (sPub.accepted - s0.accepted) / secs;
        const flushed = (sPub.flushed - s0.flushed) / secs;
        const checkedRate = checkedPub / secs;
        const minOf = (k: 'accepted' | 'flushed' | 'checked') => Math.min(...steady.map((x) => x[k]));
        const dropped = sEnd.dropped - s0.dropped;
        const rejected = Object.values(sEnd.rejected).reduce((a, v) => a + (v ?? 0), 0) - Object.values(s0.rejected).reduce((a, v) => a + (v ?? 0), 0);
        const allChecked = checked - checked0;
        const cores = ((cpu.user + cpu.system) / 1000) / publishMs;
        const ok = accepted >= 5000 && flushed >= 5000 && checkedRate >= 2000 && dropped === 0;
        log(`ingest ${n(c.rate)} msg/s, ${(c.share * 100).toFixed(0)}% locations: published ${n(pc.published!)} (${n(pc.location!)} locations, ${pc.errors} errors) in ${s1(publishMs)} s; accepted ${n(accepted)}/s, flushed ${n(flushed)}/s, activations checked ${n(checkedRate)}/s (steady min ${n(minOf('accepted'))} / ${n(minOf('flushed'))} / ${n(minOf('checked'))}); drained ${s1(drainMs)} s after; dropped ${dropped}, rejected ${rejected}; warnings +${n(warns1 - warns0)}; server CPU ${(cores * 100).toFixed(0)}%, database ${db === 'postgres' ? `${((pgCpu / secs) * 100).toFixed(0)}%` : 'in process'}; peak RSS ${peak.toFixed(0)} MB; load ${load0} → ${load1}`);
        ingestLines.push(`| ${n(c.rate)} msg/s asked for ${ingestSeconds} s, ${(c.share * 100).toFixed(0)}% location reports (${n(c.rate * c.share)}/s) | ${n(pc.published!)} (${n(pc.location!)} location: ${n(pc.locationInside!)} inside, ${n(pc.locationOutside!)} outside) | ${n(accepted)}/s (slowest steady second ${n(minOf('accepted'))}) | ${n(flushed)}/s (slowest ${n(minOf('flushed'))}); drained ${s1(drainMs)} s after | **${n(checkedRate)}/s** (slowest ${n(minOf('checked'))}; ${n(allChecked)} in all, ${n(withRegion - region0)} with a region code) | ${n(warns1 - warns0)} | ${dropped} / ${rejected} | ${(cores * 100).toFixed(0)}%${db === 'postgres' ? ` + database ${((pgCpu / secs) * 100).toFixed(0)}%` : ''} of a core, peak RSS ${peak.toFixed(0)} MB | ${ok ? '✅' : '❌'} | ${load0} → ${load1} |`);
        if (child.exitCode === null) await new Promise((r) => child.once('exit', r));
      }

      // ---- foldCrossRegion alone: batches of 500 sightings of these locks (half inside, half in a new outside region)
      const identity = { productId, cloudVendor: 1, cloudProductId };
      const foldTimes: number[] = [];
      let foldWarned = 0;
      let k = 0;
      for (let b = 0; b < 40; b++) {
        const batchOf: Uplink[] = Array.from({ length: 500 }, (_, i) => {
          const sn = batch.sns[(b * 500 + i) % batch.sns.length]!;
          const out = i % 2 === 1;
          const d = out ? outside[(k++ * 7 + 3) % outside.length]! : inside[i % inside.length]!;
          return {
            device: { sn, deviceName: sn, ...identity }, kind: 'location', method: 'report', clientToken: `fold-${b}-${i}`, timestamp: Date.now(), receivedAt: Date.now(),
            params: { lat: 22.5, lng: 113.9, accuracy: 15, regionCode: d.code, address: d.name },
          };
        });
        const t = performance.now();
        foldWarned += await inTenant(server.ctx.db, { tenantId: PLATFORM_TENANT, allTenants: true, timeoutMs: 120_000 }, (tx) => foldCrossRegion(tx, batchOf));
        foldTimes.push(performance.now() - t);
      }
      const fs = stats(foldTimes.slice(5));
      log(`foldCrossRegion alone, 500 sightings a batch: median ${fs.median.toFixed(1)} ms, p95 ${fs.p95.toFixed(1)} ms (${n(500 / (fs.median / 1000))} sightings/s); ${n(foldWarned)} warnings written by ${foldTimes.length} batches`);
      foldLines.push(`| \`foldCrossRegion\` alone (in its platform transaction, as \`watchLocations\` runs it), batches of 500 location uplinks of these locks, half inside, half in an outside region, ${foldTimes.length} batches (the first 5 not counted) | median ${fs.median.toFixed(1)} ms, p95 ${fs.p95.toFixed(1)} ms a batch | ${n(500 / (fs.median / 1000))} sightings/s on one connection | ${n(foldWarned)} warnings written |`);
    }

    // ============ the section ============
    const title = db === 'postgres' ? 'PostgreSQL' : 'PGlite';
    out.push(`Measured ${started} UTC on ${title}${db === 'postgres' ? ' 15' : ''}, revision ${revision}${dirty ? ` with ${dirty} files of server/src and contract/src changed in the work tree (other work in progress)` : ''}; ${machine()}. The server in the bench's process (createServer, listening on 127.0.0.1, gateway embedded with MQTT_PORT=0; its RSS and CPU are that process's${db === 'pglite' ? ', the database included' : ''}); publishers in a child process on the same 2 cores. Load average (1 min) before → after each figure in the last column.`);
    if (importLines.length) {
      out.push('', `**1. Area import** (target: ≤ 2× a COPY of the same rows).`, '',
        '| case | import (to the job\'s end) | COPY of the same rows | ratio | ≤ 2× | load |', '|---|---|---|---:|:-:|---|', ...importLines, '', ...importNotes);
    }
    if (listRows.length) {
      out.push('', `**2. Warning list** on ${n(warnTotal)} warnings of ${TENANT} (one in five unhandled, activation times over a year; 10 per lock of ${n(Math.min(100_000, Math.ceil(warnRows / 10)))} locks) and ${n(Math.ceil(warnRows / 10))} of another tenant: \`GET ${WARN}/list\` over HTTP (fetch to the in-process server), ${calls} calls a case after 10 warm-up calls, ms (target: p95 < 50 ms).`, '',
        '| case | total | records | median | p95 | p95 < 50 ms | load |', '|---|---:|---:|---:|---:|:-:|---|', ...listRows);
      if (explains.length) out.push('', 'EXPLAIN ANALYZE of the warning table\'s statements of each case that missed (the statements one call sent, captured at the pg client, each run again under EXPLAIN ANALYZE in a transaction of the tenant as `inTenant` opens it: role console_app, app.tenant_id set, on a connection of the bench\'s own):', '', ...explains);
    }
    if (ingestLines.length) {
      out.push('', `**3. Activations checked while ingesting** (target: ≥ 2,000 activations checked/s while ≥ 5,000 msg/s are accepted and flushed, nothing dropped). ${n(ingestDevices)} locks, each with a device area (dispatched to 330000 through \`area-dispatch/update\`), as raw mqtt.js clients with signed envelopes (QoS 1); the location reports carry a \`regionCode\`, every other one a Zhejiang district (inside: no warning) and every other one the next district of another province (outside: a warning the first time a lock is seen there); the other messages are the ingestion bench's mix (70% property reports, 20% OTA progress, 10% face events). "checked": location reports handed to the gateway's location handlers (\`foldCrossRegion\`'s batch, counted by a handler of the bench registered beside it), per second of publishing.`, '',
        '| case | published | accepted | flushed | activations checked | warnings written | dropped / rejected | server | | load |', '|---|---|---|---|---|---:|---|---|:-:|---|', ...ingestLines);
      if (foldLines.length) out.push('', '| the fold alone | time | rate | |', '|---|---|---|---|', ...foldLines);
      if (dispatchNotes.length) out.push('', ...dispatchNotes);
    }
    const section = out.join('\n');
    writeSection(args.results ?? join(HERE, 'RESULTS.md'), args.section ?? `supplier-${db}`, section);
    console.log(section);
  } finally {
    for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
    await server.close();
    rmSync(dir, { recursive: true, force: true });
    if (db === 'postgres' && !('keep' in args)) await queryOnce(adminUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  }
}

await main();
process.exit(0);
