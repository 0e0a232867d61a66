import { permissionCodes } from '@console/contract';
import { explainResource, productModelResource, productResource } from '@console/contract/areas/product/index';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Account, KitSupport, PLATFORM_ADMIN } from './conformance/support.js';
import { useServer } from './harness.js';
import { multipart } from './multipart.js';
import { attach } from '../src/areas/resource/tables.js';

/**
 * The multipart submit of resources with file and image fields (api.md §2: products, models, manuals): the
 * files are stored through the upload service, checked by content, and a refused record keeps none of them.
 */
const h = useServer();
const kit = new KitSupport(h);
type Row = Record<string, unknown> & { id: string };
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 7)]);
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(300, 0x20)]);
let typeId: string;
let modelId: string;

const send = async (path: string, parts: Parameters<typeof multipart>[0], who: Account = PLATFORM_ADMIN, lang: 'zh' | 'en' = 'zh') => {
  const { payload, contentType } = multipart(parts);
  const token = await kit.token(who);
  return h.call<Row>('POST', `${path}/submit`, { token, lang, headers: { 'content-type': contentType }, body: payload });
};
const fields = (values: Record<string, string>) => Object.entries(values).map(([name, data]) => ({ name, data }));
const attachments = async () => {
  const [row] = await h.server.ctx.db.select({ n: sql<number>`count(*)::int` }).from(attach).where(eq(attach.isDeleted, 0));
  return row!.n;
};
const detail = async (path: string, id: string) => (await kit.call<Row>(PLATFORM_ADMIN, 'GET', `${path}/detail`, { query: { id } })).body.data;

beforeAll(async () => {
  const type = await kit.call<Row>(PLATFORM_ADMIN, 'POST', '/api/ymy-product/type/submit', { body: { typeName: '上传门锁', typeCode: 'UPL' } });
  typeId = type.body.data.id;
  const model = await kit.call<Row>(PLATFORM_ADMIN, 'POST', `${productModelResource.path}/submit`, { body: { typeId, modelName: 'U1', modelCode: 'U1' } });
  modelId = model.body.data.id;
});

describe('multipart submit', () => {
  it('creates a product with its image in one call, serves the image, and keeps it on an update without a file', async () => {
    const created = await send(productResource.path, [
      ...fields({ productName: 'U1 Pro', productCode: 'U1-PRO', typeId, modelId, cloudVendor: '1' }),
      { name: 'image', filename: 'front.jpg', type: 'image/jpeg', data: PNG },
    ]);
    expect(created.status).toBe(200);
    const image = String(created.body.data.image);
    expect(image).toMatch(/^\/files\/000000\/.+\.png\/front\.jpg$/); // the content decides: a PNG named .jpg is a PNG (its name stays)
    const served = await h.server.app.inject({ method: 'GET', url: image });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(PNG)).toBe(true);

    const renamed = await send(productResource.path, fields({ id: created.body.data.id, productName: 'U1 Pro Max' }));
    expect(renamed.status).toBe(200);
    expect(await detail(productResource.path, created.body.data.id)).toMatchObject({ productName: 'U1 Pro Max', image });

    // the field's own name works as BladeX's "file" does
    const replaced = await send(productResource.path, [{ name: 'id', data: created.body.data.id }, { name: 'file', filename: 'b.png', data: PNG }]);
    expect(replaced.status).toBe(200);
    expect(replaced.body.data.image).not.toBe(image);
  });

  it('takes a manual\'s document as any file, and a model\'s picture only as an image', async () => {
    const product = await kit.call<Row>(PLATFORM_ADMIN, 'POST', `${productResource.path}/submit`, {
      body: { productName: 'U2', productCode: 'U2', typeId, modelId, cloudVendor: 2 },
    });
    const manual = await send(explainResource.path, [
      ...fields({ productId: product.body.data.id, title: '安装说明', language: 'zh-CN', version: '1.0' }),
      { name: 'file', filename: 'install', data: PDF },
    ]);
    expect(manual.status).toBe(200);
    expect(String(manual.body.data.file)).toMatch(/\.pdf\/install$/); // stored as the PDF it is, shown under the name it was uploaded with

    const before = await attachments();
    const picture = await send(productModelResource.path, [
      ...fields({ typeId, modelName: 'U3', modelCode: 'U3' }), { name: 'image', filename: 'u3.png', type: 'image/png', data: PDF },
    ], PLATFORM_ADMIN, 'en');
    expect(picture.status).toBe(400);
    expect(picture.body.msg).toBe('Only an image can be uploaded (jpg, png, gif or webp)');
    expect(await attachments()).toBe(before);
    expect((await kit.call<{ total: number }>(PLATFORM_ADMIN, 'GET', `${productModelResource.path}/list`, { query: { modelCode: 'U3' } })).body.data.total).toBe(0);
  });

  it('keeps none of the files of a record it refuses, and names what is wrong', async () => {
    const before = await attachments();
    const missing = await send(productResource.path, [
      ...fields({ productName: 'No code', typeId, modelId, cloudVendor: '1' }), { name: 'image', filename: 'a.png', data: PNG },
    ], PLATFORM_ADMIN, 'en');
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.data as object)).toEqual(['productCode']);
    expect(await attachments()).toBe(before);

    const unknown = await send(productResource.path, [...fields({ productName: 'X', productCode: 'X-9', typeId, modelId, cloudVendor: '1' }), { name: 'manual', filename: 'a.png', data: PNG }], PLATFORM_ADMIN, 'en');
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toBe('The uploaded file manual matches no field');
    expect(await attachments()).toBe(before);

    const large = await send(productResource.path, [
      ...fields({ productName: 'Big', productCode: 'BIG', typeId, modelId, cloudVendor: '1' }),
      { name: 'image', filename: 'big.png', data: Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]) },
    ]);
    expect(large.status).toBe(413);
    expect(await attachments()).toBe(before);

    const broken = await h.call('POST', `${productResource.path}/submit`, {
      token: await kit.token(PLATFORM_ADMIN), headers: { 'content-type': 'multipart/form-data; boundary=nothing-here' }, body: Buffer.from('--nothing-here\r\nContent-Disp'),
    });
    expect(broken.status).toBe(400);
  });

  it('stores no file for a caller who may not save the record, and checks the permission of the mode', async () => {
    const codes = permissionCodes(productResource);
    const viewer = await kit.userWithCodes('000000', [codes.menu]);
    const before = await attachments();
    const refused = await send(productResource.path, [
      ...fields({ productName: 'V', productCode: 'V-1', typeId, modelId, cloudVendor: '1' }), { name: 'image', filename: 'v.png', data: PNG },
    ], viewer);
    expect(refused.status).toBe(403);
    expect(await attachments()).toBe(before);

    // an editor may replace a picture but not create a product with one
    const editor = await kit.userWithCodes('000000', [codes.menu, codes.edit]);
    const product = await kit.call<Row>(PLATFORM_ADMIN, 'POST', `${productResource.path}/submit`, { body: { productName: 'E', productCode: 'E-1', typeId, modelId, cloudVendor: 1 } });
    const edited = await send(productResource.path, [{ name: 'image', filename: 'e.png', data: PNG }, { name: 'id', data: product.body.data.id }], editor);
    expect(edited.status).toBe(200);
    const created = await send(productResource.path, [{ name: 'image', filename: 'e.png', data: PNG }, ...fields({ productName: 'E2', productCode: 'E-2', typeId, modelId, cloudVendor: '1' })], editor);
    expect(created.status).toBe(403);
    expect(await attachments()).toBe(before + 1);
    const [own] = await h.server.ctx.db.select({ link: attach.link }).from(attach).where(and(eq(attach.isDeleted, 0), eq(attach.link, String(edited.body.data.image))));
    expect(own).toBeDefined();
  });
});
