import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_TENANT } from '@console/contract';
import { inTenant } from '../src/core/db/index.js';
import { foldDeviceEvents } from '../src/areas/device/events.js';
import { createFleet, type Fleet as SimFleet, type FleetSession } from '../src/areas/device/gateway/fleet.js';
import type { Uplink } from '../src/areas/device/gateway/types.js';
import type { OtaRunner } from '../src/areas/device/ota.js';
import { OTA } from '../src/areas/device/index.js';
import { type Fleet, makeFleet, publishedFirmware } from './device-fixture.js';
import { until } from './gateway-fixture.js';
import { BASIC, useServer } from './harness.js';
import { multipart } from './multipart.js';

/**
 * Devices in the field end to end (issue 11), on the embedded broker and on the machine's Mosquitto: simulated
 * locks connect with their certificates' credentials, an OTA task takes them through download (a real HTTP
 * download of the firmware), install and success, one through failure and one through a timeout; control
 * commands reach them and their answers settle the commands; the device lookup shows what they reported.
 */

type Row = Record<string, unknown> & { id: string };
const RUN = randomBytes(3).toString('hex');
const BROKERS: Array<{ name: string; env: Record<string, string> }> = [
  { name: 'the embedded broker', env: { MQTT_PORT: '0', MQTT_HOST: '127.0.0.1', MQTT_TOPIC_ROOT: `fe${RUN}` } },
  { name: 'Mosquitto (MQTT_URL)', env: { MQTT_URL: process.env.MQTT_TEST_URL ?? 'mqtt://127.0.0.1:1883', MQTT_TOPIC_ROOT: `fx${RUN}` } },
];

describe.each(BROKERS)('devices in the field on $name', ({ env }) => {
  const h = useServer({ ...env, DEVICE_SIMULATOR: 'true' });
  let admin: string;
  let fleet: Fleet;
  let firmwareId: string;
  const sims: SimFleet[] = [];

  const summary = async (id: string) => (await h.call<{ state: string; counts: Record<string, number> }>('GET', '/api/omc-device/ota-task/summary', { token: admin, query: { id } })).body.data;
  const play = async (sns: string[], opts: { failRate?: number; timeoutRate?: number } = {}) => {
    const res = await h.call<{ sessions: FleetSession[] }>('POST', '/api/omc-device/simulator/sessions', { token: admin, body: { sns: sns.join(',') } });
    expect(res.status, res.body.msg).toBe(200);
    const sim = createFleet({ sessions: res.body.data.sessions, speed: 50, connectSpreadMs: 0, version: '1.0.0', random: () => 0.5, ...opts });
    sims.push(sim);
    await sim.start();
    expect(sim.counters.connected).toBe(sns.length);
    return sim;
  };

  beforeAll(async () => {
    admin = (await h.login('000000', 'admin', 'admin')).access_token;
    // devices download firmware over HTTP: the server listens, and links are made from its address
    const address = await h.server.app.listen({ port: 0, host: '127.0.0.1' });
    h.server.ctx.config.publicUrl = address;
    fleet = await makeFleet(h, admin, { count: 6, tag: `f${RUN}` });
    firmwareId = await publishedFirmware(h, admin, fleet.productId, '2.0.0', randomBytes(64 * 1024));
  });
  afterAll(async () => {
    for (const sim of sims) await sim.stop();
  });

  it('takes a batch through an OTA task: four succeed, one fails, one goes silent and times out', async () => {
    const [a, b, c, d, e, f] = fleet.devices.map((x) => x.sn) as [string, string, string, string, string, string];
    const good = await play([a, b, c, d]);
    await play([e], { failRate: 1 });
    await play([f], { timeoutRate: 1 });
    await until(async () => Number((await h.server.ctx.db.execute(sql`select count(*)::int as n from ymy_device_status where online = 1 and sn like ${`S${fleet.batchNo.slice(1)}%`}`) as unknown as { rows: [{ n: number }] }).rows[0].n) === 6, 10_000, 'six devices online');

    const task = await h.call<Row>('POST', '/api/omc-device/ota-task/submit', {
      token: admin, body: { taskName: '整批升级', firmwareId, scope: 'batch', batchId: fleet.batchId, rateLimit: 6000, timeoutMinutes: 1, maxRetries: 0 },
    });
    expect(task.status, task.body.msg).toBe(200);
    const id = task.body.data.id;
    // the silent one is notified on its turn (the scheduler's next pass, at most a second on) and says nothing
    await until(async () => {
      const s = await summary(id);
      return s.counts.succeeded === 4 && s.counts.failed === 1 && s.counts.notified === 1;
    }, 20_000, 'four succeeded, one failed, one notified and silent');
    expect(good.counters.bytesDownloaded).toBe(4 * 64 * 1024);

    // the silent one: its timeout passes, no retry is left
    await h.server.ctx.db.execute(sql`update ymy_ota_progress set due_time = now() - interval '1 second' where task_id = ${id}::bigint and state not in ('succeeded', 'failed')`);
    await (h.server.ctx.services.get(OTA) as OtaRunner).settle();
    expect(await summary(id)).toMatchObject({ state: 'finished', counts: { succeeded: 4, failed: 1, timed_out: 1 } });

    const failed = await h.call<{ records: Row[] }>('GET', '/api/omc-device/ota-progress/list', { token: admin, query: { taskId: id, state_equal: 'failed' } });
    expect(failed.body.data.records).toMatchObject([{ deviceSn: e, errorCode: '-5' }]);
    // succeeded devices reported their new version: the lookup shows it
    await until(async () => (await h.call<Row>('GET', '/tc/omc-device/device/info', { token: admin, query: { deviceSn: a } })).body.data.versions !== undefined
      && ((await h.call<{ versions: Record<string, string> }>('GET', '/tc/omc-device/device/info', { token: admin, query: { deviceSn: a } })).body.data.versions.mcu === '2.0.0'), 5_000, 'version 2.0.0');
    const info = await h.call<Row>('GET', '/tc/omc-device/device/info', { token: admin, query: { deviceSn: a.toLowerCase() } });
    expect(info.body.data).toMatchObject({ sn: a, productId: fleet.productId, batchNo: fleet.batchNo, online: 1, lastOta: { taskId: id, state: 'succeeded', toVersion: '2.0.0' } });
    expect(info.body.data.deviceName).toBe(a);
    const logs = await h.call<{ records: Row[] }>('GET', '/api/omc-log/ota/list', { token: admin, query: { deviceSn: a, taskId: id, size: 50 } });
    expect(logs.body.data.records.map((r) => r.state)).toEqual(expect.arrayContaining(['notified', 'downloading', 'downloaded', 'verified', 'installing', 'succeeded']));
  });

  it('keeps the face events devices post once, however often they are resent, and answers each', async () => {
    const sn = fleet.devices[0]!.sn;
    const sim = sims[0]!;
    expect(await sim.event(sn, { eventId: 'face', type: 'info', event: 'match', userId: 'u-1001' })).toBe(true);
    expect(await sim.event(sn, { eventId: 'face', type: 'alert', event: 'reject' })).toBe(true);
    expect(await sim.event(sn, { eventId: 'tamper_alarm', type: 'alert' })).toBe(true);
    const faces = await h.call<{ records: Row[] }>('GET', '/api/omc-log/face/list', { token: admin, query: { deviceSn: sn, descs: 'eventTime' } });
    expect(faces.body.data.records.map((r) => [r.event, r.userId])).toEqual([['reject', null], ['match', 'u-1001']]);
    expect(sim.counters.eventsAcked).toBe(sim.counters.events);
    // a resent event (its answer lost) is kept once
    const resent: Uplink = {
      device: { sn, productId: fleet.productId, cloudVendor: 1, cloudProductId: fleet.cloudProductId, deviceName: sn }, kind: 'event', method: 'event_post',
      clientToken: `again-${RUN}`, timestamp: Date.now(), params: { eventId: 'face', event: 'enrol', userId: 'u-2002' }, receivedAt: Date.now(),
    };
    for (let i = 0; i < 2; i++) await inTenant(h.server.ctx.db, { tenantId: PLATFORM_TENANT }, (tx) => foldDeviceEvents(tx, [resent]));
    const enrolled = await h.call<{ records: Row[] }>('GET', '/api/omc-log/face/list', { token: admin, query: { deviceSn: sn, event_equal: 'enrol' } });
    expect(enrolled.body.data.records).toHaveLength(1);
  });

  it('imports a list of SNs as commands (all or nothing, every bad row named); the imported commands reach the devices', async () => {
    const [, , c, d] = fleet.devices.map((x) => x.sn) as [string, string, string, string];
    const upload = async (csv: string, token = admin) => {
      const { payload, contentType } = multipart([{ name: 'file', filename: 'sns.csv', type: 'text/csv', data: Buffer.from(csv) }]);
      const res = await h.server.app.inject({
        method: 'POST', url: '/api/ymy-sale/device-control/import', payload, headers: { authorization: BASIC, 'blade-auth': `bearer ${token}`, 'content-type': contentType },
      });
      expect(res.statusCode, res.body).toBe(200);
      const id = (res.json() as { data: { id: string } }).data.id;
      let job: { status: string; succeeded: number; failed: number; errors: Array<{ row: number; message: string }> } | undefined;
      await until(async () => {
        job = (await h.call<NonNullable<typeof job>>('GET', '/api/ymy-sale/device-control/get-upload-progress', { token, query: { id } })).body.data;
        return job.status !== 'running';
      }, 20_000, 'import');
      return job!;
    };
    const count = async () => (await h.call<{ total: number }>('GET', '/tc/omc-device/control/list', { token: admin })).body.data.total;
    const before = await count();
    const bad = await upload(`设备 SN,管控操作,原因\n${c},禁用,批量停用\nNOSUCH0001,禁用,批量停用\n${d},fly,批量停用\n`);
    expect(bad).toMatchObject({ status: 'failed', failed: 2 });
    expect(bad.errors.map((e) => e.row)).toEqual([3, 4]);
    expect(await count()).toBe(before);
    // a tenant not authorised for the product does not see its devices: each row is named, nothing is sent
    const tenant = (await h.login('541742', 'admin', 'admin')).access_token;
    const unseen = await upload(`deviceSn,action,reason\n${c},disable,x\n${d},disable,x\n`, tenant);
    expect(unseen).toMatchObject({ status: 'failed', failed: 2 });
    expect(unseen.errors.map((e) => e.row)).toEqual([2, 3]);
    expect(unseen.errors[0]!.message).toContain(c);
    const good = await upload(`deviceSn,action,reason\n${c.toLowerCase()},disable,批量停用\n${d},禁用,批量停用\n`);
    expect(good).toMatchObject({ status: 'done', succeeded: 2 });
    const rows = await h.call<{ records: Row[] }>('GET', '/tc/omc-device/control/list', { token: admin, query: { deviceSn_in: `${c},${d}`, action_equal: 'disable' } });
    expect(rows.body.data.records).toHaveLength(2);
    for (const r of rows.body.data.records) {
      await until(async () => (await h.call<Row>('GET', '/tc/omc-device/control/detail', { token: admin, query: { id: r.id } })).body.data.state === 'applied', 10_000, 'imported command applied');
    }
  });

  it('hands out sessions for the first devices when no SN or batch is named (npm run simulate -- --devices N)', async () => {
    const res = await h.call<{ sessions: FleetSession[] }>('POST', '/api/omc-device/simulator/sessions', { token: admin, body: { count: 3 } });
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.data.sessions).toHaveLength(3);
    const sns = res.body.data.sessions.map((s) => s.sn);
    expect([...sns].sort()).toEqual(sns);
  });

  it('sends control commands and settles them by the devices\' answers; sync-status asks again', async () => {
    const [a, b] = fleet.devices.map((x) => x.sn) as [string, string];
    const disable = await h.call<Row>('POST', '/tc/omc-device/control/submit', { token: admin, body: { deviceSn: a, action: 'disable', reason: '欠费停用' } });
    expect(disable.status, disable.body.msg).toBe(200);
    expect(disable.body.data.state).toBe('pending');
    const unsupported = await h.call<Row>('POST', '/api/ymy-sale/device-control/submit', { token: admin, body: { deviceSn: b, action: 'lock_firmware', reason: '锁定' } });
    expect(unsupported.status, unsupported.body.msg).toBe(200);
    const stateOf = async (id: string) => (await h.call<Row>('GET', '/tc/omc-device/control/detail', { token: admin, query: { id } })).body.data;
    await until(async () => (await stateOf(disable.body.data.id)).state === 'applied', 10_000, 'disable applied');
    await until(async () => (await stateOf(unsupported.body.data.id)).state === 'failed', 10_000, 'lock_firmware failed');
    expect(String((await stateOf(unsupported.body.data.id)).result)).toContain('unsupported');

    const sync = await h.call<{ sent: number; offline: number }>('POST', '/tc/omc-device/control/sync-status', { token: admin, query: { ids: disable.body.data.id } });
    expect(sync.body.data).toEqual({ sent: 1, offline: 0 });
    await until(async () => String((await stateOf(disable.body.data.id)).result).includes('门锁状态'), 10_000, 'status answered');
    expect((await stateOf(disable.body.data.id)).state).toBe('applied');
    // the device's answer reads as labelled values in the reader's language, never as JSON
    const zh = String((await stateOf(disable.body.data.id)).result);
    expect(zh).toContain('启用: 否');
    expect(zh).toContain('已绑定: 是');
    expect(zh).toMatch(/门锁状态: 已上锁; 电量: \d+%/);
    expect(zh).not.toMatch(/[{}"]/);
    const en = (await h.call<{ records: Row[] }>('GET', '/tc/omc-device/control/list', { token: admin, lang: 'en', query: { deviceSn_equal: a } })).body.data.records;
    const answered = String(en.find((r) => r.id === disable.body.data.id)!.result);
    expect(answered).toContain('Enabled: No');
    expect(answered).toContain('Lock state: Locked');
    expect(answered).not.toMatch(/[{}"\u4e00-\u9fff]/);
    const info = await h.call<{ controls: Array<{ action: string; state: string }> }>('GET', '/tc/omc-device/device/info', { token: admin, query: { deviceSn: a } });
    expect(info.body.data.controls[0]).toMatchObject({ action: 'disable', state: 'applied' });
  });
});
