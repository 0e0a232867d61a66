import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, inArray, sql } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notice } from '../src/areas/desk/tables.js';
import { flowDefinition, flowInstance } from '../src/areas/flow/tables.js';
import { type Database, openPostgres } from '../src/core/db/index.js';
import { createTestDb, type TestDb } from './db-template.js';
import { deliverFleet, type Fleet, makeFleet, publishedFirmware } from './device-fixture.js';
import { BASIC, type Harness } from './harness.js';
import { importCsv } from './importSheet.js';
import { freePort, hasHaproxy, type Instance, type Proxy, proxyHarness, startHaproxy, startInstance, waitFor } from './fleet/processes.js';

/**
 * Three server processes behind HAProxy on one PostgreSQL, one Redis and the machine's Mosquitto (issue 29): the
 * console's calls through the proxy (sign-in, lists, writes, an import, a workflow, an OTA task), a kill -9 of one
 * instance under writes (no acknowledged write lost, the others carry on) and a rolling restart that fails nothing.
 */
const runs = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL) && hasHaproxy();
const RUN = randomBytes(3).toString('hex');
const ROOT = `fp${RUN}`;
const METRICS_TOKEN = `metrics-${RUN}-0123456789`;
const ENCRYPTION_KEY = randomBytes(32).toString('hex');
const DEMO = '541742';

describe.runIf(runs)('three instances behind HAProxy', { timeout: 240_000 }, () => {
  let testDb: TestDb;
  let database: Database;
  let dataDir: string;
  let env: Record<string, string>;
  const instances: Instance[] = [];
  let proxy: Proxy;
  let h: Harness;
  let platform: string;
  let demo: string;
  let fleet: Fleet;
  let firmwareId: string;
  let listener: MqttClient;
  const commands = new Map<string, number>();

  const start = async (name: string, port: number) => startInstance(name, port, env);

  beforeAll(async () => {
    testDb = await createTestDb();
    database = await openPostgres(testDb.databaseUrl!, 2);
    dataDir = mkdtempSync(join(tmpdir(), 'console-fleet-data-'));
    const ports = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
    const proxyPort = ports[3]!;
    env = {
      DATABASE_URL: testDb.databaseUrl!, REDIS_URL: process.env.REDIS_URL!, REDIS_PREFIX: `console-fleet-${RUN}:`, DATA_DIR: dataDir,
      JWT_SECRET: randomBytes(32).toString('hex'), ENCRYPTION_KEY, MQTT_URL: 'mqtt://127.0.0.1:1883', MQTT_TOPIC_ROOT: ROOT,
      PUBLIC_URL: `http://127.0.0.1:${proxyPort}`, TRUST_PROXY: 'true', METRICS_TOKEN, SHUTDOWN_DRAIN_MS: '1500', SHUTDOWN_GRACE_MS: '10000',
      DEVICE_SIMULATOR: 'false', PUBLIC_RATE_PER_MINUTE: '100000',
    };
    // the first migrates and seeds; the others start on what it left
    instances.push(await start('s1', ports[0]!));
    instances.push(...await Promise.all([start('s2', ports[1]!), start('s3', ports[2]!)]));
    proxy = await startHaproxy(proxyPort, instances.map((i) => ({ name: i.name, port: i.port })));
    h = proxyHarness(`http://127.0.0.1:${proxyPort}`, database.db, Buffer.from(ENCRYPTION_KEY, 'hex'));
    platform = (await h.login('000000', 'admin', 'admin')).access_token;
    demo = (await h.login(DEMO, 'admin', 'admin')).access_token;
    listener = await mqtt.connectAsync('mqtt://127.0.0.1:1883', { clientId: `fleet-listener-${RUN}`, clean: true });
    await listener.subscribeAsync(`${ROOT}/down/ota/#`, { qos: 1 });
    listener.on('message', (topic) => commands.set(topic, (commands.get(topic) ?? 0) + 1));
  }, 240_000);

  afterAll(async () => {
    await listener?.endAsync(true).catch(() => undefined);
    await proxy?.stop();
    for (const i of instances) i.child.kill('SIGKILL');
    await Promise.all(instances.map((i) => i.exited));
    await database?.close();
    await testDb?.dispose();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const servedBy = async (route: string) => Promise.all(instances.filter((i) => i.child.exitCode === null && i.child.signalCode === null).map(async (i) => {
    const text = await (await fetch(`http://127.0.0.1:${i.port}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    const escaped = route.replace(/[/.]/g, (c) => `\\${c}`);
    return [...text.matchAll(new RegExp(`http_requests_total\\{method="[A-Z]+",route="${escaped}",status="200"\\} (\\d+)`, 'g'))].reduce((n, m) => n + Number(m[1]), 0);
  }));

  /** a call's status as the client sees it (the proxy's own error pages are not JSON); 0: the connection failed */
  const statusOf = async (method: 'GET' | 'POST', path: string, body?: object) => {
    const res = await fetch(`http://127.0.0.1:${proxy.port}${path}`, {
      method, headers: { authorization: BASIC, 'blade-auth': `bearer ${platform}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    }).catch(() => undefined);
    if (!res) return 0;
    await res.arrayBuffer();
    return res.status;
  };

  const notify = async (sns: string[]) => {
    const task = await h.call<{ id: string }>('POST', '/api/omc-device/ota-task/submit', {
      token: platform, body: { taskName: `fleet-${Date.now()}`, firmwareId, scope: 'selected', deviceSns: sns.join(','), rateLimit: 60_000, timeoutMinutes: 30, maxRetries: 0 },
    });
    expect(task.status, JSON.stringify(task.body)).toBe(200);
    const topics = sns.map((sn) => `${ROOT}/down/ota/${fleet.cloudProductId}/${fleet.devices.find((d) => d.sn === sn)!.deviceName}`);
    await waitFor('every device notified', 30_000, async () => topics.every((t) => (commands.get(t) ?? 0) >= 1));
    await new Promise((r) => setTimeout(r, 2500)); // time for a second notification, were one to come
    return topics.map((t) => commands.get(t));
  };

  it('signs in, lists and writes through the proxy, spread over the three instances', async () => {
    for (let i = 0; i < 12; i++) {
      const res = await h.call('POST', '/api/blade-desk/notice/submit', { token: platform, body: { title: `fleet-write-${i}`, category: 1, releaseTime: '2026-11-30 08:00:00', content: 'x' } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    for (let i = 0; i < 12; i++) {
      const res = await h.call<{ total: number }>('GET', '/api/blade-desk/notice/list', { token: platform, query: { title: 'fleet-write' } });
      expect(res.body.data.total).toBe(12);
    }
    const served = await servedBy('/api/blade-desk/notice/list');
    expect(served).toHaveLength(3);
    expect(served.every((n) => n > 0)).toBe(true);
    const answer = await h.call('GET', '/api/blade-desk/notice/list', { token: platform });
    expect(answer.raw.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('imports a sheet through the proxy, its progress read from whichever instance answers', async () => {
    fleet = await makeFleet(h, platform, { count: 6, tag: 'fp', version: '1.0.0' });
    await database.db.execute(sql`insert into ymy_product_auth (id, tenant_id, type_id) values (${String(Date.now())}::bigint, ${DEMO}, ${fleet.typeId}::bigint)`);
    await deliverFleet(h, platform, fleet, DEMO);
    const [a, b] = fleet.devices;
    const job = await importCsv(h, demo, '/api/ymy-device/area/import', `设备 SN,区域编号\n${a!.sn},330000\n${b!.sn},310000\n`);
    expect(job).toMatchObject({ status: 'done', succeeded: 2, failed: 0 });
    expect(Math.min(...await servedBy('/api/ymy-device/area/get-upload-progress'))).toBeGreaterThanOrEqual(0);
  });

  it('runs a leave request through the proxy: started on one instance, approved on another', async () => {
    const [leave] = await database.db.select().from(flowDefinition).where(and(eq(flowDefinition.tenantId, DEMO), eq(flowDefinition.processKey, 'Leave')));
    const approverId = await h.createUser(DEMO, 'fleet-approver', 'approver-pass', ['admin']);
    const approver = (await h.login(DEMO, 'fleet-approver', 'approver-pass')).access_token;
    const started = await h.call<{ processInstanceId: string }>('POST', '/api/blade-desk/process/leave/start-process', {
      token: demo, body: { processDefinitionId: leave!.id, startTime: '2026-12-01 09:00:00', endTime: '2026-12-01 18:00:00', days: 1, reason: 'fleet', taskUser: approverId },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const instanceId = started.body.data.processInstanceId;
    const todo = await h.call<{ records: Array<{ id: string; instanceId: string }> }>('GET', '/api/blade-flow/work/todo-list', { token: approver, query: { size: 200 } });
    const task = todo.body.data.records.find((r) => r.instanceId === instanceId);
    expect(task).toBeDefined();
    const done = await h.call('POST', '/api/blade-flow/work/complete-task', { token: approver, body: { taskId: task!.id, processInstanceId: instanceId, flag: 'ok', comment: 'ok' } });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const [row] = await database.db.select({ status: flowInstance.status }).from(flowInstance).where(eq(flowInstance.id, instanceId));
    expect(row?.status).not.toBe('running');
  });

  it('notifies every device of an OTA task once, whichever of the three schedulers claims it', async () => {
    firmwareId = await publishedFirmware(h, platform, fleet.productId, '2.0.0');
    const counts = await notify(fleet.devices.slice(0, 3).map((d) => d.sn));
    expect(counts).toEqual([1, 1, 1]);
  });

  it('loses no acknowledged write when an instance is killed under load, and the other two carry on', async () => {
    const acknowledged: string[] = [];
    const failures: number[] = [];
    const late: number[] = [];
    let killedAt = 0;
    let stop = false;
    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const title = `fleet-kill-${w}-${i}`;
        const status = await statusOf('POST', '/api/blade-desk/notice/submit', { title, category: 1, releaseTime: '2026-11-30 08:00:00', content: 'x' });
        if (status === 200) acknowledged.push(title);
        else {
          failures.push(status);
          if (killedAt && Date.now() - killedAt > 5_000) late.push(status);
        }
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    await new Promise((r) => setTimeout(r, 2_000));
    const victim = instances[1]!;
    victim.child.kill('SIGKILL');
    killedAt = Date.now();
    await victim.exited;
    await new Promise((r) => setTimeout(r, 9_000));
    stop = true;
    await Promise.all(writers);
    expect(acknowledged.length).toBeGreaterThan(20);
    const stored = await database.db.select({ title: notice.title }).from(notice).where(inArray(notice.title, acknowledged));
    expect(stored.length).toBe(acknowledged.length);
    // a request cut by the kill is refused at the proxy (502/503), never answered 500; once the proxy has
    // taken the instance out, nothing fails
    expect(failures.filter((s) => s === 500)).toEqual([]);
    console.log(`fleet kill: ${acknowledged.length} writes acknowledged, ${failures.length} refused (${[...new Set(failures)].join(', ')})`);
    expect(late).toEqual([]);
    expect(await proxy.state('s2')).toBe('DOWN');
    // the survivors schedule the OTA work of tasks made after the kill
    expect(await notify(fleet.devices.slice(3, 6).map((d) => d.sn))).toEqual([1, 1, 1]);
  });

  it('restarts an instance without failing a request: it drains, stops, and comes back into rotation', async () => {
    const outcomes: number[] = [];
    let stop = false;
    const reader = async () => {
      while (!stop) {
        outcomes.push(await statusOf('GET', '/api/blade-desk/notice/list'));
      }
    };
    const readers = [0, 1, 2].map(reader);
    await new Promise((r) => setTimeout(r, 1_000));
    const old = instances[0]!;
    old.child.kill('SIGTERM');
    expect(await old.exited).toBe(0);
    instances[0] = await start('s1', old.port);
    await waitFor('s1 back in rotation', 15_000, async () => (await proxy.state('s1')) === 'UP');
    await new Promise((r) => setTimeout(r, 1_000));
    stop = true;
    await Promise.all(readers);
    expect(outcomes.length).toBeGreaterThan(50);
    expect(outcomes.filter((s) => s !== 200)).toEqual([]);
  });
});
