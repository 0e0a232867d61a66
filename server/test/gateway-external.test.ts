import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionKey, signUplink, tencentCredentials, verifyDownlink } from '../src/areas/device/gateway/credentials.js';
import { GATEWAY } from '../src/areas/device/index.js';
import { createFleet, type FleetSession } from '../src/areas/device/gateway/fleet.js';
import { createGateway, type DeviceGateway } from '../src/areas/device/gateway/gateway.js';
import type { Presence, Uplink } from '../src/areas/device/gateway/types.js';
import { connect, type FixtureDevice, makeDevices, until } from './gateway-fixture.js';
import { useServer } from './harness.js';
import { PLATFORM_TENANT } from '@console/contract';
import { inTenant } from '../src/core/db/index.js';
import { foldPresence } from '../src/areas/device/status.js';
import type { DeviceKeys } from '../src/areas/device/gateway/deviceKeys.js';
import { ExternalClient, LINKS } from '../src/areas/device/gateway/external.js';
import { Ingest } from '../src/areas/device/gateway/ingest.js';
import { silentLogger } from '../src/areas/device/gateway/log.js';

/**
 * The gateway on the machine's Mosquitto (MQTT_URL, anonymous on 127.0.0.1:1883): a topic root of its own per run,
 * so parallel files and runs never share a `$share` group. The broker knows no device: only signed uplinks count.
 */
const BROKER = 'mqtt://127.0.0.1:1883';
const RUN = randomBytes(3).toString('hex');
const ROOT = `ext${RUN}`;
const PID = `X${RUN}`.toUpperCase();
const h = useServer({ MQTT_URL: BROKER, MQTT_TOPIC_ROOT: ROOT, DEVICE_SIMULATOR: 'true' });
let gw: DeviceGateway;
let locks: FixtureDevice[];
const uplinks: Uplink[] = [];
const presence: Presence[] = [];
const open: MqttClient[] = [];

function signer(d: FixtureDevice, now = Date.now()) {
  const creds = tencentCredentials(d.cloudProductId, d.deviceName, d.key, { now, ttlSec: 3600 });
  const key = sessionKey(d.key, creds.username);
  const topic = (kind: string) => `${ROOT}/up/${kind}/${d.cloudProductId}/${d.deviceName}`;
  return {
    creds, topic,
    sign: (kind: string, method: string, clientToken: string, params: Record<string, unknown> = {}) =>
      JSON.stringify(signUplink(key, creds.username, topic(kind), { method, clientToken, timestamp: Date.now(), params })),
  };
}
async function device(d: FixtureDevice): Promise<MqttClient> {
  const c = await connect(BROKER, { ...tencentCredentials(d.cloudProductId, d.deviceName, d.key), clientId: `${d.cloudProductId}${d.deviceName}-${RUN}` });
  open.push(c);
  return c;
}

beforeAll(async () => {
  gw = h.server.ctx.services.get(GATEWAY);
  expect(gw.mode).toBe('external');
  locks = await makeDevices(h.server.ctx, { batchNo: 'EXT-B1', snPrefix: 'EXT', count: 4, cloudProductId: PID });
  gw.onUplink(['property', 'event', 'ota', 'action', 'location'], async (batch) => void uplinks.push(...batch));
  gw.onPresence(async (batch) => void presence.push(...batch));
});

afterAll(async () => {
  await Promise.all(open.map((c) => c.endAsync(true).catch(() => undefined)));
});

describe('external gateway (Mosquitto)', () => {
  it('takes signed uplinks and signed presence; an unsigned online or offline never counts', async () => {
    const d = locks[0]!;
    const s = signer(d);
    const c = await device(d);
    await c.publishAsync(s.topic('status'), s.sign('status', 'online', 'on1'), { qos: 1 });
    await c.publishAsync(s.topic('property'), s.sign('property', 'report', 'r1', { battery: 80 }), { qos: 1 });
    await until(() => uplinks.some((u) => u.clientToken === 'r1') && presence.some((p) => p.device.sn === d.sn && p.online), 5_000, 'uplink and online');
    expect(uplinks.find((u) => u.clientToken === 'r1')).toMatchObject({ device: { sn: d.sn, cloudProductId: PID }, kind: 'property', method: 'report', params: { battery: 80 } });
    const before = gw.stats().rejected.unsigned ?? 0;
    await c.publishAsync(s.topic('status'), JSON.stringify({ method: 'online', clientToken: 'x1' }), { qos: 1 });
    await c.publishAsync(s.topic('status'), JSON.stringify({ method: 'offline', clientToken: 'x2' }), { qos: 1 });
    await until(() => gw.stats().rejected.unsigned === before + 2, 5_000, 'unsigned presence refused');
    await c.publishAsync(s.topic('status'), s.sign('status', 'offline', 'on1'), { qos: 1 });
    await until(() => presence.some((p) => p.device.sn === d.sn && !p.online), 5_000, 'offline');
    expect(presence.filter((p) => p.device.sn === d.sn).map((p) => [p.online, p.session])).toEqual([[true, 'on1'], [false, 'on1']]);
  });

  it('drops unsigned, tampered, foreign, expired and unknown-device uplinks, and counts them', async () => {
    const [d, other] = [locks[1]!, locks[2]!];
    const s = signer(d);
    const c = await device(d);
    const before = gw.stats();
    const good = JSON.parse(s.sign('event', 'event_post', 'ev-good', { eventId: 'unlock' })) as Record<string, unknown>;
    await c.publishAsync(s.topic('event'), JSON.stringify({ method: 'event_post', clientToken: 'ev-unsigned', timestamp: Date.now(), params: {} }), { qos: 1 });
    await c.publishAsync(s.topic('event'), JSON.stringify({ ...good, clientToken: 'ev-tampered' }), { qos: 1 });
    // another device's valid message replayed on this device's topic
    await c.publishAsync(s.topic('event'), signer(other).sign('event', 'event_post', 'ev-foreign'), { qos: 1 });
    const old = signer(d, Date.now() - 2 * 3600_000);
    await c.publishAsync(s.topic('event'), old.sign('event', 'event_post', 'ev-expired'), { qos: 1 });
    await c.publishAsync(`${ROOT}/up/event/${PID}/NOSUCHDEVICE`, s.sign('event', 'event_post', 'ev-unknown'), { qos: 1 });
    await c.publishAsync(s.topic('event'), 'garbage', { qos: 1 });
    await c.publishAsync(s.topic('event'), JSON.stringify(good), { qos: 1 });
    await until(() => uplinks.some((u) => u.clientToken === 'ev-good') && gw.stats().received - before.received >= 7, 5_000, 'all received');
    await gw.flush();
    const s2 = gw.stats();
    const delta = (k: string) => (s2.rejected[k] ?? 0) - (before.rejected[k] ?? 0);
    expect({ unsigned: delta('unsigned'), bad_sign: delta('bad_sign'), conn_mismatch: delta('conn_mismatch'), conn_expired: delta('conn_expired'), unknown_device: delta('unknown_device'), not_json: delta('not_json') })
      .toEqual({ unsigned: 1, bad_sign: 1, conn_mismatch: 1, conn_expired: 1, unknown_device: 1, not_json: 1 });
    expect(uplinks.filter((u) => u.clientToken.startsWith('ev-')).map((u) => u.clientToken)).toEqual(['ev-good']);
  });

  it('folds a device\'s OTA, property and event reports together: resends logged once, the resent event answered again', async () => {
    const [d] = await makeDevices(h.server.ctx, { batchNo: 'EXT-B8', snPrefix: 'EXTF', count: 1, cloudProductId: PID });
    const s = signer(d!);
    const c = await device(d!);
    await c.subscribeAsync(`${ROOT}/down/event/${PID}/${d!.deviceName}`, { qos: 1 });
    const replies: string[] = [];
    c.on('message', (_t, p) => replies.push((JSON.parse(p.toString()) as { clientToken: string }).clientToken));
    const before = gw.stats().rejected.duplicate ?? 0;
    const ota = s.sign('ota', 'report_progress', 'fold-ota', { progress: { state: 'downloading', percent: 25 } });
    const face = s.sign('event', 'event_post', 'fold-face', { eventId: 'face', type: 'info', event: 'match', userId: 'u1' });
    for (const [kind, payload] of [['ota', ota], ['property', s.sign('property', 'report', 'fold-prop', { battery: 42 })], ['event', face], ['ota', ota], ['event', face]] as const) {
      await c.publishAsync(s.topic(kind), payload, { qos: 1 });
    }
    await until(async () => (await gw.flush(), replies.filter((t) => t === 'fold-face').length === 2), 10_000, 'the event answered twice');
    const rows = async (q: ReturnType<typeof sql>) => ((await h.server.ctx.db.execute(q)) as unknown as { rows: Array<Record<string, unknown>> }).rows;
    expect(await rows(sql`select client_token, message from ymy_ota_log where device_sn = ${d!.sn}`)).toEqual([{ client_token: 'fold-ota', message: 'refused: no OTA task for this device' }]);
    expect(await rows(sql`select client_token, event from ymy_face_log where device_sn = ${d!.sn}`)).toEqual([{ client_token: 'fold-face', event: 'match' }]);
    expect(await rows(sql`select properties->>'battery' as battery from ymy_device_status where sn = ${d!.sn}`)).toEqual([{ battery: '42' }]);
    expect((gw.stats().rejected.duplicate ?? 0) - before).toBe(2);
  });

  it('sends a signed command through the broker', async () => {
    const d = locks[3]!;
    const c = await device(d);
    await c.subscribeAsync(`${ROOT}/down/+/${PID}/${d.deviceName}`, { qos: 1 });
    const got = new Promise<{ topic: string; payload: Record<string, unknown> }>((r) => c.once('message', (topic, p) => r({ topic, payload: JSON.parse(p.toString()) as Record<string, unknown> })));
    const token = await gw.send(d, 'ota', { type: 'update_firmware', taskId: 'T9', version: '3.0.0', url: 'http://127.0.0.1:9/none', md5sum: 'x', file_size: 1 });
    const m = await got;
    expect(m.payload).toMatchObject({ type: 'update_firmware', taskId: 'T9', clientToken: token });
    expect(verifyDownlink(d.key, m.topic, m.payload)).toBe(true);
  });

  it('two instances on one root share the uplinks: each message handled exactly once between them', async () => {
    const second = createGateway(h.server.ctx, { instanceId: `second-${RUN}` });
    const handled = { first: [] as string[], second: [] as string[] };
    gw.onUplink(['location'], async (b) => void handled.first.push(...b.map((u) => u.clientToken)));
    second.onUplink(['location'], async (b) => void handled.second.push(...b.map((u) => u.clientToken)));
    await second.start();
    try {
      const d = locks[0]!;
      const s = signer(d);
      const c = await device(d);
      const N = 40;
      for (let i = 0; i < N; i++) await c.publishAsync(s.topic('location'), s.sign('location', 'report', `loc${i}`, { lat: 22.5, lng: 114 + i / 1000 }), { qos: 1 });
      await until(() => handled.first.length + handled.second.length >= N, 10_000, 'all handled');
      await Promise.all([gw.flush(), second.flush()]);
      const all = [...handled.first, ...handled.second].sort();
      expect(all).toEqual(Array.from({ length: N }, (_, i) => `loc${i}`).sort());
      expect(handled.first.length).toBeGreaterThan(0);
      expect(handled.second.length).toBeGreaterThan(0);
    } finally {
      await second.close();
    }
  });

  it('the fleet simulator plays devices through the broker: presence and report_info', async () => {
    const admin = (await h.login('000000', 'admin', 'admin')).access_token;
    const res = await h.call<{ sessions: FleetSession[] }>('POST', '/api/omc-device/simulator/sessions', { token: admin, body: { sns: `${locks[1]!.sn},${locks[2]!.sn}` } });
    expect(res.body.data.sessions.map((x) => x.mqttUrl)).toEqual([BROKER, BROKER]);
    // each run's simulated devices need client ids of their own on the shared broker
    const sessions = res.body.data.sessions.map((x) => ({ ...x, clientId: `${x.clientId}-sim-${RUN}` }));
    const fleet = createFleet({ sessions, connectSpreadMs: 0 });
    try {
      await fleet.start();
      await until(() => sessions.every((x) => uplinks.some((u) => u.device.sn === x.sn && u.method === 'report_info')
        && presence.some((p) => p.device.sn === x.sn && p.online)), 5_000, 'fleet online');
    } finally {
      await fleet.stop();
    }
    await until(() => sessions.every((x) => presence.filter((p) => p.device.sn === x.sn).at(-1)?.online === false), 5_000, 'fleet offline');
  });
});

describe('presence an anonymous client cannot forge (Mosquitto)', () => {
  it('an anonymous offline or a replayed offline of an earlier session leaves the device online; its own signed last will takes it offline', async () => {
    const [d] = await makeDevices(h.server.ctx, { batchNo: 'EXT-B9', snPrefix: 'EXTP', count: 1, cloudProductId: PID });
    const s = signer(d!);
    const admin = (await h.login('000000', 'admin', 'admin')).access_token;
    const onlineInConsole = async () => (await h.call<{ online: number }>('GET', '/tc/omc-device/device/info', { token: admin, query: { deviceSn: d!.sn } })).body.data.online;
    const session = async (token: string) => {
      const c = await connect(BROKER, {
        ...s.creds, clientId: `${d!.cloudProductId}${d!.deviceName}-${RUN}`,
        will: { topic: s.topic('status'), payload: Buffer.from(s.sign('status', 'offline', token)), qos: 1, retain: false },
      });
      open.push(c);
      await c.publishAsync(s.topic('status'), s.sign('status', 'online', token), { qos: 1 });
      await until(async () => (await gw.flush(), (await onlineInConsole()) === 1), 10_000, `online in session ${token}`);
      return c;
    };
    // session 1 ends with the device's signed goodbye, which anyone subscribed to the topic can read
    const first = await session('sess-1');
    const goodbye = s.sign('status', 'offline', 'sess-1');
    await first.publishAsync(s.topic('status'), goodbye, { qos: 1 });
    await until(async () => (await gw.flush(), (await onlineInConsole()) === 0), 10_000, 'offline after the goodbye');
    await first.endAsync(true);
    const second = await session('sess-2');

    // an anonymous client: an unsigned offline, and session 1's goodbye replayed
    const anonymous = await connect(BROKER, { clientId: `anon-${RUN}` });
    open.push(anonymous);
    const before = gw.stats().rejected;
    await anonymous.publishAsync(s.topic('status'), JSON.stringify({ method: 'offline' }), { qos: 1 });
    await anonymous.publishAsync(s.topic('status'), JSON.stringify({ method: 'offline', clientToken: 'sess-2' }), { qos: 1 });
    await anonymous.publishAsync(s.topic('status'), goodbye, { qos: 1 });
    await until(() => {
      const now = gw.stats().rejected;
      return (now.bad_envelope ?? 0) === (before.bad_envelope ?? 0) + 1 && (now.unsigned ?? 0) === (before.unsigned ?? 0) + 1
        && (now.duplicate ?? 0) === (before.duplicate ?? 0) + 1;
    }, 10_000, 'the forged presence refused');
    await gw.flush();
    expect(await onlineInConsole()).toBe(1);
    // the same replay reaching another instance (or after this one forgot it) ends no session but its own
    await inTenant(h.server.ctx.db, { tenantId: PLATFORM_TENANT }, (tx) => foldPresence(tx, [{ device: { sn: d!.sn, productId: '1001', cloudVendor: 1, cloudProductId: PID, deviceName: d!.deviceName }, online: false, at: Date.now(), session: 'sess-1' }]));
    expect(await onlineInConsole()).toBe(1);

    // the device goes away without a word: the broker publishes its last will, signed for session 2
    second.stream.destroy();
    await until(async () => (await gw.flush(), (await onlineInConsole()) === 0), 15_000, 'offline by the last will');
  });
});

describe('the external client on its own (Mosquitto): acks and backpressure', () => {
  const run = randomBytes(3).toString('hex');
  const device: FixtureDevice & { sn: string } = {
    sn: `XC${run}`.toUpperCase(), cloudVendor: 1, cloudProductId: `XC${run}`.toUpperCase(), deviceName: 'xc1', secret: '', key: randomBytes(16), certId: '0',
  };
  const dk = { device: { sn: device.sn, productId: '1', cloudVendor: 1, cloudProductId: device.cloudProductId, deviceName: device.deviceName }, key: device.key };
  const keys = { peek: () => dk, lookup: async () => dk } as unknown as DeviceKeys;

  /** a client of its own on a root of its own, its socket's writes counted */
  async function start(root: string, ingest: Ingest) {
    const ext = new ExternalClient({ url: BROKER, root, instanceId: `xc-${run}-${root}`, keys, ingest, log: silentLogger });
    await ext.start();
    const writes = { n: 0 };
    for (const client of (ext as unknown as { clients: MqttClient[] }).clients) {
      // the acks leave on the socket under the stream mqtt.js writes to (skim.ts)
      const socket = (client.stream as unknown as { socket: unknown }).socket as unknown as { _write: (...a: unknown[]) => void; _writev: (...a: unknown[]) => void };
      for (const m of ['_write', '_writev'] as const) {
        const original = socket[m].bind(socket);
        socket[m] = (...a: unknown[]) => {
          writes.n++;
          original(...a);
        };
      }
    }
    return { ext, writes };
  }
  const burst = async (root: string, n: number, prefix: string) => {
    const creds = tencentCredentials(device.cloudProductId, device.deviceName, device.key, { ttlSec: 3600 });
    const key = sessionKey(device.key, creds.username);
    const c = await connect(BROKER, { clientId: `xc-dev-${run}-${root}` });
    open.push(c);
    const topic = `${root}/up/property/${device.cloudProductId}/${device.deviceName}`;
    await Promise.all(Array.from({ length: n }, (_, i) => c.publishAsync(topic, JSON.stringify(signUplink(key, creds.username, topic, {
      method: 'report', clientToken: `${prefix}${i}`, timestamp: Date.now(), params: { battery: i % 100 },
    })), { qos: 1 })));
  };

  it('acknowledges the messages together: far fewer writes than messages, every one taken once', async () => {
    const root = `xca${run}`;
    const ingest = new Ingest(silentLogger, { intervalMs: 5 });
    const stored: string[] = [];
    ingest.onUplink(['property'], async (b) => void stored.push(...b.map((u) => u.clientToken)));
    const { ext, writes } = await start(root, ingest);
    try {
      const N = 400;
      await burst(root, N, 'a');
      await until(() => ingest.counters.received === N, 10_000, 'every message received');
      await ingest.flush();
      expect(new Set(stored).size).toBe(N);
      expect(ingest.counters).toMatchObject({ accepted: N, flushed: N, dropped: 0 });
      // a write per ack would be N; a member's acks leave 10 at a time or 10 ms after the first (skim.ts: 16 members
      // of 25 messages each, 3 writes a member at best; on a busy machine the burst arrives slower and the 10 ms
      // window catches fewer), never one a message
      expect(writes.n).toBeLessThan(N / 2);
    } finally {
      await ext.close();
      await ingest.close();
    }
  });

  it('holds several members of the shared subscription, each taking its share, each message once', async () => {
    const root = `xcc${run}`;
    const ingest = new Ingest(silentLogger, { intervalMs: 5 });
    const ext = new ExternalClient({ url: BROKER, root, instanceId: `xc-${run}-${root}`, keys, ingest, log: silentLogger });
    await ext.start();
    const clients = (ext as unknown as { clients: MqttClient[] }).clients;
    const got = ext.taken;
    try {
      expect(clients).toHaveLength(LINKS);
      const N = 200;
      await burst(root, N, 'c');
      await until(() => ingest.counters.received === N, 10_000, 'every message received');
      expect(got.every((n) => n > 0)).toBe(true);
      expect(got.reduce((a, n) => a + n, 0)).toBe(N);
      expect(ingest.counters).toMatchObject({ accepted: N, rejected: {} });
    } finally {
      await ext.close();
      await ingest.close();
    }
  });

  it('stops acknowledging while the store is stalled and its buffer full, then takes the rest: nothing lost, nothing twice', async () => {
    const root = `xcb${run}`;
    const ingest = new Ingest(silentLogger, { capacity: 50, batchSize: 20, intervalMs: 5 });
    let openStore!: () => void;
    const stalled = new Promise<void>((r) => { openStore = r; });
    const stored: string[] = [];
    ingest.onUplink(['property'], async (b) => {
      await stalled;
      stored.push(...b.map((u) => u.clientToken));
    });
    const { ext } = await start(root, ingest);
    try {
      const N = 300;
      await burst(root, N, 'b');
      await until(() => ingest.full, 10_000, 'the buffer full');
      await new Promise((r) => setTimeout(r, 300));
      // the message each member was handling when the buffer filled waits for its ack: the broker holds the rest
      expect(ingest.counters.received).toBeLessThanOrEqual(ingest.capacity + LINKS);
      openStore();
      await until(() => ingest.counters.received === N, 10_000, 'the rest received');
      await ingest.flush();
      expect(stored).toHaveLength(N);
      expect(new Set(stored).size).toBe(N);
      expect(ingest.counters).toMatchObject({ accepted: N, flushed: N, dropped: 0 });
    } finally {
      openStore();
      await ext.close();
      await ingest.close();
    }
  });

  it('a full buffer never holds back the PUBACKs of the commands its batches publish (event replies): every batch ends', async () => {
    const root = `xcd${run}`;
    const ingest = new Ingest(silentLogger, { capacity: 40, batchSize: 20, intervalMs: 5 });
    const stored: string[] = [];
    const links: { ext?: ExternalClient } = {};
    const down = `${root}/down/event/${device.cloudProductId}/${device.deviceName}`;
    ingest.onUplink(['property'], async (b) => {
      stored.push(...b.map((u) => u.clientToken));
      // as the device area answers events once stored: a QoS 1 command each, awaited (its PUBACK read on the link
      // commands leave by, among the uplinks held while the buffer is full)
      await Promise.all(b.map((u) => links.ext!.publish(down, JSON.stringify({ method: 'event_reply', clientToken: u.clientToken }))));
    });
    const { ext } = await start(root, ingest);
    links.ext = ext;
    try {
      const N = 600;
      await burst(root, N, 'd');
      await until(() => ingest.counters.flushed === N, 20_000, 'every message stored');
      expect(new Set(stored).size).toBe(N);
      expect(ingest.counters).toMatchObject({ accepted: N, flushed: N, dropped: 0 });
    } finally {
      await ext.close();
      await ingest.close();
    }
  });
});
