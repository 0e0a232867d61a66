import type { Page } from '@console/contract';
import type { ImportProgress } from '@console/contract/io';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { secretBox } from '../src/core/secrets.js';
import { productDirectory } from '../src/areas/product/directory.js';
import { KitSupport } from './conformance/support.js';
import { BASIC, useServer } from './harness.js';
import { multipart } from './multipart.js';

/**
 * Cloud certificates (issue 10): imported in the background from xlsx, csv or a zip of the sheet and its PEM
 * files; all rows or none, every bad row reported; secrets sealed and never answered; allocated to batches.
 */
const h = useServer();
type Row = Record<string, unknown> & { id: string };
let admin: string;
const IPC = '/sc/ymy-ipc/back';
const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', 'certs', name), 'utf8');
const HEADER = ['云平台', '云端产品ID', '设备名称', '设备密钥', '设备证书 (PEM)', '设备私钥 (PEM)'];

async function xlsx(rows: unknown[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('certs');
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function upload(data: Buffer | string, filename: string, lang: 'zh' | 'en' = 'zh', token = admin) {
  const { payload, contentType } = multipart([{ name: 'file', filename, type: 'application/octet-stream', data }]);
  const res = await h.server.app.inject({
    method: 'POST', url: `${IPC}/import-cert-list`, payload,
    headers: { authorization: BASIC, 'blade-auth': `bearer ${token}`, 'content-type': contentType, 'accept-language': lang },
  });
  return { status: res.statusCode, body: res.json() as { msg: string; data: { id: string } | null } };
}

async function finished(id: string, lang: 'zh' | 'en' = 'zh'): Promise<ImportProgress> {
  const until = Date.now() + 60_000;
  for (;;) {
    const res = await h.call<ImportProgress>('GET', '/tc/ymy-ipc/back/get-upload-progress', { token: admin, query: { id }, lang });
    expect(res.status).toBe(200);
    if (res.body.data.status !== 'running') return res.body.data;
    if (Date.now() > until) throw new Error(`import ${id} still running`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const certCount = async () => Number(((await h.server.ctx.db.execute(sql`select count(*)::int as n from ymy_cert`)) as unknown as { rows: Array<{ n: number }> }).rows[0]!.n);

beforeAll(async () => {
  admin = (await h.login('000000', 'admin', 'admin')).access_token;
  const type = await h.call<Row>('POST', '/api/ymy-product/type/submit', { token: admin, body: { typeName: '证书锁', typeCode: 'CERT-LOCK' } });
  const model = await h.call<Row>('POST', '/api/ymy-product/model/submit', { token: admin, body: { typeId: type.body.data.id, modelName: 'C9', modelCode: 'C9' } });
  for (const [code, vendor, cloudProductId] of [['C9-T', 1, 'TCPROD01'], ['C9-A', 2, 'a1AliKey01']] as const) {
    const p = await h.call<Row>('POST', '/api/ymy-product/product/submit', {
      token: admin, body: { productName: code, productCode: code, typeId: type.body.data.id, modelId: model.body.data.id, cloudVendor: vendor, cloudProductId },
    });
    expect(p.status, p.body.msg).toBe(200);
  }
});

describe('certificate import', () => {
  it('imports PSK, DeviceSecret and X.509 rows from a zip of the sheet and its PEM files; secrets stay sealed', async () => {
    const zip = new JSZip();
    zip.file('certs.csv', [
      'cloudVendor,cloudProductId,deviceName,deviceSecret,certificate,privateKey',
      '腾讯云 IoT Explorer,TCPROD01,SNPSK0001,c2VjcmV0LXBzay0x,,',
      'Alibaba Cloud IoT Platform,a1AliKey01,SNALI0001,0123456789abcdef0123456789abcdef,,',
      '1,TCPROD01,SNGOOD0001,,pem/SNGOOD0001.crt,pem/SNGOOD0001.key',
    ].join('\n'));
    zip.file('pem/SNGOOD0001.crt', fixture('good.crt'));
    zip.file('pem/SNGOOD0001.key', fixture('good.key'));
    const started = await upload(await zip.generateAsync({ type: 'nodebuffer' }), 'certs.zip');
    expect(started.status, started.body.msg).toBe(200);
    const done = await finished(started.body.data!.id);
    expect(done).toMatchObject({ status: 'done', total: 3, succeeded: 3, failed: 0 });

    const page = await h.call<Page<Row>>('GET', `${IPC}/get-cert-list`, { token: admin, query: { deviceName: 'SN', ascs: 'deviceName' } });
    const byName = Object.fromEntries(page.body.data.records.map((r) => [r.deviceName, r]));
    expect(byName.SNPSK0001).toMatchObject({ cloudVendorName: '腾讯云 IoT Explorer', deviceSecret: '******', privateKey: null, stateName: '空闲' });
    expect(byName.SNALI0001).toMatchObject({ cloudVendor: 2, deviceSecret: '******' });
    expect(byName.SNGOOD0001).toMatchObject({ deviceSecret: null, privateKey: '******', fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/), validTo: expect.stringMatching(/^20\d\d-/) });
    expect(JSON.stringify(page.body.data)).not.toContain('c2VjcmV0LXBzay0x');
    expect(JSON.stringify(page.body.data)).not.toContain('PRIVATE KEY');

    // at rest: sealed, and the seal opens to what was imported
    const stored = ((await h.server.ctx.db.execute(sql`select device_secret, private_key from ymy_cert where device_name in ('SNPSK0001', 'SNGOOD0001') order by device_name`)) as unknown as { rows: Array<{ device_secret: string | null; private_key: string | null }> }).rows;
    const box = secretBox(h.server.ctx.config.encryptionKey);
    expect(stored[1]!.device_secret).toMatch(/^v1:/);
    expect(box.open(stored[1]!.device_secret!)).toBe('c2VjcmV0LXBzay0x');
    expect(box.open(stored[0]!.private_key!)).toContain('PRIVATE KEY');
  });

  it('writes nothing when a row is bad, and reports each bad row: duplicate, malformed PEM, expired, wrong key, unknown product', async () => {
    const before = await certCount();
    const file = await xlsx([
      HEADER,
      [1, 'TCPROD01', 'SNOK0001', 'cHNrLW9r', '', ''],
      [1, 'TCPROD01', 'SNOK0001', 'cHNrLWR1cA==', '', ''],
      [1, 'TCPROD01', 'SNPSK0001', 'cHNrLXRha2Vu', '', ''],
      [1, 'TCPROD01', 'SNBADPEM01', '', '-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----', fixture('good.key')],
      [1, 'TCPROD01', 'SNOLD0001', '', fixture('expired.crt'), fixture('expired.key')],
      [1, 'TCPROD01', 'SNMIX0001', '', fixture('other.crt'), fixture('good.key')],
      [1, 'NOSUCHPROD', 'SNNOPROD01', 'cHNr', '', ''],
      [2, 'a1AliKey01', 'SNALINOSECRET', '', '', ''],
    ]);
    const started = await upload(file, 'certs.xlsx', 'en');
    expect(started.status, started.body.msg).toBe(200);
    const done = await finished(started.body.data!.id, 'en');
    expect(done).toMatchObject({ status: 'failed', total: 8, succeeded: 0, failed: 7 });
    const byRow = Object.fromEntries(done.errors.map((e) => [e.row, e.message]));
    expect(byRow[3]).toContain('SNOK0001');
    expect(byRow[4]).toBe('Device name "SNPSK0001" already exists');
    expect(byRow[5]).toBe('The certificate is not a valid X.509 certificate in PEM');
    expect(byRow[6]).toBe('The certificate expired on 2021-01-01 08:00:00');
    expect(byRow[7]).toBe('The private key does not belong to the certificate');
    expect(byRow[8]).toBe('No product NOSUCHPROD of Tencent Cloud IoT Explorer; register it under "Products" first');
    expect(byRow[9]).toBe('An Alibaba Cloud device needs its DeviceSecret');
    expect(await certCount()).toBe(before);
  });

  it('refuses what is no sheet or zip, and a zip without one sheet, at once', async () => {
    expect((await upload('%PDF-1.4 not a sheet', 'certs.pdf', 'en')).body.msg).toBe('Only .xlsx, .csv or .zip files can be imported');
    const zip = new JSZip();
    zip.file('a.crt', fixture('good.crt'));
    const none = await upload(await zip.generateAsync({ type: 'nodebuffer' }), 'certs.zip', 'en');
    expect(none.status).toBe(400);
    expect(none.body.msg).toBe('The .zip must hold exactly one .xlsx or .csv sheet (it holds 0)');
  });

  it('is the platform\'s to import: another tenant is refused', async () => {
    const demo = (await h.login('541742', 'admin', 'admin')).access_token;
    const res = await upload('cloudVendor,cloudProductId,deviceName,deviceSecret\n1,TCPROD01,SNX,cHNr\n', 'c.csv', 'zh', demo);
    expect(res.status).toBe(403);
  });
});

describe('certificate allocation', () => {
  it('gives a batch\'s devices free certificates of its cloud product, a certificate named as an SN to that device first', async () => {
    const lines = ['cloudVendor,cloudProductId,deviceName,deviceSecret', '1,TCPROD01,ALC00000002,cHNrLTI=', '1,TCPROD01,ZZFREE0001,cHNrLTE=', '1,TCPROD01,ZZFREE0002,cHNrLTM='];
    const done = await finished((await upload(lines.join('\n'), 'alloc.csv')).body.data!.id);
    expect(done.status).toBe('done');
    const products = await h.call<Page<Row>>('GET', '/api/ymy-product/product/list', { token: admin, query: { productCode: 'C9-T' } });
    const factory = await h.call<Row>('POST', `${IPC}/add-factory`, { token: admin, body: { factoryName: '证书工厂', factoryCode: 'CERT-F' } });
    const b = await h.call<Row>('POST', `${IPC}/add-batch`, { token: admin, body: { batchNo: 'ALC', factoryId: factory.body.data.id, productId: products.body.data.records[0]!.id, cloudVendor: 1, quantity: 4, snPrefix: 'ALC' } });
    expect(b.status, b.body.msg).toBe(200);
    const res = await h.call<{ allocated: number; missing: number }>('POST', `${IPC}/allocate-cert`, { token: admin, query: { batchId: b.body.data.id } });
    expect(res.status, res.body.msg).toBe(200);
    // SNGOOD0001 and SNPSK0001 (the first test's) are free certificates of TCPROD01 too
    expect(res.body.data).toEqual({ allocated: 4, missing: 0 });
    const certs = await h.call<Page<Row>>('GET', `${IPC}/get-cert-list`, { token: admin, query: { batchId: b.body.data.id, ascs: 'deviceName' } });
    expect(certs.body.data.records.map((c) => c.stateName)).toEqual(['已分配', '已分配', '已分配', '已分配']);
    expect(certs.body.data.records.find((c) => c.deviceName === 'ALC00000002')?.deviceSn).toBe('ALC00000002');
    const again = await h.call<{ allocated: number; missing: number }>('POST', `${IPC}/allocate-cert`, { token: admin, query: { batchId: b.body.data.id } });
    expect(again.body.data).toEqual({ allocated: 0, missing: 0 });
  });
});

describe('the product cache (product/clear-cache)', () => {
  const csv = (productId: string, name: string) => `cloudVendor,cloudProductId,deviceName,deviceSecret\n1,${productId},${name},c2VjcmV0\n`;
  const cached = () => productDirectory(h.server.ctx).size;

  it('knows a product registered after an import found it unknown, and forgets one whose cloud id changed', async () => {
    const unknown = await finished((await upload(csv('LATEPROD', 'SNLATE0001'), 'late.csv', 'en')).body.data!.id, 'en');
    expect(unknown.status).toBe('failed');
    expect(unknown.errors[0]!.message).toContain('LATEPROD');
    expect(cached()).toBeGreaterThan(0); // the unknown identity is held too

    const type = await h.call<Row>('POST', '/api/ymy-product/type/submit', { token: admin, body: { typeName: '缓存锁', typeCode: 'CACHE-LOCK' } });
    const model = await h.call<Row>('POST', '/api/ymy-product/model/submit', { token: admin, body: { typeId: type.body.data.id, modelName: 'L1', modelCode: 'L1' } });
    const late = await h.call<Row>('POST', '/api/ymy-product/product/submit', {
      token: admin, body: { productName: 'L1', productCode: 'L1', typeId: type.body.data.id, modelId: model.body.data.id, cloudVendor: 1, cloudProductId: 'LATEPROD' },
    });
    expect(late.status).toBe(200);
    expect(cached()).toBe(0);
    expect(await finished((await upload(csv('LATEPROD', 'SNLATE0001'), 'late.csv')).body.data!.id)).toMatchObject({ status: 'done', succeeded: 1 });

    await h.call('POST', '/api/ymy-product/product/submit', { token: admin, body: { id: late.body.data.id, cloudProductId: 'LATEPROD2' } });
    const moved = await finished((await upload(csv('LATEPROD', 'SNLATE0002'), 'late.csv')).body.data!.id);
    expect(moved.status).toBe('failed');
  });

  it('is cleared on every instance by who holds product_clear_cache on the platform, and by no one else', async () => {
    await finished((await upload(csv('TCPROD01', 'SNCACHE001'), 'c.csv')).body.data!.id);
    const held = cached();
    expect(held).toBeGreaterThan(0);
    const cleared = await h.call<{ cleared: number }>('POST', '/api/ymy-product/product/clear-cache', { token: admin });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data).toEqual({ cleared: held });
    expect(cached()).toBe(0);

    const kit = new KitSupport(h);
    const editor = await kit.userWithCodes('000000', ['product_info', 'product_info_edit']);
    expect((await kit.call(editor, 'POST', '/api/ymy-product/product/clear-cache')).status).toBe(403);
    const tenantAdmin = (await h.login('541742', 'admin', 'admin')).access_token;
    expect((await h.call('POST', '/api/ymy-product/product/clear-cache', { token: tenantAdmin })).status).toBe(403);
    expect((await h.call('POST', '/api/ymy-product/product/clear-cache')).status).toBe(401);
  });
});
