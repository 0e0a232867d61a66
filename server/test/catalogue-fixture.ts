import type { Harness } from './harness.js';

type Row = Record<string, unknown> & { id: string };

/** A product type, a model of it and a product of that model, made through the API (platform admin token). */
export async function makeProduct(h: Harness, token: string, p: { typeName: string; typeCode: string; modelCode: string; productName: string; productCode: string; cloudVendor?: number }) {
  const type = await h.call<Row>('POST', '/api/ymy-product/type/submit', { token, body: { typeName: p.typeName, typeCode: p.typeCode } });
  const model = await h.call<Row>('POST', '/api/ymy-product/model/submit', { token, body: { typeId: type.body.data.id, modelName: p.modelCode, modelCode: p.modelCode } });
  const product = await h.call<Row>('POST', '/api/ymy-product/product/submit', {
    token, body: { productName: p.productName, productCode: p.productCode, typeId: type.body.data.id, modelId: model.body.data.id, cloudVendor: p.cloudVendor ?? 1 },
  });
  if (product.status !== 200) throw new Error(`product fixture: ${product.status} ${product.body.msg}`);
  return { typeId: type.body.data.id, modelId: model.body.data.id, productId: product.body.data.id };
}
