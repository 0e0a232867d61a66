import type { Page } from '@console/contract';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { makeProduct } from './catalogue-fixture.js';
import { BASIC, md5, useServer } from './harness.js';

/**
 * The IPC back office (issue 10): factories and stations, batches whose devices get platform-unique SNs.
 * CRUD, permissions and tenant rules of each resource come from the conformance kit; here the business rules.
 */
const h = useServer();
type Row = Record<string, unknown> & { id: string };
let admin: string;
let productId: string;
let typeId: string;

const IPC = '/sc/ymy-ipc/back';
const post = (path: string, body: unknown, lang: 'zh' | 'en' = 'zh', token = admin) => h.call<Row>('POST', `${IPC}/${path}`, { token, body, lang });
const get = <T = Page<Row>>(path: string, query: Record<string, string | number> = {}, token = admin) => h.call<T>('GET', `${IPC}/${path}`, { token, query });

let seq = 0;
const factory = async () => {
  seq++;
  const res = await post('add-factory', { factoryName: `工厂${seq}`, factoryCode: `F${seq}`, contact: '王工' });
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data;
};
const addBatch = (over: Record<string, unknown>, lang: 'zh' | 'en' = 'zh') =>
  post('add-batch', { batchNo: `B${++seq}`, productId, cloudVendor: 1, quantity: 5, snPrefix: `P${seq}X`, ...over }, lang);

beforeAll(async () => {
  admin = (await h.login('000000', 'admin', 'admin')).access_token;
  ({ productId, typeId } = await makeProduct(h, admin, { typeName: '门锁', typeCode: 'LOCK', modelCode: 'K1', productName: 'K1 锁', productCode: 'K1-LOCK' }));
});

describe('factories and stations', () => {
  it('answers under /sc and /tc alike, stations listed per factory with their type', async () => {
    const f = await factory();
    const s = await post('add-station', { factoryId: f.id, stationName: '烧录一号', stationCode: `S${seq}`, stationType: 1, ip: '10.0.0.8' });
    expect(s.status, s.body.msg).toBe(200);
    for (const prefix of ['/sc', '/tc']) {
      const list = await h.call<Page<Row>>('GET', `${prefix}/ymy-ipc/back/station-list`, { token: admin, query: { factoryId: f.id } });
      expect(list.status).toBe(200);
      expect(list.body.data.records.map((r) => r.stationName)).toEqual(['烧录一号']);
      expect(list.body.data.records[0]).toMatchObject({ factoryIdName: f.factoryName, stationTypeName: '烧录' });
    }
    const remark = await h.call<boolean>('POST', '/tc/ymy-ipc/back/edit-station-remark', { token: admin, body: { id: s.body.data.id, remark: '靠窗' } });
    expect(remark.status, remark.body.msg).toBe(200);
    expect((await get<Row>('station-detail', { id: s.body.data.id })).body.data.remark).toBe('靠窗');
  });

  it('refuses a station address that is not an IP, naming the field', async () => {
    const f = await factory();
    const bad = await post('add-station', { factoryId: f.id, stationName: 'x', stationCode: `S${++seq}`, stationType: 2, ip: '10.0.0.300' }, 'en');
    expect(bad.status).toBe(400);
    expect(bad.body.data).toEqual({ ip: 'IP address is not an IPv4 or IPv6 address' });
  });

  it('refuses to remove a factory that has batches; without them its stations go with it', async () => {
    const busy = await factory();
    const b = await addBatch({ factoryId: busy.id });
    expect(b.status, b.body.msg).toBe(200);
    const refused = await h.call('POST', `${IPC}/del-factory`, { token: admin, query: { ids: busy.id }, lang: 'en' });
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toContain(String(b.body.data.batchNo));
    expect((await get<Row>('factory-detail', { id: busy.id })).status).toBe(200);

    const idle = await factory();
    await post('add-station', { factoryId: idle.id, stationName: '包装', stationCode: `S${++seq}`, stationType: 3 });
    expect((await h.call('POST', `${IPC}/del-factory`, { token: admin, query: { ids: idle.id } })).status).toBe(200);
    expect((await get('station-list', { factoryId: idle.id })).body.data.records).toEqual([]);
  });
});

describe('batches', () => {
  it('creates the devices of a batch with consecutive SNs, unique across batches of one prefix', async () => {
    const f = await factory();
    const first = await addBatch({ factoryId: f.id, quantity: 3, snPrefix: 'YMA' });
    expect(first.status, first.body.msg).toBe(200);
    expect(first.body.data).toMatchObject({ snStart: 'YMA00000001', snEnd: 'YMA00000003', stateName: '已创建' });
    const second = await addBatch({ factoryId: f.id, quantity: 2, snPrefix: 'YMA' });
    expect(second.body.data).toMatchObject({ snStart: 'YMA00000004', snEnd: 'YMA00000005' });
    const devices = await get('get-device-list-by-batch', { batchId: second.body.data.id });
    expect(devices.body.data.records.map((d) => d.sn)).toEqual(['YMA00000004', 'YMA00000005']);
    expect(devices.body.data.records[0]).toMatchObject({ batchIdName: second.body.data.batchNo, productIdName: 'K1 锁' });
    const byPrefix = await get('get-device-list', { sn_likeright: 'YMA0000000', size: 10 });
    expect(byPrefix.body.data.total).toBe(5);
  });

  it('refuses a batch whose SNs would meet an existing SN (one rewritten by hand), and writes nothing', async () => {
    const f = await factory();
    await h.server.ctx.db.execute(sql`insert into ymy_factory_device (id, sn, batch_id, product_id) values (1, 'QQ00000002', 1, ${productId}::bigint)`);
    const taken = await addBatch({ factoryId: f.id, quantity: 3, snPrefix: 'QQ' }, 'en');
    expect(taken.status).toBe(400);
    expect(taken.body.data).toEqual({ snPrefix: 'The SN QQ00000002 exists already; choose another SN prefix' });
    expect((await get('get-device-list', { sn_likeright: 'QQ', size: 50 })).body.data.total).toBe(1);
    expect((await get('batch-list', { snPrefix: 'QQ' })).body.data.total).toBe(0);
    // nothing was taken from the prefix either: once the stray SN is gone, the batch starts at serial 1
    await h.server.ctx.db.execute(sql`delete from ymy_factory_device where id = 1`);
    const ok = await addBatch({ factoryId: f.id, quantity: 3, snPrefix: 'QQ' });
    expect(ok.body.data).toMatchObject({ snStart: 'QQ00000001', snEnd: 'QQ00000003' });
    const lower = await addBatch({ factoryId: f.id, quantity: 1, snPrefix: 'qq' });
    expect(lower.body.data).toMatchObject({ snPrefix: 'QQ', snStart: 'QQ00000004' });
    const bad = await addBatch({ factoryId: f.id, quantity: 1, snPrefix: 'Q-1' }, 'en');
    expect(bad.status).toBe(400);
    expect(bad.body.data).toEqual({ snPrefix: 'The SN prefix must be 1–16 letters or digits' });
  });

  it('refuses a quantity beyond the prefix\'s serials and bad input, naming the field', async () => {
    const f = await factory();
    const zero = await addBatch({ factoryId: f.id, quantity: 0 }, 'en');
    expect(zero.status).toBe(400);
    expect(Object.keys(zero.body.data as object)).toEqual(['quantity']);
    const noFactory = await addBatch({ factoryId: '123' }, 'en');
    expect(noFactory.status).toBe(400);
    expect(Object.keys(noFactory.body.data as object)).toContain('factoryId');
  });

  it('keeps production notes with their author and time', async () => {
    const f = await factory();
    const b = await addBatch({ factoryId: f.id });
    for (const log of ['首件检验通过', '贴标完成']) {
      const res = await h.call<boolean>('POST', `${IPC}/edit-batch-log`, { token: admin, body: { id: b.body.data.id, log } });
      expect(res.status, res.body.msg).toBe(200);
    }
    expect((await get<Row>('batch-detail', { id: b.body.data.id })).body.data.log).toBe('贴标完成');
    const history = await get<Row[]>('batch-log-history', { id: b.body.data.id });
    expect(history.body.data.map((r) => r.log)).toEqual(['贴标完成', '首件检验通过']);
    expect(history.body.data[0]).toMatchObject({ createUserName: expect.any(String), createTime: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/) });
    const blank = await h.call('POST', `${IPC}/edit-batch-log`, { token: admin, body: { id: b.body.data.id, log: '  ' } });
    expect(blank.status).toBe(400);
  });

  it('removes a batch with its devices until one is burned', async () => {
    const f = await factory();
    const gone = await addBatch({ factoryId: f.id, quantity: 4 });
    expect((await h.call('POST', `${IPC}/del-batch`, { token: admin, query: { ids: gone.body.data.id } })).status).toBe(200);
    expect((await get('get-device-list-by-batch', { batchId: gone.body.data.id })).body.data.total).toBe(0);

    const kept = await addBatch({ factoryId: f.id, quantity: 2 });
    await h.server.ctx.db.execute(sql`update ymy_factory_device set burn_time = now() where sn = ${String(kept.body.data.snStart)}`);
    const refused = await h.call('POST', `${IPC}/del-batch`, { token: admin, query: { ids: kept.body.data.id }, lang: 'en' });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toContain(String(kept.body.data.snStart));
    expect((await get('get-device-list-by-batch', { batchId: kept.body.data.id })).body.data.total).toBe(2);
  });

  it('lists and exports a batch\'s devices with the attribute columns of its product type', async () => {
    const f = await factory();
    for (const [columnKey, label, labelEn, sort] of [['imei', 'IMEI 号', 'IMEI', 1], ['lens', '镜头', 'Lens', 2]] as const) {
      const c = await h.call('POST', '/api/ymy-product/device-column/submit', { token: admin, body: { typeId, columnKey, label, labelEn, valueType: 'text', sort } });
      expect(c.status, c.body.msg).toBe(200);
    }
    const dup = await h.call('POST', '/api/ymy-product/device-column/submit', { token: admin, body: { typeId, columnKey: 'imei', label: 'x', valueType: 'text' }, lang: 'en' });
    expect(dup.status).toBe(409);
    expect(dup.body.data).toEqual({ columnKey: 'Key "imei" already exists' });
    const badKey = await h.call('POST', '/api/ymy-product/device-column/submit', { token: admin, body: { typeId, columnKey: '1-x', label: 'x', valueType: 'text' } });
    expect(badKey.status).toBe(400);
    expect(Object.keys(badKey.body.data as object)).toEqual(['columnKey']);

    const b = await addBatch({ factoryId: f.id, quantity: 3, snPrefix: 'DYN' });
    await h.server.ctx.db.execute(sql`update ymy_factory_device set attributes = '{"imei":"860000000000001","lens":"2.8mm"}'::jsonb where sn = 'DYN00000001'`);
    const columns = await get<Array<{ key: string; label: string }>>('get-dynamic-columns', { batchId: b.body.data.id });
    expect(columns.body.data).toEqual([{ key: 'imei', label: 'IMEI 号', type: 'text' }, { key: 'lens', label: '镜头', type: 'text' }]);
    const en = await h.call<Array<{ label: string }>>('GET', `${IPC}/get-dynamic-columns`, { token: admin, query: { batchId: b.body.data.id }, lang: 'en' });
    expect(en.body.data.map((c) => c.label)).toEqual(['IMEI', 'Lens']);
    const devices = await get('get-device-list', { batchId: b.body.data.id });
    expect(devices.body.data.records[0]!.attributes).toEqual({ imei: '860000000000001', lens: '2.8mm' });

    const file = await h.server.app.inject({ method: 'GET', url: `${IPC}/export-device-list`, query: { batchId: b.body.data.id }, headers: { authorization: BASIC, 'blade-auth': `bearer ${admin}` } });
    expect(file.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    book.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]!.slice(0, 1)).toEqual(['SN']);
    expect(rows[0]!.slice(-2)).toEqual(['IMEI 号', '镜头']);
    expect(rows.slice(1).map((r) => r[0])).toEqual(['DYN00000001', 'DYN00000002', 'DYN00000003']);
    expect(rows[1]!.slice(-2)).toEqual(['860000000000001', '2.8mm']);
  });

  it('exports past one chunk of rows with each device\'s own batch named, in the list\'s order', async () => {
    const f = await factory();
    const first = await addBatch({ factoryId: f.id, quantity: 3000, snPrefix: 'XPA' });
    const second = await addBatch({ factoryId: f.id, quantity: 3000, snPrefix: 'XPB' });
    const file = await h.server.app.inject({
      method: 'GET', url: `${IPC}/export-device-list`, query: { sn_likeright: 'XP', ascs: 'sn' }, headers: { authorization: BASIC, 'blade-auth': `bearer ${admin}` },
    });
    expect(file.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    book.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    const header = rows[0]!;
    const batchColumn = header.indexOf('批次');
    expect(batchColumn).toBeGreaterThan(0);
    expect(rows).toHaveLength(6001);
    const sns = rows.slice(1).map((r) => String(r[0]));
    expect(sns).toEqual([...sns].sort());
    expect(new Set(sns).size).toBe(6000);
    expect(sns[0]).toBe('XPA00000001');
    expect(sns[5999]).toBe('XPB00003000');
    const wrong = rows.slice(1).filter((r) => r[batchColumn] !== (String(r[0]).startsWith('XPA') ? first.body.data.batchNo : second.body.data.batchNo));
    expect(wrong).toEqual([]);
  });

  it('is the platform\'s: a tenant without the screens is refused', async () => {
    const tenant = (await h.login('541742', 'admin', 'admin')).access_token;
    expect((await get('batch-list', {}, tenant)).status).toBe(403);
    expect((await h.call('POST', `${IPC}/add-factory`, { token: tenant, body: { factoryName: 'T', factoryCode: 'T1' } })).status).toBe(403);
  });
});

describe('CIT items and records', () => {
  const CIT_DICT = '/api/omc-device/cit-dict';
  const CIT = '/api/omc-device/cit';
  const item = async (body: Record<string, unknown>) => {
    const res = await h.call<Row>('POST', `${CIT_DICT}/submit`, { token: admin, body });
    expect(res.status, res.body.msg).toBe(200);
    return res.body.data;
  };

  it('judges a station\'s results against the items\' standards, and updates the device and the station', async () => {
    const group = await item({ code: 'POWER', name: '电源' });
    await item({ parentId: group.id, code: 'BAT_VOLT', name: '电池电压', standard: '3.0~3.6' });
    await item({ parentId: group.id, code: 'BLE', name: '蓝牙', standard: 'PASS' });
    const f = await factory();
    const s = await post('add-station', { factoryId: f.id, stationName: '测试一号', stationCode: 'CIT-S1', stationType: 2 });
    const b = await addBatch({ factoryId: f.id, quantity: 2, snPrefix: 'CIT' });

    const good = await h.call<{ result: number; failedItems: string[] }>('POST', `${CIT}/post-cit`, { token: admin, body: { deviceSn: 'cit00000001', stationCode: 'CIT-S1', items: { BAT_VOLT: 3.3, BLE: 'pass' } } });
    expect(good.status, good.body.msg).toBe(200);
    expect(good.body.data).toMatchObject({ result: 1, failedItems: [] });
    const bad = await h.call<{ result: number; failedItems: string[] }>('POST', `${CIT}/post-cit`, { token: admin, body: { deviceSn: 'CIT00000002', stationCode: 'CIT-S1', items: { BAT_VOLT: '2.9', BLE: 'PASS' } } });
    expect(bad.body.data).toMatchObject({ result: 2, failedItems: ['BAT_VOLT'] });

    const records = await h.call<Page<Row>>('GET', `${CIT}/list`, { token: admin, query: { batchId: b.body.data.id, ascs: 'deviceSn' } });
    expect(records.body.data.records.map((r) => [r.deviceSn, r.resultName, r.stationIdName])).toEqual([['CIT00000001', '通过', '测试一号'], ['CIT00000002', '不通过', '测试一号']]);
    expect(records.body.data.records[1]!.items).toEqual({ BAT_VOLT: { value: '2.9', pass: false, standard: '3.0~3.6' }, BLE: { value: 'PASS', pass: true, standard: 'PASS' } });
    const withItem = await h.call<Page<Row>>('GET', `${CIT}/list`, { token: admin, query: { itemCode: 'BLE', batchId: b.body.data.id } });
    expect(withItem.body.data.total).toBe(2);
    const devices = await get('get-device-list-by-batch', { batchId: b.body.data.id });
    expect(devices.body.data.records.map((d) => d.testResultName)).toEqual(['通过', '不通过']);
    expect((await get<Row>('station-detail', { id: s.body.data.id })).body.data.lastSeenTime).toMatch(/^\d{4}-/);
  });

  it('refuses results of an unknown device, station or item, naming the field', async () => {
    const res = (body: Record<string, unknown>) => h.call('POST', `${CIT}/post-cit`, { token: admin, body, lang: 'en' });
    expect((await res({ deviceSn: 'NOPE0001', stationCode: 'CIT-S1', items: { BLE: 'PASS' } })).body.data).toEqual({ deviceSn: 'No device has the SN NOPE0001' });
    expect((await res({ deviceSn: 'CIT00000001', stationCode: 'NOPE', items: { BLE: 'PASS' } })).body.data).toEqual({ stationCode: 'No station NOPE' });
    expect((await res({ deviceSn: 'CIT00000001', stationCode: 'CIT-S1', items: { POWER: '1', XYZ: '1' } })).body.data).toEqual({ items: 'No such CIT items (or they are groups): POWER, XYZ' });
    expect((await res({ deviceSn: 'CIT00000001', stationCode: 'CIT-S1', items: {} })).status).toBe(400);
    const range = await h.call('POST', `${CIT_DICT}/submit`, { token: admin, body: { code: 'BAD_RANGE', name: 'x', standard: '5~1' }, lang: 'en' });
    expect(range.status).toBe(400);
    expect(Object.keys(range.body.data as object)).toEqual(['standard']);
  });

  it('copies an item subtree beside it, with codes of its own', async () => {
    const group = await item({ code: 'RADIO', name: '射频' });
    const child = await item({ parentId: group.id, code: 'WIFI_RSSI', name: 'WiFi 信号', standard: '-70~0' });
    await item({ parentId: child.id, code: 'WIFI_RSSI_5G', name: '5G', standard: '-75~0' });
    const copy = await h.call<{ id: string; copied: number }>('POST', `${CIT_DICT}/copy-dict`, { token: admin, query: { id: group.id } });
    expect(copy.status, copy.body.msg).toBe(200);
    expect(copy.body.data.copied).toBe(3);
    const lazy = await h.call<Row[]>('GET', `${CIT_DICT}/lazy-list`, { token: admin, query: { parentId: copy.body.data.id } });
    expect(lazy.body.data.map((r) => [r.code, r.name, r.standard])).toEqual([['WIFI_RSSI_COPY', 'WiFi 信号', '-70~0']]);
    const deeper = await h.call<Row[]>('GET', `${CIT_DICT}/lazy-list`, { token: admin, query: { parentId: String(lazy.body.data[0]!.id) } });
    expect(deeper.body.data.map((r) => r.code)).toEqual(['WIFI_RSSI_5G_COPY']);
    const again = await h.call<{ copied: number }>('POST', `${CIT_DICT}/copy-dict`, { token: admin, query: { id: group.id } });
    const codes = await h.call<Page<Row>>('GET', `${CIT_DICT}/parent-list`, { token: admin, query: { code: 'RADIO_COPY' } });
    expect(codes.body.data.records.map((r) => r.code).sort()).toEqual(['RADIO_COPY', 'RADIO_COPY2']);
    expect(again.body.data.copied).toBe(3);
  });
});

describe('SN rewrite', () => {
  const REWRITE = '/api/omc-device/rewrite-sn';

  it('moves a device and its certificate to the new SN, and keeps who did it and why', async () => {
    const f = await factory();
    await addBatch({ factoryId: f.id, quantity: 2, snPrefix: 'RWA' });
    await h.server.ctx.db.execute(sql`insert into ymy_cert (id, cloud_vendor, cloud_product_id, device_name, device_secret, state, device_sn) values (77, 1, 'P', 'RWA00000001', 'v1:x', 2, 'RWA00000001')`);
    const res = await h.call<Row>('POST', `${REWRITE}/submit`, { token: admin, body: { oldSn: 'RWA00000001', newSn: 'rwb00000001', reason: '标签印错' } });
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.data).toMatchObject({ oldSn: 'RWA00000001', newSn: 'RWB00000001', reason: '标签印错', createUser: expect.any(String) });
    expect((await get('get-device-list', { sn: 'RWB00000001' })).body.data.total).toBe(1);
    expect((await get('get-device-list', { sn: 'RWA00000001' })).body.data.total).toBe(0);
    const certSn = await h.server.ctx.db.execute(sql`select device_sn from ymy_cert where id = 77`);
    expect((certSn as unknown as { rows: Array<{ device_sn: string }> }).rows[0]!.device_sn).toBe('RWB00000001');
  });

  it('refuses a new SN that exists, an unknown old SN or a malformed one, and changes nothing', async () => {
    const submit = (body: Record<string, unknown>) => h.call('POST', `${REWRITE}/submit`, { token: admin, body, lang: 'en' });
    const taken = await submit({ oldSn: 'RWB00000001', newSn: 'RWA00000002', reason: 'x' });
    expect(taken.status).toBe(409);
    expect(taken.body.data).toEqual({ newSn: 'New SN "RWA00000002" already exists' });
    expect((await submit({ oldSn: 'NOSUCH01', newSn: 'RWC00000001', reason: 'x' })).body.data).toEqual({ oldSn: 'No device has the SN NOSUCH01' });
    expect((await submit({ oldSn: 'RWB00000001', newSn: 'RW-1', reason: 'x' })).body.data).toEqual({ newSn: 'An SN is 4–32 letters or digits' });
    expect((await submit({ oldSn: 'RWB00000001', newSn: 'RWB00000001', reason: 'x' })).body.data).toEqual({ newSn: 'The new SN is the old one' });
    expect((await get('get-device-list', { sn: 'RWB00000001' })).body.data.total).toBe(1);
    const edit = await h.call('POST', `${REWRITE}/submit`, { token: admin, body: { id: '1', reason: 'y' }, lang: 'en' });
    expect(edit.status).toBe(400);
    expect(edit.body.msg).toBe('This record cannot be changed once written');
  });
});

describe('station operators and the factory tool\'s catalogue', () => {
  const USERS = '/sc/ymy-ipc/users';

  it('creates an operator of a factory\'s stations, who signs in, reads batches and posts results, and nothing else', async () => {
    const f = await factory();
    const s1 = await post('add-station', { factoryId: f.id, stationName: '烧录', stationCode: `OP-S${++seq}`, stationType: 1 });
    const other = await factory();
    const foreign = await post('add-station', { factoryId: other.id, stationName: '别家', stationCode: `OP-S${++seq}`, stationType: 1 });
    const body = { factoryId: f.id, account: `op${seq}`, password: md5('Op-pass-1'), realName: '李工', stationIds: [s1.body.data.id] };
    const created = await h.call<{ id: string }>('POST', `${USERS}/submit`, { token: admin, body });
    expect(created.status, created.body.msg).toBe(200);
    const dup = await h.call('POST', `${USERS}/submit`, { token: admin, body, lang: 'en' });
    expect(dup.status).toBe(409);
    expect(dup.body.data).toEqual({ account: `Account "op${seq}" already exists` });
    const wrongStation = await h.call('POST', `/tc/ymy-ipc/users/submit`, { token: admin, body: { ...body, account: `op${seq}b`, stationIds: [foreign.body.data.id] } });
    expect(wrongStation.status).toBe(400);
    expect(Object.keys(wrongStation.body.data as object)).toEqual(['stationIds']);
    const noPassword = await h.call('POST', `${USERS}/submit`, { token: admin, body: { ...body, account: `op${seq}c`, password: undefined } });
    expect(Object.keys(noPassword.body.data as object)).toEqual(['password']);

    const listed = await h.call<Array<Record<string, unknown>>>('GET', `${USERS}/list`, { token: admin, query: { factoryId: f.id } });
    expect(listed.body.data).toEqual([{ id: created.body.data.id, account: `op${seq}`, realName: '李工', stationIds: s1.body.data.id, stationNames: '烧录' }]);

    const operator = (await h.login('000000', `op${seq}`, 'Op-pass-1')).access_token;
    expect((await get('batch-list', {}, operator)).status).toBe(200);
    expect((await get('pt-type', {}, operator)).status).toBe(200);
    expect((await h.call('POST', `${IPC}/add-factory`, { token: operator, body: { factoryName: 'x', factoryCode: 'x' } })).status).toBe(403);
    expect((await h.call('GET', '/api/blade-system/user/list', { token: operator })).status).toBe(403);
  });

  it('lists the catalogue a batch is made of', async () => {
    const types = await get<Array<{ id: string; code: string }>>('pt-type');
    expect(types.body.data.map((t) => t.code)).toContain('LOCK');
    const models = await get<Array<{ code: string; typeId: string }>>('pt-model', { typeId });
    expect(models.body.data.map((m) => m.code)).toEqual(['K1']);
    const products = await get<Array<{ code: string; cloudVendor: number }>>('product', { typeId });
    expect(products.body.data).toEqual([expect.objectContaining({ id: productId, code: 'K1-LOCK', cloudVendor: 1 })]);
    expect((await get('project')).status).toBe(200);
    expect((await get('pt-model', { typeId: 'x' })).status).toBe(400);
  });
});
