import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aliyunCredentials, sessionKey, signUplink, tencentCredentials, verifyDownlink } from '../src/areas/device/gateway/credentials.js';
import { GATEWAY } from '../src/areas/device/index.js';
import { invalidateDeviceKeys } from '../src/areas/production/index.js';
import { createFleet, type FleetSession } from '../src/areas/device/gateway/fleet.js';
import type { DeviceGateway } from '../src/areas/device/gateway/gateway.js';
import type { Presence, Uplink } from '../src/areas/device/gateway/types.js';
import { connect, type FixtureDevice, makeDevices, setCertState, until } from './gateway-fixture.js';
import { useServer } from './harness.js';

/**
 * The embedded broker (aedes, MQTT_PORT=0): device sign-in (Tencent, Alibaba), refusals (rc 4 bad credentials,
 * rc 5 unknown or revoked), topic ACL, uplinks to handlers, presence, signed commands, revocation, the simulator's
 * sessions and the fleet simulator playing OTA and actions.
 */
const ROOT = `emb${randomBytes(3).toString('hex')}`;
const h = useServer({ MQTT_PORT: '0', MQTT_HOST: '127.0.0.1', MQTT_TOPIC_ROOT: ROOT, DEVICE_SIMULATOR: 'true' });
const PID = 'EMBPROD001';
let gw: DeviceGateway;
let url: string;
let locks: FixtureDevice[];
let ali: FixtureDevice;
let revoked: FixtureDevice;
let free: FixtureDevice;
const uplinks: Uplink[] = [];
const presence: Presence[] = [];
const open: MqttClient[] = [];

const tencent = (d: FixtureDevice) => tencentCredentials(d.cloudProductId, d.deviceName, d.key);
async function device(d: FixtureDevice): Promise<MqttClient> {
  const c = await connect(url, tencent(d));
  open.push(c);
  return c;
}
const up = (kind: string, d: FixtureDevice) => `${ROOT}/up/${kind}/${d.cloudProductId}/${d.deviceName}`;

beforeAll(async () => {
  gw = h.server.ctx.services.get(GATEWAY);
  expect(gw.mode).toBe('embedded');
  expect(gw.port).toBeGreaterThan(0);
  url = gw.deviceUrl()!;
  locks = await makeDevices(h.server.ctx, { batchNo: 'EMB-B1', snPrefix: 'EMB', count: 5, cloudProductId: PID });
  ali = (await makeDevices(h.server.ctx, { batchNo: 'EMB-B2', snPrefix: 'EMBALI', count: 1, cloudVendor: 2, cloudProductId: 'a1EmbKey' }))[0]!;
  revoked = (await makeDevices(h.server.ctx, { batchNo: 'EMB-B3', snPrefix: 'EMBREV', count: 1, cloudProductId: PID, state: 4 }))[0]!;
  free = (await makeDevices(h.server.ctx, { batchNo: 'EMB-B4', snPrefix: 'EMBFREE', count: 1, cloudProductId: PID, state: 1 }))[0]!;
  gw.onUplink(['property', 'event', 'ota', 'action', 'location'], async (batch) => void uplinks.push(...batch));
  gw.onPresence(async (batch) => void presence.push(...batch));
});

afterAll(async () => {
  await Promise.all(open.map((c) => c.endAsync(true).catch(() => undefined)));
});

describe('embedded gateway', () => {
  it('lets a device with good Tencent credentials in; its uplinks (unsigned or signed) reach the handler; presence online', async () => {
    const d = locks[0]!;
    const c = await device(d);
    c.publish(up('property', d), JSON.stringify({ method: 'report', clientToken: 'p1', params: { lock_state: 1, battery: 87 } }), { qos: 1 });
    const creds = tencent(d);
    const topic = up('event', d);
    const signed = signUplink(sessionKey(d.key, creds.username), creds.username, topic, { method: 'event_post', clientToken: 'e1', timestamp: Date.now(), params: { eventId: 'unlock', type: 'info' } });
    // the connection's own username also works as `conn`
    await c.publishAsync(topic, JSON.stringify(signed), { qos: 1 });
    await until(() => uplinks.filter((u) => u.device.sn === d.sn).length === 2, 5_000, 'uplinks');
    const mine = uplinks.filter((u) => u.device.sn === d.sn);
    expect(mine.map((u) => [u.kind, u.method, u.clientToken])).toEqual([['property', 'report', 'p1'], ['event', 'event_post', 'e1']]);
    expect(mine[0]!.device).toEqual({ sn: d.sn, productId: '1001', cloudVendor: 1, cloudProductId: PID, deviceName: d.deviceName });
    expect(mine[0]!.params).toEqual({ lock_state: 1, battery: 87 });
    await until(() => presence.some((p) => p.device.sn === d.sn && p.online), 5_000, 'online');
    expect(presence.find((p) => p.device.sn === d.sn)?.address).toBeTruthy();
  });

  it('lets an Alibaba device in with its credentials (hmacsha256 and hmacmd5)', async () => {
    for (const signmethod of ['hmacsha256', 'hmacmd5'] as const) {
      const c = await connect(url, aliyunCredentials(ali.cloudProductId, ali.deviceName, ali.secret, { signmethod }));
      open.push(c);
      expect(c.connected).toBe(true);
      await c.endAsync();
    }
  });

  it('refuses bad passwords (rc 4) and unknown, free or revoked certificates (rc 5)', async () => {
    const d = locks[1]!;
    const good = tencent(d);
    await expect(connect(url, { ...good, password: `${'0'.repeat(64)};hmacsha256` })).rejects.toMatchObject({ code: 4 });
    await expect(connect(url, { ...good, clientId: `${PID}${locks[2]!.deviceName}` })).rejects.toMatchObject({ code: 4 });
    await expect(connect(url, { clientId: 'x' })).rejects.toMatchObject({ code: 4 });
    const expired = tencentCredentials(PID, d.deviceName, d.key, { now: Date.now() - 3_600_000 });
    await expect(connect(url, expired)).rejects.toMatchObject({ code: 4 });
    await expect(connect(url, tencent(revoked))).rejects.toMatchObject({ code: 5 });
    await expect(connect(url, tencent(free))).rejects.toMatchObject({ code: 5 });
    await expect(connect(url, tencentCredentials(PID, 'NOSUCHDEVICE', d.key))).rejects.toMatchObject({ code: 5 });
    await expect(connect(url, aliyunCredentials(ali.cloudProductId, ali.deviceName, 'wrong-secret'))).rejects.toMatchObject({ code: 4 });
  });

  it('confines a device to its topics: another device\'s downlink or $SYS are refused, publishing to another device closes it', async () => {
    const [a, b] = [locks[1]!, locks[2]!];
    const c = await device(a);
    const suback = new Promise<number[]>((r) => c.on('packetreceive', (p) => p.cmd === 'suback' && r(p.granted as number[])));
    c.subscribe([
      `${ROOT}/down/+/${PID}/${a.deviceName}`, `${ROOT}/down/+/${PID}/${b.deviceName}`, '$SYS/#', `${ROOT}/up/+/${PID}/${a.deviceName}`, '#',
    ], { qos: 1 }, () => undefined);
    const granted = await suback;
    expect(granted).toEqual([1, 128, 128, 128, 128]);
    const closed = new Promise<void>((r) => c.once('close', () => r()));
    c.publish(up('event', b), JSON.stringify({ method: 'event_post', clientToken: 'spoof', params: {} }), { qos: 1 });
    await closed;
    await gw.flush();
    expect(uplinks.some((u) => u.clientToken === 'spoof')).toBe(false);
  });

  it('drops malformed, oversized, stale or tampered messages without harm, and duplicates', async () => {
    const d = locks[3]!;
    const c = await device(d);
    const creds = tencent(d);
    const topic = up('event', d);
    const before = gw.stats();
    const signed = signUplink(sessionKey(d.key, creds.username), creds.username, topic, { method: 'event_post', clientToken: 'ok1', timestamp: Date.now(), params: { eventId: 'tamper_alarm' } });
    c.publish(topic, 'not json', { qos: 1 });
    c.publish(topic, Buffer.from([0xff, 0x00, 0xfe]), { qos: 0 });
    c.publish(topic, JSON.stringify({ method: 'event_post', params: [1, 2] }), { qos: 1 });
    c.publish(topic, JSON.stringify({ method: 'event_post', timestamp: Date.now() - 3_600_000, params: {} }), { qos: 1 });
    c.publish(topic, JSON.stringify({ ...signed, params: { eventId: 'unlock' } }), { qos: 1 });
    c.publish(topic, JSON.stringify(signed), { qos: 1 });
    await c.publishAsync(topic, JSON.stringify(signed), { qos: 1 });
    await until(() => gw.stats().received - before.received >= 7, 5_000, 'received');
    await gw.flush();
    const s = gw.stats();
    const delta = (k: string) => (s.rejected[k] ?? 0) - (before.rejected[k] ?? 0);
    expect([delta('not_json'), delta('bad_envelope'), delta('clock'), delta('bad_sign'), delta('duplicate')]).toEqual([2, 1, 1, 1, 1]);
    expect(uplinks.filter((u) => u.device.sn === d.sn).map((u) => u.clientToken)).toEqual(['ok1']);
    // a 100 KB payload closes the connection; the broker lives on
    const closed = new Promise<void>((r) => c.once('close', () => r()));
    c.publish(topic, Buffer.alloc(100_000, 0x20), { qos: 1 });
    await closed;
    const again = await device(d);
    expect(again.connected).toBe(true);
  });

  it('sends a signed command that reaches the device; presence offline on disconnect', async () => {
    const d = locks[4]!;
    const c = await device(d);
    await c.subscribeAsync(`${ROOT}/down/+/${PID}/${d.deviceName}`, { qos: 1 });
    const got = new Promise<{ topic: string; payload: Record<string, unknown> }>((r) => c.once('message', (topic, p) => r({ topic, payload: JSON.parse(p.toString()) as Record<string, unknown> })));
    const token = await gw.send(d, 'action', { method: 'action', actionId: 'get_status', params: {} });
    expect(token).toMatch(/^[A-Za-z0-9]{16}$/);
    const m = await got;
    expect(m.topic).toBe(`${ROOT}/down/action/${PID}/${d.deviceName}`);
    expect(m.payload).toMatchObject({ method: 'action', actionId: 'get_status', clientToken: token });
    expect(verifyDownlink(d.key, m.topic, m.payload)).toBe(true);
    expect(verifyDownlink(locks[0]!.key, m.topic, m.payload)).toBe(false);
    await c.endAsync();
    await until(() => presence.some((p) => p.device.sn === d.sn && !p.online), 5_000, 'offline');
  });

  it('disconnects a device whose certificate is revoked, and refuses it afterwards', async () => {
    const d = locks[2]!;
    const c = await device(d);
    const closed = new Promise<void>((r) => c.once('close', () => r()));
    await setCertState(h.server.ctx, d.certId, 4);
    await invalidateDeviceKeys(h.server.ctx.kv);
    await closed;
    await expect(connect(url, tencent(d))).rejects.toMatchObject({ code: 5 });
  });
});

describe('simulator sessions and the fleet', () => {
  const PATH = '/api/omc-device/simulator/sessions';
  let admin: string;
  beforeAll(async () => {
    admin = (await h.login('000000', 'admin', 'admin')).access_token;
  });

  it('answers sessions to the platform admin (never a device key), reports unknown SNs, refuses others', async () => {
    const res = await h.call<{ sessions: FleetSession[]; unknown: string[] }>('POST', PATH, { token: admin, body: { sns: `${locks[0]!.sn},NOSUCHSN1,${revoked.sn}` } });
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.data.unknown).toEqual(['NOSUCHSN1', revoked.sn]);
    const [s] = res.body.data.sessions;
    expect(s).toMatchObject({ sn: locks[0]!.sn, clientId: `${PID}${locks[0]!.deviceName}`, cloudProductId: PID, deviceName: locks[0]!.deviceName, topicRoot: ROOT, mqttUrl: url });
    expect(s!.sessionKey).toBe(sessionKey(locks[0]!.key, s!.username).toString('hex'));
    const text = res.raw.body;
    expect(text).not.toContain(locks[0]!.secret);
    expect(text).not.toContain(locks[0]!.key.toString('hex'));
    const byBatch = await h.call<{ sessions: FleetSession[]; unknown: string[] }>('POST', PATH, { token: admin, body: { batchNo: 'EMB-B1' } });
    expect(byBatch.body.data.sessions.map((x) => x.sn)).toEqual(locks.filter((l) => l !== locks[2]).map((l) => l.sn));
    expect((await h.call('POST', PATH, { token: admin, body: {} })).status).toBe(400);
    const tenantAdmin = (await h.login('541742', 'admin', 'admin')).access_token;
    expect((await h.call('POST', PATH, { token: tenantAdmin, body: { sns: locks[0]!.sn } })).status).toBe(403);
    h.server.ctx.config.deviceSimulator = false;
    try {
      const off = await h.call('POST', PATH, { token: admin, body: { sns: locks[0]!.sn }, lang: 'en' });
      expect(off.status).toBe(403);
      expect(off.body.msg).toContain('DEVICE_SIMULATOR');
    } finally {
      h.server.ctx.config.deviceSimulator = true;
    }
  });

  it('plays devices: report_info on connect, OTA to success with a real download, action replies', async () => {
    const firmware = randomBytes(50_000);
    const { createHash } = await import('node:crypto');
    const http = createHttpServer((req, res) => {
      if (req.url !== '/fw.bin') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-length': firmware.length }).end(firmware);
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
    const fwUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}/fw.bin`;
    const res = await h.call<{ sessions: FleetSession[] }>('POST', PATH, { token: admin, body: { sns: [locks[0]!.sn, locks[1]!.sn, locks[3]!.sn].join(',') } });
    const fleet = createFleet({ sessions: res.body.data.sessions, speed: 100, connectSpreadMs: 0, random: () => 0.5 });
    try {
      await fleet.start();
      expect(fleet.counters.connected).toBe(3);
      const [a, b, c] = [locks[0]!, locks[1]!, locks[3]!];
      await until(() => [a, b, c].every((d) => uplinks.some((u) => u.device.sn === d.sn && u.method === 'report_info')), 5_000, 'report_info');
      expect(uplinks.find((u) => u.device.sn === b.sn && u.method === 'report_info')?.params).toMatchObject({ version: '1.0.0', mac: expect.stringMatching(/^([0-9A-F]{2}:){5}[0-9A-F]{2}$/) });
      const sha256 = createHash('sha256').update(firmware).digest('hex');
      const md5sum = createHash('md5').update(firmware).digest('hex');
      await gw.send(a, 'ota', { type: 'update_firmware', taskId: 'T1', version: '2.0.0', url: fwUrl, md5sum, sha256, file_size: firmware.length });
      await gw.send(b, 'ota', { type: 'update_firmware', taskId: 'T2', version: '2.0.0', url: fwUrl, md5sum, sha256: '0'.repeat(64), file_size: firmware.length });
      const token = await gw.send(c, 'action', { method: 'action', actionId: 'get_status', params: {} });
      const states = (sn: string) => uplinks.filter((u) => u.device.sn === sn && u.kind === 'ota').map((u) => u.method === 'report_version' ? `version ${String(u.params.version)}` : String((u.params.progress as { state: string }).state));
      await until(() => states(a.sn).includes('version 2.0.0') && states(b.sn).includes('failed'), 10_000, 'ota');
      expect([...new Set(states(a.sn))]).toEqual(['downloading', 'downloaded', 'verified', 'installing', 'succeeded', 'version 2.0.0']);
      expect(uplinks.find((u) => u.device.sn === b.sn && u.kind === 'ota' && (u.params.progress as { state: string }).state === 'failed')?.params)
        .toMatchObject({ taskId: 'T2', version: '2.0.0', progress: { state: 'failed', result_code: -4 } });
      await until(() => uplinks.some((u) => u.device.sn === c.sn && u.method === 'action_reply'), 5_000, 'action_reply');
      expect(uplinks.find((u) => u.device.sn === c.sn && u.method === 'action_reply')).toMatchObject({
        clientToken: token, params: { actionId: 'get_status', code: 0, result: { version: '1.0.0', enabled: true } },
      });
      expect(fleet.counters).toMatchObject({ otaSucceeded: 1, otaFailed: 1, actions: 1, refused: 0 });
      expect(fleet.counters.bytesDownloaded).toBe(2 * firmware.length);
    } finally {
      await fleet.stop();
      http.close();
    }
  });
});

describe('answers a device can count on', () => {
  it('answers an event_post resent with the same clientToken again (its first answer was lost), and stores it once', async () => {
    const d = locks[4]!;
    const c = await device(d);
    const replies: string[] = [];
    c.on('message', (topic, payload) => {
      const m = JSON.parse(payload.toString()) as { method?: string; clientToken?: string };
      if (topic === `${ROOT}/down/event/${d.cloudProductId}/${d.deviceName}` && m.method === 'event_reply' && m.clientToken) replies.push(m.clientToken);
    });
    await c.subscribeAsync(`${ROOT}/down/+/${d.cloudProductId}/${d.deviceName}`, { qos: 1 });
    const post = JSON.stringify({ method: 'event_post', clientToken: 'resend-1', params: { eventId: 'face', event: 'enrol', userId: 'u-9' } });
    await c.publishAsync(up('event', d), post, { qos: 1 });
    await until(() => replies.length === 1, 10_000, 'the first event_reply');
    await c.publishAsync(up('event', d), post, { qos: 1 });
    await until(() => replies.length === 2, 10_000, 'the event_reply of the resent event');
    expect(replies).toEqual(['resend-1', 'resend-1']);
    const rows = await h.call<{ records: Array<Record<string, unknown>> }>('GET', '/api/omc-log/face/list', { token: (await h.login('000000', 'admin', 'admin')).access_token, query: { deviceSn: d.sn } });
    expect(rows.body.data.records).toHaveLength(1);
  });
});

describe('what a device reports about itself', () => {
  it('stores the MAC and IMEI of report_info and shows them in the device lookup and list; malformed ones are not kept', async () => {
    const d = locks[3]!;
    const c = await device(d);
    const admin = (await h.login('000000', 'admin', 'admin')).access_token;
    const info = async () => (await h.call<{ reportedMac: string | null; imei: string | null }>('GET', '/tc/omc-device/device/info', { token: admin, query: { deviceSn: d.sn } })).body.data;
    await c.publishAsync(up('property', d), JSON.stringify({ method: 'report_info', clientToken: 'i1', params: { version: '1.0.3', mac: 'a4-c1-38-0b-22-f1', imei: '861234567890123' } }), { qos: 1 });
    await until(async () => (await gw.flush(), (await info()).imei !== null), 10_000, 'the reported identity');
    expect(await info()).toMatchObject({ reportedMac: 'A4:C1:38:0B:22:F1', imei: '861234567890123' });
    const listed = await h.call<{ records: Array<Record<string, unknown>> }>('GET', '/tc/omc-device/device/list', { token: admin, query: { imei: '861234567890123' } });
    expect(listed.body.data.records.map((r) => [r.sn, r.mac, r.imei])).toEqual([[d.sn, 'A4:C1:38:0B:22:F1', '861234567890123']]);
    // a later report with malformed values keeps what was stored
    await c.publishAsync(up('property', d), JSON.stringify({ method: 'report_info', clientToken: 'i2', params: { version: '1.0.3', mac: 'not-a-mac', imei: '12ab' } }), { qos: 1 });
    await until(() => uplinks.some((u) => u.clientToken === 'i2'), 10_000, 'the second report');
    await gw.flush();
    expect(await info()).toMatchObject({ reportedMac: 'A4:C1:38:0B:22:F1', imei: '861234567890123' });
  });
});

describe('presence on the embedded broker comes from connections only', () => {
  it('a device saying offline on its status topic stays online; no other client can speak for it', async () => {
    const d = locks[1]!;
    const c = await device(d);
    const admin = (await h.login('000000', 'admin', 'admin')).access_token;
    const onlineInConsole = async () => (await h.call<{ online: number }>('GET', '/tc/omc-device/device/info', { token: admin, query: { deviceSn: d.sn } })).body.data.online;
    await until(async () => (await gw.flush(), (await onlineInConsole()) === 1), 10_000, 'online');
    const ignored = gw.stats().rejected.ignored ?? 0;
    await c.publishAsync(up('status', d), JSON.stringify({ method: 'offline', clientToken: 'x' }), { qos: 1 });
    await until(() => gw.stats().rejected.ignored === ignored + 1, 5_000, 'the status message ignored');
    // another device publishing to this device's status topic is disconnected; a client without credentials never gets in
    const other = await device(locks[0]!);
    const gone = new Promise<void>((resolve) => other.once('close', () => resolve()));
    other.publish(up('status', d), JSON.stringify({ method: 'offline' }), { qos: 1 });
    await gone;
    await expect(connect(url, { clientId: 'anonymous' })).rejects.toMatchObject({ code: 4 });
    await gw.flush();
    expect(await onlineInConsole()).toBe(1);
  });
});
