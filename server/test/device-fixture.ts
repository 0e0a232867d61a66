import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { secretBox } from '../src/core/secrets.js';
import { makeProduct } from './catalogue-fixture.js';
import { nextId } from '../src/core/ids.js';
import { BASIC, type Harness } from './harness.js';

type Row = Record<string, unknown> & { id: string };

export interface FleetDevice {
  sn: string;
  deviceName: string;
  /** the device's PSK (base64), as the cloud hands it out */
  psk: string;
}

export interface Fleet {
  typeId: string;
  productId: string;
  productName: string;
  cloudProductId: string;
  batchId: string;
  batchNo: string;
  devices: FleetDevice[];
}

let seq = 0;

/**
 * A product of its own type (cloud product `cloudProductId`), a factory and a batch of `count` devices, each with a
 * Tencent PSK certificate burned into it (the certificate rows written as an allocation and a burn leave them).
 */
export async function makeFleet(h: Harness, token: string, opts: { count: number; tag: string; version?: string }): Promise<Fleet> {
  const n = ++seq;
  const tag = `${opts.tag}${n}`.toUpperCase();
  const cloudProductId = `CP${tag}`.slice(0, 10).padEnd(10, 'X');
  const { typeId, productId } = await makeProduct(h, token, { typeName: `锁${tag}`, typeCode: `T${tag}`, modelCode: `M${tag}`, productName: `产品${tag}`, productCode: `P${tag}` });
  const withCloud = await h.call<Row>('POST', '/api/ymy-product/product/submit', { token, body: { id: productId, cloudProductId } });
  if (withCloud.status !== 200) throw new Error(`fleet fixture: ${withCloud.body.msg}`);
  const factory = await h.call<Row>('POST', '/sc/ymy-ipc/back/add-factory', { token, body: { factoryName: `厂${tag}`, factoryCode: `F${tag}` } });
  if (factory.status !== 200) throw new Error(`fleet fixture: factory ${factory.body.msg}`);
  const batchNo = `B${tag}`;
  const batch = await h.call<Row>('POST', '/sc/ymy-ipc/back/add-batch', {
    token, body: { batchNo, factoryId: factory.body.data.id, productId, cloudVendor: 1, quantity: opts.count, snPrefix: `S${tag}`.slice(0, 16) },
  });
  if (batch.status !== 200) throw new Error(`fleet fixture: ${batch.body.msg}`);
  const batchId = batch.body.data.id;
  const box = secretBox(h.server.ctx.config.encryptionKey);
  const sns = ((await h.server.ctx.db.execute(sql`select sn from ymy_factory_device where batch_id = ${batchId}::bigint order by sn`)) as unknown as { rows: Array<{ sn: string }> }).rows.map((r) => r.sn);
  const devices: FleetDevice[] = sns.map((sn) => ({ sn, deviceName: sn, psk: randomBytes(16).toString('base64') }));
  const records = devices.map((d) => ({ id: nextId(), name: d.deviceName, secret: box.seal(d.psk), sn: d.sn }));
  await h.server.ctx.db.execute(sql`
    insert into ymy_cert (id, cloud_vendor, cloud_product_id, device_name, device_secret, state, batch_id, device_sn)
    select r.id, 1, ${cloudProductId}, r.name, r.secret, 3, ${batchId}::bigint, r.sn
    from json_to_recordset(${JSON.stringify(records)}::json) as r(id bigint, name text, secret text, sn text)`);
  await h.server.ctx.db.execute(sql`
    update ymy_factory_device d set certificate_id = c.id, burn_time = now()
    from ymy_cert c where c.device_sn = d.sn and d.batch_id = ${batchId}::bigint`);
  if (opts.version) {
    await h.server.ctx.db.execute(sql`
      insert into ymy_device_status (id, sn, product_id, firmware_version, versions)
      select id, sn, product_id, ${opts.version}, ${JSON.stringify({ mcu: opts.version })}::jsonb from ymy_factory_device where batch_id = ${batchId}::bigint`);
  }
  return { typeId, productId, productName: `产品${tag}`, cloudProductId, batchId, batchNo, devices };
}

/** A firmware of the product, its file uploaded through put-file (multipart), then published. */
export async function publishedFirmware(h: Harness, token: string, productId: string, version: string, bytes = randomBytes(4096)): Promise<string> {
  const boundary = `----fw${randomBytes(6).toString('hex')}`;
  const part = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const payload = Buffer.concat([
    Buffer.from(part('productId', productId) + part('moduleType', 'mcu') + part('version', version)
      + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="fw-${version}.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await h.server.app.inject({
    method: 'POST', url: '/api/ymy-firmware/firmware/submit', payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'blade-auth': `bearer ${token}`, authorization: BASIC },
  });
  if (res.statusCode !== 200) throw new Error(`firmware fixture: ${res.statusCode} ${res.body}`);
  const id = (res.json() as { data: Row }).data.id;
  const pub = await h.call('POST', '/api/ymy-firmware/firmware/publish', { token, query: { id } });
  if (pub.status !== 200) throw new Error(`firmware fixture: publish ${pub.body.msg}`);
  return id;
}

/** Delivers the next `quantity` devices of the fleet's batch to a tenant (a delivery through the API), answering its id. */
export async function deliverFleet(h: Harness, token: string, fleet: Fleet, tenantId: string, quantity = fleet.devices.length): Promise<string> {
  const res = await h.call<Row>('POST', '/api/ymy-product/deliver/submit', {
    token, body: { productId: fleet.productId, batchId: fleet.batchId, customerTenantId: tenantId, quantity, deliverTime: '2026-11-20 10:00:00' },
  });
  if (res.status !== 200) throw new Error(`fleet fixture: delivery ${res.status} ${res.body.msg}`);
  return res.body.data.id;
}
