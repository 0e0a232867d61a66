import { crudPaths, type Page } from '@console/contract';
import {
  deviceInfoResource, faceLogResource, otaLogResource, otaProgressResource, otaTaskResource,
} from '@console/contract/areas/device/index';
import { deviceColumnResource } from '@console/contract/areas/product/index';
import {
  batchResource, certResource, citResource, factoryDeviceResource,
} from '@console/contract/areas/production/index';
import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { nextId } from '../src/core/ids.js';
import { deliverFleet, type Fleet, makeFleet, publishedFirmware } from './device-fixture.js';
import { until } from './gateway-fixture.js';
import { BASIC, useServer } from './harness.js';
import { grantCodes } from './io-resource.js';
import { multipart } from './multipart.js';

/**
 * Issue 23, item 3: a lock belongs to the tenant it was delivered to. Two tenants are authorised for the same
 * product type; one device is delivered to tenant A. Every device-facing call answers it to A and to the platform,
 * never to B; an undelivered device is no customer's; removing the delivery takes it back.
 */

type Row = Record<string, unknown> & { id: string };
const h = useServer();
const SYS = '/api/blade-system';
const DELIVER = '/api/ymy-product/deliver';
const UNLOCK = '/api/omc-device/emergency-unlock';
const CODE = '/api/omc-device/emergency-code';
const CONTROL = '/tc/omc-device/control';
const CODES = [
  'device', 'device_info', 'device_control', 'device_control_add', 'device_control_import', 'device_control_sync', 'ota_progress', 'ota_log', 'face_log',
  'emergency_unlock', 'emergency_unlock_add', 'emergency_approve', 'emergency_generate', 'production', 'cert', 'batch', 'batch_export', 'cit', 'product_type',
];

let admin: string;
let tokenA: string;
let approverA: string;
let tokenB: string;
const TENANT_A = '541742';
let tenantB: string;
let fleet: Fleet;
let other: Fleet;
let mine: string;
let spare: string;
let deliveryId: string;

const get = <T = Page<Row>>(token: string, path: string, query: Record<string, string | number> = {}) => h.call<T>('GET', path, { token, query: { size: 100, ...query } });
const sns = (page: { body: { data: Page<Row> } }, field = 'deviceSn') => page.body.data.records.map((r) => String(r[field])).sort();

async function exportedSns(token: string): Promise<string[]> {
  const res = await h.server.app.inject({
    method: 'GET', url: `/sc/ymy-ipc/back/export-device-list?batchId=${fleet.batchId}`, headers: { authorization: BASIC, 'blade-auth': `bearer ${token}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const rows: string[] = [];
  book.worksheets[0]!.eachRow((row, n) => { if (n > 1) rows.push(String(row.getCell(1).value)); });
  return rows.sort();
}

async function importControls(token: string, csv: string) {
  const { payload, contentType } = multipart([{ name: 'file', filename: 'sns.csv', type: 'text/csv', data: Buffer.from(csv) }]);
  const res = await h.server.app.inject({
    method: 'POST', url: `${CONTROL}/import`, payload, headers: { authorization: BASIC, 'blade-auth': `bearer ${token}`, 'content-type': contentType, 'accept-language': 'en' },
  });
  expect(res.statusCode, res.body).toBe(200);
  const id = (res.json() as { data: { id: string } }).data.id;
  let job: { status: string; failed: number; errors: Array<{ row: number; message: string }> } | undefined;
  await until(async () => {
    job = (await h.call<NonNullable<typeof job>>('GET', `${CONTROL}/get-upload-progress`, { token, query: { id } })).body.data;
    return job.status !== 'running';
  }, 20_000, 'import');
  return job!;
}

beforeAll(async () => {
  admin = (await h.login('000000', 'admin', 'admin')).access_token;
  fleet = await makeFleet(h, admin, { count: 3, tag: 'own', version: '1.0.0' });
  other = await makeFleet(h, admin, { count: 1, tag: 'oth' });
  [mine, spare] = [fleet.devices[0]!.sn, fleet.devices[1]!.sn];
  // tenant B: a new tenant on a package of the device screens
  const menus = (await h.server.ctx.db.execute(sql`select id from blade_menu where is_deleted = 0 and code = any(${`{${CODES.join(',')}}`}::text[])`) as unknown as { rows: Array<{ id: string }> }).rows;
  const pkg = await h.call<Row>('POST', `${SYS}/tenant-package/submit`, { token: admin, body: { packageName: '设备包', menuId: menus.map((m) => String(m.id)).join(',') } });
  expect(pkg.status, pkg.body.msg).toBe(200);
  const created = await h.call<Row>('POST', `${SYS}/tenant/submit`, { token: admin, body: { tenantName: '另一锁业', linkman: '李四', packageId: pkg.body.data.id, accountNumber: 5 } });
  expect(created.status, created.body.msg).toBe(200);
  tenantB = String(created.body.data.tenantId);
  // both tenants are authorised for the fleet's product type (the other fleet's type for neither)
  for (const tenantId of [TENANT_A, tenantB]) {
    const auth = await h.call('POST', '/api/ymy-product/auth/save-auth-pt', { token: admin, body: { tenantId, typeIds: [fleet.typeId] } });
    expect(auth.status, auth.body.msg).toBe(200);
  }
  await grantCodes(h.server, CODES, ['admin']);
  await h.createUser(TENANT_A, 'approver', 'Approver#2026', ['admin']);
  tokenA = (await h.login(TENANT_A, 'admin', 'admin')).access_token;
  approverA = (await h.login(TENANT_A, 'approver', 'Approver#2026')).access_token;
  await h.createUser(tenantB, 'clerk', 'Clerk#2026', ['admin']);
  tokenB = (await h.login(tenantB, 'clerk', 'Clerk#2026')).access_token;
  deliveryId = await deliverFleet(h, admin, fleet, TENANT_A, 1);

  // the devices' records in the field: an OTA task (the platform's) over both, face and factory-test records of each
  const firmwareId = await publishedFirmware(h, admin, fleet.productId, '2.0.0');
  const task = await h.call<Row>('POST', `${crudPaths(otaTaskResource).submit}`, { token: admin, body: { taskName: '全量升级', firmwareId, scope: 'selected', deviceSns: `${mine},${spare}`, rateLimit: 60 } });
  expect(task.status, task.body.msg).toBe(200);
  for (const sn of [mine, spare]) {
    await h.server.ctx.db.execute(sql`insert into ymy_face_log (id, device_sn, product_id, event, event_time) values (${nextId()}::bigint, ${sn}, ${fleet.productId}::bigint, 'match', now())`);
    await h.server.ctx.db.execute(sql`insert into ymy_ota_log (id, device_sn, product_id, state, report_time) values (${nextId()}::bigint, ${sn}, ${fleet.productId}::bigint, 'downloading', now())`);
    await h.server.ctx.db.execute(sql`insert into ymy_cit (id, device_sn, batch_id, result, items, test_time) values (${nextId()}::bigint, ${sn}, ${fleet.batchId}::bigint, 1, '{}'::jsonb, now())`);
  }
});

describe('a device delivered to tenant A', () => {
  it('is listed and read by A and the platform, never by B (devices, field state, lookup, export)', async () => {
    const devices = crudPaths(factoryDeviceResource).list;
    expect(sns(await get(tokenA, devices, { batchId: fleet.batchId }), 'sn')).toEqual([mine]);
    expect(sns(await get(tokenB, devices, { batchId: fleet.batchId }), 'sn')).toEqual([]);
    expect(sns(await get(admin, devices, { batchId: fleet.batchId }), 'sn')).toEqual(fleet.devices.map((d) => d.sn).sort());
    const owned = (await get(admin, devices, { batchId: fleet.batchId, sn: mine })).body.data.records[0]!;
    expect(owned.ownerTenantId).toBe(TENANT_A);

    const status = crudPaths(deviceInfoResource).list;
    expect(sns(await get(tokenA, status, { sn_likeright: 'SOWN' }), 'sn')).toEqual([mine]);
    expect(sns(await get(tokenB, status, { sn_likeright: 'SOWN' }), 'sn')).toEqual([]);

    const info = (token: string, deviceSn: string) => h.call<Row>('GET', '/tc/omc-device/device/info', { token, query: { deviceSn } });
    expect((await info(tokenA, mine)).status).toBe(200);
    expect((await info(admin, mine)).status).toBe(200);
    expect((await info(tokenB, mine)).status).toBe(404);
    // an undelivered device is no customer's
    expect((await info(tokenA, spare)).status).toBe(404);
    expect((await info(tokenB, spare)).status).toBe(404);
    expect((await info(admin, spare)).status).toBe(200);

    expect(await exportedSns(tokenA)).toEqual([mine]);
    expect(await exportedSns(tokenB)).toEqual([]);
  });

  it('is controlled by A only: B\'s command, import and emergency request naming it are refused', async () => {
    const command = (token: string, deviceSn: string) => h.call<Row>('POST', `${CONTROL}/submit`, { token, body: { deviceSn, action: 'factory_reset', reason: '售后' }, lang: 'en' });
    const ok = await command(tokenA, mine);
    expect(ok.status, ok.body.msg).toBe(200);
    const refused = await command(tokenB, mine);
    expect(refused.status, refused.body.msg).toBe(400);
    expect(refused.body.data).toHaveProperty('deviceSn');
    expect((await command(tokenA, spare)).status).toBe(400);
    const sync = await h.call<{ sent: number; offline: number }>('POST', `${CONTROL}/sync-status`, { token: tokenB, body: { ids: [ok.body.data.id] } });
    // B does not see A's command: nothing is sent
    expect(sync.body.data ?? { sent: 0 }).toMatchObject({ sent: 0 });

    const job = await importControls(tokenB, `设备 SN,管控操作,原因\n${mine},禁用,批量停用\n`);
    expect(job).toMatchObject({ status: 'failed', failed: 1 });
    expect(job.errors.map((e) => e.row)).toEqual([2]);
    expect(job.errors[0]!.message).toContain(mine);

    const ask = (token: string, deviceSn: string) => h.call<Row>('POST', `${UNLOCK}/submit`, {
      token, body: { deviceSn, applicant: '张三', phone: '13800138000', reason: '钥匙丢失', codeKind: 2, validFrom: '2026-11-28 10:00:00', codeCount: 1 }, lang: 'en',
    });
    expect((await ask(tokenB, mine)).status).toBe(400);
    expect((await ask(tokenA, spare)).status).toBe(400);
    const made = await ask(tokenA, mine);
    expect(made.status, made.body.msg).toBe(200);
  });

  it('shows its OTA progress, OTA and face logs and factory tests to A only; a task\'s counts are of the caller\'s devices', async () => {
    const progress = crudPaths(otaProgressResource).list;
    expect(sns(await get(tokenA, progress))).toEqual([mine]);
    expect(sns(await get(tokenB, progress))).toEqual([]);
    expect(sns(await get(admin, progress, { deviceSn_likeright: 'SOWN' }))).toEqual([mine, spare].sort());
    const [row] = (await get(admin, progress, { deviceSn_likeright: mine })).body.data.records;
    expect((await get(tokenB, crudPaths(otaProgressResource).detail, { id: row!.id })).status).toBe(404);
    const taskId = String(row!.taskId);
    const summary = async (token: string) => (await h.call<{ total: number }>('GET', otaTaskResource.actions.summary.path, { token, query: { id: taskId } })).body.data.total;
    expect(await summary(admin)).toBe(2);
    expect(await summary(tokenA)).toBe(1);
    expect(await summary(tokenB)).toBe(0);

    // the task row itself: never another tenant's SNs, its counts of the caller's devices (the spare one failed)
    await h.server.ctx.db.execute(sql`update ymy_ota_progress set state = 'failed' where task_id = ${taskId}::bigint and device_sn = ${spare}`);
    await h.server.ctx.db.execute(sql`update ymy_ota_task set failed = 1 where id = ${taskId}::bigint`);
    const counts = (r: Row) => ({ total: r.total, succeeded: r.succeeded, failed: r.failed });
    const taskRows = async (token: string) => {
      const list = await get(token, crudPaths(otaTaskResource).list, { taskName: '全量升级' });
      expect(list.status, list.body.msg).toBe(200);
      const detail = await get<Row>(token, crudPaths(otaTaskResource).detail, { id: taskId });
      expect(detail.status, detail.body.msg).toBe(200);
      return [list.body.data.records.find((r) => String(r.id) === taskId)!, detail.body.data];
    };
    for (const r of await taskRows(admin)) expect(counts(r)).toEqual({ total: 2, succeeded: 0, failed: 1 });
    for (const [token, total] of [[tokenA, 1], [tokenB, 0]] as const) {
      for (const r of await taskRows(token)) {
        expect(r).toBeTruthy();
        expect(counts(r)).toEqual({ total, succeeded: 0, failed: 0 });
        expect(JSON.stringify(r)).not.toContain(spare);
        if (token === tokenB) expect(JSON.stringify(r)).not.toContain(mine);
      }
    }

    for (const def of [otaLogResource, faceLogResource, citResource]) {
      expect(sns(await get(tokenA, crudPaths(def).list)), def.code).toEqual([mine]);
      expect(sns(await get(tokenB, crudPaths(def).list)), def.code).toEqual([]);
    }
  });

  it('shows its certificate to A only (get-cert-list, get-cert-detail), and only while A is authorised for its type', async () => {
    const list = crudPaths(certResource).list;
    expect(sns(await get(tokenA, list))).toEqual([mine]);
    expect(sns(await get(tokenB, list))).toEqual([]);
    const [cert] = (await get(admin, list, { deviceName: mine })).body.data.records;
    expect((await get(tokenA, crudPaths(certResource).detail, { id: cert!.id })).status).toBe(200);
    expect((await get(tokenB, crudPaths(certResource).detail, { id: cert!.id })).status).toBe(404);
    await h.call('POST', '/api/ymy-product/auth/save-auth-pt', { token: admin, body: { tenantId: TENANT_A, typeIds: [other.typeId] } });
    try {
      expect(sns(await get(tokenA, list))).toEqual([]);
      expect((await get(tokenA, crudPaths(certResource).detail, { id: cert!.id })).status).toBe(404);
    } finally {
      await h.call('POST', '/api/ymy-product/auth/save-auth-pt', { token: admin, body: { tenantId: TENANT_A, typeIds: [fleet.typeId] } });
    }
  });
});

describe('product-type authorisation (the catalogue)', () => {
  it('answers batch-log-history and device columns of authorised product types only', async () => {
    const history = (token: string, id: string) => h.call('GET', batchResource.actions.logHistory.path, { token, query: { id } });
    expect((await history(tokenA, fleet.batchId)).status).toBe(200);
    expect((await history(tokenA, other.batchId)).status).toBe(404);
    expect((await history(admin, other.batchId)).status).toBe(200);

    const column = async (typeId: string, key: string) => {
      const res = await h.call<Row>('POST', crudPaths(deviceColumnResource).submit, { token: admin, body: { typeId, columnKey: key, label: key, valueType: 'text' } });
      expect(res.status, res.body.msg).toBe(200);
      return res.body.data.id;
    };
    const seen = await column(fleet.typeId, 'colour');
    const hidden = await column(other.typeId, 'secret_colour');
    const columns = await get(tokenA, crudPaths(deviceColumnResource).list);
    expect(columns.status, columns.body.msg).toBe(200);
    const keys = columns.body.data.records.map((r) => r.columnKey);
    expect(keys).toContain('colour');
    expect(keys).not.toContain('secret_colour');
    expect((await get(tokenA, crudPaths(deviceColumnResource).detail, { id: seen })).status).toBe(200);
    expect((await get(tokenA, crudPaths(deviceColumnResource).detail, { id: hidden })).status).toBe(404);
  });
});

describe('deliveries move devices', () => {
  it('take the next undelivered devices in SN order, never one delivered to another tenant, and refuse more than are left', async () => {
    const ship = (body: Record<string, unknown>) => h.call<Row>('POST', `${DELIVER}/submit`, {
      token: admin, body: { productId: fleet.productId, batchId: fleet.batchId, deliverTime: '2026-11-21 10:00:00', ...body }, lang: 'en',
    });
    // without a batch, of the product: one of its three devices is A's
    const tooMany = await ship({ customerTenantId: tenantB, quantity: 3, batchId: undefined });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.data).toEqual({ quantity: `The product "${fleet.productName}" has 2 devices not yet delivered, 3 needed (devices delivered to another customer must be returned first)` });
    const toB = await ship({ customerTenantId: tenantB, quantity: 1 });
    expect(toB.status, toB.body.msg).toBe(200);
    const owner = async (sn: string) => ((await h.server.ctx.db.execute(sql`select owner_tenant_id as o from ymy_factory_device where sn = ${sn}`)) as unknown as { rows: Array<{ o: string }> }).rows[0]!.o;
    expect(await owner(mine)).toBe(TENANT_A);
    expect(await owner(spare)).toBe(tenantB);
    expect((await h.call('GET', '/tc/omc-device/device/info', { token: tokenB, query: { deviceSn: spare } })).status).toBe(200);
    // an edit to another customer moves its devices; a smaller quantity returns the last ones
    const third = fleet.devices[2]!.sn;
    expect((await h.call('POST', `${DELIVER}/submit`, { token: admin, body: { id: toB.body.data.id, quantity: 2 } })).status).toBe(200);
    expect(await owner(third)).toBe(tenantB);
    expect((await h.call('POST', `${DELIVER}/submit`, { token: admin, body: { id: toB.body.data.id, customerTenantId: TENANT_A, quantity: 1 } })).status).toBe(200);
    expect([await owner(spare), await owner(third)]).toEqual([TENANT_A, '000000']);
    expect((await h.call('POST', `${DELIVER}/remove`, { token: admin, query: { ids: toB.body.data.id } })).status).toBe(200);
    expect(await owner(spare)).toBe('000000');
  });

  it('a batch with delivered devices cannot be removed', async () => {
    const f = await h.call<Row>('POST', '/sc/ymy-ipc/back/add-factory', { token: admin, body: { factoryName: '交付厂', factoryCode: 'F-DLV' } });
    const b = await h.call<Row>('POST', '/sc/ymy-ipc/back/add-batch', {
      token: admin, body: { batchNo: 'B-DLV', factoryId: f.body.data.id, productId: fleet.productId, cloudVendor: 1, quantity: 2, snPrefix: 'DLV' },
    });
    expect(b.status, b.body.msg).toBe(200);
    const d = await h.call<Row>('POST', `${DELIVER}/submit`, { token: admin, body: { productId: fleet.productId, batchId: b.body.data.id, customerTenantId: TENANT_A, quantity: 1, deliverTime: '2026-11-21 10:00:00' } });
    expect(d.status, d.body.msg).toBe(200);
    const refused = await h.call('POST', '/sc/ymy-ipc/back/del-batch', { token: admin, query: { ids: b.body.data.id }, lang: 'en' });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toMatch(/^Devices of the batch "B-DLV" have been delivered \(such as DLV0+1\); it cannot be deleted$/);
  });

  it('returning a delivery (removing it) revokes the tenant\'s reach to its devices, pending emergency codes included', async () => {
    const [pending] = (await get(tokenA, `${UNLOCK}/list`, { deviceSn: mine })).body.data.records;
    expect(pending).toBeTruthy();
    expect((await h.call('POST', `${UNLOCK}/approve`, { token: approverA, query: { id: pending!.id } })).status).toBe(200);
    // a second request whose codes are issued before the return
    const asked = await h.call<Row>('POST', `${UNLOCK}/submit`, {
      token: tokenA, body: { deviceSn: mine, applicant: '王五', phone: '13800138001', reason: '钥匙丢失', codeKind: 2, validFrom: '2026-11-28 12:00:00', codeCount: 2 },
    });
    expect(asked.status, asked.body.msg).toBe(200);
    expect((await h.call('POST', `${UNLOCK}/approve`, { token: approverA, query: { id: asked.body.data.id } })).status).toBe(200);
    const issued = await h.call<unknown[]>('POST', `${CODE}/generate`, { token: tokenA, body: { id: asked.body.data.id } });
    expect(issued.status, issued.body.msg).toBe(200);
    expect(sns(await get(tokenA, `${CODE}/list`))).toEqual([mine, mine]);
    const waiting = await h.call<Row>('POST', `${UNLOCK}/submit`, {
      token: tokenA, body: { deviceSn: mine, applicant: '赵六', phone: '13800138002', reason: '钥匙丢失', codeKind: 2, validFrom: '2026-11-28 14:00:00', codeCount: 1 },
    });
    expect(waiting.status, waiting.body.msg).toBe(200);
    expect((await h.call('POST', `${DELIVER}/remove`, { token: admin, query: { ids: deliveryId } })).status).toBe(200);

    // the lock is no longer A's: neither its issued codes nor its requests are answered to A
    expect(sns(await get(tokenA, `${CODE}/list`))).toEqual([]);
    expect(sns(await get(tokenA, `${UNLOCK}/list`))).toEqual([]);
    expect((await get(tokenA, `${UNLOCK}/detail`, { id: asked.body.data.id })).status).toBe(404);
    expect((await h.call('POST', `${UNLOCK}/approve`, { token: approverA, query: { id: waiting.body.data.id } })).status).toBe(400);

    expect((await h.call('GET', '/tc/omc-device/device/info', { token: tokenA, query: { deviceSn: mine } })).status).toBe(404);
    expect((await h.call<Row>('POST', `${CONTROL}/submit`, { token: tokenA, body: { deviceSn: mine, action: 'disable', reason: '售后' } })).status).toBe(400);
    const generate = await h.call('POST', `${CODE}/generate`, { token: tokenA, body: { id: pending!.id } });
    expect(generate.status).toBe(400);
    expect(sns(await get(tokenA, crudPaths(otaProgressResource).list))).toEqual([]);
    expect(sns(await get(tokenA, crudPaths(certResource).list))).toEqual([]);
    expect(sns(await get(tokenA, crudPaths(factoryDeviceResource).list, { batchId: fleet.batchId }), 'sn')).toEqual([]);
    expect((await h.call('GET', '/tc/omc-device/device/info', { token: admin, query: { deviceSn: mine } })).status).toBe(200);
  });
});
