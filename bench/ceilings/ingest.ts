/**
 * Close to the ceilings (issue 30), device ingestion: the console storing what devices publish beside what the same
 * clients get through the same broker to a plain subscriber. Paired rounds, medians.
 *
 * The clients (bench/ceilings/ingestClients.ts, a process of their own): `--devices` mqtt.js clients with the
 * devices' session keys, QoS 1, each publishing signed uplinks (property reports 70 %, OTA progress 20 %, face
 * events 10 %) as fast as its acks come back, for `--seconds`. Each round:
 *   - the ceiling: the clients publish to Mosquitto (127.0.0.1:1883) under a topic root of their own; a plain mqtt.js
 *     subscriber in this process (QoS 1, the same shared subscription `$share/console-{root}/{root}/up/+/+/+` as the
 *     server's, as many members as the server holds (LINKS), clean sessions) only counts what it receives;
 *   - the console: server/dist/main.js in its own process on PostgreSQL with MQTT_URL=mqtt://127.0.0.1:1883 (the
 *     same broker), the clients under the server's topic root; its `/metrics` (the gateway's counters: received,
 *     accepted, flushed = handed to the folds and stored, dropped, rejected, buffered) read every second;
 *   - with `--broker=both` (default) or `embedded`, also a second built server with its embedded broker (MQTT_PORT),
 *     the clients connecting to it with their credentials.
 * Reported: messages/s received (ceiling) and stored (console) over the publishing time, their ratio, the slowest
 * second (accepted and stored), the longest `/metrics` answer (a blocked event loop), the server's RSS peak
 * (VmHWM), and what was lost: acknowledged to a client but never received (a broker drops past its queue of a slow
 * subscriber), dropped by the gateway, rejected; and at the end the rows in ymy_ota_log and ymy_face_log against
 * what the clients published.
 *
 *   npx tsx bench/ceilings/ingest.ts [--devices=200] [--seconds=20] [--rounds=3] [--window=1] [--broker=both|external|embedded]
 *     [--skip-build] [--write] [--profile] [--keep] [--pg-url=postgres://postgres@127.0.0.1:5432/postgres]
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import mqtt from 'mqtt';
import pg from 'pg';
import { LINKS } from '@console/server/src/areas/device/gateway/external.js';
import type { FleetSession } from '@console/server/src/areas/device/gateway/fleet.js';
import { loadConfig } from '@console/server/src/core/config.js';
import { nextId } from '@console/server/src/core/ids.js';
import { secretBox } from '@console/server/src/core/secrets.js';
import { createServer } from '@console/server/src/server.js';
import { intOption, withDatabase } from '../data.js';
import { BASIC, freePort, signIn } from '../measure.js';
import { machine, revision, writeSection } from '../report.js';
import { benchDir, type BuiltServer, log, median, profileReport, ratioRow, RESULTS, startBuiltServer } from './common.js';
import type { ClientCounters, ClientsConfig } from './ingestClients.js';

const { values: opt } = parseArgs({
  strict: false,
  options: {
    measure: { type: 'string' },
    devices: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '3' },
    window: { type: 'string', default: '1' },
    broker: { type: 'string', default: 'both' },
    /** print the console's counters every second */
    trace: { type: 'boolean', default: false },
    'skip-build': { type: 'boolean', default: false },
    write: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    'pg-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const text = (v: string | boolean | undefined, fallback: string) => (typeof v === 'string' ? v : fallback);
const DEVICES = intOption('devices', text(opt.devices, '200'), 1, 5000);
const SECONDS = intOption('seconds', text(opt.seconds, '20'), 3, 600);
const ROUNDS = intOption('rounds', text(opt.rounds, '3'), 1, 20);
const WINDOW = intOption('window', text(opt.window, '1'), 1, 100);
const BROKER = text(opt.broker, 'both');
if (!['both', 'external', 'embedded'].includes(BROKER)) throw new Error(`--broker: both, external or embedded, got ${BROKER}`);
const PG_URL = text(opt['pg-url'], 'postgres://postgres@127.0.0.1:5432/postgres');
const MOSQUITTO = 'mqtt://127.0.0.1:1883';
const DB = 'console_bench_ceilings_ingest';
const KEY = 'ceilings-ingest-postgres';
const METRICS_TOKEN = randomBytes(16).toString('hex');
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const n = (v: number) => Math.round(v).toLocaleString('en');

type Row = Record<string, unknown>;

// ---------------------------------------------------------------- the clients' process

interface Clients {
  child: ChildProcess;
  last: ClientCounters;
  wait(type: string): Promise<Row>;
}

function spawnClients(config: Omit<ClientsConfig, 'seconds' | 'window' | 'spreadMs'>): Clients {
  const full: ClientsConfig = { ...config, seconds: SECONDS, window: WINDOW, spreadMs: Math.min(2000, DEVICES * 5) };
  const child = fork(join(benchDir, 'ceilings', 'ingestClients.ts'), [JSON.stringify(full)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiters: Array<{ type: string; resolve: (m: Row) => void }> = [];
  const exited = new Promise<number | null>((r) => child.once('exit', r));
  const clients: Clients = {
    child,
    last: { connected: 0, refused: 0, errors: 0, published: 0, acked: 0, byKind: {} },
    wait: (type) => new Promise<Row>((resolve, reject) => {
      waiters.push({ type, resolve });
      void exited.then((code) => reject(new Error(`the clients' process exited (${code}) before '${type}'`)));
    }),
  };
  child.on('message', (m: Row) => {
    if (m.counters) clients.last = m.counters as ClientCounters;
    for (const w of waiters.filter((x) => x.type === m.type)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(m);
    }
  });
  return clients;
}

/** the clients connected, publishing from `go` for SECONDS; resolves with their final counters once they are done */
async function publishRound(clients: Clients, onGo: () => void): Promise<{ counters: ClientCounters; seconds: number; cpuMs: number }> {
  const started = (await clients.wait('started')).counters as ClientCounters;
  if (started.connected !== DEVICES) throw new Error(`${started.connected} of ${DEVICES} clients connected (${started.refused} refused)`);
  const done = clients.wait('done');
  onGo();
  clients.child.send({ type: 'go' });
  const m = await done;
  await new Promise((r) => (clients.child.exitCode !== null ? r(null) : clients.child.once('exit', r)));
  return { counters: m.counters as ClientCounters, seconds: m.seconds as number, cpuMs: m.cpuMs as number };
}

// ---------------------------------------------------------------- the server's counters

interface Gauges { received: number; accepted: number; flushed: number; dropped: number; buffered: number; rejected: number }
interface Sample { at: number; answerMs: number; g: Gauges; rssMb: number }

async function gauges(port: number): Promise<Gauges> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  if (!res.ok) throw new Error(`/metrics: ${res.status}`);
  const g: Gauges = { received: 0, accepted: 0, flushed: 0, dropped: 0, buffered: 0, rejected: 0 };
  for (const m of (await res.text()).matchAll(/^device_messages\{state="(\w+)",reason="(\w*)"\} (\d+)/gm)) {
    const state = m[1] as keyof Gauges;
    if (state in g) g[state] += Number(m[3]);
  }
  return g;
}

/** CPU time (user + system) of a process, ms; 0 once it is gone */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * (1000 / 100);
  } catch {
    return 0;
  }
}

const MOSQUITTO_PID = (() => {
  try {
    return Number(readFileSync('/run/mosquitto/mosquitto.pid', 'utf8').trim()) || undefined;
  } catch {
    return undefined;
  }
})();

/** CPU of the processes behind one side: the broker, the server, PostgreSQL's backends of its database */
class CpuMeter {
  private readonly start = new Map<string, number>();
  constructor(private readonly admin: pg.Client, private readonly db: string | undefined, private readonly server: number | undefined) {}

  private async read(): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (MOSQUITTO_PID) out.set('broker', cpuMs(MOSQUITTO_PID));
    if (this.server) out.set('server', cpuMs(this.server));
    if (this.db) {
      const pids = (await this.admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [this.db])).rows;
      for (const { pid } of pids) out.set(`pg:${pid}`, cpuMs(pid));
    }
    return out;
  }

  async begin(): Promise<void> {
    for (const [k, v] of await this.read()) this.start.set(k, v);
  }

  /** ms of CPU since `begin`: broker, server, pg */
  async end(): Promise<{ broker: number; server: number; pg: number }> {
    const r = { broker: 0, server: 0, pg: 0 };
    for (const [k, v] of await this.read()) {
      const d = v - (this.start.get(k) ?? 0);
      if (k.startsWith('pg:')) r.pg += d;
      else r[k as 'broker' | 'server'] += d;
    }
    return r;
  }
}

/** read and write system calls of a process so far */
function syscalls(pid: number): number {
  try {
    const io = readFileSync(`/proc/${pid}/io`, 'utf8');
    return Number(/^syscr:\s+(\d+)/m.exec(io)?.[1] ?? 0) + Number(/^syscw:\s+(\d+)/m.exec(io)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

function procKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : 0;
}

interface SideResult {
  /** messages/s over the publishing time: received (ceiling) or stored (console) */
  rate: number;
  accepted: number;
  published: number;
  byKind: Record<string, number>;
  publishedRate: number;
  /** acknowledged to a client but never received by the subscriber or the server */
  lost: number;
  gatewayDropped: number;
  rejected: number;
  slowestAccepted: number;
  slowestStored: number;
  longestAnswerMs: number;
  peakRssMb: number;
  drainS: number;
  /** the server's read and write system calls per message received */
  syscallsPerMessage?: number;
  /** CPU per message received (µs): the clients, the broker, the server or subscriber, PostgreSQL */
  cpu: { clients: number; broker: number; server: number; pg: number };
}

/** one round of the console: the clients publishing to `url` under `root`, the server's counters read every second */
async function consoleRound(server: BuiltServer, url: string, root: string, sessionsFile: string, meter: CpuMeter): Promise<SideResult> {
  const pid = server.child.pid!;
  const clients = spawnClients({ sessionsFile, url, root });
  const g0 = await gauges(server.port);
  const samples: Sample[] = [];
  let polling = true;
  let go = 0;
  const poll = (async () => {
    while (polling) {
      const at = performance.now();
      const g = await gauges(server.port);
      samples.push({ at, answerMs: performance.now() - at, g, rssMb: procKb(pid, 'VmRSS') / 1024 });
      await sleep(Math.max(0, 1000 - (performance.now() - at)));
    }
  })();
  let calls0 = 0;
  const { counters, seconds, cpuMs: clientsMs } = await publishRound(clients, () => {
    go = performance.now();
    calls0 = syscalls(pid);
    void meter.begin();
  });
  const calls = syscalls(pid) - calls0;
  const end = go + seconds * 1000;
  const cpu = await meter.end();
  // the backlog stored: nothing buffered, nothing more received for a second
  const t1 = performance.now();
  let last = await gauges(server.port);
  for (const until = Date.now() + 120_000; Date.now() < until;) {
    await sleep(1000);
    const g = await gauges(server.port);
    if (g.buffered === 0 && g.received === last.received && g.flushed === last.flushed) break;
    last = g;
  }
  const drainS = Math.max(0, (performance.now() - t1) / 1000 - 1);
  polling = false;
  await poll;
  const g1 = await gauges(server.port);
  const got = Math.max(1, g1.received - g0.received);
  const inWindow = samples.filter((s) => s.at >= go && s.at <= end + 100);
  const first = inWindow[0]!;
  const lastIn = inWindow.at(-1)!;
  if (opt.trace === true) {
    for (const [i, x] of samples.entries()) {
      const p = samples[i - 1];
      if (p) log(`    +${((x.at - go) / 1000).toFixed(1)} s: accepted ${x.g.accepted - p.g.accepted}, stored ${x.g.flushed - p.g.flushed}, buffered ${x.g.buffered}, answer ${x.answerMs.toFixed(0)} ms, RSS ${x.rssMb.toFixed(0)} MB`);
    }
  }
  const steps = inWindow.slice(1).map((s, i) => ({ s: (s.at - inWindow[i]!.at) / 1000, accepted: s.g.accepted - inWindow[i]!.g.accepted, stored: s.g.flushed - inWindow[i]!.g.flushed }));
  return {
    rate: (lastIn.g.flushed - first.g.flushed) / ((lastIn.at - first.at) / 1000),
    accepted: (lastIn.g.accepted - first.g.accepted) / ((lastIn.at - first.at) / 1000),
    published: counters.published,
    byKind: counters.byKind,
    publishedRate: counters.published / seconds,
    lost: counters.acked - (g1.received - g0.received),
    gatewayDropped: g1.dropped - g0.dropped,
    rejected: g1.rejected - g0.rejected,
    slowestAccepted: Math.min(...steps.map((x) => x.accepted / x.s)),
    slowestStored: Math.min(...steps.map((x) => x.stored / x.s)),
    longestAnswerMs: Math.max(...samples.filter((s) => s.at >= go && s.at <= end).map((s) => s.answerMs)),
    peakRssMb: Math.max(procKb(pid, 'VmHWM') / 1024, ...samples.map((s) => s.rssMb)),
    drainS,
    cpu: { clients: (clientsMs * 1000) / got, broker: (cpu.broker * 1000) / got, server: (cpu.server * 1000) / got, pg: (cpu.pg * 1000) / got },
    syscallsPerMessage: calls / got,
  };
}

/** one round of the ceiling: the clients publishing to Mosquitto under `root`, the plain subscriber counting */
async function ceilingRound(subscriber: { received: number }, root: string, sessionsFile: string, meter: CpuMeter): Promise<SideResult> {
  const clients = spawnClients({ sessionsFile, url: MOSQUITTO, root });
  const r0 = subscriber.received;
  const perSecond: number[] = [];
  let timer: NodeJS.Timeout | undefined;
  let go = 0;
  let inWindow = { r0: 0, r1: 0, t0: 0, t1: 0 };
  let self = process.cpuUsage();
  let calls0 = 0;
  const { counters, seconds, cpuMs: clientsMs } = await publishRound(clients, () => {
    go = performance.now();
    self = process.cpuUsage();
    calls0 = syscalls(process.pid);
    void meter.begin();
    let prev = subscriber.received;
    inWindow = { r0: prev, r1: prev, t0: go, t1: go };
    timer = setInterval(() => {
      const now = performance.now();
      if (now > go + SECONDS * 1000 + 100) return;
      perSecond.push(subscriber.received - prev);
      prev = subscriber.received;
      inWindow = { ...inWindow, r1: prev, t1: now };
    }, 1000);
  });
  clearInterval(timer);
  const cpu = await meter.end();
  const selfCpu = process.cpuUsage(self);
  const calls = syscalls(process.pid) - calls0;
  const t1 = performance.now();
  let last = subscriber.received;
  for (const until = Date.now() + 60_000; Date.now() < until;) {
    await sleep(1000);
    if (subscriber.received === last) break;
    last = subscriber.received;
  }
  const rate = (inWindow.r1 - inWindow.r0) / ((inWindow.t1 - inWindow.t0) / 1000);
  return {
    rate, accepted: rate, published: counters.published, byKind: counters.byKind, publishedRate: counters.published / seconds,
    lost: counters.acked - (subscriber.received - r0), gatewayDropped: 0, rejected: 0,
    slowestAccepted: Math.min(...perSecond), slowestStored: Math.min(...perSecond), longestAnswerMs: 0, peakRssMb: process.memoryUsage.rss() / 2 ** 20,
    drainS: Math.max(0, (performance.now() - t1) / 1000 - 1),
    cpu: (() => {
      const got = Math.max(1, subscriber.received - r0);
      return { clients: (clientsMs * 1000) / got, broker: (cpu.broker * 1000) / got, server: (selfCpu.user + selfCpu.system) / got, pg: 0 };
    })(),
    syscallsPerMessage: calls / Math.max(1, subscriber.received - r0),
  };
}

// ---------------------------------------------------------------- the devices

/** the seeded database: a product, a batch of DEVICES devices with burned certificates; answers their sessions */
async function seed(url: string, dataDir: string, env: Record<string, string>): Promise<FleetSession[]> {
  const server = await createServer(loadConfig({
    LOG_LEVEL: 'warn', DATABASE_URL: url, REDIS_URL: '', MQTT_PORT: 'off', DEVICE_SIMULATOR: 'true', PUBLIC_RATE_PER_MINUTE: '1000000', ...env,
  }, { dataDir }));
  try {
    const token = await (async () => {
      const res = await server.app.inject({
        method: 'POST', url: '/api/blade-auth/oauth/token', headers: { authorization: BASIC, 'tenant-id': '000000' },
        query: { grant_type: 'password', tenantId: '000000', username: 'admin', password: '21232f297a57a5a743894a0e4a801fc3', scope: 'all', type: 'account' },
      });
      return (res.json() as { access_token: string }).access_token;
    })();
    const headers = { authorization: BASIC, 'blade-auth': `bearer ${token}` };
    const call = async <T>(path: string, body: unknown): Promise<T> => {
      const res = await server.app.inject({ method: 'POST', url: path, headers, payload: body as object });
      const json = res.json() as { code: number; msg: string; data: T };
      if (json.code !== 200) throw new Error(`${path}: ${json.code} ${json.msg}`);
      return json.data;
    };
    const cloudProductId = 'CEILING001';
    const type = await call<{ id: string }>('/api/ymy-product/type/submit', { typeName: '压测门锁', typeCode: 'CEILI' });
    const model = await call<{ id: string }>('/api/ymy-product/model/submit', { typeId: type.id, modelName: 'C1', modelCode: 'C1' });
    const product = await call<{ id: string }>('/api/ymy-product/product/submit', { productName: 'C1', productCode: 'C1', typeId: type.id, modelId: model.id, cloudVendor: 1, cloudProductId });
    const factory = await call<{ id: string }>('/sc/ymy-ipc/back/add-factory', { factoryName: '压测工厂', factoryCode: 'CEIL-F' });
    const batchNo = 'CEIL-1';
    const batch = await call<{ id: string }>('/sc/ymy-ipc/back/add-batch', { batchNo, factoryId: factory.id, productId: product.id, cloudVendor: 1, quantity: DEVICES, snPrefix: 'C' });
    const box = secretBox(server.ctx.config.encryptionKey);
    const sns = ((await server.ctx.db.execute(sql`select sn from ymy_factory_device where batch_id = ${batch.id}::bigint order by sn`)) as unknown as { rows: Array<{ sn: string }> }).rows.map((r) => r.sn);
    const records = sns.map((sn) => ({ id: nextId(), name: sn, secret: box.seal(randomBytes(16).toString('base64')), sn }));
    await server.ctx.db.execute(sql`
      insert into ymy_cert (id, cloud_vendor, cloud_product_id, device_name, device_secret, state, batch_id, device_sn)
      select r.id, 1, ${cloudProductId}, r.name, r.secret, 3, ${batch.id}::bigint, r.sn
      from json_to_recordset(${JSON.stringify(records)}::json) as r(id bigint, name text, secret text, sn text)`);
    await server.ctx.db.execute(sql`update ymy_factory_device d set certificate_id = c.id, burn_time = now() from ymy_cert c where c.device_sn = d.sn and d.batch_id = ${batch.id}::bigint`);
    const { sessions } = await call<{ sessions: FleetSession[] }>('/api/omc-device/simulator/sessions', { batchNo });
    if (sessions.length !== DEVICES) throw new Error(`${sessions.length} sessions for ${DEVICES} devices`);
    return sessions;
  } finally {
    await server.close();
  }
}

// ---------------------------------------------------------------- the run

/** the section's place in RESULTS.md: a subsection at the end of "Close to the ceilings (issue 30)" */
function ensureMarkers(): void {
  const file = readFileSync(RESULTS, 'utf8');
  if (file.includes(`<!-- results:${KEY} -->`)) return;
  const start = file.indexOf('## Close to the ceilings (issue 30)');
  const next = start < 0 ? -1 : file.indexOf('\n## ', start + 1);
  const block = `### Device ingestion, on PostgreSQL\n\n<!-- results:${KEY} -->\n<!-- /results:${KEY} -->\n`;
  const at = next < 0 ? file.length : next + 1;
  writeFileSync(RESULTS, `${file.slice(0, at).trimEnd()}\n\n${block}${next < 0 ? '' : `\n${file.slice(at)}`}`);
}

function sideRow(name: string, rs: SideResult[], ceiling: boolean): string {
  const med = (f: (r: SideResult) => number) => median(rs.map(f));
  return `| ${name} | ${n(med((r) => r.publishedRate))} | ${n(med((r) => r.rate))} | ${ceiling ? '–' : n(med((r) => r.accepted))} | `
    + `${rs.map((r) => n(r.slowestAccepted)).join(', ')}${ceiling ? '' : ` / ${rs.map((r) => n(r.slowestStored)).join(', ')}`} | `
    + `${ceiling ? '–' : `${n(Math.max(...rs.map((r) => r.longestAnswerMs)))} ms`} | ${ceiling ? '–' : `${n(Math.max(...rs.map((r) => r.peakRssMb)))} MB`} | `
    + `${rs.map((r) => n(r.lost)).join(', ')} | ${ceiling ? '–' : `${rs.reduce((a, r) => a + r.gatewayDropped, 0)} / ${rs.reduce((a, r) => a + r.rejected, 0)}`} | ${rs.map((r) => r.drainS.toFixed(1)).join(', ')} | `
    + `${n(med((r) => r.cpu.clients))} / ${n(med((r) => r.cpu.broker))} / ${n(med((r) => r.cpu.server))} / ${n(med((r) => r.cpu.pg))} |`;
}

async function main(): Promise<void> {
  const admin = new pg.Client({ connectionString: withDatabase(PG_URL, 'postgres') });
  await admin.connect();
  for (const d of [DB, `${DB}_embedded`]) await admin.query(`drop database if exists ${d} with (force)`);
  await admin.query(`create database ${DB}`);
  const url = withDatabase(PG_URL, DB);
  // the run's folders beside the bench (bench/.data is ignored by git), not in the shared /tmp
  mkdirSync(join(benchDir, '.data'), { recursive: true });
  const dirs = await Promise.all([0, 1, 2].map(() => mkdtemp(join(benchDir, '.data', 'ceilings-ingest-'))));
  const profileDir = join(tmpdir(), `ceilings-ingest-profile-${process.pid}`);
  const servers: BuiltServer[] = [];
  const suffix = randomBytes(3).toString('hex');
  // the ceiling's root and the server's are as long: the messages are the same size on both sides
  const root = `ci${suffix}`;
  const rawRoot = `cr${suffix}`;
  const secrets = { ENCRYPTION_KEY: randomBytes(32).toString('hex'), JWT_SECRET: randomBytes(32).toString('hex') };
  const subscribers: mqtt.MqttClient[] = [];
  try {
    log(`seeding ${DB}: ${DEVICES} devices with certificates`);
    const sessions = await seed(url, dirs[0]!, { ...secrets, MQTT_TOPIC_ROOT: root });
    const sessionsFile = join(dirs[0]!, 'sessions.json');
    writeFileSync(sessionsFile, JSON.stringify(sessions));
    // one database per server (an instance refuses to share one with another without REDIS_URL): a copy of the seeded one
    const embeddedUrl = withDatabase(PG_URL, `${DB}_embedded`);
    if (BROKER !== 'external') await admin.query(`create database ${DB}_embedded template ${DB}`);
    const common = { ...secrets, MQTT_TOPIC_ROOT: root, METRICS_TOKEN, MQTT_URL: '' };
    const external = BROKER === 'embedded' ? undefined : await startBuiltServer({
      databaseUrl: url, dataDir: dirs[1]!, skipBuild: opt['skip-build'] === true, profileDir: opt.profile === true ? profileDir : undefined,
      env: { ...common, MQTT_URL: MOSQUITTO },
    });
    if (external) servers.push(external);
    const embeddedPort = await freePort();
    const embedded = BROKER === 'external' ? undefined : await startBuiltServer({
      databaseUrl: embeddedUrl, dataDir: dirs[2]!, skipBuild: true, profileDir: opt.profile === true && !external ? profileDir : undefined,
      env: { ...common, MQTT_PORT: String(embeddedPort), MQTT_HOST: '127.0.0.1', MQTT_MAX_CONNECTIONS_PER_ADDRESS: String(DEVICES * 2 + 10) },
    });
    if (embedded) servers.push(embedded);
    // the server answers (a sign-in), the gateway is connected
    if (external) await signIn(`http://127.0.0.1:${external.port}`, '000000');

    // the server holds LINKS members of its shared subscription: so does the plain subscriber
    const counted = { received: 0 };
    for (let i = 0; i < LINKS; i++) {
      const member = await mqtt.connectAsync(MOSQUITTO, { protocolVersion: 4, clean: true, clientId: `ceiling-${suffix}-${i}`, reconnectPeriod: 1000, keepalive: 30 });
      subscribers.push(member);
      member.on('message', () => counted.received++);
      const granted = await member.subscribeAsync(`$share/console-${rawRoot}/${rawRoot}/up/+/+/+`, { qos: 1 });
      if (granted.some((g) => g.qos >= 0x80)) throw new Error('Mosquitto refused the shared subscription');
    }

    const loadBefore = loadavg()[0]!;
    const ceiling: SideResult[] = [];
    const ext: SideResult[] = [];
    const emb: SideResult[] = [];
    const line = (what: string, r: SideResult) => log(`  ${what}: ${n(r.rate)}/s ${what === 'ceiling' ? 'received' : `stored (accepted ${n(r.accepted)}/s)`}, published ${n(r.publishedRate)}/s; `
      + `slowest second ${n(r.slowestAccepted)}${what === 'ceiling' ? '' : ` accepted / ${n(r.slowestStored)} stored, longest /metrics answer ${n(r.longestAnswerMs)} ms, peak RSS ${n(r.peakRssMb)} MB`}; `
      + `lost ${n(r.lost)}${what === 'ceiling' ? '' : `, dropped ${r.gatewayDropped}, rejected ${r.rejected}`}; drained ${r.drainS.toFixed(1)} s after; `
      + `CPU µs/message: clients ${n(r.cpu.clients)}, broker ${n(r.cpu.broker)}, ${what === 'ceiling' ? 'subscriber' : 'server'} ${n(r.cpu.server)}, PostgreSQL ${n(r.cpu.pg)}`
      + `${r.syscallsPerMessage === undefined ? '' : `; server system calls/message ${r.syscallsPerMessage.toFixed(2)}`}`);
    for (let r = 1; r <= ROUNDS; r++) {
      log(`round ${r} of ${ROUNDS}`);
      ceiling.push(await ceilingRound(counted, rawRoot, sessionsFile, new CpuMeter(admin, undefined, undefined)));
      line('ceiling', ceiling.at(-1)!);
      if (external) {
        ext.push(await consoleRound(external, MOSQUITTO, root, sessionsFile, new CpuMeter(admin, DB, external.child.pid)));
        line('console on Mosquitto', ext.at(-1)!);
      }
      if (embedded) {
        emb.push(await consoleRound(embedded, `mqtt://127.0.0.1:${embeddedPort}`, root, sessionsFile, new CpuMeter(admin, `${DB}_embedded`, embedded.child.pid)));
        line('console, embedded broker', emb.at(-1)!);
      }
    }
    const loadAfter = loadavg()[0]!;

    // what was stored against what the console's clients published: one ota_log row per OTA report (refused: no task),
    // one face_log row per face event
    const rowsOf = async (dbUrl: string) => {
      const db = new pg.Client({ connectionString: dbUrl });
      await db.connect();
      const r = (await db.query<{ ota: number; face: number; pg: string }>(
        `select (select count(*)::int from ymy_ota_log) as ota, (select count(*)::int from ymy_face_log) as face, current_setting('server_version') as pg`)).rows[0]!;
      await db.end();
      return r;
    };
    const published = (rs: SideResult[], kind: string) => rs.reduce((a, r) => a + (r.byKind[kind] ?? 0), 0);
    const stored: string[] = [];
    let pgVersion = '';
    for (const [name, rs, dbUrl] of [['on Mosquitto', ext, url], ['embedded', emb, embeddedUrl]] as const) {
      if (!rs.length) continue;
      const r = await rowsOf(dbUrl);
      pgVersion = r.pg;
      stored.push(`${name}: ymy_ota_log ${n(r.ota)} rows for ${n(published(rs, 'ota'))} OTA reports published, ymy_face_log ${n(r.face)} for ${n(published(rs, 'event'))} face events`);
    }
    const report = [
      `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} on ${machine()}, revision ${revision()}: ${DEVICES} devices (mqtt.js clients in a process of `
        + `their own, MQTT 3.1.1, QoS 1), each publishing signed uplinks (property reports 70 %, OTA progress 20 %, face events 10 %) as fast as its acks `
        + `come back (${WINDOW} in flight), ${ROUNDS} paired rounds of ${SECONDS} s, PostgreSQL ${pgVersion}, Mosquitto at 127.0.0.1:1883 (its defaults: 20 messages `
        + `in flight and 1,000 queued per subscriber, then dropped). The ceiling: the same clients publishing to Mosquitto, a plain mqtt.js subscriber (QoS 1, `
        + `the server's shared subscription with as many members as the server holds, ${LINKS}) counting what it receives. The console: server/dist/main.js in its own process (\`--max-old-space-size=512\`), `
        + `MQTT_URL=${MOSQUITTO}${embedded ? '; and a second one with its embedded broker (MQTT_PORT), the clients connecting to it' : ''}: messages stored `
        + `(handed to the folds and written: the gateway's \`flushed\`, read from /metrics every second). Load average ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)}.`,
      '',
      '| measure | console (median msg/s) | ceiling (median msg/s) | ratio | rounds (console / ceiling) |',
      '|---|---:|---:|---:|---|',
      ...(ext.length ? [ratioRow(`device messages stored, ${DEVICES} devices, QoS 1, Mosquitto (MQTT_URL)`, ext.map((r) => r.rate), ceiling.map((r) => r.rate), 'rate')] : []),
      ...(emb.length ? [ratioRow(`device messages stored, ${DEVICES} devices, QoS 1, embedded broker (MQTT_PORT)`, emb.map((r) => r.rate), ceiling.map((r) => r.rate), 'rate')] : []),
      '',
      'Per side: the clients\' publishing rate (median), the rate received or stored, the slowest second of each round (accepted / stored), the longest '
        + '`/metrics` answer while publishing (a blocked event loop answers late), the server\'s peak RSS (VmHWM), messages acknowledged to a client but '
        + 'never received (dropped by the broker) per round, dropped by the gateway / rejected (all rounds), and the seconds the backlog took to drain '
        + 'after the clients stopped, and the CPU time (medians) each process spent per message received while the clients published (the clients\' '
        + 'own, Mosquitto\'s, the server\'s or the plain subscriber\'s, and PostgreSQL\'s backends of the server\'s database).',
      '',
      '| side | published/s | received or stored/s | accepted/s | slowest second | longest /metrics | peak RSS | lost to the broker | dropped / rejected | drained after (s) | CPU µs per message: clients / broker / server or subscriber / PostgreSQL |',
      '|---|---:|---:|---:|---|---:|---:|---|---|---|---|',
      sideRow('ceiling: plain subscriber', ceiling, true),
      ...(ext.length ? [sideRow('console, Mosquitto (MQTT_URL)', ext, false)] : []),
      ...(emb.length ? [sideRow('console, embedded broker', emb, false)] : []),
      '',
      `Rows at the end (every round), against what the console's clients published: ${stored.join('; ')}.`,
    ].join('\n');
    console.log(`\n${report}\n`);
    if (opt.write === true) {
      ensureMarkers();
      writeSection(RESULTS, KEY, report);
    }
    const profiled = external ?? embedded;
    if (opt.profile === true && profiled) {
      await profiled.stop();
      console.log(`the server's heaviest functions by self time (${external ? 'on Mosquitto' : 'embedded broker'}, the whole run):\n${profileReport(profileDir)}`);
      const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
      if (file) {
        copyFileSync(join(profileDir, file), join(tmpdir(), 'ceilings-ingest.cpuprofile'));
        log(`the profile is kept in ${join(tmpdir(), 'ceilings-ingest.cpuprofile')}`);
      }
    }
  } finally {
    await Promise.all(subscribers.map((c) => c.endAsync(true).catch(() => undefined)));
    for (const s of servers) await s.stop();
    rmSync(profileDir, { recursive: true, force: true });
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    if (opt.keep !== true) for (const d of [DB, `${DB}_embedded`]) await admin.query(`drop database if exists ${d} with (force)`);
    await admin.end();
  }
}

await main();
process.exit(0);
