import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { deliverFleet, type Fleet, makeFleet } from './device-fixture.js';
import { useServer } from './harness.js';
import { importCsv as importSheet } from './importSheet.js';

/**
 * Dispatch and the approvals (issue 27): a batch or one lock dispatched to an agent's region writes each lock's
 * device area and the modify log; a request is decided by someone other than its requester, once; a region change
 * approved writes the area and the log; a tenant's own; refused without the screen.
 */

type Row = Record<string, unknown> & { id: string };
const DISPATCH = '/api/omc-device/area-dispatch';
const DISPATCH_OA = '/api/omc-device/area-dispatch-oa';
const AREA = '/api/ymy-device/area';
const AREA_OA = '/api/omc-device/area-oa';
const MODIFY = '/api/omc-log/device-area-modify';

const h = useServer();
let demo: string;
let approver: string;
let platform: string;
let viewer: string;
let fleet: Fleet;
let other: Fleet;
let zhejiang: string;
let guangdong: string;

const sn = (i: number) => fleet.devices[i]!.sn;
const post = (token: string, path: string, body: Record<string, unknown>, lang?: 'en') => h.call<Row>('POST', path, { token, body, lang });
const list = async (token: string, path: string, query: Record<string, string> = {}) =>
  (await h.call<{ records: Row[]; total: number }>('GET', `${path}/list`, { token, query: { size: '100', ...query } })).body.data;
const areaOf = async (serial: string) => (await list(demo, AREA, { deviceSn_equal: serial })).records[0];
const count = async (table: string) =>
  Number(((await h.server.ctx.db.execute(sql.raw(`select count(*)::int as n from ${table} where is_deleted = 0`))) as unknown as { rows: Array<{ n: number }> }).rows[0]!.n);

const importCsv = (token: string, path: string, csv: string) => importSheet(h, token, path, csv);

beforeAll(async () => {
  platform = (await h.login('000000', 'admin', 'admin')).access_token;
  fleet = await makeFleet(h, platform, { count: 5, tag: 'dp' });
  other = await makeFleet(h, platform, { count: 2, tag: 'dq' });
  for (const f of [fleet, other]) {
    await h.server.ctx.db.execute(sql`insert into ymy_product_auth (id, tenant_id, type_id) values (${String(Date.now()) + f.typeId.slice(-3)}::bigint, '541742', ${f.typeId}::bigint)`);
  }
  // four of the batch's five locks are the demo tenant's; the other batch stays the platform's
  await deliverFleet(h, platform, fleet, '541742', 4);
  demo = (await h.login('541742', 'admin', 'admin')).access_token;
  await h.createUser('541742', 'approver', 'Approver#2026', ['admin']);
  approver = (await h.login('541742', 'approver', 'Approver#2026')).access_token;
  zhejiang = (await post(demo, '/api/omc-device/area-agent/submit', { agentName: '浙江代理', regionCodes: '330000' })).body.data.id;
  guangdong = (await post(demo, '/api/omc-device/area-agent/submit', { agentName: '广东代理', regionCodes: '440300' })).body.data.id;
  await post(demo, '/api/blade-system/role/submit', { roleName: '访客', roleAlias: 'viewer', sort: 9 });
  await h.createUser('541742', 'dispatchviewer', 'Viewer#2026', ['viewer']);
  viewer = (await h.login('541742', 'dispatchviewer', 'Viewer#2026')).access_token;
});

describe('a dispatch', () => {
  let batchDispatch: string;

  it('of a batch places each of the tenant\'s locks in the agent\'s region, and logs the change', async () => {
    const res = await post(demo, `${DISPATCH}/update`, { code: '330000,330100', agentId: zhejiang, batchNo: fleet.batchNo, dispatchTime: '2026-11-25 09:00:00' });
    expect(res.status, res.body.msg).toBe(200);
    batchDispatch = res.body.data.id;
    expect(res.body.data).toMatchObject({ quantity: 4, batchNo: fleet.batchNo });
    const areas = (await list(demo, AREA, { agentId: zhejiang })).records;
    expect(areas.map((a) => a.deviceSn).sort()).toEqual([sn(0), sn(1), sn(2), sn(3)].sort());
    expect(areas[0]).toMatchObject({ code: '330000,330100', codeName: '浙江省 / 杭州市', source: 'dispatch' });
    const logs = (await list(demo, MODIFY)).records;
    expect(logs).toHaveLength(4);
    expect(logs[0]).toMatchObject({ newName: '浙江省 / 杭州市', operator: 'admin' });
    const shown = (await list(demo, DISPATCH)).records.find((r) => r.id === batchDispatch);
    expect(shown).toMatchObject({ codeName: '浙江省 / 杭州市', agentIdName: '浙江代理', quantity: 4 });
  });

  it('of one lock moves it, and the log keeps where it was', async () => {
    // the region is under the agent's: Shenzhen's Nanshan district for the agent of Shenzhen
    const res = await post(demo, `${DISPATCH}/update`, { code: '440000,440300,440305', agentId: guangdong, deviceSn: sn(0).toLowerCase() });
    expect(res.status, res.body.msg).toBe(200);
    expect(await areaOf(sn(0))).toMatchObject({ code: '440000,440300,440305', agentId: guangdong });
    const log = (await list(demo, MODIFY, { deviceSn: sn(0) })).records[0];
    expect(log).toMatchObject({ oldCode: '330000,330100', newCode: '440000,440300,440305', oldName: '浙江省 / 杭州市', newName: '广东省 / 深圳市 / 南山区' });
  });

  it('is found by the region\'s last code (like-right: that region and all under it), the batch, the SN\'s start, the agent and the date', async () => {
    const ids = async (query: Record<string, string>) => (await list(demo, DISPATCH, query)).records.map((r) => r.id);
    const [batchRow, oneRow] = [batchDispatch, (await list(demo, DISPATCH, { deviceSn_likeright: sn(0).slice(0, -1).toLowerCase() })).records[0]!.id];
    // the console splits the chosen path on commas and sends its last code
    expect(await ids({ code_likeright: '330000' })).toEqual([batchRow]);
    expect(await ids({ code_likeright: '440000' })).toEqual([oneRow]);
    expect(await ids({ code_likeright: '440305' })).toEqual([oneRow]);
    expect(await ids({ code_likeright: '440300,440305'.split(',').at(-1)! })).toEqual([oneRow]);
    expect(await ids({ code_likeright: '110000' })).toEqual([]);
    expect(await ids({ code_equal: '330000,330100' })).toEqual([batchRow]);
    expect(await ids({ batchNo_equal: fleet.batchNo })).toEqual([batchRow]);
    expect(await ids({ agentId: guangdong })).toEqual([oneRow]);
    expect((await ids({ createTime_datege: '2000-01-01 00:00:00', createTime_datele: '2999-12-31 23:59:59' })).sort()).toEqual([batchRow, oneRow].sort());
    expect(await ids({ createTime_datele: '2000-01-01 00:00:00' })).toEqual([]);
  });

  it('refuses what it cannot dispatch, naming the field, and writes nothing', async () => {
    const before = [await count('ymy_area_dispatch'), await count('ymy_device_area'), await count('ymy_device_area_modify')];
    const bad = async (body: Record<string, unknown>, field: string, text: RegExp) => {
      const res = await post(demo, `${DISPATCH}/update`, { code: '330000', agentId: zhejiang, ...body }, 'en');
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.msg).toMatch(text);
      expect(Object.keys((res.body.data as unknown as Record<string, string>) ?? {})).toContain(field);
    };
    await bad({ deviceSn: sn(1), batchNo: fleet.batchNo }, 'batchNo', /either a device SN or a batch number/);
    await bad({}, 'deviceSn', /either a device SN or a batch number/);
    await bad({ deviceSn: sn(1), agentId: guangdong }, 'agentId', /The agent 广东代理 does not hold the region 浙江省/);
    await bad({ deviceSn: sn(4) }, 'deviceSn', new RegExp(sn(4)));
    await bad({ batchNo: other.batchNo }, 'batchNo', new RegExp(`${other.batchNo} holds none of your locks`));
    await bad({ deviceSn: sn(1), code: '330100' }, 'code', /region tree/);
    expect([await count('ymy_area_dispatch'), await count('ymy_device_area'), await count('ymy_device_area_modify')]).toEqual(before);
  });

  it('removed takes the device areas it still holds with it, after saying so', async () => {
    const impact = await h.call<{ uses: Array<{ resource: string; count: number }> }>('GET', `${DISPATCH}/remove-impact`, { token: demo, query: { ids: batchDispatch } });
    expect(impact.status).toBe(200);
    // sn(0) was dispatched again since
    expect(impact.body.data.uses).toEqual([expect.objectContaining({ resource: '设备区域', count: 3 })]);
    expect((await h.call('POST', `${DISPATCH}/remove`, { token: demo, query: { ids: batchDispatch } })).status).toBe(200);
    expect((await list(demo, AREA)).records.map((a) => a.deviceSn)).toEqual([sn(0)]);
  });

  it('is the tenant\'s own and refused to a role without the screen', async () => {
    expect((await list(platform, DISPATCH)).records).toEqual([]);
    expect((await h.call('GET', `${DISPATCH}/list`, { token: viewer })).status).toBe(403);
    expect((await post(viewer, `${DISPATCH}/update`, { code: '330000', agentId: zhejiang, deviceSn: sn(1) })).status).toBe(403);
    // the platform cannot name the demo tenant's agent
    expect((await post(platform, `${DISPATCH}/update`, { code: '330000', agentId: zhejiang, deviceSn: sn(1) })).status).toBe(400);
  });
});

describe('a dispatch approval', () => {
  let request: string;

  it('waits for someone other than its requester, then dispatches', async () => {
    const res = await post(demo, `${DISPATCH_OA}/update`, { code: '330000', agentId: zhejiang, batchNo: fleet.batchNo });
    expect(res.status, res.body.msg).toBe(200);
    request = res.body.data.id;
    expect(res.body.data).toMatchObject({ status: 0, quantity: 4 });
    expect(await areaOf(sn(1))).toBeUndefined();

    const own = await post(demo, `${DISPATCH_OA}/process`, { id: request, status: 1 }, 'en');
    expect(own.status).toBe(403);
    expect(own.body.msg).toBe('You cannot decide a request you made yourself');
    // another tenant does not see it
    expect((await post(platform, `${DISPATCH_OA}/process`, { id: request, status: 1 })).status).toBe(404);
    expect((await post(approver, `${DISPATCH_OA}/process`, { id: request, status: 3 })).status).toBe(400);

    // two approvals at once: one decides it
    const [a, b] = await Promise.all([
      post(approver, `${DISPATCH_OA}/process`, { id: request, status: 1, comment: '同意' }),
      post(approver, `${DISPATCH_OA}/process`, { id: request, status: 1, comment: '同意' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
    const decided = (await h.call<Row>('GET', `${DISPATCH_OA}/detail`, { token: demo, query: { id: request } })).body.data;
    expect(decided).toMatchObject({ status: 1, approverName: 'approver', comment: '同意' });
    expect(decided.dispatchId).toBeTruthy();
    expect((await list(demo, AREA, { agentId: zhejiang })).total).toBe(4);
    expect((await list(demo, DISPATCH)).records.filter((r) => r.id === decided.dispatchId)).toHaveLength(1);
  });

  it('decided, is no longer changed, removed nor decided again', async () => {
    const en = 'This request is already decided and can no longer be changed';
    expect((await post(demo, `${DISPATCH_OA}/update`, { id: request, code: '310000' }, 'en')).body.msg).toBe(en);
    expect((await h.call('POST', `${DISPATCH_OA}/remove`, { token: demo, query: { ids: request }, lang: 'en' })).body.msg).toBe(en);
    expect((await post(approver, `${DISPATCH_OA}/process`, { id: request, status: 2 }, 'en')).body.msg).toBe(en);
  });

  it('rejected, dispatches nothing', async () => {
    const res = await post(demo, `${DISPATCH_OA}/update`, { code: '440000,440300', agentId: guangdong, deviceSn: sn(1) });
    expect((await post(approver, `${DISPATCH_OA}/process`, { id: res.body.data.id, status: 2, comment: '区域不符' })).status).toBe(200);
    expect(await areaOf(sn(1))).toMatchObject({ agentId: zhejiang });
    expect((await list(demo, DISPATCH_OA, { status_equal: '2' })).records.map((r) => r.id)).toEqual([res.body.data.id]);
  });

  it('is imported all or nothing (import-file), with a report naming the bad row', async () => {
    const before = await count('ymy_area_dispatch_oa');
    const bad = await importCsv(demo, `${DISPATCH_OA}/import-file`,
      `区域编号,代理,设备 SN\n330000,${zhejiang},${sn(2)}\n330000,${guangdong},${sn(3)}\n330000,${zhejiang},NOSUCHLOCK\n`);
    expect(bad).toMatchObject({ status: 'failed' });
    expect(bad.errors.map((e) => e.row)).toEqual([3, 4]);
    expect(bad.errors[0]!.message).toMatch(/广东代理/);
    expect(bad.errors[1]!.message).toMatch(/NOSUCHLOCK/);
    expect(await count('ymy_area_dispatch_oa')).toBe(before);
    const good = await importCsv(demo, `${DISPATCH_OA}/import`, `区域编号,代理,设备 SN\n330000,${zhejiang},${sn(2)}\n330000,${zhejiang},${sn(3)}\n`);
    expect(good).toMatchObject({ status: 'done', succeeded: 2 });
    expect((await list(demo, DISPATCH_OA, { status_equal: '0' })).total).toBe(2);
  });

  it('is refused to a role without the screen', async () => {
    expect((await h.call('GET', `${DISPATCH_OA}/list`, { token: viewer })).status).toBe(403);
    expect((await post(viewer, `${DISPATCH_OA}/process`, { id: request, status: 1 })).status).toBe(403);
  });
});

describe('a region change approval', () => {
  it('changes the area once approved by someone else, and logs it with the reason', async () => {
    const res = await post(demo, `${AREA_OA}/update`, { deviceSn: sn(1), code: '330000,330200', agentId: zhejiang, reason: '代理迁址' });
    expect(res.status, res.body.msg).toBe(200);
    const again = await post(demo, `${AREA_OA}/update`, { deviceSn: sn(1), code: '330000', reason: '重复' }, 'en');
    expect(again.status).toBe(409);
    expect(again.body.msg).toMatch(new RegExp(sn(1)));
    // the approval list filters by code_equal and status_equal, under both prefixes
    expect((await list(demo, '/api/ymy-device/area-oa', { code_equal: '330000,330200', status_equal: '0' })).records.map((r) => r.id)).toEqual([res.body.data.id]);
    expect((await list(demo, AREA_OA, { status_equal: '1' })).records).toEqual([]);

    expect((await post(demo, `${AREA_OA}/process`, { id: res.body.data.id, status: 1 })).status).toBe(403);
    expect((await post(approver, `${AREA_OA}/process`, { id: res.body.data.id, status: 1, comment: '核实无误' })).status).toBe(200);
    expect(await areaOf(sn(1))).toMatchObject({ code: '330000,330200', codeName: '浙江省 / 宁波市', source: 'manual' });
    const log = (await list(demo, MODIFY, { deviceSn: sn(1) })).records[0];
    expect(log).toMatchObject({ oldCode: '330000', newCode: '330000,330200', reason: '代理迁址', operator: 'approver' });
  });

  it('refuses a region off the tree and a lock the tenant does not own', async () => {
    expect((await post(demo, `${AREA_OA}/update`, { deviceSn: sn(2), code: '330000,440300', reason: 'x' })).status).toBe(400);
    expect((await post(demo, `${AREA_OA}/update`, { deviceSn: sn(4), code: '330000', reason: 'x' })).status).toBe(400);
    expect((await post(demo, `${AREA_OA}/update`, { deviceSn: sn(2), code: '330000' })).status).toBe(400);
  });
});

describe('the modify log', () => {
  it('keeps what was recorded: only the reason is edited', async () => {
    const log = (await list(demo, MODIFY, { deviceSn: sn(1) })).records[0]!;
    const res = await post(demo, `${MODIFY}/update`, { id: log.id, reason: '代理迁址 (补充说明)' });
    expect(res.status, res.body.msg).toBe(200);
    expect((await post(demo, `${MODIFY}/update`, { id: log.id, newCode: '310000' })).status).toBe(400);
    expect((await list(demo, MODIFY, { deviceSn: sn(1) })).records[0]).toMatchObject({ reason: '代理迁址 (补充说明)', newCode: '330000,330200' });
  });

  it('takes old history from a sheet, all or nothing', async () => {
    const before = await count('ymy_device_area_modify');
    const bad = await importCsv(demo, `${MODIFY}/import`, `设备 SN,原区域编号,新区域编号,操作人,变更原因\n${sn(3)},310000,330000,老系统,迁移\n${sn(3)},310000,999999,老系统,迁移\n`);
    expect(bad.errors.map((e) => e.row)).toEqual([3]);
    expect(await count('ymy_device_area_modify')).toBe(before);
    const good = await importCsv(demo, `${MODIFY}/import`, `设备 SN,原区域编号,新区域编号,操作人,变更原因\n${sn(3)},310000,330000,老系统,迁移\n`);
    expect(good).toMatchObject({ status: 'done', succeeded: 1 });
    expect((await list(demo, MODIFY, { operator: '老系统' })).records[0]).toMatchObject({ oldName: '上海市', newName: '浙江省' });
  });

  it('is the tenant\'s own, filtered by date, and refused to a role without the screen', async () => {
    expect((await list(platform, MODIFY)).records).toEqual([]);
    expect((await list(demo, MODIFY, { createTime_datege: '2000-01-01 00:00:00', createTime_datele: '2000-12-31 23:59:59' })).records).toEqual([]);
    expect((await list(demo, MODIFY, { createTime_datege: '2000-01-01 00:00:00' })).total).toBeGreaterThan(5);
    expect((await h.call('GET', `${MODIFY}/list`, { token: viewer })).status).toBe(403);
  });
});
