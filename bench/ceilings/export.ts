/**
 * Close to the ceilings (issue 30), the exports: the console's `GET …/export-device-list` of 100,000 devices of one
 * tenant (the batch devices, `factory_device`: SN, batch, product, MAC, station, burn time, test result's label,
 * owner), over HTTP to the last byte, as .xlsx and as the CSV option (`?format=csv`), beside
 * `COPY (select <the same columns, the same joins, the same order, the same tenant filter>) TO STDOUT` through
 * pg-copy-streams to the last byte, in paired rounds (COPY, then the xlsx; COPY, then the CSV), medians.
 *
 * The CSV the console answers is checked equal to COPY's CSV, line for line (after its BOM and header row): the
 * same rows, columns, joins and order. The xlsx's row count is checked in the first round.
 *
 *   npx tsx bench/ceilings/export.ts [--rows=100000] [--rounds=3] [--skip-build] [--keep] [--write] [--profile]
 *     [--pg-url=postgres://postgres@127.0.0.1:5432/postgres]
 */
import { mkdtemp } from 'node:fs/promises';
import { readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { factoryDeviceResource } from '@console/contract/areas/production/index';
import { ioRoutes } from '@console/contract/io';
import { loadConfig } from '@console/server/src/core/config.js';
import { createServer } from '@console/server/src/server.js';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { Readable } from 'node:stream';
import { intOption, withDatabase } from '../data.js';
import { BASIC, rssMb, signIn } from '../measure.js';
import { machine, revision, writeSection } from '../report.js';
import { type BuiltServer, log, median, profileReport, RESULTS, ratioRow, startBuiltServer } from './common.js';

const DB = 'console_bench_ceil_export';
const TENANT = '541742';
/** the devices' SNs start with it: the bench's own rows, found again by a kept database */
const PREFIX = 'CE';

const { values: opt } = parseArgs({
  strict: false,
  options: {
    rows: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '3' },
    'skip-build': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    write: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    /** `xlsx` alone: a build without the CSV option (the figures before it); `csv` alone: its profile */
    formats: { type: 'string', default: 'xlsx,csv' },
    'pg-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const str = (v: string | boolean | undefined, d: string) => (typeof v === 'string' ? v : d);
const ROWS = intOption('rows', str(opt.rows, '100000'), 1000, 5_000_000);
const ROUNDS = intOption('rounds', str(opt.rounds, '3'), 1, 20);
const PG_URL = str(opt['pg-url'], 'postgres://postgres@127.0.0.1:5432/postgres');
const CSV = str(opt.formats, 'xlsx,csv').split(',').includes('csv');
const XLSX = str(opt.formats, 'xlsx,csv').split(',').includes('xlsx');
const EXPORT_PATH = ioRoutes(factoryDeviceResource).export!.path;
const EXPORT_CODE = ioRoutes(factoryDeviceResource).export!.permission;

/**
 * The rows the export writes, as the list orders them (`defaultSort` sn asc, then id desc), for the tenant that owns
 * them (`ownedDevices`): SN, the batch's number, the product's name, MAC, the station's name, the burn time in the
 * wire format of the display zone, the test result's label (zh), the owner tenant.
 */
const SAME_ROWS = `select d.sn, b.batch_no, p.product_name, d.mac, s.station_name,
    to_char(d.burn_time at time zone 'Asia/Shanghai', 'YYYY-MM-DD HH24:MI:SS'), r.dict_value, d.owner_tenant_id
  from ymy_factory_device d
  left join ymy_batch b on b.id = d.batch_id and b.is_deleted = 0
  left join ymy_product p on p.id = d.product_id and p.is_deleted = 0
  left join ymy_station s on s.id = d.station_id and s.is_deleted = 0
  left join blade_dict r on r.code = 'cit_result' and r.parent_id <> 0 and r.is_deleted = 0 and r.dict_key = d.test_result::text
  where d.owner_tenant_id = '${TENANT}'
  order by d.sn asc, d.id desc`;

/**
 * 100,000 devices of the tenant (`--rows`) in 20 batches of 4 products (one name needing quotes in a CSV), made at 3
 * stations; some without MAC, station, burn time or test result. Written by one statement each, unless a kept database
 * holds them.
 */
async function seed(c: pg.Client): Promise<void> {
  const { rows } = await c.query(`select count(*)::int as n from ymy_factory_device where owner_tenant_id = '${TENANT}' and sn like '${PREFIX}%'`);
  if (Number(rows[0]?.n) === ROWS) {
    log(`reusing the ${ROWS.toLocaleString('en')} devices of ${DB}`);
    return;
  }
  log(`seeding ${DB}: ${ROWS.toLocaleString('en')} devices of tenant ${TENANT}`);
  const base = 7_300_000_000_000_000n;
  await c.query(`delete from ymy_factory_device where sn like '${PREFIX}%'`);
  await c.query(`delete from ymy_batch where id between ${base} and ${base + 1000n}`);
  await c.query(`delete from ymy_product where id between ${base} and ${base + 1000n}`);
  await c.query(`delete from ymy_station where id between ${base} and ${base + 1000n}`);
  await c.query(`delete from ymy_factory where id = ${base}`);
  await c.query(`insert into ymy_factory (id, factory_name, factory_code) values (${base}, '出口基准工厂', 'CEF')`);
  await c.query(`insert into ymy_product (id, product_name, product_code, type_id, model_id, cloud_vendor)
    select ${base} + g, (array['智能门锁 X1', '指纹锁 "旗舰", 二代', 'Lock Pro', '猫眼锁 C3'])[g], 'CEP' || g, 1, 1, 1 from generate_series(1, 4) g`);
  await c.query(`insert into ymy_station (id, factory_id, station_name, station_code, station_type)
    select ${base} + g, ${base}, (array['一号烧录工位', '二号烧录工位', 'Station 3'])[g], 'CES' || g, 1 from generate_series(1, 3) g`);
  await c.query(`insert into ymy_batch (id, batch_no, factory_id, product_id, cloud_vendor, quantity, sn_prefix, state)
    select ${base} + g, 'CEB' || lpad(g::text, 4, '0'), ${base}, ${base} + 1 + g % 4, 1, ${Math.ceil(ROWS / 20)}, '${PREFIX}', 3 from generate_series(1, 20) g`);
  await c.query(`insert into ymy_factory_device (id, sn, batch_id, product_id, mac, station_id, burn_time, test_result, owner_tenant_id)
    select ${base} + 10000 + g, '${PREFIX}' || lpad(g::text, 8, '0'), ${base} + 1 + g % 20, ${base} + 1 + (g % 20 + 1) % 4,
      case when g % 10 <> 0 then upper(substr(md5(g::text), 1, 12)) end,
      case when g % 7 <> 0 then ${base} + 1 + g % 3 end,
      case when g % 9 <> 0 then timestamptz '2025-01-01 00:00:00+00' + g * interval '97 seconds' end,
      case when g % 11 <> 0 then 1 + (g % 13 = 0)::int end, '${TENANT}'
    from generate_series(1, ${ROWS}) g`);
  await c.query('vacuum analyze ymy_factory_device, ymy_batch, ymy_product, ymy_station');
}

/** Gives the tenant's admin role the batch screen and its export code, unless it holds them. */
async function grant(c: pg.Client): Promise<void> {
  await c.query(`insert into blade_role_menu (role_id, menu_id)
    select r.id, m.id from blade_role r, blade_menu m
    where r.tenant_id = '${TENANT}' and r.role_alias = 'admin' and r.is_deleted = 0 and m.code in ('batch', '${EXPORT_CODE}') and m.is_deleted = 0
    on conflict do nothing`);
}

/** the CPU seconds process `pid` has used so far (user and system) */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** `GET path` to the last byte: milliseconds and the body (kept only when `keep`) */
function download(port: number, path: string, token: string, keep: boolean): Promise<{ ms: number; bytes: number; body?: Buffer }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { authorization: BASIC, 'blade-auth': `bearer ${token}` } }, (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (b: Buffer) => {
        bytes += b.length;
        if (keep) chunks.push(b);
      });
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`${path} answered ${res.statusCode}: ${Buffer.concat(chunks).toString('utf8').slice(0, 300)}`));
        else resolve({ ms: performance.now() - t0, bytes, body: keep ? Buffer.concat(chunks) : undefined });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** `COPY (<the same rows>) TO STDOUT (FORMAT csv)` to the last byte */
function copyOut(c: pg.Client, keep: boolean): Promise<{ ms: number; bytes: number; body?: Buffer }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const stream = c.query(copyTo(`COPY (${SAME_ROWS}) TO STDOUT WITH (FORMAT csv)`));
    const chunks: Buffer[] = [];
    let bytes = 0;
    stream.on('data', (b: Buffer) => {
      bytes += b.length;
      if (keep) chunks.push(b);
    });
    stream.on('end', () => resolve({ ms: performance.now() - t0, bytes, body: keep ? Buffer.concat(chunks) : undefined }));
    stream.on('error', reject);
  });
}

/** The console's CSV is COPY's, after its BOM and header: the same rows, columns, names and order. */
function checkCsv(csv: Buffer, copy: Buffer): void {
  const text = csv.toString('utf8');
  if (!text.startsWith('\uFEFF')) throw new Error('the CSV has no BOM');
  const lines = text.slice(1).split('\r\n');
  const header = lines.shift();
  if (header !== 'SN,批次,产品,MAC,烧录工位,烧录时间,测试结果,所属租户') throw new Error(`the CSV's header: ${header}`);
  const theirs = copy.toString('utf8').split('\n');
  if (lines.length !== theirs.length) throw new Error(`the CSV has ${lines.length - 1} rows, COPY ${theirs.length - 1}`);
  lines.forEach((line, i) => {
    if (line !== theirs[i]) throw new Error(`row ${i + 1}: the CSV has ${JSON.stringify(line)}, COPY ${JSON.stringify(theirs[i])}`);
  });
}

async function xlsxRows(body: Buffer): Promise<number> {
  let rows = 0;
  const book = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([body]), { worksheets: 'emit', sharedStrings: 'cache', styles: 'ignore', hyperlinks: 'ignore', entries: 'ignore' });
  for await (const sheet of book) for await (const _row of sheet) rows++;
  return rows;
}

async function main(): Promise<void> {
  const admin = new pg.Client({ connectionString: withDatabase(PG_URL, 'postgres') });
  await admin.connect();
  if (!(await admin.query(`select 1 from pg_database where datname = '${DB}'`)).rowCount) await admin.query(`create database ${DB}`);
  const url = withDatabase(PG_URL, DB);
  const dataDir = await mkdtemp(join(tmpdir(), 'console-bench-ceil-export-'));
  const profileDir = opt.profile ? await mkdtemp(join(tmpdir(), 'console-bench-ceil-export-profile-')) : undefined;
  let server: BuiltServer | undefined;
  const client = new pg.Client({ connectionString: url });
  try {
    // migrations and seed data, then the devices
    await (await createServer(loadConfig({ LOG_LEVEL: 'warn', DATABASE_URL: url, REDIS_URL: '', MQTT_PORT: 'off' }, { dataDir }))).close();
    await client.connect();
    await seed(client);
    await grant(client);

    server = await startBuiltServer({ databaseUrl: url, dataDir, skipBuild: opt['skip-build'] === true, profileDir });
    const token = await signIn(`http://127.0.0.1:${server.port}`, TENANT);
    const xlsxPath = EXPORT_PATH;
    const csvPath = `${EXPORT_PATH}?format=csv`;

    // warm both, and check what they answer
    const copy = await copyOut(client, true);
    const csv = CSV ? await download(server.port, csvPath, token, true) : { bytes: Number.NaN, body: undefined };
    if (csv.body) checkCsv(csv.body, copy.body!);
    const xlsx = XLSX ? await download(server.port, xlsxPath, token, true) : { bytes: Number.NaN, body: undefined };
    const sheetRows = xlsx.body ? await xlsxRows(xlsx.body) : ROWS + 1;
    if (sheetRows !== ROWS + 1) throw new Error(`the xlsx has ${sheetRows - 1} rows, not ${ROWS}`);
    log(`checked: the CSV equals COPY's (${ROWS.toLocaleString('en')} rows), the xlsx holds ${ROWS.toLocaleString('en')} rows; `
      + `sizes: xlsx ${(xlsx.bytes / 1048576).toFixed(1)} MB, CSV ${(csv.bytes / 1048576).toFixed(1)} MB, COPY ${(copy.bytes / 1048576).toFixed(1)} MB`);

    const loadBefore = loadavg()[0]!;
    const m = { copyX: [] as number[], xlsx: [] as number[], copyC: [] as number[], csv: [] as number[], xlsxCpu: [] as number[], csvCpu: [] as number[] };
    const pid = server.child.pid!;
    const rss = { idle: rssMb(pid), xlsx: 0, csv: 0 };
    /** the export's time to the last byte, the server's CPU seconds meanwhile, and its peak RSS (sampled every 20 ms) */
    const timed = async (path: string, format: 'xlsx' | 'csv') => {
      const cpu0 = cpuSeconds(pid);
      const sampler = setInterval(() => { rss[format] = Math.max(rss[format], rssMb(pid)); }, 20);
      const { ms } = await download(server!.port, path, token, false).finally(() => clearInterval(sampler));
      return { ms, cpu: cpuSeconds(pid) - cpu0 };
    };
    for (let r = 1; r <= ROUNDS; r++) {
      if (XLSX) {
        m.copyX.push((await copyOut(client, false)).ms);
        const x = await timed(xlsxPath, 'xlsx');
        m.xlsx.push(x.ms);
        m.xlsxCpu.push(x.cpu);
      }
      if (CSV) {
        m.copyC.push((await copyOut(client, false)).ms);
        const c = await timed(csvPath, 'csv');
        m.csv.push(c.ms);
        m.csvCpu.push(c.cpu);
      }
      log(`round ${r}: ${XLSX ? `xlsx ${m.xlsx.at(-1)!.toFixed(0)} ms, server CPU ${m.xlsxCpu.at(-1)!.toFixed(2)} s (COPY ${m.copyX.at(-1)!.toFixed(0)} ms)` : ''}`
        + `${CSV ? `; CSV ${m.csv.at(-1)!.toFixed(0)} ms, server CPU ${m.csvCpu.at(-1)!.toFixed(2)} s (COPY ${m.copyC.at(-1)!.toFixed(0)} ms)` : ''}`);
    }
    const loadAfter = loadavg()[0]!;
    const n = ROWS.toLocaleString('en');
    const report = [
      `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} on ${machine()}, revision ${revision()}: the batch devices' export `
        + `(\`GET ${EXPORT_PATH}\`) of the ${n} devices tenant ${TENANT} owns, 8 columns (SN, batch number, product name, MAC, station name, `
        + `burn time, test result's label, owner; in the list's order, SN), ${ROUNDS} paired rounds, PostgreSQL `
        + `(${(await client.query('show server_version')).rows[0].server_version}). The console: server/dist/main.js in its own process, over HTTP `
        + `to the last byte (xlsx ${(xlsx.bytes / 1048576).toFixed(1)} MB, CSV ${(csv.bytes / 1048576).toFixed(1)} MB). The ceiling: `
        + `\`COPY (select <the same columns, joins, tenant filter and order>) TO STDOUT (FORMAT csv)\` through pg-copy-streams to the last byte `
        + `(${(copy.bytes / 1048576).toFixed(1)} MB), right before each export; the console's CSV checked equal to it line for line. `
        + `Load average ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)}.`,
      '',
      '| measure | console (median ms) | ceiling (median ms) | ratio | rounds (console / ceiling) |',
      '|---|---:|---:|---:|---|',
      ...(XLSX ? [ratioRow(`export of ${n} devices, xlsx (target ≤ ×3)`, m.xlsx, m.copyX, 'time')] : []),
      ...(CSV ? [ratioRow(`export of ${n} devices, CSV (target ≤ ×1.5)`, m.csv, m.copyC, 'time')] : []),
      '',
      `The server's CPU time per export (median):${XLSX ? ` xlsx ${median(m.xlsxCpu).toFixed(2)} s` : ''}${CSV ? ` CSV ${median(m.csvCpu).toFixed(2)} s` : ''}; `
        + `its RSS ${rss.idle.toFixed(0)} MB before the rounds, peak during them${XLSX ? ` ${rss.xlsx.toFixed(0)} MB (xlsx)` : ''}${CSV ? ` ${rss.csv.toFixed(0)} MB (CSV)` : ''}.`,
    ].join('\n');
    console.log(`\n${report}\n`);
    if (opt.write) writeSection(RESULTS, 'ceilings-export-postgres', report);
    if (profileDir) {
      await server.stop();
      console.log(`the server's heaviest functions by self time (whole run: checks and rounds):\n${profileReport(profileDir)}`);
    }
  } finally {
    await server?.stop();
    await client.end().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    if (profileDir) rmSync(profileDir, { recursive: true, force: true });
    if (!opt.keep) await admin.query(`drop database if exists ${DB} with (force)`);
    await admin.end();
  }
}

await main();
process.exit(0);
