import type { Page } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Account, DEMO_ADMIN, KitSupport } from './conformance/support.js';
import { useServer } from './harness.js';

/**
 * The product catalogue (issue 10): types › models › products with brands and projects, kept by the platform.
 * CRUD, permissions, uniqueness and immutable codes come from the conformance kit; here what it cannot know.
 */
const h = useServer();
type Row = Record<string, unknown> & { id: string };
let admin: string;

beforeAll(async () => {
  admin = (await h.login('000000', 'admin', 'admin')).access_token;
});

const submit = (path: string, body: unknown, token = admin, lang: 'zh' | 'en' = 'zh') =>
  h.call<Row>('POST', `${path}/submit`, { token, body, lang });
const TYPE = '/api/ymy-product/type';
const MODEL = '/api/ymy-product/model';
const PRODUCT = '/api/ymy-product/product';
const BRAND = '/api/ymy-brand/brand';
const EXPLAIN = '/api/ymy-product/explain';

describe('the product catalogue', () => {
  it('builds a type, a model, a brand and a product, and answers the names of what a product refers to', async () => {
    const type = await submit(TYPE, { typeName: '智能门锁', typeCode: 'LOCK', sort: 1 });
    expect(type.status).toBe(200);
    const model = await submit(MODEL, { typeId: type.body.data.id, modelName: 'K20 猫眼锁', modelCode: 'K20' });
    expect(model.status).toBe(200);
    const brand = await submit(BRAND, { brandName: '云锁' });
    const product = await submit(PRODUCT, {
      productName: 'K20 Pro', productCode: 'K20-PRO', typeId: type.body.data.id, modelId: model.body.data.id, brandId: brand.body.data.id,
      cloudVendor: 1, cloudProductId: 'ABCD1234',
    });
    expect(product.status).toBe(200);
    const page = await h.call<Page<Row>>('GET', `${PRODUCT}/list`, { token: admin, query: { typeId: type.body.data.id } });
    expect(page.body.data.records).toHaveLength(1);
    expect(page.body.data.records[0]).toMatchObject({
      productCode: 'K20-PRO', typeIdName: '智能门锁', modelIdName: 'K20 猫眼锁', brandIdName: '云锁', cloudVendorName: '腾讯云 IoT Explorer',
    });
  });

  it('refuses a product whose type or model does not exist, naming the field, and an unknown cloud', async () => {
    const bad = await submit(PRODUCT, { productName: 'X', productCode: 'X-1', typeId: '123', modelId: '456', cloudVendor: 1 });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.data as object)).toEqual(expect.arrayContaining(['typeId']));
    const type = await submit(TYPE, { typeName: '摄像头', typeCode: 'CAM' });
    const model = await submit(MODEL, { typeId: type.body.data.id, modelName: 'C1', modelCode: 'C1' });
    const cloud = await submit(PRODUCT, { productName: 'C1', productCode: 'C1', typeId: type.body.data.id, modelId: model.body.data.id, cloudVendor: 9 }, admin, 'en');
    expect(cloud.status).toBe(400);
    expect(Object.keys(cloud.body.data as object)).toContain('cloudVendor');
  });

  it('keeps a product\'s manuals by language and version, the language from its dictionary', async () => {
    const type = await submit(TYPE, { typeName: '门铃', typeCode: 'BELL' });
    const model = await submit(MODEL, { typeId: type.body.data.id, modelName: 'D1', modelCode: 'D1' });
    const product = await submit(PRODUCT, { productName: 'D1 门铃', productCode: 'D1-BELL', typeId: type.body.data.id, modelId: model.body.data.id, cloudVendor: 2 });
    const manual = await submit(EXPLAIN, { productId: product.body.data.id, title: '安装说明', language: 'zh-CN', version: '1.0', file: 'https://files.example.com/d1.pdf' });
    expect(manual.status).toBe(200);
    expect(manual.body.data).toMatchObject({ productIdName: 'D1 门铃', languageName: '简体中文' });
    const english = await h.call<Page<Row>>('GET', `${EXPLAIN}/list`, { token: admin, query: { productId: product.body.data.id }, lang: 'en' });
    expect(english.body.data.records[0]).toMatchObject({ languageName: 'Simplified Chinese', productIdName: 'D1 门铃' });
    const klingon = await submit(EXPLAIN, { productId: product.body.data.id, title: 'x', language: 'tlh', version: '1.0', file: 'https://files.example.com/x.pdf' }, admin, 'en');
    expect(klingon.status).toBe(400);
    expect(klingon.body.data).toEqual({ language: 'Language: tlh is not one of its options' });
  });
});

describe('product-type authorisation', () => {
  const AUTH = '/api/ymy-product/auth';
  const IPC = '/sc/ymy-ipc/back';
  const kit = new KitSupport(h);
  let reader: Account;
  let lock: Row;
  let camera: Row;
  let lockProduct: Row;
  let cameraProduct: Row;

  beforeAll(async () => {
    lock = (await submit(TYPE, { typeName: '授权门锁', typeCode: 'AUTH-LOCK' })).body.data;
    camera = (await submit(TYPE, { typeName: '授权摄像头', typeCode: 'AUTH-CAM' })).body.data;
    const product = async (type: Row, code: string) => {
      const model = await submit(MODEL, { typeId: type.id, modelName: code, modelCode: code });
      return (await submit(PRODUCT, { productName: code, productCode: code, typeId: type.id, modelId: model.body.data.id, cloudVendor: 1 })).body.data;
    };
    lockProduct = await product(lock, 'AUTH-L1');
    cameraProduct = await product(camera, 'AUTH-C1');
    const factory = await h.call<Row>('POST', `${IPC}/add-factory`, { token: admin, body: { factoryName: '授权工厂', factoryCode: 'AUTH-F' } });
    for (const [p, prefix] of [[lockProduct, 'AUL'], [cameraProduct, 'AUC']] as const) {
      const b = await h.call<Row>('POST', `${IPC}/add-batch`, { token: admin, body: { batchNo: prefix, factoryId: factory.body.data.id, productId: p.id, cloudVendor: 1, quantity: 2, snPrefix: prefix } });
      expect(b.status, b.body.msg).toBe(200);
      // the camera batch's devices are delivered to the tenant, the lock batch's are not
      if (prefix === 'AUC') {
        const shipped = await h.call('POST', '/api/ymy-product/deliver/submit', { token: admin, body: { productId: p.id, batchId: b.body.data.id, customerTenantId: DEMO_ADMIN.tenantId, quantity: 2, deliverTime: '2026-11-20 10:00:00' } });
        expect(shipped.status, shipped.body.msg).toBe(200);
      }
    }
    reader = await kit.userWithCodes(DEMO_ADMIN.tenantId, ['product_type', 'product_model', 'product_info', 'explain', 'batch']);
  });

  const visible = async (path: string, query: Record<string, string> = {}) => {
    const res = await kit.call<Page<Row>>(reader, 'GET', path, { query: { size: 200, ...query } });
    expect(res.status, `${path}: ${res.body.msg}`).toBe(200);
    return res.body.data.records;
  };

  it('shows a tenant only the types granted to it, in every product, batch and device list', async () => {
    const save = await h.call<boolean>('POST', `${AUTH}/save-auth-pt`, { token: admin, body: { tenantId: DEMO_ADMIN.tenantId, typeIds: [lock.id] } });
    expect(save.status, save.body.msg).toBe(200);
    expect((await h.call<string[]>('GET', `${AUTH}/get-auth-pt`, { token: admin, query: { tenantId: DEMO_ADMIN.tenantId } })).body.data).toEqual([lock.id]);

    expect((await visible(`${TYPE}/list`)).map((r) => r.id)).toEqual([lock.id]);
    expect((await visible(`${PRODUCT}/list`)).map((r) => r.id)).toEqual([lockProduct.id]);
    expect((await visible(`${MODEL}/list`)).map((r) => r.typeId)).toEqual([lock.id]);
    expect((await visible(`${IPC}/batch-list`)).map((r) => r.batchNo)).toEqual(['AUL']);
    // devices are the tenant's by delivery, whatever the types it sees (device-ownership.test.ts)
    expect((await visible(`${IPC}/get-device-list`)).map((r) => r.sn)).toEqual(['AUC00000001', 'AUC00000002']);
    const hidden = await kit.call<Row>(reader, 'GET', `${PRODUCT}/detail`, { query: { id: cameraProduct.id } });
    expect(hidden.status).toBe(404);
    const mine = await kit.call<Row[]>(reader, 'GET', `${AUTH}/get-auth-pt-with-tenant`);
    expect(mine.body.data.map((r) => r.typeCode)).toEqual(['AUTH-LOCK']);

    // the platform sees every type; a tenant with nothing granted sees none
    expect((await h.call<Page<Row>>('GET', `${TYPE}/list`, { token: admin, query: { size: 200 } })).body.data.records.map((r) => r.id)).toEqual(expect.arrayContaining([lock.id, camera.id]));
    await h.call('POST', `${AUTH}/save-auth-pt`, { token: admin, body: { tenantId: DEMO_ADMIN.tenantId, typeIds: '' } });
    expect(await visible(`${TYPE}/list`)).toEqual([]);
    expect((await visible(`${IPC}/get-device-list`)).map((r) => r.sn)).toEqual(['AUC00000001', 'AUC00000002']);
  });

  it('refuses an unknown tenant or type, naming the field, and changes nothing', async () => {
    await h.call('POST', `${AUTH}/save-auth-pt`, { token: admin, body: { tenantId: DEMO_ADMIN.tenantId, typeIds: [camera.id] } });
    const unknownTenant = await h.call('POST', `${AUTH}/save-auth-pt`, { token: admin, body: { tenantId: '999999', typeIds: [lock.id] }, lang: 'en' });
    expect(unknownTenant.status).toBe(400);
    expect(unknownTenant.body.data).toEqual({ tenantId: 'No tenant 999999' });
    const unknownType = await h.call('POST', `${AUTH}/save-auth-pt`, { token: admin, body: { tenantId: DEMO_ADMIN.tenantId, typeIds: [lock.id, '123'] }, lang: 'en' });
    expect(unknownType.status).toBe(400);
    expect(Object.keys(unknownType.body.data as object)).toEqual(['typeIds']);
    expect((await h.call<string[]>('GET', `${AUTH}/get-auth-pt`, { token: admin, query: { tenantId: DEMO_ADMIN.tenantId } })).body.data).toEqual([camera.id]);
  });

  it('is the platform administrators\' alone', async () => {
    const demo = await kit.token(DEMO_ADMIN);
    for (const [method, path] of [['GET', `${AUTH}/get-auth-pt?tenantId=541742`], ['POST', `${AUTH}/save-auth-pt?tenantId=541742&typeIds=${lock.id}`], ['GET', `${AUTH}/get-pt-tree`]] as const) {
      expect((await h.call(method, path, { token: demo })).status, path).toBe(403);
    }
    const tree = await h.call<Array<{ id: string; title: string }>>('GET', `${AUTH}/get-pt-tree`, { token: admin });
    expect(tree.body.data.map((n) => n.id)).toEqual(expect.arrayContaining([lock.id, camera.id]));
  });
});

describe('deliveries', () => {
  const DELIVER = '/api/ymy-product/deliver';
  const IPC = '/sc/ymy-ipc/back';

  it('ships from a batch at most what it made, of its product, to a tenant that exists; the tenant sees its own', async () => {
    const type = await submit(TYPE, { typeName: '出货锁', typeCode: 'SHIP' });
    const model = await submit(MODEL, { typeId: type.body.data.id, modelName: 'SH1', modelCode: 'SH1' });
    const p1 = await submit(PRODUCT, { productName: 'SH1', productCode: 'SH1', typeId: type.body.data.id, modelId: model.body.data.id, cloudVendor: 1 });
    const p2 = await submit(PRODUCT, { productName: 'SH2', productCode: 'SH2', typeId: type.body.data.id, modelId: model.body.data.id, cloudVendor: 1 });
    const f = await h.call<Row>('POST', `${IPC}/add-factory`, { token: admin, body: { factoryName: '出货工厂', factoryCode: 'SHIP-F' } });
    const b = await h.call<Row>('POST', `${IPC}/add-batch`, { token: admin, body: { batchNo: 'SHIP-B', factoryId: f.body.data.id, productId: p1.body.data.id, cloudVendor: 1, quantity: 10, snPrefix: 'SHIP' } });
    const ship = (body: Record<string, unknown>, lang: 'zh' | 'en' = 'en') => h.call<Row>('POST', `${DELIVER}/submit`, { token: admin, body: { productId: p1.body.data.id, customerTenantId: '541742', deliverTime: '2026-11-20 10:00:00', ...body }, lang });

    const first = await ship({ batchId: b.body.data.id, quantity: 6, trackingNo: 'SF1001' });
    expect(first.status, first.body.msg).toBe(200);
    const over = await ship({ batchId: b.body.data.id, quantity: 5 });
    expect(over.status).toBe(400);
    expect(over.body.data).toEqual({ quantity: 'The batch "SHIP-B" has 10 devices, 6 shipped: at most 4 more' });
    const wrongProduct = await ship({ batchId: b.body.data.id, quantity: 1, productId: p2.body.data.id });
    expect(wrongProduct.body.data).toEqual({ batchId: 'The batch "SHIP-B" is not of the product picked' });
    const noTenant = await ship({ quantity: 1, customerTenantId: '999999' });
    expect(noTenant.body.data).toEqual({ customerTenantId: 'No tenant 999999' });
    // the edit of the first may keep its own quantity
    expect((await h.call('POST', `${DELIVER}/submit`, { token: admin, body: { id: first.body.data.id, quantity: 10 } })).status).toBe(200);

    const kit = new KitSupport(h);
    const reader = await kit.userWithCodes(DEMO_ADMIN.tenantId, ['deliver']);
    await h.call('POST', '/api/ymy-product/auth/save-auth-pt', { token: admin, body: { tenantId: DEMO_ADMIN.tenantId, typeIds: [type.body.data.id] } });
    // a delivery without a batch takes undelivered devices of the product: the first batch's are all shipped
    const more = await h.call<Row>('POST', `${IPC}/add-batch`, { token: admin, body: { batchNo: 'SHIP-B2', factoryId: f.body.data.id, productId: p1.body.data.id, cloudVendor: 1, quantity: 3, snPrefix: 'SHIQ' } });
    expect(more.status, more.body.msg).toBe(200);
    expect((await ship({ quantity: 3, customerTenantId: '000000', trackingNo: 'SF-OTHER' })).status).toBe(200);
    const seen = await kit.call<Page<Row>>(reader, 'GET', `${DELIVER}/list`, { query: { size: 100 } });
    expect(seen.body.data.records.map((r) => r.trackingNo)).toEqual(['SF1001']);
    const list = async (query: Record<string, string>) => (await h.call<Page<Row>>('GET', `${DELIVER}/list`, { token: admin, query: { size: 100, ...query } })).body.data.records.map((r) => r.trackingNo);
    expect(await list({ batchId: String(b.body.data.id) })).toEqual(['SF1001']);
    expect(await list({ customerTenantId: '000000' })).toEqual(['SF-OTHER']);
    expect(await list({ productId: String(p1.body.data.id), trackingNo: 'SF1' })).toEqual(['SF1001']);
    expect(await list({ deliverTime_datege: '2026-11-20 00:00:00', deliverTime_datele: '2026-11-21 00:00:00', productId: String(p1.body.data.id) })).toHaveLength(2);
  });
});
