/**
 * Devices in the field (issue 11), on PGlite or PostgreSQL, the gateway embedded (MQTT_PORT=0) or Mosquitto:
 *  1. `--devices` simulated devices (createFleet, in a process of its own: bench/devices-fleet.ts) upgraded by one
 *     OTA task per `--rates` rate (devices/min): time from the task's creation to every device `succeeded`
 *     (ota-task/summary polled every 250 ms), the server's peak RSS, and no lost report (ota_log rows per state
 *     against what the fleet published; gateway dropped = 0);
 *  2. ingestion: `--ingest-devices` raw mqtt.js clients (another process) publishing signed uplinks at
 *     `--ingest-rate` msg/s for `--ingest-seconds`; accepted/s and flushed/s from the gateway's counters, the
 *     fold's rows, the server's CPU and RSS;
 *  3. the ota-progress list and the task summary on `--progress-rows` progress rows (100 tasks of `--devices`).
 *
 *   npm run bench:devices -w bench -- --db=pglite|postgres [--parts=ota,ingest,list] [--devices=10000]
 *     [--rates=6000,60000] [--fw-kb=300] [--ingest-devices=2000] [--ingest-rate=6000] [--ingest-seconds=40]
 *     [--progress-tasks=100] [--calls=200] [--broker=mosquitto] [--speed=10] [--connect-spread=60000] [--ota-wait=240]
 *
 * The server runs in this process (createServer, listening on a real port: devices download the firmware over
 * HTTP from it, PUBLIC_URL set to its address), so the gateway's counters can be read; its RSS and CPU are this
 * process's (the bench's own part is the polling and ~10 MB of sessions). The devices are in child processes.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { loadConfig } from '@console/server/src/core/config.js';
import { nextId } from '@console/server/src/core/ids.js';
import { secretBox } from '@console/server/src/core/secrets.js';
import type { FleetSession } from '@console/server/src/areas/device/gateway/fleet.js';
import type { DeviceGateway } from '@console/server/src/areas/device/gateway/gateway.js';
import { GATEWAY } from '@console/server/src/areas/device/index.js';
import { createServer } from '@console/server/src/server.js';
import { dbOption, intOption, queryOnce, withDatabase } from './data.js';
import { sample, stats } from './measure.js';
import { writeSection } from './report.js';
import { spawnDevices } from './deviceProcess.js';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const db = dbOption(args.db ?? 'pglite');
const parts = new Set((args.parts ?? 'ota,ingest,list').split(','));
const devices = intOption('devices', args.devices ?? '10000', 10, 10_000);
const rates = (args.rates ?? '6000,60000').split(',').map((r) => intOption('rates', r, 1, 100_000));
const fwKb = intOption('fw-kb', args['fw-kb'] ?? '300', 1, 10_000);
const ingestDevices = intOption('ingest-devices', args['ingest-devices'] ?? '2000', 1, devices);
const ingestRate = intOption('ingest-rate', args['ingest-rate'] ?? '6000', 1, 100_000);
const ingestSeconds = intOption('ingest-seconds', args['ingest-seconds'] ?? '40', 5, 600);
const progressTasks = intOption('progress-tasks', args['progress-tasks'] ?? '100', 1, 1000);
const calls = intOption('calls', args.calls ?? '200', 10, 100_000);
const broker = args.broker === 'mosquitto' ? 'mosquitto' : 'embedded';
const BASIC = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;
const md5 = (s: string) => createHash('md5').update(s).digest('hex');
const log = (s: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${s}`);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const load = () => loadavg()[0]!.toFixed(2);
const mb = () => process.memoryUsage.rss() / 2 ** 20;
const n = (v: number) => v.toLocaleString('en');

type Row = Record<string, unknown>;

/** A child running bench/devices-fleet.ts: its last counters, and its messages awaited by type. */
async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'console-bench-devices-'));
  const adminUrl = args['pg-url'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const dbName = 'console_bench_devices';
  if (db === 'postgres') {
    await queryOnce(adminUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await queryOnce(adminUrl, `CREATE DATABASE ${dbName}`);
  }
  const root = `bd${randomBytes(3).toString('hex')}`;
  const mqttEnv = broker === 'mosquitto'
    ? { MQTT_URL: args['mqtt-url'] ?? 'mqtt://127.0.0.1:1883', MQTT_TOPIC_ROOT: root }
    : { MQTT_PORT: '0', MQTT_HOST: '127.0.0.1', MQTT_TOPIC_ROOT: root, MQTT_MAX_CONNECTIONS_PER_ADDRESS: String(devices * 2) };
  const config = loadConfig({
    NODE_ENV: 'production', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn', DATABASE_URL: db === 'postgres' ? withDatabase(adminUrl, dbName) : '',
    PUBLIC_RATE_PER_MINUTE: '10000000', DEVICE_SIMULATOR: 'true', ...mqttEnv,
  }, { dataDir: dir });
  const server = await createServer(config);
  const gw: DeviceGateway = server.ctx.services.get(GATEWAY);
  const children: Array<ReturnType<typeof spawnDevices>> = [];
  const out: string[] = [];
  const started = new Date().toISOString().slice(0, 16).replace('T', ' ');
  try {
    const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
    server.ctx.config.publicUrl = address;
    const exec = async <T extends Row>(q: ReturnType<typeof sql>) => ((await server.ctx.db.execute(q)) as unknown as { rows: T[] }).rows;
    const login = await server.app.inject({
      method: 'POST', url: '/api/blade-auth/oauth/token', headers: { authorization: BASIC, 'tenant-id': '000000' },
      query: { grant_type: 'password', tenantId: '000000', username: 'admin', password: md5('admin'), scope: 'all', type: 'account' },
    });
    const token = (login.json() as { access_token: string }).access_token;
    const headers = { authorization: BASIC, 'blade-auth': `bearer ${token}` };
    const call = async <T>(method: 'GET' | 'POST', url: string, opts: { body?: unknown; query?: Record<string, string> } = {}): Promise<T> => {
      const res = await server.app.inject({ method, url, headers, query: opts.query, payload: opts.body as object });
      const json = res.json() as { code: number; msg: string; data: T };
      if (json.code !== 200) throw new Error(`${url}: ${json.code} ${json.msg}`);
      return json.data;
    };

    // ---- a product, a factory, a batch of `devices`, a certificate burned into each
    const cloudProductId = 'BENCHDEV01';
    const type = await call<{ id: string }>('POST', '/api/ymy-product/type/submit', { body: { typeName: '压测门锁', typeCode: 'BENCHD' } });
    const model = await call<{ id: string }>('POST', '/api/ymy-product/model/submit', { body: { typeId: type.id, modelName: 'D1', modelCode: 'D1' } });
    const product = await call<{ id: string }>('POST', '/api/ymy-product/product/submit', { body: { productName: 'D1', productCode: 'D1', typeId: type.id, modelId: model.id, cloudVendor: 1, cloudProductId } });
    const factory = await call<{ id: string }>('POST', '/sc/ymy-ipc/back/add-factory', { body: { factoryName: '压测工厂', factoryCode: 'BENCHD-F' } });
    const batchNo = 'BENCHD-1';
    const batch = await call<{ id: string }>('POST', '/sc/ymy-ipc/back/add-batch', { body: { batchNo, factoryId: factory.id, productId: product.id, cloudVendor: 1, quantity: devices, snPrefix: 'D' } });
    const box = secretBox(server.ctx.config.encryptionKey);
    const sns = (await exec<{ sn: string }>(sql`select sn from ymy_factory_device where batch_id = ${batch.id}::bigint order by sn`)).map((r) => r.sn);
    const t0Certs = performance.now();
    for (let i = 0; i < sns.length; i += 2000) {
      const records = sns.slice(i, i + 2000).map((sn) => ({ id: nextId(), name: sn, secret: box.seal(randomBytes(16).toString('base64')), sn }));
      await server.ctx.db.execute(sql`
        insert into ymy_cert (id, cloud_vendor, cloud_product_id, device_name, device_secret, state, batch_id, device_sn)
        select r.id, 1, ${cloudProductId}, r.name, r.secret, 3, ${batch.id}::bigint, r.sn
        from json_to_recordset(${JSON.stringify(records)}::json) as r(id bigint, name text, secret text, sn text)`);
    }
    await server.ctx.db.execute(sql`
      update ymy_factory_device d set certificate_id = c.id, burn_time = now()
      from ymy_cert c where c.device_sn = d.sn and d.batch_id = ${batch.id}::bigint`);
    log(`${n(sns.length)} devices and certificates in ${((performance.now() - t0Certs) / 1000).toFixed(1)} s (certificates)`);

    /** a firmware of `fwKb` KB through the multipart submit, published */
    const firmware = async (version: string) => {
      const boundary = `----fw${randomBytes(6).toString('hex')}`;
      const part = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
      const payload = Buffer.concat([
        Buffer.from(part('productId', product.id) + part('moduleType', 'mcu') + part('version', version)
          + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="fw-${version}.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`),
        randomBytes(fwKb * 1024),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const res = await server.app.inject({ method: 'POST', url: '/api/ymy-firmware/firmware/submit', payload, headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` } });
      if (res.statusCode !== 200) throw new Error(`firmware: ${res.statusCode} ${res.body}`);
      const id = (res.json() as { data: { id: string } }).data.id;
      await call('POST', '/api/ymy-firmware/firmware/publish', { query: { id } });
      return id;
    };
    const sessions = (await call<{ sessions: FleetSession[] }>('POST', '/api/omc-device/simulator/sessions', { body: { batchNo } })).sessions;
    if (sessions.length !== devices) throw new Error(`${sessions.length} sessions for ${devices} devices`);
    const sessionsFile = join(dir, 'sessions.json');
    writeFileSync(sessionsFile, JSON.stringify(sessions));
    log(`gateway ${gw.mode} at ${gw.deviceUrl()}, server at ${address}`);

    const otaRows: string[] = [];
    const otaNotes: string[] = [];
    // ---- 1. the fleet through one OTA task per rate
    if (parts.has('ota')) {
      const speed = Number(args.speed ?? '10');
      const spread = Number(args['connect-spread'] ?? '60000');
      const t0 = performance.now();
      const fleet = spawnDevices(['fleet', sessionsFile, String(speed), String(spread)]);
      children.push(fleet);
      await fleet.wait('started');
      const c0 = fleet.state.counters;
      log(`fleet: ${n(c0.connected!)} connected, ${c0.refused} refused, ${c0.errors} errors in ${((performance.now() - t0) / 1000).toFixed(1)} s (spread ${spread / 1000} s); fleet RSS ${fleet.state.rssMb.toFixed(0)} MB`);
      if (c0.connected !== devices) otaNotes.push(`only ${n(c0.connected!)} of ${n(devices)} devices connected (${c0.refused} refused, ${c0.errors} errors)`);
      const online = async () => (await exec<{ n: number }>(sql`select count(*)::int as n from ymy_device_status s join ymy_factory_device f on f.sn = s.sn where f.batch_id = ${batch.id}::bigint and s.online = 1`))[0]!.n;
      for (let until = Date.now() + 120_000; (await online()) < c0.connected! && Date.now() < until;) await sleep(500);
      log(`${n(await online())} devices online in the database; server RSS ${mb().toFixed(0)} MB`);

      for (const [i, rate] of rates.entries()) {
        const version = `2.${i}.0`;
        const firmwareId = await firmware(version);
        await gw.flush();
        const before = { published: fleet.state.counters.published!, succeeded: fleet.state.counters.otaSucceeded!, stats: gw.stats() };
        const load0 = load();
        const cpu0 = process.cpuUsage();
        let peak = mb();
        const rssTimer = setInterval(() => (peak = Math.max(peak, mb())), 50);
        const t1 = performance.now();
        const task = await call<{ id: string }>('POST', '/api/omc-device/ota-task/submit', {
          body: { taskName: `压测升级 ${version}`, firmwareId, scope: 'batch', batchId: batch.id, rateLimit: rate, timeoutMinutes: 30, maxRetries: 0 },
        });
        let summary: { state: string; counts: Record<string, number> } = { state: '', counts: {} };
        let lastLog = 0;
        // given up `--ota-wait` s (default 240) after the rate's floor, or once the task has no device left to move
        const limit = Date.now() + Math.ceil((devices / rate) * 60_000) + Number(args['ota-wait'] ?? '240') * 1000;
        for (;;) {
          summary = await call('GET', '/api/omc-device/ota-task/summary', { query: { id: task.id } });
          if ((summary.counts.succeeded ?? 0) >= c0.connected! || summary.state !== 'running' || Date.now() > limit) break;
          if (performance.now() - lastLog > 10_000) {
            lastLog = performance.now();
            log(`  ${((performance.now() - t1) / 1000).toFixed(0)} s: ${JSON.stringify(Object.fromEntries(Object.entries(summary.counts).filter(([, v]) => v)))}; RSS ${mb().toFixed(0)} MB; load ${load()}`);
          }
          await sleep(250);
        }
        const ms = performance.now() - t1;
        const cpu = process.cpuUsage(cpu0);
        const load1 = load();
        clearInterval(rssTimer);
        log(`task at ${n(rate)}/min: ${n(summary.counts.succeeded ?? 0)} succeeded in ${(ms / 1000).toFixed(1)} s, peak RSS ${peak.toFixed(0)} MB, load ${load0} → ${load1}`);
        // the fleet's last reports (report_version after succeeded) folded, then the log compared with them
        const target = before.succeeded + c0.connected!;
        for (let until = Date.now() + 30_000; fleet.state.counters.otaSucceeded! < target && Date.now() < until;) await sleep(200);
        await sleep(1500);
        await gw.flush();
        const after = { published: fleet.state.counters.published!, stats: gw.stats() };
        const published = after.published - before.published;
        const logRows = await exec<{ state: string; n: number; tokens: number }>(sql`
          select state, count(*)::int as n, count(client_token)::int as tokens from ymy_ota_log where task_id = ${task.id}::bigint group by state order by state`);
        const complete = (await exec<{ n: number }>(sql`
          select count(*)::int as n from (select device_sn from ymy_ota_log where task_id = ${task.id}::bigint group by device_sn
            having count(*) filter (where state = 'notified') = 1 and count(*) filter (where state = 'downloading' and percent = 0) = 1
              and count(*) filter (where state = 'downloading' and percent = 100) = 1 and count(*) filter (where state = 'downloaded') = 1
              and count(*) filter (where state = 'verified') = 1 and count(*) filter (where state = 'installing') = 1
              and count(*) filter (where state = 'succeeded') = 1) d`))[0]!.n;
        const refused = (await exec<{ n: number }>(sql`select count(*)::int as n from ymy_ota_log where task_id = ${task.id}::bigint and message like 'refused%'`))[0]!.n;
        const deviceRows = logRows.reduce((a, r) => a + r.tokens, 0);
        // what the fleet published during the task: its OTA reports, and one report_version per device that succeeded
        const expectedRows = published - c0.connected!;
        const dropped = after.stats.dropped - before.stats.dropped;
        const rejected = Object.values(after.stats.rejected).reduce((a, v) => a + (v ?? 0), 0) - Object.values(before.stats.rejected).reduce((a, v) => a + (v ?? 0), 0);
        const perState = logRows.map((r) => `${r.state} ${n(r.n)}`).join(', ');
        const ok = (summary.counts.succeeded ?? 0) === devices && complete === devices && deviceRows === expectedRows && dropped === 0 && refused === 0;
        log(`  ota_log: ${perState}; device reports logged ${n(deviceRows)} / published ${n(expectedRows)}; complete sequences ${n(complete)}; dropped ${dropped}, rejected ${rejected}, refused ${refused}; fleet errors ${fleet.state.counters.errors}; fleet peak RSS ${fleet.state.peakRssMb.toFixed(0)} MB`);
        otaRows.push(`| ${n(devices)} devices, rate ${n(rate)}/min (${fwKb} KB firmware) | ${(ms / 1000).toFixed(1)} s (rate floor ${(devices / rate * 60).toFixed(0)} s) | ${peak.toFixed(0)} MB | ${(((cpu.user + cpu.system) / 1000) / ms * 100).toFixed(0)}% | ${perState} | ${n(deviceRows)} / ${n(expectedRows)} | ${n(complete)} | ${dropped} / ${rejected} | ${ok ? '✅' : '❌'} | ${load0} → ${load1} |`);
      }
      fleet.child.send({ type: 'stop' });
      await Promise.race([fleet.wait('stopped'), sleep(60_000)]);
      await fleet.exited;
    }

    // ---- 2. ingestion
    const ingestLines: string[] = [];
    if (parts.has('ingest')) {
      const file = join(dir, 'ingest.json');
      writeFileSync(file, JSON.stringify(sessions.slice(0, ingestDevices)));
      const pub = spawnDevices(['publish', file, String(ingestRate), String(ingestSeconds), String(Math.min(20_000, ingestDevices * 5))]);
      children.push(pub);
      await pub.wait('started');
      log(`publishers: ${n(pub.state.counters.connected!)} connected, ${pub.state.counters.refused} refused`);
      await sleep(2000);
      await gw.flush();
      const count = async () => (await exec<{ ota: number; face: number }>(sql`select (select count(*)::int from ymy_ota_log) as ota, (select count(*)::int from ymy_face_log) as face`))[0]!;
      const rows0 = await count();
      const s0 = gw.stats();
      const cpu0 = process.cpuUsage();
      const load0 = load();
      pub.child.send({ type: 'go' });
      const t0 = performance.now();
      let peak = mb();
      const seconds: Array<{ accepted: number; flushed: number }> = [];
      let prev = s0;
      const timer = setInterval(() => {
        const s = gw.stats();
        seconds.push({ accepted: s.accepted - prev.accepted, flushed: s.flushed - prev.flushed });
        prev = s;
        peak = Math.max(peak, mb());
      }, 1000);
      const done = await pub.wait('done');
      const publishMs = performance.now() - t0;
      const sPub = gw.stats();
      const cpu = process.cpuUsage(cpu0);
      // the backlog drained
      for (let until = Date.now() + 120_000; gw.stats().buffered > 0 && Date.now() < until;) await sleep(100);
      await gw.flush();
      const drainMs = performance.now() - t0 - publishMs;
      clearInterval(timer);
      const s1 = gw.stats();
      const load1 = load();
      const rows1 = await count();
      const pc = done.counters as Record<string, number>;
      const steady = seconds.slice(2, Math.floor(publishMs / 1000) - 1);
      const accepted = sPub.accepted - s0.accepted;
      const flushed = sPub.flushed - s0.flushed;
      const rejected = Object.values(s1.rejected).reduce((a, v) => a + (v ?? 0), 0) - Object.values(s0.rejected).reduce((a, v) => a + (v ?? 0), 0);
      const perSec = (v: number) => n(Math.round(v / (publishMs / 1000)));
      const minAcc = Math.min(...steady.map((x) => x.accepted));
      const minFl = Math.min(...steady.map((x) => x.flushed));
      const cores = ((cpu.user + cpu.system) / 1000) / publishMs;
      log(`ingest: published ${n(pc.published!)} (${pc.errors} errors, ${n(pc.acked!)} acked) in ${(publishMs / 1000).toFixed(1)} s; accepted ${perSec(accepted)}/s, flushed ${perSec(flushed)}/s (steady seconds min ${n(minAcc)} / ${n(minFl)}); drained ${(drainMs / 1000).toFixed(1)} s after; dropped ${s1.dropped - s0.dropped}, rejected ${rejected}; ota_log +${n(rows1.ota - rows0.ota)}, face_log +${n(rows1.face - rows0.face)}; CPU ${(cores * 100).toFixed(0)}% of a core; peak RSS ${peak.toFixed(0)} MB; load ${load0} → ${load1}`);
      ingestLines.push(
        `| ${n(pub.state.counters.connected!)} devices, ${n(ingestRate)} msg/s asked for ${ingestSeconds} s (70% property reports, 20% OTA reports, 10% face events) | ${n(pc.published!)} published, ${n(pc.acked!)} acked | ${perSec(accepted)}/s (slowest steady second ${n(minAcc)}) | ${perSec(flushed)}/s (slowest ${n(minFl)}); backlog drained ${(drainMs / 1000).toFixed(1)} s after the end | ${s1.dropped - s0.dropped} / ${rejected} | ota_log +${n(rows1.ota - rows0.ota)}, face_log +${n(rows1.face - rows0.face)}, device status upserts for ${n(Math.round((flushed * 0.7)))} property reports | ${(cores * 100).toFixed(0)}% of a core, peak RSS ${peak.toFixed(0)} MB | ${Number(perSec(accepted).replace(/,/g, '')) >= 5000 && s1.dropped === s0.dropped ? '✅' : '❌'} | ${load0} → ${load1} |`,
      );
      await pub.exited;
    }

    // ---- 3. the ota-progress list on `progressTasks` × `devices` rows
    const listRows: string[] = [];
    let progressRows = 0;
    if (parts.has('list')) {
      const t0 = performance.now();
      const fw = await firmware('9.0.0');
      await server.ctx.db.execute(sql`
        insert into ymy_ota_task (id, task_name, firmware_id, product_id, scope, batch_id, rate_limit, timeout_minutes, max_retries, to_version, state, total, succeeded, failed, finish_time, create_time)
        select 7000000000000000 + g, '历史任务 ' || g, ${fw}::bigint, ${product.id}::bigint, 'batch', ${batch.id}::bigint, 6000, 30, 1, '9.0.0', 'finished', ${devices}::int, 0, 0,
               now() - (${progressTasks}::int - g + 1) * interval '1 day', now() - (${progressTasks}::int - g + 1) * interval '1 day' - interval '1 hour'
        from generate_series(1, ${progressTasks}::int) g`);
      for (let g = 1; g <= progressTasks; g++) {
        await server.ctx.db.execute(sql`
          insert into ymy_ota_progress (id, task_id, device_sn, product_id, from_version, to_version, state, percent, attempt, error_code, error_message, due_time, last_report_time, create_time)
          select 8000000000000000 + ${g}::bigint * 100000 + d.rn, 7000000000000000 + ${g}::bigint, d.sn, d.product_id, '1.0.0', '9.0.0',
                 case when (d.rn + ${g}::int) % 50 = 0 then 'failed' when (d.rn + ${g}::int) % 97 = 0 then 'timed_out' else 'succeeded' end,
                 case when (d.rn + ${g}::int) % 50 = 0 or (d.rn + ${g}::int) % 97 = 0 then 40 else 100 end, 1,
                 case when (d.rn + ${g}::int) % 50 = 0 then '-5' when (d.rn + ${g}::int) % 97 = 0 then 'timeout' end,
                 case when (d.rn + ${g}::int) % 50 = 0 then 'update failed' when (d.rn + ${g}::int) % 97 = 0 then 'no report before the timeout' end,
                 null,
                 now() - (${progressTasks}::int - ${g}::int + 1) * interval '1 day' + (d.rn * 6) * interval '1 millisecond' + ((d.rn * 7919) % 1000) * interval '1 second',
                 now() - (${progressTasks}::int - ${g}::int + 1) * interval '1 day'
          from (select sn, product_id, row_number() over (order by sn) as rn from ymy_factory_device where batch_id = ${batch.id}::bigint) d`);
        await server.ctx.db.execute(sql`
          update ymy_ota_task set succeeded = (select count(*) from ymy_ota_progress where task_id = 7000000000000000 + ${g}::bigint and state = 'succeeded'),
            failed = (select count(*) from ymy_ota_progress where task_id = 7000000000000000 + ${g}::bigint and state in ('failed', 'timed_out'))
          where id = 7000000000000000 + ${g}::bigint`);
      }
      progressRows = (await exec<{ n: number }>(sql`select count(*)::int as n from ymy_ota_progress`))[0]!.n;
      server.ctx.upkeep.changed('ymy_ota_progress', progressRows);
      await server.ctx.upkeep.settled();
      log(`${n(progressRows)} progress rows in ${((performance.now() - t0) / 1000).toFixed(1)} s (with the product's upkeep)`);
      const mid = String(7000000000000000 + Math.ceil(progressTasks / 2));
      const midSn = sns[Math.floor(sns.length / 2) + 17]!;
      const partial = midSn.slice(-6, -1);
      const cases: Array<[string, string, Record<string, string>]> = [
        ['a task, page 1 (lastReportTime desc)', '/api/omc-device/ota-progress/list', { taskId: mid, current: '1', size: '20' }],
        ['a task, failed', '/api/omc-device/ota-progress/list', { taskId: mid, state_equal: 'failed', current: '1', size: '20' }],
        [`SN contains ${partial} (every task)`, '/api/omc-device/ota-progress/list', { deviceSn: partial, current: '1', size: '20' }],
        // the console's SN box sends the SN's start (search: 'prefix'); the API still takes a substring (`deviceSn=`)
        ['a task, an SN typed in the console (its start)', '/api/omc-device/ota-progress/list', { taskId: mid, deviceSn_likeright: midSn, current: '1', size: '20' }],
        ['an SN\'s first 7 characters typed in the console (every task)', '/api/omc-device/ota-progress/list', { deviceSn_likeright: midSn.slice(0, 7), current: '1', size: '20' }],
        ['a task, full SN as a substring (API)', '/api/omc-device/ota-progress/list', { taskId: mid, deviceSn: midSn, current: '1', size: '20' }],
        ['a task, page 500', '/api/omc-device/ota-progress/list', { taskId: mid, current: '500', size: '20' }],
        [`ota-task/summary of a ${n(devices)}-device task`, '/api/omc-device/ota-task/summary', { id: mid }],
      ];
      for (const [name, url, query] of cases) {
        let total = -1;
        const fn = async () => {
          const res = await server.app.inject({ method: 'GET', url, query, headers });
          const body = res.json() as { code: number; data: { total?: number; records?: unknown[] } };
          if (res.statusCode !== 200 || body.code !== 200) throw new Error(`${name}: ${res.statusCode} ${res.body.slice(0, 300)}`);
          total = body.data.total ?? -1;
        };
        const load0 = load();
        const s = stats(await sample(calls, 10, fn));
        const load1 = load();
        listRows.push(`| ${name} <br>\`${new URLSearchParams(query).toString()}\` | ${total >= 0 ? n(total) : '–'} | ${s.median.toFixed(1)} | ${s.p95.toFixed(1)} | ${s.p95 < 50 ? '✅' : '❌'} | ${load0} → ${load1} |`);
        log(`list ${name}: total ${total}, median ${s.median.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms (load ${load0} → ${load1})`);
      }
    }

    const title = db === 'postgres' ? 'PostgreSQL' : 'PGlite';
    out.push(`Measured ${started} UTC on ${title}, gateway ${broker === 'mosquitto' ? 'on Mosquitto (MQTT_URL)' : 'embedded (aedes, MQTT_PORT=0)'}; the server in the bench's process (createServer, listening on 127.0.0.1; RSS and CPU are that process's${db === 'pglite' ? ', the database included' : ''}), the devices in child processes on the same 2 cores. Load average (1 min) before → after each figure in the last column.`);
    if (otaRows.length) {
      out.push('', `OTA (${n(devices)} devices, createFleet speed ${args.speed ?? '10'}, connects spread over ${Number(args['connect-spread'] ?? '60000') / 1000} s, timeout 30 min, no retries). Time: task created → summary shows every device succeeded. "reports logged / published": ota_log rows carrying a client token against the fleet's OTA publishes (its publishes during the task less one report_version per device). "complete": devices with exactly one notified, downloading 0 %, downloading 100 %, downloaded, verified, installing and succeeded row.${otaNotes.length ? ` Note: ${otaNotes.join('; ')}.` : ''}`, '',
        '| case | time to all succeeded | server peak RSS | server CPU (of one core) | ota_log rows per state | reports logged / published | complete | dropped / rejected | | load |',
        '|---|---|---|---|---|---|---|---|:-:|---|', ...otaRows);
    }
    if (ingestLines.length) {
      out.push('', 'Ingestion (publishers: raw mqtt.js clients with signed envelopes, QoS 1, in a child process). Rates over the publishing time; "steady" seconds exclude the first two and the last. Target ≥ 5,000 msg/s accepted and flushed, nothing dropped.', '',
        '| case | publisher | accepted | flushed | dropped / rejected | rows written | server | ≥ 5,000/s | load |',
        '|---|---|---|---|---|---|---|:-:|---|', ...ingestLines);
    }
    if (listRows.length) {
      out.push('', `ota-progress list on ${n(progressRows)} progress rows (${progressTasks} tasks × ${n(devices)} devices, plus the tasks above), ${calls} calls a case after 10 warm-up calls, inject (ms):`, '',
        '| case | total | median | p95 | p95 < 50 ms | load |', '|---|---:|---:|---:|:-:|---|', ...listRows);
    }
    const section = out.join('\n');
    writeSection(args.results ?? 'RESULTS.md', `devices-${db}${broker === 'mosquitto' ? '-mosquitto' : ''}`, section);
    console.log(section);
  } finally {
    for (const c of children) if (c.child.exitCode === null) c.child.kill('SIGTERM');
    await server.close();
    rmSync(dir, { recursive: true, force: true });
    if (db === 'postgres' && !('keep' in args)) await queryOnce(adminUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  }
}

await main();
process.exit(0);
