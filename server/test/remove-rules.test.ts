import { defineResource, type RemoveImpact } from '@console/contract';
import { noticeResource } from '@console/contract/areas/desk/index';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { bind } from '../src/areas/index.js';
import { notice } from '../src/areas/desk/tables.js';
import { inTenant } from '../src/core/db/index.js';
import { makeProduct } from './catalogue-fixture.js';
import { useServer } from './harness.js';

/**
 * No delete orphans anything (issue 26, docs/decisions.md): a remove of rows that live records still use is
 * refused (409) naming what uses them and how many, before anything changes; a cascade (a batch's devices and
 * certificates) is said first and done in the remove's transaction; the preview `<remove>-impact` says either.
 */

/**
 * A test-only tenant resource over the notice table whose `createDept` names a product type: tenants' rows using a
 * platform row, as areas still to come will have them (a supplier's orders of a product).
 */
const typedNotice = defineResource({
  ...noticeResource,
  code: 'notice_typed',
  path: '/api/blade-desk/notice-typed',
  menu: undefined,
  fields: { ...noticeResource.fields, createDept: { type: 'ref', ref: 'product_type', label: { zh: '类型', en: 'Type' } } },
});

const h = useServer({}, {}, { extraResources: [bind(typedNotice, notice)] });
type Row = Record<string, unknown> & { id: string };
const IPC = '/sc/ymy-ipc/back';
const TYPE = '/api/ymy-product/type';
const OTHER_TENANT = '541742';
let admin: string;
let seq = 0;

const rows = async <T = Record<string, unknown>>(q: ReturnType<typeof sql>) => (await h.server.ctx.db.execute(q) as unknown as { rows: T[] }).rows;
const impact = (path: string, ids: string, lang: 'zh' | 'en' = 'zh', token = admin) => h.call<RemoveImpact>('GET', `${path}-impact`, { token, query: { ids }, lang });

beforeAll(async () => {
  admin = (await h.login('000000', 'admin', 'admin')).access_token;
});

describe('a row others use is refused, naming them and how many', () => {
  it('a product type used by a model and a product: 409 in both languages, the preview says the same, nothing changes', async () => {
    const p = await makeProduct(h, admin, { typeName: '门锁', typeCode: 'T-LOCK', modelCode: 'X1 Pro', productName: 'X1 Pro 锁', productCode: 'X1-LOCK' });
    const preview = await impact(`${TYPE}/remove`, p.typeId);
    expect(preview.status, preview.body.msg).toBe(200);
    expect(preview.body.data.refused).toBe(true);
    expect(preview.body.data.message).toBe('产品型号「X1 Pro」等 1 条记录仍在使用「门锁」；产品信息「X1 Pro 锁」等 1 条记录仍在使用「门锁」, 不能删除');
    expect(preview.body.data.uses).toEqual([
      { resource: '产品型号', policy: 'refuse', count: 1, names: ['X1 Pro'] },
      { resource: '产品信息', policy: 'refuse', count: 1, names: ['X1 Pro 锁'] },
    ]);
    const zh = await h.call('POST', `${TYPE}/remove`, { token: admin, query: { ids: p.typeId } });
    expect(zh.status).toBe(409);
    expect(zh.body.msg).toBe(preview.body.data.message);
    const en = await h.call('POST', `${TYPE}/remove`, { token: admin, query: { ids: p.typeId }, lang: 'en' });
    expect(en.status).toBe(409);
    expect(en.body.msg).toBe('1 record(s) of Models still use "门锁", such as "X1 Pro"; 1 record(s) of Products still use "门锁", such as "X1 Pro 锁"; it cannot be deleted');
    expect((await h.call('GET', `${TYPE}/detail`, { token: admin, query: { id: p.typeId } })).status).toBe(200);
  });

  it('counts three models and names at most three of them', async () => {
    const type = await h.call<Row>('POST', `${TYPE}/submit`, { token: admin, body: { typeName: '猫眼', typeCode: 'T-EYE' } });
    for (const code of ['E1', 'E2', 'E3', 'E4']) {
      expect((await h.call('POST', '/api/ymy-product/model/submit', { token: admin, body: { typeId: type.body.data.id, modelName: code, modelCode: code } })).status).toBe(200);
    }
    const refused = await h.call('POST', `${TYPE}/remove`, { token: admin, query: { ids: type.body.data.id } });
    expect(refused.body.msg).toBe('产品型号「E1」、「E2」、「E3」等 4 条记录仍在使用「猫眼」, 不能删除');
  });

  it("a type authorised to tenants: the preview says their grants go with it, without naming them; the remove revokes them", async () => {
    const type = await h.call<Row>('POST', `${TYPE}/submit`, { token: admin, body: { typeName: '网关', typeCode: 'T-GW' } });
    const auth = await h.call('POST', '/api/ymy-product/auth/save-auth-pt', { token: admin, body: { tenantId: OTHER_TENANT, typeIds: [type.body.data.id] } });
    expect(auth.status, auth.body.msg).toBe(200);
    const preview = await impact(`${TYPE}/remove`, type.body.data.id);
    expect(preview.body.data).toEqual({ refused: false, message: '产品授权 1 条将一并删除。确定删除?', uses: [{ resource: '产品授权', policy: 'cascade', count: 1, names: [] }] });
    expect(JSON.stringify(preview.body)).not.toContain(OTHER_TENANT);
    expect((await h.call('POST', `${TYPE}/remove`, { token: admin, query: { ids: type.body.data.id } })).status).toBe(200);
    expect(await rows(sql`select 1 from ymy_product_auth where type_id = ${type.body.data.id}`)).toEqual([]);
  });

  it("tenants' rows under row-level security that use a platform row are counted across tenants; only the caller's are named", async () => {
    const type = await h.call<Row>('POST', `${TYPE}/submit`, { token: admin, body: { typeName: '门铃', typeCode: 'T-BELL' } });
    const typeId = type.body.data.id;
    const write = (tenantId: string, title: string) => inTenant(h.server.ctx.db, { tenantId }, (tx) => tx.execute(sql`
      insert into blade_notice (id, tenant_id, title, category, release_time, create_dept) values (${String(Date.now()) + ++seq}, ${tenantId}, ${title}, 1, now(), ${typeId})`));
    await write('000000', '平台公告');
    await write(OTHER_TENANT, '租户机密公告');
    await write(OTHER_TENANT, '租户机密公告二');
    const refused = await h.call('POST', `${TYPE}/remove`, { token: admin, query: { ids: typeId } });
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe('通知公告「平台公告」等 3 条记录仍在使用「门铃」 (其中 2 条属于其他租户), 不能删除');
    expect(refused.body.msg).not.toContain('机密');
  });

  it("a tenant's department used by its users: named and counted within the tenant (an ids field)", async () => {
    const tenantAdmin = (await h.login(OTHER_TENANT, 'admin', 'admin')).access_token;
    const dept = await h.call<Row>('POST', '/api/blade-system/dept/submit', { token: tenantAdmin, body: { parentId: '0', deptName: '售后部', fullName: '售后部', deptCategory: 1, sort: 9 } });
    expect(dept.status, dept.body.msg).toBe(200);
    const [first] = await rows<{ id: string }>(sql`select id from blade_dept where tenant_id = ${OTHER_TENANT} and is_deleted = 0 and id <> ${dept.body.data.id} limit 1`);
    await h.createUser(OTHER_TENANT, 'aftersales', 'After#2026', ['admin'], { deptId: `${first!.id},${dept.body.data.id}` });
    const preview = await impact('/api/blade-system/dept/remove', dept.body.data.id, 'en', tenantAdmin);
    expect(preview.body.data).toMatchObject({ refused: true, uses: [{ resource: 'Users', count: 1, names: ['aftersales'] }] });
    const refused = await h.call('POST', '/api/blade-system/dept/remove', { token: tenantAdmin, query: { ids: dept.body.data.id }, lang: 'en' });
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe('1 record(s) of Users still use "售后部", such as "aftersales"; it cannot be deleted');
  });
});

describe("a batch's removal: its devices go, its certificates are freed, in one transaction", () => {
  const makeBatch = async (quantity: number) => {
    const p = await makeProduct(h, admin, { typeName: `批次类型${++seq}`, typeCode: `BT${seq}`, modelCode: `BM${seq}`, productName: `批次产品${seq}`, productCode: `BP${seq}` });
    const f = await h.call<Row>('POST', `${IPC}/add-factory`, { token: admin, body: { factoryName: `删除厂${seq}`, factoryCode: `DF${seq}` } });
    const b = await h.call<Row>('POST', `${IPC}/add-batch`, { token: admin, body: { batchNo: `DB${seq}`, factoryId: f.body.data.id, productId: p.productId, cloudVendor: 1, quantity, snPrefix: `DB${seq}X` } });
    expect(b.status, b.body.msg).toBe(200);
    const devices = await rows<{ id: string; sn: string }>(sql`select id::text, sn from ymy_factory_device where batch_id = ${b.body.data.id} order by sn`);
    // certificates allocated to each device (as allocate-cert leaves them), and one revoked
    for (const [i, d] of devices.entries()) {
      const certId = `${Date.now()}${++seq}`;
      await h.server.ctx.db.execute(sql`insert into ymy_cert (id, cloud_vendor, cloud_product_id, device_name, device_secret, state, batch_id, device_sn)
        values (${certId}, 1, 'P', ${d.sn}, 'x', ${i === 0 ? 4 : 2}, ${b.body.data.id}, ${d.sn})`);
      await h.server.ctx.db.execute(sql`update ymy_factory_device set certificate_id = ${certId} where id = ${d.id}`);
    }
    return { batch: b.body.data, factoryId: f.body.data.id, devices };
  };
  const certs = (batchNo: string) => rows<{ state: number; batch_id: string | null; device_sn: string | null }>(sql`
    select state, batch_id::text, device_sn from ymy_cert where device_name like ${`${batchNo}X%`} order by device_name`);

  it('the preview says what goes with it; the remove does it all', async () => {
    const { batch, devices } = await makeBatch(3);
    const preview = await impact(`${IPC}/del-batch`, batch.id);
    expect(preview.body.data).toEqual({
      refused: false,
      message: '批次设备 3 条将一并删除；证书管理 3 条将被释放。确定删除?',
      uses: [{ resource: '批次设备', policy: 'cascade', count: 3, names: devices.map((d) => d.sn) }, { resource: '证书管理', policy: 'detach', count: 3, names: devices.map((d) => d.sn) }],
    });
    expect((await impact(`${IPC}/del-batch`, batch.id, 'en')).body.data.message).toBe('3 record(s) of Batch devices will be deleted with it; 3 record(s) of Certificates will be released. Delete?');
    // the preview changed nothing
    expect((await certs(String(batch.batchNo))).map((c) => c.state)).toEqual([4, 2, 2]);

    const removed = await h.call('POST', `${IPC}/del-batch`, { token: admin, query: { ids: batch.id } });
    expect(removed.status, removed.body.msg).toBe(200);
    expect(await rows(sql`select 1 from ymy_factory_device where batch_id = ${batch.id}`)).toEqual([]);
    expect(await certs(String(batch.batchNo))).toEqual([
      { state: 4, batch_id: null, device_sn: null },
      { state: 1, batch_id: null, device_sn: null },
      { state: 1, batch_id: null, device_sn: null },
    ]);
  });

  it('devices seen online refuse it (409, naming their SNs), and nothing changes', async () => {
    const { batch, devices } = await makeBatch(2);
    await h.server.ctx.db.execute(sql`insert into ymy_device_status (id, sn, product_id, online) select id, sn, product_id, 1 from ymy_factory_device where batch_id = ${batch.id}`);
    const preview = await impact(`${IPC}/del-batch`, batch.id);
    expect(preview.body.data.refused).toBe(true);
    const refused = await h.call('POST', `${IPC}/del-batch`, { token: admin, query: { ids: batch.id } });
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe(`已上线设备「${devices[0]!.sn}」、「${devices[1]!.sn}」等 2 条记录仍在使用「${batch.batchNo}」, 不能删除`);
    expect(preview.body.data.message).toBe(refused.body.msg);
    expect((await rows(sql`select 1 from ymy_factory_device where batch_id = ${batch.id}`)).length).toBe(2);
    expect((await certs(String(batch.batchNo))).map((c) => c.state)).toEqual([4, 2]);
  });

  it("the preview answers a resource's own refusal (a burned device) as the remove does", async () => {
    const { batch, devices } = await makeBatch(1);
    await h.server.ctx.db.execute(sql`update ymy_factory_device set burn_time = now() where id = ${devices[0]!.id}`);
    const preview = await impact(`${IPC}/del-batch`, batch.id, 'en');
    const refused = await h.call('POST', `${IPC}/del-batch`, { token: admin, query: { ids: batch.id }, lang: 'en' });
    expect(refused.status).toBe(400);
    expect(preview.body.data).toEqual({ refused: true, message: refused.body.msg, uses: [] });
  });

  it('a factory with batches is refused naming them; without, its stations go with it and leave its operators', async () => {
    const { batch, factoryId } = await makeBatch(1);
    const refused = await h.call('POST', `${IPC}/del-factory`, { token: admin, query: { ids: factoryId } });
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toContain(`批次管理「${batch.batchNo}」等 1 条记录`);

    const f = await h.call<Row>('POST', `${IPC}/add-factory`, { token: admin, body: { factoryName: '空厂', factoryCode: 'EMPTY' } });
    const s1 = await h.call<Row>('POST', `${IPC}/add-station`, { token: admin, body: { factoryId: f.body.data.id, stationName: '一号', stationCode: 'E-S1', stationType: 1 } });
    const s2 = await h.call<Row>('POST', `${IPC}/add-station`, { token: admin, body: { factoryId: f.body.data.id, stationName: '二号', stationCode: 'E-S2', stationType: 1 } });
    const op = await h.call<Row>('POST', '/sc/ymy-ipc/users/submit', {
      token: admin, body: { factoryId: f.body.data.id, account: 'op_empty', password: 'e10adc3949ba59abbe56e057f20f883e', realName: '操作员', stationIds: `${s1.body.data.id},${s2.body.data.id}` },
    });
    expect(op.status, op.body.msg).toBe(200);
    // a station leaves its operators' lists
    const stationPreview = await impact(`${IPC}/del-station`, s1.body.data.id);
    expect(stationPreview.body.data.message).toBe('工位操作员 1 条将被释放。确定删除?');
    expect((await h.call('POST', `${IPC}/del-station`, { token: admin, query: { ids: s1.body.data.id } })).status).toBe(200);
    const listed = await h.call<Array<Row>>('GET', '/sc/ymy-ipc/users/list', { token: admin, query: { factoryId: f.body.data.id } });
    expect(listed.body.data.map((r) => r.stationIds)).toEqual([s2.body.data.id]);
    // a factory with operators stays until they are removed; then its stations go with it
    const busy = await h.call('POST', `${IPC}/del-factory`, { token: admin, query: { ids: f.body.data.id } });
    expect(busy.status).toBe(409);
    expect(busy.body.msg).toBe('工位操作员「op_empty」等 1 条记录仍在使用「空厂」, 不能删除');
    const gone = await h.call('POST', '/sc/ymy-ipc/users/remove', { token: admin, body: { ids: op.body.data.id } });
    expect(gone.status, gone.body.msg).toBe(200);
    expect((await h.call<Row[]>('GET', '/sc/ymy-ipc/users/list', { token: admin, query: { factoryId: f.body.data.id } })).body.data).toEqual([]);
    expect((await h.tokenRequest({ grant_type: 'password', tenantId: '000000', username: 'op_empty', password: 'e10adc3949ba59abbe56e057f20f883e', scope: 'all', type: 'account' }, { 'tenant-id': '000000' })).statusCode).not.toBe(200);
    expect((await impact(`${IPC}/del-factory`, f.body.data.id)).body.data.message).toBe('工位 1 条将一并删除。确定删除?');
    expect((await h.call('POST', `${IPC}/del-factory`, { token: admin, query: { ids: f.body.data.id } })).status).toBe(200);
    expect(await rows(sql`select 1 from ymy_station where factory_id = ${f.body.data.id} and is_deleted = 0`)).toEqual([]);
  });
});

describe('证书管理: release and revoke', () => {
  const addCert = async (state: number, deviceSn: string | null) => {
    const id = `${Date.now()}${++seq}`;
    await h.server.ctx.db.execute(sql`insert into ymy_cert (id, cloud_vendor, cloud_product_id, device_name, device_secret, state, device_sn)
      values (${id}, 1, 'P', ${`RC${seq}`}, 'x', ${state}, ${deviceSn})`);
    return id;
  };
  const stateOf = async (id: string) => (await rows<{ state: number; device_sn: string | null }>(sql`select state, device_sn from ymy_cert where id = ${id}`))[0];

  it('releases an allocated certificate (its device loses it) and revokes any live one; refuses the others, all or none', async () => {
    const allocated = await addCert(2, 'RCSN1');
    const free = await addCert(1, null);
    const release = await h.call<{ released: number }>('POST', `${IPC}/release-cert`, { token: admin, body: { ids: allocated } });
    expect(release.status, release.body.msg).toBe(200);
    expect(release.body.data).toEqual({ released: 1 });
    expect(await stateOf(allocated)).toEqual({ state: 1, device_sn: null });

    const taken = await addCert(2, 'RCSN2');
    const notAllocated = await h.call('POST', `${IPC}/release-cert`, { token: admin, body: { ids: `${taken},${free}` }, lang: 'en' });
    expect(notAllocated.status).toBe(400);
    expect(notAllocated.body.msg).toMatch(/^The certificate "RC\d+" is not allocated, so it cannot be released/);
    expect((await stateOf(taken))?.state).toBe(2);

    const revoke = await h.call<{ revoked: number }>('POST', `${IPC}/revoke-cert`, { token: admin, body: { ids: [taken, free] } });
    expect(revoke.body.data).toEqual({ revoked: 2 });
    expect([(await stateOf(taken))?.state, (await stateOf(free))?.state]).toEqual([4, 4]);
    const again = await h.call('POST', `${IPC}/revoke-cert`, { token: admin, body: { ids: free } });
    expect(again.status).toBe(400);
    expect(again.body.msg).toMatch(/已吊销$/);
    expect((await h.call('POST', `${IPC}/revoke-cert`, { token: admin, body: { ids: '123456789' } })).status).toBe(404);
    expect((await h.call('POST', `${IPC}/revoke-cert`, { token: admin, body: { ids: '' } })).status).toBe(400);
  });

  it('is the platform administrators\': a tenant is refused and changes nothing', async () => {
    const allocated = await addCert(2, 'RCSN3');
    const tenantAdmin = (await h.login(OTHER_TENANT, 'admin', 'admin')).access_token;
    for (const call of ['release-cert', 'revoke-cert']) {
      expect((await h.call('POST', `${IPC}/${call}`, { token: tenantAdmin, body: { ids: allocated } })).status).toBe(403);
    }
    expect((await stateOf(allocated))?.state).toBe(2);
  });
});

describe('the preview is guarded as the remove is', () => {
  it('needs the delete permission, a platform write for platform rows, and answers 404 for rows the caller cannot see', async () => {
    const p = await makeProduct(h, admin, { typeName: '权限类型', typeCode: 'T-PERM', modelCode: 'PM', productName: '权限产品', productCode: 'PP' });
    const tenantAdmin = (await h.login(OTHER_TENANT, 'admin', 'admin')).access_token;
    expect((await impact(`${TYPE}/remove`, p.typeId, 'zh', tenantAdmin)).status).toBe(403);
    await h.createUser('000000', 'plain', 'Plain#2026', ['user']);
    const plain = (await h.login('000000', 'plain', 'Plain#2026')).access_token;
    expect((await impact(`${TYPE}/remove`, p.typeId, 'zh', plain)).status).toBe(403);
    // another tenant's department is not found, and says nothing of who uses it
    const [theirs] = await rows<{ id: string }>(sql`select id::text from blade_dept where tenant_id = ${OTHER_TENANT} and is_deleted = 0 limit 1`);
    const foreign = await impact('/api/blade-system/dept/remove', theirs!.id);
    expect(foreign.status).toBe(404);
    expect(JSON.stringify(foreign.body)).not.toContain('admin');
    expect((await impact(`${TYPE}/remove`, 'abc')).status).toBe(400);
  });
});
