import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { deliverFleet, type Fleet, makeFleet } from './device-fixture.js';
import { BASIC, useServer } from './harness.js';
import { importCsv, importFile } from './importSheet.js';

/**
 * Device areas (issue 27): the region a lock was dispatched to, a path of the region tree, and its agent; one row
 * per device of the tenant that owns the lock; the search form's region matches that region and all under it;
 * the calls answer under both of BladeX's prefixes.
 */

type Area = { id: string; deviceSn: string; code: string; codeName?: string; agentId?: string; agentIdName?: string; source: string };
const AREA = '/api/ymy-device/area';
const OMC_AREA = '/api/omc-device/area';

const h = useServer();
let demo: string;
let platform: string;
let viewer: string;
let fleet: Fleet;
let agentId: string;

const sn = (i: number) => fleet.devices[i]!.sn;
const save = (token: string, body: Record<string, unknown>, lang?: 'en') => h.call<Area>('POST', `${AREA}/update`, { token, body, lang });
const list = async (token: string, query: Record<string, string> = {}) =>
  (await h.call<{ records: Area[]; total: number }>('GET', `${AREA}/list`, { token, query: { size: '100', ...query } })).body.data;

beforeAll(async () => {
  platform = (await h.login('000000', 'admin', 'admin')).access_token;
  fleet = await makeFleet(h, platform, { count: 4, tag: 'ar' });
  await h.server.ctx.db.execute(sql`insert into ymy_product_auth (id, tenant_id, type_id) values (${String(Date.now())}::bigint, '541742', ${fleet.typeId}::bigint)`);
  // three of the four locks are delivered to the demo tenant; the fourth stays the platform's
  await deliverFleet(h, platform, fleet, '541742', 3);
  demo = (await h.login('541742', 'admin', 'admin')).access_token;
  const agent = await h.call<{ id: string }>('POST', '/api/omc-device/area-agent/submit', { token: demo, body: { agentName: '浙江代理', regionCodes: '330000' } });
  expect(agent.status, agent.body.msg).toBe(200);
  agentId = agent.body.data.id;
  await h.call('POST', '/api/blade-system/role/submit', { token: demo, body: { roleName: '访客', roleAlias: 'viewer', sort: 9 } });
  await h.createUser('541742', 'areaviewer', 'Viewer#2026', ['viewer']);
  viewer = (await h.login('541742', 'areaviewer', 'Viewer#2026')).access_token;
});

describe('a device area', () => {
  it('records a lock\'s region path and agent, and is found by any region above it', async () => {
    const hangzhou = await save(demo, { deviceSn: sn(0), code: '330000,330100,330106', agentId, dispatchTime: '2026-11-21 09:00:00' });
    expect(hangzhou.status, hangzhou.body.msg).toBe(200);
    expect(hangzhou.body.data).toMatchObject({ code: '330000,330100,330106', source: 'manual' });
    expect((await save(demo, { deviceSn: sn(1).toLowerCase(), code: '330000,330200' })).status).toBe(200);
    expect((await save(demo, { deviceSn: sn(2), code: '310000' })).status).toBe(200);

    const sns = async (query: Record<string, string>) => (await list(demo, query)).records.map((r) => r.deviceSn).sort();
    // the search form's cascader sends the chosen path; its last code names the region
    expect(await sns({ code: '330000' })).toEqual([sn(0), sn(1)].sort());
    expect(await sns({ code: '330000,330100' })).toEqual([sn(0)]);
    expect(await sns({ code: '330106' })).toEqual([sn(0)]);
    expect(await sns({ code: '310000' })).toEqual([sn(2)]);
    expect(await sns({ code: '999999' })).toEqual([]);
    expect(await sns({ agentId })).toEqual([sn(0)]);

    const detail = (await h.call<Area>('GET', `${OMC_AREA}/detail`, { token: demo, query: { id: hangzhou.body.data.id } })).body.data;
    expect(detail).toMatchObject({ deviceSn: sn(0), agentIdName: '浙江代理', codeName: '浙江省 / 杭州市 / 西湖区' });
    expect((await h.call<{ total: number }>('GET', `${OMC_AREA}/list`, { token: demo })).body.data.total).toBe(3);
  });

  it('moves a lock to another region, and keeps one row per lock', async () => {
    const [row] = (await list(demo, { code: '310000' })).records;
    const moved = await save(demo, { id: row!.id, code: '330000,330100' });
    expect(moved.status, moved.body.msg).toBe(200);
    expect(moved.body.data.code).toBe('330000,330100');
    const again = await save(demo, { deviceSn: sn(2), code: '110000' });
    expect(again.status).toBe(409);
    const renamed = await save(demo, { id: row!.id, deviceSn: sn(1) });
    expect(renamed.status).toBe(400);
  });

  it('refuses a region that is no path of the tree and a lock the tenant does not own', async () => {
    for (const code of ['330100', '330000,310100', '33', '330000,,330100x', '999999']) {
      const res = await save(demo, { deviceSn: sn(0).slice(0, -1) + 'Z', code });
      expect(res.status, code).toBe(400);
    }
    const notAPath = await save(demo, { deviceSn: 'NOSUCHSN1', code: '330000,310100' }, 'en');
    expect(notAPath.body.msg).toBe('The region is a path of the region tree from the province down, such as 330000,330100,330106');
    const foreign = await save(demo, { deviceSn: sn(3), code: '330000' });
    expect(foreign.status).toBe(400);
    expect(foreign.body.msg).toBe(`设备 ${sn(3)} 不存在或不可见`);
    expect((await list(demo)).total).toBe(3);
  });

  it('is the tenant\'s own and refused to a role without the screen', async () => {
    // the platform owns every lock but reads its own tenant's areas: none
    expect((await list(platform)).total).toBe(0);
    const id = (await list(demo)).records[0]!.id;
    expect((await h.call('GET', `${AREA}/detail`, { token: platform, query: { id } })).status).toBe(404);
    expect((await h.call('GET', `${AREA}/list`, { token: viewer })).status).toBe(403);
    expect((await save(viewer, { deviceSn: sn(0), code: '330000' })).status).toBe(403);
    expect((await h.call('GET', `${AREA}/export-area`, { token: viewer })).status).toBe(403);
  });

  it('imports a sheet all or nothing, naming the bad row; imported rows say so', async () => {
    const others = (await list(demo)).records.filter((r) => r.deviceSn !== sn(0)).map((r) => r.id);
    expect((await h.call('POST', `${AREA}/remove`, { token: demo, query: { ids: others.join(',') } })).status).toBe(200);
    const bad = await importCsv(h, demo, `${OMC_AREA}/import`, `设备 SN,区域编号\n${sn(1)},330000\n${sn(3)},330000\n${sn(2)},"330000,999999"\n`);
    expect(bad.status).toBe('failed');
    expect(bad.errors.map((e) => e.row)).toEqual([3, 4]);
    expect(bad.errors[0]!.message).toContain(sn(3));
    expect((await list(demo)).total).toBe(1);
    const good = await importCsv(h, demo, `${AREA}/import`, `设备 SN,区域编号,代理\n${sn(1)},330000,${agentId}\n${sn(2)},"310000"\n`);
    expect(good).toMatchObject({ status: 'done', succeeded: 2 });
    const imported = (await list(demo, { source: 'import' })).records;
    expect(imported.map((r) => r.deviceSn).sort()).toEqual([sn(1), sn(2)].sort());
    expect(imported.find((r) => r.deviceSn === sn(1))).toMatchObject({ code: '330000', agentIdName: '浙江代理', codeName: '浙江省' });
    // each imported lock's region is on record in the modify log, none of the refused sheet's
    const logged = await h.call<{ records: Array<{ deviceSn: string; oldCode: string | null; newCode: string; operator: string }> }>(
      'GET', '/api/omc-log/device-area-modify/list', { token: demo, query: { size: '100' } });
    const of = (s: string) => logged.body.data.records.filter((r) => r.deviceSn === s);
    expect(of(sn(1))[0]).toMatchObject({ oldCode: null, newCode: '330000' });
    expect(of(sn(2))[0]).toMatchObject({ oldCode: null, newCode: '310000' });
    expect(of(sn(3)).filter((r) => r.newCode === '330000')).toEqual([]);
  });

  it('takes back its own export: the agent named as the export writes it, only the tenant\'s own', async () => {
    const before = (await list(demo)).records.map((r) => ({ deviceSn: r.deviceSn, code: r.code, agentId: r.agentId ?? null })).sort((a, b) => a.deviceSn.localeCompare(b.deviceSn));
    expect(before.some((r) => r.agentId === agentId)).toBe(true);
    const exported = await h.server.app.inject({ method: 'GET', url: `${AREA}/export-area`, headers: { authorization: BASIC, 'blade-auth': `bearer ${demo}` } });
    expect(exported.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    const cells: string[] = [];
    book.worksheets[0]!.eachRow((row) => cells.push(...(row.values as unknown[]).map(String)));
    expect(cells).toContain('浙江代理');
    expect((await h.call('POST', `${AREA}/remove`, { token: demo, query: { ids: (await list(demo)).records.map((r) => r.id).join(',') } })).status).toBe(200);
    expect(await importFile(h, demo, `${AREA}/import`, exported.rawPayload, 'areas.xlsx')).toMatchObject({ status: 'done', succeeded: before.length });
    const after = (await list(demo)).records.map((r) => ({ deviceSn: r.deviceSn, code: r.code, agentId: r.agentId ?? null })).sort((a, b) => a.deviceSn.localeCompare(b.deviceSn));
    expect(after).toEqual(before);
    // a name no agent of the tenant has (the platform's agent of that name is not the tenant's) is reported, nothing written
    const platformAgent = await h.call('POST', '/api/omc-device/area-agent/submit', { token: platform, body: { agentName: '平台代理', regionCodes: '440000' } });
    expect(platformAgent.status, platformAgent.body.msg).toBe(200);
    await h.call('POST', `${AREA}/remove`, { token: demo, query: { ids: (await list(demo)).records.map((r) => r.id).join(',') } });
    const bad = await importCsv(h, demo, `${AREA}/import`, `设备 SN,区域编号,代理\n${sn(1)},330000,浙江代理\n${sn(2)},330000,平台代理\n`);
    expect(bad).toMatchObject({ status: 'failed' });
    expect(bad.errors).toEqual([{ row: 3, message: expect.stringContaining('平台代理') }]);
    expect((await list(demo)).total).toBe(0);
    expect(await importCsv(h, demo, `${AREA}/import`, `设备 SN,区域编号,代理\n${sn(1)},330000,浙江代理\n${sn(2)},330000,${agentId}\n`)).toMatchObject({ status: 'done', succeeded: 2 });
    expect((await list(demo)).records.map((r) => r.agentIdName)).toEqual(['浙江代理', '浙江代理']);
  });

  it('keeps the agent named by a live area: removing it is refused', async () => {
    const res = await h.call('POST', '/api/omc-device/area-agent/remove', { token: demo, query: { ids: agentId } });
    expect(res.status).toBe(409);
    expect(res.body.msg).toContain(sn(1));
  });
});
