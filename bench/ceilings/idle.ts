/**
 * The embedded database's idle memory (issue 30): the built server on PGlite holding `--devices` devices (batches of
 * 100,000 made through `add-batch`, as operators make them), started afresh on that data folder, signed in to, its
 * device list opened once, then left idle: its RSS (the database's included: PGlite runs in the server's process)
 * and where it lies (the process's own figures from /metrics).
 *
 *   npx tsx bench/ceilings.ts --measure=idle [--devices=1000000] [--idle-seconds=30] [--skip-build] [--keep-dir=DIR] [--write]
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '@console/server/src/core/config.js';
import { createServer } from '@console/server/src/server.js';
import { intOption } from '../data.js';
import { BASIC } from '../measure.js';
import { machine, revision, writeSection } from '../report.js';
import { log, RESULTS, startBuiltServer } from './common.js';

const { values: opt } = parseArgs({
  strict: false,
  options: {
    devices: { type: 'string', default: '1000000' },
    'idle-seconds': { type: 'string', default: '30' },
    'skip-build': { type: 'boolean', default: false },
    /** a data folder kept between runs: seeded once, reused while it holds `--devices` */
    'keep-dir': { type: 'string' },
    write: { type: 'boolean', default: false },
  },
});
const BATCH = 100_000;
const DEVICES = intOption('devices', String(opt.devices), BATCH, 5_000_000);
const IDLE_SECONDS = intOption('idle-seconds', String(opt['idle-seconds']), 5, 600);
const TARGET_MB = 300;
const IPC = '/sc/ymy-ipc/back';
const METRICS_TOKEN = 'bench-idle-metrics';
const md5 = (s: string) => createHash('md5').update(s).digest('hex');
const signInQuery = new URLSearchParams({ grant_type: 'password', tenantId: '000000', username: 'admin', password: md5('admin'), scope: 'all', type: 'account' });

/** the data folder holding `DEVICES` devices, seeded through the product's own batch creation */
async function seeded(dir: string): Promise<void> {
  const marker = join(dir, 'bench-idle.json');
  if (existsSync(marker) && JSON.parse(readFileSync(marker, 'utf8')).devices === DEVICES) {
    log(`reusing ${dir}: ${DEVICES.toLocaleString('en')} devices`);
    return;
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const server = await createServer(loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', DATABASE_URL: '', REDIS_URL: '', MQTT_PORT: 'off', PUBLIC_RATE_PER_MINUTE: '100000' }, { dataDir: dir }));
  try {
    const login = await server.app.inject({ method: 'POST', url: `/api/blade-auth/oauth/token?${signInQuery}`, headers: { authorization: BASIC, 'tenant-id': '000000' } });
    const headers = { authorization: BASIC, 'blade-auth': `bearer ${(login.json() as { access_token: string }).access_token}` };
    const post = async <T>(url: string, body: object): Promise<T> => {
      const res = await server.app.inject({ method: 'POST', url, headers, payload: body });
      const json = res.json() as { code: number; msg: string; data: T };
      if (json.code !== 200) throw new Error(`${url}: ${json.code} ${json.msg}`);
      return json.data;
    };
    const type = await post<{ id: string }>('/api/ymy-product/type/submit', { typeName: '压测门锁', typeCode: 'BENCH' });
    const model = await post<{ id: string }>('/api/ymy-product/model/submit', { typeId: type.id, modelName: 'B1', modelCode: 'B1' });
    const product = await post<{ id: string }>('/api/ymy-product/product/submit', { productName: 'B1', productCode: 'B1', typeId: type.id, modelId: model.id, cloudVendor: 1, cloudProductId: 'BENCHPROD' });
    const factory = await post<{ id: string }>(`${IPC}/add-factory`, { factoryName: '压测工厂', factoryCode: 'BENCH-F' });
    for (let i = 1; i * BATCH <= DEVICES; i++) {
      const t0 = performance.now();
      await post(`${IPC}/add-batch`, { batchNo: `BENCH-${i}`, factoryId: factory.id, productId: product.id, cloudVendor: 1, quantity: BATCH, snPrefix: `B${i}` });
      log(`batch ${i}: ${BATCH.toLocaleString('en')} devices in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
    await server.ctx.upkeep.settled();
  } finally {
    await server.close();
  }
  const { writeFileSync } = await import('node:fs');
  writeFileSync(marker, JSON.stringify({ devices: DEVICES }));
}

const statusKb = (pid: number, key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

/** the process's own memory figures (prom-client's defaults on /metrics), MB */
async function metricsOf(port: number): Promise<Record<string, number>> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const out: Record<string, number> = {};
  for (const name of ['process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_heap_size_total_bytes', 'nodejs_external_memory_bytes']) {
    const m = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+]+)$`, 'm').exec(text);
    if (m) out[name] = Number(m[1]) / 2 ** 20;
  }
  return out;
}

const dir = opt['keep-dir'] ? String(opt['keep-dir']) : join(tmpdir(), `console-bench-idle-${process.pid}`);
try {
  await seeded(dir);
  const server = await startBuiltServer({ databaseUrl: '', dataDir: dir, skipBuild: Boolean(opt['skip-build']), env: { METRICS_TOKEN } });
  try {
    const pid = server.child.pid!;
    const base = `http://127.0.0.1:${server.port}`;
    const signed = await fetch(`${base}/api/blade-auth/oauth/token?${signInQuery}`, { method: 'POST', headers: { authorization: BASIC, 'tenant-id': '000000' } });
    const token = ((await signed.json()) as { access_token: string }).access_token;
    const list = await fetch(`${base}${IPC}/get-device-list?current=1&size=10`, { headers: { authorization: BASIC, 'blade-auth': `bearer ${token}` } });
    const listed = (await list.json()) as { data?: { total: number; records: unknown[] } };
    if (listed.data?.records.length !== 10) throw new Error(`the device list answered ${JSON.stringify(listed).slice(0, 200)}`);
    log(`signed in and listed a page of ${listed.data.total.toLocaleString('en')} devices (the bounded count); idle for ${IDLE_SECONDS} s`);
    const samples: number[] = [];
    for (let s = 0; s < IDLE_SECONDS; s++) {
      await sleep(1000);
      samples.push(statusKb(pid, 'VmRSS') / 1024);
    }
    const idle = samples.at(-1)!;
    const peak = statusKb(pid, 'VmHWM') / 1024;
    const m = await metricsOf(server.port);
    const report = [
      `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} on ${machine()}, revision ${revision()}: the built server (server/dist/main.js, as \`npm run serve\` starts it) on its embedded database holding `
        + `${DEVICES.toLocaleString('en')} devices (${DEVICES / BATCH} batches made through add-batch), started afresh, signed in to, its device list opened once, then idle ${IDLE_SECONDS} s.`,
      '',
      '| measure | value | target |',
      '|---|---:|---|',
      `| idle RSS (the database included), at the end of the idle time | ${idle.toFixed(0)} MB | < ${TARGET_MB} MB: ${idle < TARGET_MB ? 'met' : 'NOT met'} |`,
      `| RSS over the idle time (min – max) | ${Math.min(...samples).toFixed(0)} – ${Math.max(...samples).toFixed(0)} MB | |`,
      `| peak RSS since start (VmHWM) | ${peak.toFixed(0)} MB | |`,
      `| main thread's JS heap used / total; external (the database's WASM memory among it) | ${m.nodejs_heap_size_used_bytes?.toFixed(0)} / ${m.nodejs_heap_size_total_bytes?.toFixed(0)} MB; ${m.nodejs_external_memory_bytes?.toFixed(0)} MB | |`,
    ].join('\n');
    console.log(`\n${report}\n`);
    if (opt.write) writeSection(RESULTS, 'ceilings-idle-pglite', report);
  } finally {
    await server.stop();
  }
} finally {
  if (!opt['keep-dir']) rmSync(dir, { recursive: true, force: true });
}
