import type { Page } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
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
