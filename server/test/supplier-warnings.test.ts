import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { BASIC, useServer } from './harness.js';
import { importCsv } from './importSheet.js';

/**
 * Cross-region warnings (issue 27), the list an operator works through: both regions by name, newest first, handled
 * once with a remark, filtered by state; a tenant's own; refused to a role without the screen.
 */

type Warn = { id: string; deviceSn: string; dispatchedName: string; activatedName: string; handled: number; handleRemark?: string };
const WARN = '/api/omc-log/device-area-warn';

const h = useServer();
let demo: string;
let platform: string;
let viewer: string;
let first: string;

async function warning(tenant: string, sn: string, dispatched: string, activated: string, at: string): Promise<string> {
  const id = String(BigInt(Date.now()) * 1000n + BigInt(Math.floor(Math.random() * 1000)));
  await h.server.ctx.db.execute(sql`insert into ymy_device_area_warn (id, tenant_id, device_sn, dispatched_code, activated_code, location, activation_time)
    values (${id}::bigint, ${tenant}, ${sn}, ${dispatched}, ${activated}, '广东省深圳市南山区', ${at}::timestamptz)`);
  return id;
}

beforeAll(async () => {
  demo = (await h.login('541742', 'admin', 'admin')).access_token;
  platform = (await h.login('000000', 'admin', 'admin')).access_token;
  first = await warning('541742', 'WARN00000001', '330000,330100', '440000,440300', '2026-11-20 10:00:00+08');
  await warning('541742', 'WARN00000002', '310000', '440000', '2026-11-22 10:00:00+08');
  await warning('000000', 'WARN00000003', '310000', '110000', '2026-11-21 10:00:00+08');
  await h.call('POST', '/api/blade-system/role/submit', { token: demo, body: { roleName: '访客', roleAlias: 'viewer', sort: 9 } });
  await h.createUser('541742', 'warnviewer', 'Viewer#2026', ['viewer']);
  viewer = (await h.login('541742', 'warnviewer', 'Viewer#2026')).access_token;
});

const list = async (token: string, query: Record<string, string> = {}) =>
  (await h.call<{ records: Warn[]; total: number }>('GET', `${WARN}/list`, { token, query })).body.data;

describe('the region warnings', () => {
  it('list the tenant\'s own, newest first, with both regions by name', async () => {
    const { records } = await list(demo);
    expect(records.map((r) => r.deviceSn)).toEqual(['WARN00000002', 'WARN00000001']);
    expect(records[1]).toMatchObject({ dispatchedName: '浙江省 / 杭州市', activatedName: '广东省 / 深圳市', handled: 0 });
    expect((await list(platform)).records.map((r) => r.deviceSn)).toEqual(['WARN00000003']);
    expect((await h.call('GET', `${WARN}/detail`, { token: platform, query: { id: first } })).status).toBe(404);
  });

  it('are found by the start of an SN as typed (any case, any characters), the tenant\'s own only', async () => {
    await warning('541742', 'WARNZ9', '310000', '440000', '2026-11-23 10:00:00+08');
    await warning('541742', 'WARN%_1', '310000', '440000', '2026-11-23 11:00:00+08');
    const sns = async (typed: string) => (await list(demo, { deviceSn_likeright: typed })).records.map((r) => r.deviceSn).sort();
    expect(await sns('warn0000000')).toEqual(['WARN00000001', 'WARN00000002']);
    expect(await sns('WARN00000001')).toEqual(['WARN00000001']);
    expect(await sns('WARNZ')).toEqual(['WARNZ9']);
    // the next SN after the prefix's range and the like wildcards are no matches of their own
    expect(await sns('WARNZ9X')).toEqual([]);
    expect(await sns('WARN%')).toEqual(['WARN%_1']);
    expect(await sns('WARN0000000%')).toEqual([]);
    expect((await list(platform, { deviceSn_likeright: 'WARN' })).records.map((r) => r.deviceSn)).toEqual(['WARN00000003']);
    await h.server.ctx.db.execute(sql`delete from ymy_device_area_warn where device_sn in ('WARNZ9', 'WARN%_1')`);
  });

  it('are handled once, with a remark, and filtered by state', async () => {
    const done = await h.call('POST', `${WARN}/handle`, { token: demo, body: { id: first, remark: '已联系代理核实' } });
    expect(done.status, done.body.msg).toBe(200);
    const again = await h.call('POST', `${WARN}/handle`, { token: demo, body: { id: first }, lang: 'en' });
    expect(again.status).toBe(400);
    expect(again.body.msg).toBe('This warning is already handled');
    expect((await list(demo, { handled: '1' })).records.map((r) => r.deviceSn)).toEqual(['WARN00000001']);
    expect((await list(demo, { handled: '0' })).records.map((r) => r.deviceSn)).toEqual(['WARN00000002']);
    const detail = (await h.call<Warn>('GET', `${WARN}/detail`, { token: demo, query: { id: first } })).body.data;
    expect(detail).toMatchObject({ handled: 1, handleRemark: '已联系代理核实' });
    // another tenant cannot handle it
    expect((await h.call('POST', `${WARN}/handle`, { token: platform, body: { id: first } })).status).toBe(404);
  });

  it('are imported all or nothing, their regions paths of the tree', async () => {
    const header = '设备 SN,派发区域编号,激活区域编号,激活位置,激活时间';
    const bad = await importCsv(h, demo, `${WARN}/import`, `${header}\nWARN00000009,330000,440000,深圳,2026-11-23 10:00:00\nWARN00000010,330000,"440000,110100",北京,2026-11-23 11:00:00\n`);
    expect(bad.status).toBe('failed');
    expect(bad.errors.map((e) => e.row)).toEqual([3]);
    expect((await list(demo)).total).toBe(2);
    const good = await importCsv(h, demo, `${WARN}/import`, `${header}\nWARN00000009,330000,"440000,440300",深圳,2026-11-23 10:00:00\n`);
    expect(good).toMatchObject({ status: 'done', succeeded: 1 });
    expect((await list(demo)).records[0]).toMatchObject({ deviceSn: 'WARN00000009', activatedName: '广东省 / 深圳市', handled: 0 });
    expect((await list(platform)).total).toBe(1);
  });

  it('are exported with both regions by name', async () => {
    const res = await h.server.app.inject({ method: 'GET', url: `${WARN}/export`, headers: { authorization: BASIC, 'blade-auth': `bearer ${demo}` } });
    expect(res.statusCode, res.body).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows: string[] = [];
    book.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1).map((v) => String(v ?? '')).join('|')));
    expect(rows[0]).toContain('派发区域');
    expect(rows.some((r) => r.includes('WARN00000001') && r.includes('浙江省 / 杭州市') && r.includes('广东省 / 深圳市'))).toBe(true);
  });

  it('are refused to a role without the screen', async () => {
    expect((await h.call('GET', `${WARN}/list`, { token: viewer })).status).toBe(403);
    expect((await h.call('POST', `${WARN}/handle`, { token: viewer, body: { id: first } })).status).toBe(403);
    expect((await h.call('GET', `${WARN}/export`, { token: viewer })).status).toBe(403);
    expect((await h.call('POST', `${WARN}/import`, { token: viewer })).status).toBe(403);
  });
});
