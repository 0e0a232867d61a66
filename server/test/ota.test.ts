import { PLATFORM_TENANT } from '@console/contract';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { inTenant } from '../src/core/db/index.js';
import type { DeviceIdentity, DownlinkKind, Gateway, Uplink } from '../src/areas/device/gateway/types.js';
import type { DeviceGateway } from '../src/areas/device/gateway/gateway.js';
import { GATEWAY, OTA } from '../src/areas/device/index.js';
import { foldOtaReports, type OtaRunner } from '../src/areas/device/ota.js';
import { move } from '../src/areas/device/otaMachine.js';
import { deliverFleet, type Fleet, makeFleet, publishedFirmware } from './device-fixture.js';
import { BASIC, useServer } from './harness.js';
import { grantCodes } from './io-resource.js';

/**
 * OTA tasks (issue 11): a task's devices through the state machine, with the scheduler sending the firmware
 * through a gateway that records what it is asked to send, and device reports folded as the gateway hands them
 * over. tests/gateway*.test.ts play the same through real brokers.
 */

type Row = Record<string, unknown> & { id: string };
const TASK = '/api/omc-device/ota-task';
const PROGRESS = '/api/omc-device/ota-progress';

interface Sent { device: Pick<DeviceIdentity, 'cloudProductId' | 'deviceName'>; kind: DownlinkKind; payload: Record<string, unknown> }

function recordingGateway(): Pick<Gateway, 'mode' | 'send'> & { sent: Sent[] } {
  const sent: Sent[] = [];
  let n = 0;
  return {
    mode: 'embedded', sent,
    async send(device, kind, payload) {
      sent.push({ device, kind, payload });
      return `srv-${++n}`;
    },
  };
}

const h = useServer();
let admin: string;
let tenantAdmin: string;
let gw: ReturnType<typeof recordingGateway>;
let fleet: Fleet;
let firmwareId: string;
let clock = Date.now();

const runner = () => h.server.ctx.services.get(OTA) as OtaRunner;
const q = async <T>(text: ReturnType<typeof sql>) => ((await h.server.ctx.db.execute(text)) as unknown as { rows: T[] }).rows;
const progressOf = async (taskId: string) => Object.fromEntries((await q<{ device_sn: string; state: string; percent: number; attempt: number; flagged: number; error_code: string | null }>(
  sql`select device_sn, state, percent, attempt, flagged, error_code from ymy_ota_progress where task_id = ${taskId}::bigint`)).map((r) => [r.device_sn, r]));

function report(device: Fleet['devices'][number], method: string, params: Record<string, unknown>, token = `t${++clock}`): Uplink {
  return {
    device: { sn: device.sn, productId: fleet.productId, cloudVendor: 1, cloudProductId: fleet.cloudProductId, deviceName: device.deviceName },
    kind: 'ota', method, clientToken: token, timestamp: ++clock, params, receivedAt: clock,
  };
}
const fold = (reports: Uplink[]) => inTenant(h.server.ctx.db, { tenantId: PLATFORM_TENANT }, (tx) => foldOtaReports(tx, reports));

async function makeTask(body: Record<string, unknown>) {
  return h.call<Row>('POST', `${TASK}/submit`, { token: admin, body: { taskName: `升级-${++clock}`, firmwareId, rateLimit: 60_000, timeoutMinutes: 5, maxRetries: 1, ...body } });
}

/** the scheduler's turn: due devices notified, quiet ones retried or timed out */
async function tick(): Promise<void> {
  await new Promise((r) => setTimeout(r, 20));
  await runner().settle();
}

beforeAll(async () => {
  admin = (await h.login('000000', 'admin', 'admin')).access_token;
  tenantAdmin = (await h.login('541742', 'admin', 'admin')).access_token;
  gw = recordingGateway();
  // the scheduler only sends: a gateway that records what it is given stands in for the broker
  h.server.ctx.services.replace(GATEWAY, gw as unknown as DeviceGateway);
  // the tests run the scheduler's passes themselves (tick): a pass of its own timer between a fold and a read
  // would retry a failed device before the test looks at it
  await runner().close();
  fleet = await makeFleet(h, admin, { count: 4, tag: 'ota', version: '1.0.0' });
  firmwareId = await publishedFirmware(h, admin, fleet.productId, '2.0.0');
});

describe('the state machine', () => {
  it('moves forward, may skip ahead, fails from any open state, and refuses the rest', () => {
    expect(move('notified', 0, 'downloading', 40)).toEqual({ ok: true, state: 'downloading', percent: 40 });
    expect(move('downloading', 40, 'downloading', 90)).toEqual({ ok: true, state: 'downloading', percent: 90 });
    expect(move('downloading', 90, 'installing', undefined)).toEqual({ ok: true, state: 'installing', percent: 100 });
    expect(move('installing', 100, 'failed', undefined)).toMatchObject({ ok: true, state: 'failed' });
    expect(move('downloading', 90, 'downloading', 30)).toMatchObject({ ok: false });
    expect(move('installing', 100, 'downloading', 10)).toMatchObject({ ok: false });
    expect(move('queued', 0, 'downloading', 10)).toMatchObject({ ok: false, reason: 'not notified yet' });
    expect(move('succeeded', 100, 'failed', undefined)).toMatchObject({ ok: false });
    expect(move('verified', 100, 'verified', undefined)).toMatchObject({ ok: false });
  });
});

describe('an OTA task through its devices', () => {
  it('takes every device of a batch, notifies them at the task\'s rate with the firmware\'s link and digests, and folds their reports', async () => {
    const created = await makeTask({ scope: 'batch', batchId: fleet.batchId });
    expect(created.status, created.body.msg).toBe(200);
    const task = created.body.data;
    expect(task).toMatchObject({ total: 4, state: 'running', toVersion: '2.0.0', productId: fleet.productId });
    // the scheduler may have taken them already (it is woken when the task commits)
    expect(Object.values(await progressOf(task.id)).every((p) => p.state === 'queued' || p.state === 'notified')).toBe(true);

    await tick();
    const sends = gw.sent.filter((s) => s.payload.taskId === task.id);
    expect(sends.map((s) => s.device.deviceName).sort()).toEqual(fleet.devices.map((d) => d.deviceName).sort());
    const [fw] = await q<{ sha256: string; md5: string; file_size: number; file: string }>(sql`select sha256, md5, file_size, file from ymy_firmware where id = ${firmwareId}::bigint`);
    expect(sends[0]).toMatchObject({ kind: 'ota', payload: { type: 'update_firmware', version: '2.0.0', sha256: fw!.sha256, md5sum: fw!.md5, file_size: 4096 } });
    expect(String(sends[0]!.payload.url)).toBe(`${h.server.ctx.config.publicUrl}${fw!.file}`);
    const download = await h.server.app.inject({ method: 'GET', url: fw!.file });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.length).toBe(4096);

    const [a, b, c, d] = fleet.devices as [Fleet['devices'][number], Fleet['devices'][number], Fleet['devices'][number], Fleet['devices'][number]];
    const resent = report(a, 'report_progress', { state: 'downloading', percent: 30 }, 'dup-1');
    const out = await fold([
      resent, report(a, 'report_progress', { state: 'downloading', percent: 70 }), report(a, 'report_progress', { state: 'downloaded' }),
      report(a, 'report_progress', { state: 'verified' }), report(a, 'report_progress', { state: 'installing' }), report(a, 'report_progress', { state: 'succeeded' }),
      report(b, 'report_progress', { progress: { state: 'fail', result_code: '-4', result_msg: 'MD5 mismatch' } }),
      report(c, 'report_progress', { state: 'burning' }), report(c, 'report_progress', { state: 'downloading', percent: 10 }),
    ]);
    expect(out).toMatchObject({ applied: 8, refused: 1 });
    // QoS 1: the same report again moves nothing and is logged once
    await fold([resent]);
    const p = await progressOf(task.id);
    expect(p[a.sn]).toMatchObject({ state: 'succeeded', percent: 100 });
    // a failure is retried while the task's retries last (1 here): queued again, its error kept until the next report
    expect(p[b.sn]).toMatchObject({ attempt: 1, error_code: '-4' });
    expect(p[b.sn]!.state).toBe('queued');
    await tick();
    expect((await progressOf(task.id))[b.sn]).toMatchObject({ state: 'notified', attempt: 2 });
    expect(gw.sent.filter((s) => s.payload.taskId === task.id && s.device.deviceName === b.deviceName)).toHaveLength(2);
    // the second failure is final: no retry left
    await fold([report(b, 'report_progress', { state: 'failed', result_code: '-4', result_msg: 'MD5 mismatch' })]);
    expect((await progressOf(task.id))[b.sn]).toMatchObject({ state: 'failed', attempt: 2, error_code: '-4' });
    expect(p[c.sn]).toMatchObject({ state: 'installing' });
    expect(p[d.sn]).toMatchObject({ state: 'notified', attempt: 1 });

    const logs = await q<{ device_sn: string; state: string; message: string | null; client_token: string | null }>(sql`select device_sn, state, message, client_token from ymy_ota_log where task_id = ${task.id}::bigint`);
    expect(logs.filter((l) => l.client_token === 'dup-1')).toHaveLength(1);
    expect(logs.find((l) => l.device_sn === c.sn && l.message?.startsWith('refused'))?.message).toContain('backwards');

    const listed = await h.call<{ records: Row[] }>('GET', `${PROGRESS}/list`, { token: admin, query: { taskId: task.id, state_equal: 'succeeded' } });
    expect(listed.body.data.records.map((r) => r.deviceSn)).toEqual([a.sn]);
    const logList = await h.call<{ records: Row[] }>('GET', '/api/omc-log/ota/list', { token: admin, query: { deviceSn: a.sn.slice(-4), taskId_equal: task.id } });
    expect(logList.body.data.records.length).toBeGreaterThanOrEqual(6);

    // a device that says it runs the old version after succeeding is flagged
    await fold([report(a, 'report_version', { version: '1.0.0' })]);
    expect((await progressOf(task.id))[a.sn]!.flagged).toBe(1);

    // quiet devices: retried while retries are left, then timed out; the task then finishes
    await h.server.ctx.db.execute(sql`update ymy_ota_progress set due_time = now() - interval '1 second' where task_id = ${task.id}::bigint and state in ('notified', 'installing')`);
    await tick();
    let now = await progressOf(task.id);
    expect(now[c.sn]).toMatchObject({ state: 'notified', attempt: 2 });
    expect(now[d.sn]).toMatchObject({ state: 'notified', attempt: 2 });
    await h.server.ctx.db.execute(sql`update ymy_ota_progress set due_time = now() - interval '1 second' where task_id = ${task.id}::bigint and state = 'notified'`);
    await tick();
    now = await progressOf(task.id);
    expect(now[c.sn]).toMatchObject({ state: 'timed_out', error_code: 'timeout' });
    const summary = await h.call<{ state: string; counts: Record<string, number>; flagged: number }>('GET', `${TASK}/summary`, { token: admin, query: { id: task.id } });
    expect(summary.body.data).toMatchObject({ state: 'finished', flagged: 1, counts: { succeeded: 1, failed: 1, timed_out: 2, queued: 0 } });
    const detail = await h.call<Row>('GET', `${TASK}/detail`, { token: admin, query: { id: task.id } });
    expect(detail.body.data).toMatchObject({ state: 'finished', succeeded: 1, failed: 3 });
    expect(detail.body.data.finishTime).toBeTruthy();
  });

  it('sends outside its transactions: a send that reads the database does not stall it, and a device not reached waits for the next pass', async () => {
    const reached: string[] = [];
    const missed = fleet.devices[3]!.deviceName;
    // like a device-key lookup on a cache miss: a read of its own (the embedded database has one connection)
    h.server.ctx.services.replace(GATEWAY, {
      mode: 'embedded',
      async send(device: Sent['device']) {
        await h.server.ctx.db.execute(sql`select 1`);
        if (device.deviceName === missed) return false;
        reached.push(device.deviceName);
        return `srv-${++clock}`;
      },
    } as unknown as DeviceGateway);
    try {
      const task = (await makeTask({ scope: 'batch', batchId: fleet.batchId })).body.data;
      await tick();
      const p = await progressOf(task.id);
      const missedSn = fleet.devices[3]!.sn;
      expect(reached.sort()).toEqual(fleet.devices.slice(0, 3).map((d) => d.deviceName).sort());
      expect(Object.entries(p).filter(([sn]) => sn !== missedSn).every(([, r]) => r.state === 'notified' && r.attempt === 1)).toBe(true);
      expect(p[missedSn]).toMatchObject({ state: 'queued', attempt: 0 });
      const notified = await q<{ device_sn: string }>(sql`select device_sn from ymy_ota_log where task_id = ${task.id}::bigint and state = 'notified'`);
      expect(notified.map((r) => r.device_sn).sort()).toEqual(fleet.devices.slice(0, 3).map((d) => d.sn).sort());
      await h.call('POST', `${TASK}/cancel`, { token: admin, query: { id: task.id } });
    } finally {
      h.server.ctx.services.replace(GATEWAY, gw as unknown as DeviceGateway);
    }
  });

  it('a report for a device that was not notified, or of an unknown state, is refused and logged', async () => {
    const lonely = await makeFleet(h, admin, { count: 1, tag: 'lone' });
    const device = lonely.devices[0]!;
    const u: Uplink = { ...report(device, 'report_progress', { state: 'downloading', percent: 5 }), device: { sn: device.sn, productId: lonely.productId, cloudVendor: 1, cloudProductId: lonely.cloudProductId, deviceName: device.deviceName } };
    expect(await fold([u, { ...u, clientToken: 'x-unknown', params: { state: 'exploding' } }])).toMatchObject({ applied: 0, refused: 2 });
    const logs = await q<{ message: string }>(sql`select message from ymy_ota_log where device_sn = ${device.sn}`);
    expect(logs.map((l) => l.message).sort()).toEqual(['refused: no OTA task for this device', 'refused: no OTA task for this device']);
  });

  it('a newer task over the same devices takes them from the running one; cancelling stops the rest', async () => {
    const first = (await makeTask({ scope: 'all' })).body.data;
    const sns = fleet.devices.slice(0, 2).map((d) => d.sn);
    const second = await makeTask({ scope: 'selected', deviceSns: `${sns[0]!.toLowerCase()}\n${sns[1]}, ${sns[0]}` });
    expect(second.status, second.body.msg).toBe(200);
    expect(second.body.data.total).toBe(2);
    const firstRows = await progressOf(first.id);
    expect(sns.map((sn) => firstRows[sn]!.state)).toEqual(['cancelled', 'cancelled']);

    const cancelled = await h.call('POST', `${TASK}/cancel`, { token: admin, query: { id: second.body.data.id } });
    expect(cancelled.status).toBe(200);
    expect(Object.values(await progressOf(second.body.data.id)).map((p) => p.state)).toEqual(['cancelled', 'cancelled']);
    const again = await h.call('POST', `${TASK}/cancel`, { token: admin, query: { id: second.body.data.id }, lang: 'en' });
    expect(again.status).toBe(400);
    expect(again.body.msg).toContain('has ended');
    await h.call('POST', `${TASK}/cancel`, { token: admin, query: { id: first.id } });
  });
});

describe('retries and the operator\'s retry', () => {
  let own: Fleet;
  let ownFirmware: string;
  const task = async (body: Record<string, unknown> = {}) => {
    const res = await h.call<Row>('POST', `${TASK}/submit`, { token: admin, body: { taskName: `重试-${++clock}`, firmwareId: ownFirmware, scope: 'all', rateLimit: 60_000, timeoutMinutes: 5, maxRetries: 0, ...body } });
    expect(res.status, res.body.msg).toBe(200);
    return res.body.data;
  };
  const retry = (id: string, token = admin, lang: 'zh' | 'en' = 'zh') => h.call<{ retried: number; superseded: number }>('POST', `${TASK}/retry`, { token, query: { id }, lang });
  const sendsTo = (taskId: string, device: Fleet['devices'][number]) => gw.sent.filter((s) => s.payload.taskId === taskId && s.device.deviceName === device.deviceName).length;

  beforeAll(async () => {
    own = await makeFleet(h, admin, { count: 3, tag: 'rty', version: '1.0.0' });
    ownFirmware = await publishedFirmware(h, admin, own.productId, '3.0.0');
  });
  const reportOf = (device: Fleet['devices'][number], params: Record<string, unknown>, token?: string): Uplink => {
    const u = report(device, 'report_progress', params, token);
    return { ...u, device: { ...u.device, productId: own.productId, cloudProductId: own.cloudProductId } };
  };

  it('retries a reported failure while the task\'s retries last, and a resent failure does not fail the new attempt', async () => {
    const t = await task({ maxRetries: 1 });
    await tick();
    const [a] = own.devices as [Fleet['devices'][number]];
    const failure = reportOf(a, { state: 'failed', result_code: '-2', result_msg: 'low battery' }, `fail-${++clock}`);
    await fold([failure]);
    expect((await progressOf(t.id))[a.sn]).toMatchObject({ state: 'queued', attempt: 1 });
    await tick();
    expect((await progressOf(t.id))[a.sn]).toMatchObject({ state: 'notified', attempt: 2 });
    expect(sendsTo(t.id, a)).toBe(2);
    await fold([failure]); // QoS 1 hands the first failure over again
    expect((await progressOf(t.id))[a.sn]).toMatchObject({ state: 'notified', attempt: 2 });
    const logs = await q<{ state: string; message: string | null }>(sql`select state, message from ymy_ota_log where task_id = ${t.id}::bigint and device_sn = ${a.sn} order by id`);
    expect(logs.map((l) => `${l.state}:${l.message ?? ''}`)).toEqual(['notified:', 'failed:failed: low battery', 'queued:failed: retry', 'notified:']);
    await h.call('POST', `${TASK}/cancel`, { token: admin, query: { id: t.id } });
  });

  it('queues the failed and timed-out devices of a finished task again, sends them the firmware, and logs who retried', async () => {
    const t = await task();
    await tick();
    const [a, b, c] = own.devices as [Fleet['devices'][number], Fleet['devices'][number], Fleet['devices'][number]];
    await fold([reportOf(a, { state: 'succeeded' }), reportOf(b, { state: 'failed', result_code: '-4', result_msg: 'MD5 mismatch' })]);
    await h.server.ctx.db.execute(sql`update ymy_ota_progress set due_time = now() - interval '1 second' where task_id = ${t.id}::bigint and state = 'notified'`);
    await tick();
    expect((await h.call<Row>('GET', `${TASK}/detail`, { token: admin, query: { id: t.id } })).body.data).toMatchObject({ state: 'finished', succeeded: 1, failed: 2 });

    // permissions first: a tenant may not, nor anyone without a token
    await grantCodes(h.server, ['ota_progress', 'ota_task_retry'], ['admin']);
    expect((await retry(t.id, tenantAdmin)).status).toBe(403);
    expect((await h.call('POST', `${TASK}/retry`, { query: { id: t.id } })).status).toBe(401);
    expect((await retry('1')).status).toBe(404);

    const done = await retry(t.id);
    expect(done.status, done.body.msg).toBe(200);
    expect(done.body.data).toEqual({ retried: 2, superseded: 0 });
    const queued = await progressOf(t.id);
    expect(queued[a.sn]).toMatchObject({ state: 'succeeded' });
    // queued again with the error cleared (the scheduler, woken by the retry, may have sent them already)
    for (const d of [b, c]) {
      expect(queued[d.sn]).toMatchObject({ error_code: null });
      expect(['queued', 'notified']).toContain(queued[d.sn]!.state);
    }
    expect((await h.call<Row>('GET', `${TASK}/detail`, { token: admin, query: { id: t.id } })).body.data).toMatchObject({ state: 'running', succeeded: 1, failed: 0 });
    const retried = await q<{ device_sn: string; message: string }>(sql`select device_sn, message from ymy_ota_log where task_id = ${t.id}::bigint and state = 'queued'`);
    expect(retried.map((r) => r.message)).toEqual(['retried by admin: attempt 2', 'retried by admin: attempt 2']);

    // the new attempt really goes out, and the device that failed first succeeds now
    await tick();
    expect(sendsTo(t.id, b)).toBe(2);
    expect(sendsTo(t.id, a)).toBe(1);
    await fold([reportOf(b, { state: 'downloading', percent: 50 }), reportOf(b, { state: 'succeeded' }), reportOf(c, { state: 'failed', result_code: '-1' })]);
    const after = await progressOf(t.id);
    expect(after[b.sn]).toMatchObject({ state: 'succeeded', attempt: 2 });
    expect(after[c.sn]).toMatchObject({ state: 'failed', attempt: 2 });
    expect((await h.call<Row>('GET', `${TASK}/detail`, { token: admin, query: { id: t.id } })).body.data).toMatchObject({ state: 'finished', succeeded: 2, failed: 1 });

    // a device a newer task took is no longer this task's to retry
    const newer = await task({ scope: 'selected', deviceSns: c.sn });
    const superseded = await retry(t.id, admin, 'en');
    expect(superseded.status).toBe(400);
    expect(superseded.body.msg).toBe(`The 1 failed devices of the OTA task "${String(t.taskName)}" were taken by newer tasks; there is nothing to retry`);
    await h.call('POST', `${TASK}/cancel`, { token: admin, query: { id: newer.id } });
    const cancelled = await retry(newer.id, admin, 'en');
    expect(cancelled.status).toBe(400);
    expect(cancelled.body.msg).toContain('was cancelled');
  });

  it('refuses a task with nothing to retry, and one whose firmware was withdrawn, changing nothing', async () => {
    const t = await task({ scope: 'selected', deviceSns: own.devices[0]!.sn });
    await tick();
    await fold([reportOf(own.devices[0]!, { state: 'succeeded' })]);
    const nothing = await retry(t.id);
    expect(nothing.status).toBe(400);
    expect(nothing.body.msg).toContain('没有失败或超时的设备');

    const fw = await publishedFirmware(h, admin, own.productId, '3.0.1');
    const w = await task({ firmwareId: fw, scope: 'selected', deviceSns: own.devices[1]!.sn });
    await tick();
    await fold([reportOf(own.devices[1]!, { state: 'failed' })]);
    expect((await h.call('POST', '/api/ymy-firmware/firmware/withdraw', { token: admin, query: { id: fw } })).status).toBe(200);
    const refused = await retry(w.id);
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toContain('3.0.1');
    expect((await progressOf(w.id))[own.devices[1]!.sn]).toMatchObject({ state: 'failed' });
  });

  it('exports a task\'s devices as .xlsx named after the task, for its rows only', async () => {
    const t = await task({ scope: 'selected', deviceSns: own.devices.map((d) => d.sn).join(',') });
    await tick();
    await fold([reportOf(own.devices[0]!, { state: 'failed', result_code: '-4', result_msg: 'MD5 mismatch' })]);
    const res = await h.server.app.inject({ method: 'GET', url: `${PROGRESS}/export`, query: { taskId: t.id }, headers: { authorization: BASIC, 'blade-auth': `bearer ${admin}`, 'accept-language': 'en' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename\\*=UTF-8''${encodeURIComponent('OTA progress')}-${encodeURIComponent(String(t.taskName))}-\\d{4}-\\d{2}-\\d{2}\\.xlsx$`));
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    book.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]).toEqual(['Task', 'Device SN', 'Product', 'From', 'To', 'State', 'Progress (%)', 'Attempt', 'Error code', 'Error', 'Version regressed', 'Last report']);
    expect(rows.slice(1).map((r) => r[1]).sort()).toEqual(own.devices.map((d) => d.sn).sort());
    const failed = rows.find((r) => r[1] === own.devices[0]!.sn)!;
    expect(failed).toEqual(expect.arrayContaining([t.taskName, 'Failed', 'MD5 mismatch']));

    // no task named: the title; a tenant without the code is refused; another tenant's task is not named
    const plain = await h.server.app.inject({ method: 'GET', url: `${PROGRESS}/export`, query: { state_equal: 'failed' }, headers: { authorization: BASIC, 'blade-auth': `bearer ${admin}`, 'accept-language': 'en' } });
    expect(plain.headers['content-disposition']).toContain(`UTF-8''OTA%20progress-`);
    const tenantRes = await h.server.app.inject({ method: 'GET', url: `${PROGRESS}/export`, query: { taskId: t.id }, headers: { authorization: BASIC, 'blade-auth': `bearer ${tenantAdmin}` } });
    expect(tenantRes.statusCode).toBe(403);
    await grantCodes(h.server, ['ota_progress', 'ota_progress_export'], ['admin']);
    const tenantSees = await h.server.app.inject({ method: 'GET', url: `${PROGRESS}/export`, query: { taskId: t.id }, headers: { authorization: BASIC, 'blade-auth': `bearer ${tenantAdmin}` } });
    expect(tenantSees.statusCode).toBe(200);
    expect(tenantSees.headers['content-disposition']).not.toContain(encodeURIComponent(String(t.taskName)));
    await h.call('POST', `${TASK}/cancel`, { token: admin, query: { id: t.id } });
  });
});

describe('bad input changes nothing', () => {
  it('refuses draft or withdrawn firmware, unknown SNs, a batch of another product and a missing firmware, naming the field', async () => {
    const other = await makeFleet(h, admin, { count: 1, tag: 'oth' });
    const before = (await q<{ n: number }>(sql`select count(*)::int as n from ymy_ota_task`))[0]!.n;
    const unknown = await makeTask({ scope: 'selected', deviceSns: `${fleet.devices[0]!.sn},NOPE0001,${other.devices[0]!.sn}` });
    expect(unknown.status).toBe(400);
    expect(Object.keys(unknown.body.data as object)).toEqual(['deviceSns']);
    expect(unknown.body.msg).toContain('2 个 SN');
    const wrongBatch = await makeTask({ scope: 'batch', batchId: other.batchId });
    expect(wrongBatch.status).toBe(400);
    expect(Object.keys(wrongBatch.body.data as object)).toEqual(['batchId']);
    expect((await makeTask({ scope: 'batch' })).status).toBe(400);
    expect((await makeTask({ scope: 'selected', deviceSns: ' , ' })).status).toBe(400);
    const missing = await makeTask({ scope: 'all', firmwareId: '1' });
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.data as object)).toEqual(['firmwareId']);
    expect((await makeTask({ scope: 'everything' })).status).toBe(400);
    expect((await makeTask({ scope: 'all', rateLimit: 0 })).status).toBe(400);

    const withdrawn = await publishedFirmware(h, admin, fleet.productId, '2.0.1');
    expect((await h.call('POST', '/api/ymy-firmware/firmware/withdraw', { token: admin, query: { id: withdrawn } })).status).toBe(200);
    const refused = await makeTask({ scope: 'all', firmwareId: withdrawn });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toContain('2.0.1');
    expect((await q<{ n: number }>(sql`select count(*)::int as n from ymy_ota_task`))[0]!.n).toBe(before);
  });
});

describe('permissions and tenants', () => {
  it('a tenant sees the tasks and progress of its authorised product types only, and never writes them', async () => {
    await grantCodes(h.server, ['ota_progress', 'ota_task_add', 'ota_task_cancel'], ['admin']);
    const task = (await makeTask({ scope: 'all' })).body.data;
    const hidden = await h.call<{ records: Row[] }>('GET', `${TASK}/list`, { token: tenantAdmin, query: { size: 100 } });
    expect(hidden.status).toBe(200);
    expect(hidden.body.data.records.map((r) => r.id)).not.toContain(task.id);
    expect((await h.call('GET', `${TASK}/detail`, { token: tenantAdmin, query: { id: task.id } })).status).toBe(404);
    expect((await h.call('GET', `${TASK}/summary`, { token: tenantAdmin, query: { id: task.id } })).status).toBe(404);
    expect((await h.call<{ records: Row[] }>('GET', `${PROGRESS}/list`, { token: tenantAdmin, query: { taskId: task.id } })).body.data.records).toEqual([]);

    await h.server.ctx.db.execute(sql`insert into ymy_product_auth (id, tenant_id, type_id) values (${String(Date.now())}::bigint, '541742', ${fleet.typeId}::bigint)`);
    await h.server.ctx.permissions.invalidate();
    // the type shows the task; the devices are the tenant's once delivered to it
    expect((await h.call<{ records: Row[] }>('GET', `${PROGRESS}/list`, { token: tenantAdmin, query: { taskId: task.id } })).body.data.records).toEqual([]);
    await deliverFleet(h, admin, fleet, '541742');
    const seen = await h.call<{ records: Row[] }>('GET', `${PROGRESS}/list`, { token: tenantAdmin, query: { taskId: task.id } });
    expect(seen.body.data.records.length).toBe(4);
    expect((await h.call('POST', `${TASK}/cancel`, { token: tenantAdmin, query: { id: task.id } })).status).toBe(403);
    expect((await h.call('POST', `${TASK}/submit`, { token: tenantAdmin, body: { taskName: 'x', firmwareId, scope: 'all', rateLimit: 10 } })).status).toBe(403);
    expect((await h.call('POST', `${TASK}/cancel`, { query: { id: task.id } })).status).toBe(401);
    await h.call('POST', `${TASK}/cancel`, { token: admin, query: { id: task.id } });
  });
});
