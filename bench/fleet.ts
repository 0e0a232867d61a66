/**
 * The fleet under load (issue 29): three server processes behind HAProxy on the machine's PostgreSQL, a private
 * Redis and a private Mosquitto (so that restarting them disturbs nothing else), 200 simulated users signing in,
 * reading lists and details, writing, importing, and a fleet of simulated locks connected over MQTT reporting their
 * properties, for `--minutes`. With `--faults`, under that load: one instance killed with SIGKILL (and started again
 * 10 s later, as an orchestrator would), Redis restarted, the broker restarted, and (on a pg_auto_failover pair
 * instead of the machine's PostgreSQL, started by the bench) the primary killed with SIGKILL.
 *
 * It reports, per route, the calls, the failures and the latency percentiles; each instance's RSS after the warm-up
 * and at the end with its trend (least squares, MB per minute); the device messages; and whether every write the
 * fleet acknowledged is in the database. `--write` puts the report into RESULTS.md.
 *
 *   npm run bench:fleet -w bench -- [--minutes=10] [--users=200] [--devices=200] [--think-ms=3000] [--faults] [--write]
 *
 * With --faults the database is a pg_auto_failover formation (a monitor, a primary, a synchronous standby) made for
 * the run; without, the machine's PostgreSQL.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { connect } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { inArray, sql } from 'drizzle-orm';
import { notice } from '@console/server/src/areas/desk/tables.js';
import type { FleetSession } from '@console/server/src/areas/device/gateway/fleet.js';
import { openPostgres } from '@console/server/src/core/db/index.js';
import { makeFleet, deliverFleet } from '@console/server/test/device-fixture.js';
import { freePort, type Instance, proxyHarness, startHaproxy, startInstance, waitFor } from '@console/server/test/fleet/processes.js';
import { type Formation, startFormation } from '@console/server/test/fleet/pgAutoFailover.js';
import { queryOnce, withDatabase } from './data.js';
import { spawnDevices } from './deviceProcess.js';
import { BASIC } from './measure.js';
import { machine, writeSection } from './report.js';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' }, users: { type: 'string', default: '200' }, devices: { type: 'string', default: '200' },
    'think-ms': { type: 'string', default: '3000' }, 'warmup-s': { type: 'string', default: '60' }, 'report-ms': { type: 'string', default: '10000' },
    accounts: { type: 'string', default: '20' }, faults: { type: 'boolean', default: false }, write: { type: 'boolean', default: false },
    'pg-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const MINUTES = Number(args.minutes);
const USERS = Number(args.users);
const DEVICES = Number(args.devices);
const THINK_MS = Number(args['think-ms']);
const WARMUP_MS = Number(args['warmup-s']) * 1000;
const ACCOUNTS = Number(args.accounts);
const DEMO = '541742';
const RUN = randomBytes(3).toString('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (m: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${m}`);
const md5 = (s: string) => createHash('md5').update(s).digest('hex');

// ---------- private services ----------

interface Service { name: string; port: number; child?: ChildProcess; start(): Promise<void>; kill(): Promise<void> }

function service(name: string, port: number, bin: string, argv: string[]): Service {
  const s: Service = {
    name, port,
    async start() {
      s.child = spawn(bin, argv, { stdio: 'ignore' });
      await waitFor(`${name} listening`, 10_000, () => new Promise<boolean>((resolve) => {
        const c = connect(port, '127.0.0.1', () => {
          c.end();
          resolve(true);
        });
        c.on('error', () => resolve(false));
      }));
    },
    async kill() {
      const child = s.child;
      if (!child || child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
  };
  return s;
}

// ---------- measurements ----------

interface Call { route: string; status: number; ms: number; at: number; msg?: string }
const calls: Call[] = [];
const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });

/** the envelope's message of a refusal (BladeX's `msg`), or the start of a body that is none (a proxy's page) */
function messageOf(body: string): string {
  try {
    const msg = (JSON.parse(body) as { msg?: unknown }).msg;
    if (typeof msg === 'string') return msg.slice(0, 80);
  } catch {
    // not JSON: a proxy's own answer
  }
  return body.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 40);
}

function request(port: number, method: string, path: string, headers: Record<string, string>, body?: string | Buffer): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent, timeout: 60_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', () => resolve({ status: 0, body: '' }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, body: '' }));
    req.end(body);
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;

function rssMb(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
    return line ? Number(line.split(/\s+/)[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** least-squares slope of (minutes, MB) */
function slope(points: Array<[number, number]>): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const num = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const den = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return den ? num / den : 0;
}

// ---------- the run ----------

async function main() {
  const dbName = 'console_bench_fleet';
  let formation: Formation | undefined;
  let dbUrl: string;
  if (args.faults) {
    formation = await startFormation();
    const primary = await formation.waitForPrimary();
    await queryOnce(formation.nodeUrl(primary, 'postgres'), `CREATE DATABASE ${dbName}`);
    dbUrl = formation.url(dbName);
    log(`pg_auto_failover: ${formation.nodes.map((n) => `${n.name} :${n.port}`).join(', ')}; primary ${primary.name}`);
  } else {
    const adminUrl = args['pg-url']!;
    await queryOnce(adminUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await queryOnce(adminUrl, `CREATE DATABASE ${dbName}`);
    dbUrl = withDatabase(adminUrl, dbName);
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'console-bench-fleet-'));
  const [redisPort, brokerPort, proxyPort, ...ports] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort(), freePort()]);
  const redis = service('redis', redisPort!, 'redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']);
  const broker = service('mosquitto', brokerPort!, 'mosquitto', ['-p', String(brokerPort)]);
  await redis.start();
  await broker.start();
  const encryptionKey = randomBytes(32).toString('hex');
  const env: Record<string, string> = {
    DATABASE_URL: dbUrl, REDIS_URL: `redis://127.0.0.1:${redisPort}`, REDIS_PREFIX: `bench-fleet-${RUN}:`, DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'), ENCRYPTION_KEY: encryptionKey, MQTT_URL: `mqtt://127.0.0.1:${brokerPort}`, MQTT_TOPIC_ROOT: `bf${RUN}`,
    PUBLIC_URL: `http://127.0.0.1:${proxyPort}`, TRUST_PROXY: 'true', METRICS_TOKEN: `bench-metrics-${RUN}-0123456789`, SHUTDOWN_DRAIN_MS: '1500',
    DEVICE_SIMULATOR: 'true', PUBLIC_RATE_PER_MINUTE: '10000000', LOG_LEVEL: 'error',
  };
  const instances: Instance[] = [];
  instances.push(await startInstance('s1', ports[0]!, env));
  instances.push(...await Promise.all([startInstance('s2', ports[1]!, env), startInstance('s3', ports[2]!, env)]));
  const proxy = await startHaproxy(proxyPort!, instances.map((i) => ({ name: i.name, port: i.port })));
  const database = await openPostgres(dbUrl, 2);
  const h = proxyHarness(`http://127.0.0.1:${proxyPort}`, database.db, Buffer.from(encryptionKey, 'hex'));
  log(`3 instances behind HAProxy on :${proxyPort}; Redis :${redisPort}, Mosquitto :${brokerPort}`);
  const children: Array<ReturnType<typeof spawnDevices>> = [];
  try {
    // ---- fixtures: accounts, a batch of locks delivered to the demo tenant, their sessions
    const platform = (await h.login('000000', 'admin', 'admin')).access_token;
    for (let i = 0; i < ACCOUNTS; i++) await h.createUser(DEMO, `bench-fleet-${i}`, 'bench-pass', ['admin']);
    const fleet = await makeFleet(h, platform, { count: DEVICES, tag: 'bf', version: '1.0.0' });
    await database.db.execute(sql`insert into ymy_product_auth (id, tenant_id, type_id) values (${String(Date.now())}::bigint, ${DEMO}, ${fleet.typeId}::bigint)`);
    await deliverFleet(h, platform, fleet, DEMO);
    const sessions = (await h.call<{ sessions: FleetSession[] }>('POST', '/api/omc-device/simulator/sessions', { token: platform, body: { batchNo: fleet.batchNo } })).body.data.sessions;
    const sessionsFile = join(dataDir, 'sessions.json');
    writeFileSync(sessionsFile, JSON.stringify(sessions));
    process.env.FLEET_REPORT_MS = args['report-ms'];
    const devices = spawnDevices(['fleet', sessionsFile, '10', '20000']);
    children.push(devices);
    await devices.wait('started');
    log(`${ACCOUNTS} accounts, ${sessions.length} locks connected (${JSON.stringify(devices.state.counters)})`);

    // ---- the users
    const started = Date.now();
    const end = started + MINUTES * 60_000;
    const acknowledged: string[] = [];
    let stop = false;
    const user = async (u: number) => {
      await sleep(Math.random() * Math.min(30_000, WARMUP_MS));
      const account = `bench-fleet-${u % ACCOUNTS}`;
      let token = '';
      const timed = async (route: string, method: string, path: string, body?: string | Buffer, type = 'application/json') => {
        const t = performance.now();
        const headers: Record<string, string> = { authorization: BASIC, 'tenant-id': DEMO, 'accept-language': 'en' };
        if (token) headers['blade-auth'] = `bearer ${token}`;
        if (body !== undefined) headers['content-type'] = type;
        const res = await request(proxyPort!, method, path, headers, body);
        // a refusal's message, to tell the server's 503s and the proxy's from anything else
        const msg = res.status !== 200 && res.status !== 0 ? messageOf(res.body) : undefined;
        calls.push({ route, status: res.status, ms: performance.now() - t, at: Date.now(), ...(msg ? { msg } : {}) });
        return res;
      };
      const signIn = async () => {
        const q = new URLSearchParams({ grant_type: 'password', tenantId: DEMO, username: account, password: md5('bench-pass'), scope: 'all', type: 'account' });
        token = '';
        const res = await timed('POST sign-in', 'POST', `/api/blade-auth/oauth/token?${q}`);
        if (res.status === 200) token = (JSON.parse(res.body) as { access_token: string }).access_token;
      };
      const mine: string[] = [];
      let n = 0;
      while (!stop) {
        if (!token) await signIn();
        if (!token) {
          // a sign-in refused during a fault: the user tries again after thinking, not a call without a token
          await sleep(-Math.log(1 - Math.random()) * THINK_MS);
          continue;
        }
        const r = Math.random();
        if (r < 0.28) await timed('GET notice list', 'GET', '/api/blade-desk/notice/list?current=1&size=20');
        else if (r < 0.36) await timed('GET notice search', 'GET', `/api/blade-desk/notice/list?current=1&size=20&title=${encodeURIComponent(`bf-${u % 50}-`)}`);
        else if (r < 0.46) await timed('GET device areas', 'GET', '/api/ymy-device/area/list?current=1&size=20');
        else if (r < 0.54) await timed('GET users', 'GET', '/api/blade-system/user/list?current=1&size=20');
        else if (r < 0.60) await timed('GET menu routes', 'GET', '/api/blade-system/menu/routes');
        else if (r < 0.70 && mine.length) await timed('GET notice detail', 'GET', `/api/blade-desk/notice/detail?id=${mine[Math.floor(Math.random() * mine.length)]}`);
        else if (r < 0.86) {
          const title = `bf-${u}-${n++}`;
          const res = await timed('POST notice submit', 'POST', '/api/blade-desk/notice/submit', JSON.stringify({ title, category: 1 + (n % 3), releaseTime: '2026-11-30 08:00:00', content: `<p>${title}</p>` }));
          if (res.status === 200) {
            acknowledged.push(title);
            mine.push((JSON.parse(res.body) as { data: { id: string } }).data.id);
          }
        } else if (r < 0.92 && mine.length) {
          const id = mine[Math.floor(Math.random() * mine.length)];
          await timed('POST notice update', 'POST', '/api/blade-desk/notice/submit', JSON.stringify({ id, content: `<p>edited ${n}</p>` }));
        } else if (r < 0.925) {
          const sn = fleet.devices[Math.floor(Math.random() * fleet.devices.length)]!.sn;
          const boundary = `----bf${randomBytes(6).toString('hex')}`;
          const csv = `设备 SN,区域编号\n${sn},${['330000', '310000', '440000'][n % 3]}\n`;
          const body = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="areas.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`);
          const res = await timed('POST import', 'POST', '/api/ymy-device/area/import?isCovering=1', body, `multipart/form-data; boundary=${boundary}`);
          if (res.status === 200) {
            const id = (JSON.parse(res.body) as { data: { id: string } }).data.id;
            for (let i = 0; i < 60; i++) {
              await sleep(500);
              const p = await timed('GET import progress', 'GET', `/api/ymy-device/area/get-upload-progress?id=${id}`);
              if (p.status !== 200 || (JSON.parse(p.body) as { data: { status: string } }).data.status !== 'running') break;
            }
          }
        } else if (r < 0.95) await signIn();
        else await timed('GET notice list', 'GET', '/api/blade-desk/notice/list?current=2&size=20');
        await sleep(-Math.log(1 - Math.random()) * THINK_MS);
      }
    };
    const users = Array.from({ length: USERS }, (_, u) => user(u));

    // ---- samples and faults
    const rss: Array<Array<[number, number]>> = instances.map(() => []);
    const faults: Array<{ what: string; at: number; until: number }> = [];
    const sampler = setInterval(() => {
      const minutes = (Date.now() - started) / 60_000;
      instances.forEach((inst, i) => {
        const mb = rssMb(inst.child.pid);
        if (mb > 0 && Date.now() - started > WARMUP_MS && !faults.some((f) => f.what.includes(inst.name))) rss[i]!.push([minutes, mb]);
      });
    }, 5_000);
    const fault = async (what: string, at: number, act: () => Promise<void>) => {
      await sleep(Math.max(0, started + at - Date.now()));
      if (stop) return;
      const t = Date.now();
      log(`fault: ${what}`);
      await act();
      faults.push({ what, at: t, until: Date.now() });
      log(`fault over: ${what} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
    };
    const span = MINUTES * 60_000;
    const faultRuns = args.faults ? [
      fault('kill -9 of instance s2, started again 10 s later', WARMUP_MS + (span - WARMUP_MS) * 0.2, async () => {
        const victim = instances[1]!;
        victim.child.kill('SIGKILL');
        await victim.exited;
        await sleep(10_000);
        instances[1] = await startInstance('s2', victim.port, env);
        await waitFor('s2 back in rotation', 30_000, async () => (await proxy.state('s2')) === 'UP');
      }),
      fault('Redis restarted (killed, started again 2 s later)', WARMUP_MS + (span - WARMUP_MS) * 0.45, async () => {
        await redis.kill();
        await sleep(2_000);
        await redis.start();
        await waitFor('ready again', 30_000, async () => (await fetch(`http://127.0.0.1:${instances[0]!.port}/readyz`)).ok);
      }),
      fault('Mosquitto restarted (killed, started again 2 s later)', WARMUP_MS + (span - WARMUP_MS) * 0.6, async () => {
        await broker.kill();
        await sleep(2_000);
        await broker.start();
        await waitFor('ready again', 30_000, async () => (await fetch(`http://127.0.0.1:${instances[0]!.port}/readyz`)).ok);
      }),
      fault('PostgreSQL primary killed (kill -9), the synchronous standby promoted by pg_auto_failover', WARMUP_MS + (span - WARMUP_MS) * 0.8, async () => {
        const primary = await formation!.waitForPrimary();
        formation!.kill(primary);
        await formation!.waitForPrimary({ not: primary.name, timeoutMs: 90_000 });
        await waitFor('ready again', 60_000, async () => (await fetch(`http://127.0.0.1:${instances[0]!.port}/readyz`)).ok);
      }),
    ] : [];
    let lastLog = Date.now();
    while (Date.now() < end) {
      await sleep(1_000);
      if (Date.now() - lastLog >= 30_000) {
        lastLog = Date.now();
        const recent = calls.filter((c) => c.at > lastLog - 30_000);
        log(`${((Date.now() - started) / 60_000).toFixed(1)} min: ${recent.length} calls in 30 s, ${recent.filter((c) => c.status !== 200).length} failed; RSS ${instances.map((i) => rssMb(i.child.pid).toFixed(0)).join('/')} MB; load ${loadavg()[0]!.toFixed(2)}; devices ${JSON.stringify(devices.state.counters)}`);
      }
    }
    stop = true;
    await Promise.all(users);
    await Promise.all(faultRuns);
    clearInterval(sampler);

    // ---- what was kept
    let stored = 0;
    for (let i = 0; i < acknowledged.length; i += 5000) {
      const part = acknowledged.slice(i, i + 5000);
      stored += (await database.db.select({ title: notice.title }).from(notice).where(inArray(notice.title, part))).length;
    }
    const counters = devices.state.counters;
    devices.child.send({ type: 'stop' });
    await devices.wait('stopped').catch(() => undefined);

    // ---- the report
    const measured = calls.filter((c) => c.at - started > WARMUP_MS);
    const inFault = (c: Call) => faults.some((f) => c.at >= f.at && c.at <= f.until + 5_000);
    const routes = [...new Set(measured.map((c) => c.route))].sort();
    const rows = routes.map((route) => {
      const mine = measured.filter((c) => c.route === route);
      const ok = mine.filter((c) => c.status === 200).map((c) => c.ms).sort((a, b) => a - b);
      const failed = mine.filter((c) => c.status !== 200);
      const byStatus = [...new Set(failed.map((c) => c.status))].map((s) => `${s}×${failed.filter((c) => c.status === s).length}`).join(' ');
      return `| ${route} | ${mine.length.toLocaleString('en')} | ${failed.filter((c) => !inFault(c)).length} | ${failed.filter(inFault).length}${byStatus ? ` (${byStatus})` : ''} | ${percentile(ok, 0.5).toFixed(0)} | ${percentile(ok, 0.95).toFixed(0)} | ${percentile(ok, 0.99).toFixed(0)} |`;
    });
    // each fault's failed calls by status and message (0: the connection cut)
    const byFault = faults.map((f) => {
      const failed = measured.filter((c) => c.status !== 200 && c.at >= f.at && c.at <= f.until + 5_000);
      const kinds = new Map<string, number>();
      for (const c of failed) kinds.set(`${c.status}${c.msg ? ` "${c.msg}"` : ''}`, (kinds.get(`${c.status}${c.msg ? ` "${c.msg}"` : ''}`) ?? 0) + 1);
      const described = [...kinds].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ×${n}`).join('; ');
      return `| ${f.what} | ${((f.until - f.at) / 1000).toFixed(1)} | ${failed.length} | ${described || '–'} |`;
    });
    const seconds = (Date.now() - started - WARMUP_MS) / 1000;
    const rssRows = instances.map((inst, i) => {
      const pts = rss[i]!;
      // the floor of each third (the RSS right after a collection): growth shows there first, not in the sawtooth
      const third = Math.max(1, Math.floor(pts.length / 3));
      const floor = (part: Array<[number, number]>) => (part.length ? Math.min(...part.map(([, y]) => y)).toFixed(0) : '–');
      return `| ${inst.name} | ${pts[0]?.[1].toFixed(0) ?? '–'} | ${pts.at(-1)?.[1].toFixed(0) ?? '–'} | ${Math.max(0, ...pts.map(([, y]) => y)).toFixed(0)} | `
        + `${floor(pts.slice(0, third))} / ${floor(pts.slice(third, 2 * third))} / ${floor(pts.slice(2 * third))} | ${slope(pts).toFixed(2)} |`;
    });
    const report = [
      `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} on ${machine()}, revision ${process.env.GIT_REV ?? 'working tree'}: 3 instances behind HAProxy 2.6 `
        + `(round robin, /readyz checked every 500 ms), ${formation ? 'PostgreSQL 15 as a pg_auto_failover pair (synchronous standby) made for the run' : 'PostgreSQL 15 on the machine'}, Redis and Mosquitto private to the run. ${USERS} users `
        + `(${ACCOUNTS} accounts of the demo tenant), each calling, then thinking a random time of mean ${THINK_MS} ms, for ${MINUTES} min; `
        + `the first ${WARMUP_MS / 1000} s are warm-up and left out. ${sessions.length} locks on MQTT reporting their properties every ${Number(args['report-ms']) / 1000} s.`
        + (args.faults ? ` Faults under the load: ${faults.map((f) => `${f.what} at ${((f.at - started) / 60_000).toFixed(1)} min`).join('; ')}.` : ''),
      '',
      `${measured.length.toLocaleString('en')} calls in ${seconds.toFixed(0)} s (${(measured.length / seconds).toFixed(1)}/s). Writes acknowledged: `
        + `${acknowledged.length.toLocaleString('en')}; found in the database: ${stored.toLocaleString('en')}. Devices: ${JSON.stringify(counters)}.`,
      '',
      '| route | calls | failed outside faults | failed within 5 s of a fault | p50 ms | p95 ms | p99 ms |',
      '|---|---:|---:|---:|---:|---:|---:|',
      ...rows,
      '',
      ...(byFault.length ? ['| fault | lasted (s) | calls failed within it and 5 s after | by answer |', '|---|---:|---:|---|', ...byFault, ''] : []),
      '| instance | RSS after warm-up (MB) | at the end | peak | lowest in each third | trend (MB/min, least squares) |',
      '|---|---:|---:|---:|---:|---:|',
      ...rssRows,
    ].join('\n');
    console.log(`\n${report}\n`);
    if (args.write) writeSection(new URL('./RESULTS.md', import.meta.url).pathname, args.faults ? 'fleet-faults' : 'fleet-load', report);
  } finally {
    for (const c of children) c.child.kill('SIGKILL');
    await proxy.stop();
    for (const i of instances) i.child.kill('SIGKILL');
    await database.close();
    await redis.kill();
    await broker.kill();
    await formation?.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
