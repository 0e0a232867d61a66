import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Fleet, makeFleet, publishedFirmware } from './device-fixture.js';
import { useServer } from './harness.js';
import { grantCodes } from './io-resource.js';

/** Firmware (issue 11): the binary uploaded with the record, measured by the server, moved draft → published → withdrawn. */

type Row = Record<string, unknown> & { id: string };
const FW = '/api/ymy-firmware/firmware';

const h = useServer();
let admin: string;
let tenantAdmin: string;
let fleet: Fleet;

beforeAll(async () => {
  admin = (await h.login('000000', 'admin', 'admin')).access_token;
  tenantAdmin = (await h.login('541742', 'admin', 'admin')).access_token;
  fleet = await makeFleet(h, admin, { count: 2, tag: 'fw' });
});

const detail = async (id: string, token = admin) => h.call<Row>('GET', `${FW}/detail`, { token, query: { id } });

describe('firmware', () => {
  it('stores the binary with the record; size, SHA-256 and MD5 are the server\'s, whatever the client says', async () => {
    const bytes = randomBytes(70_000);
    const id = await publishedFirmware(h, admin, fleet.productId, '3.1.0', bytes);
    const fw = (await detail(id)).body.data;
    expect(fw).toMatchObject({
      version: '3.1.0', moduleType: 'mcu', state: 2, stateName: '已发布', fileSize: 70_000,
      sha256: createHash('sha256').update(bytes).digest('hex'), md5: createHash('md5').update(bytes).digest('hex'),
    });
    expect(fw.publishTime).toBeTruthy();
    const served = await h.server.app.inject({ method: 'GET', url: String(fw.file) });
    expect(Buffer.compare(served.rawPayload, bytes)).toBe(0);

    // a client claiming other digests, or another state, changes nothing
    const claimed = await h.call<Row>('POST', `${FW}/submit`, { token: admin, body: { id, sha256: '0'.repeat(64), md5: '0'.repeat(32), fileSize: 1, state: 1, releaseNotes: '修复低电量误报' } });
    expect(claimed.status, claimed.body.msg).toBe(200);
    expect((await detail(id)).body.data).toMatchObject({ sha256: fw.sha256, md5: fw.md5, fileSize: 70_000, state: 2, releaseNotes: '修复低电量误报' });
  });

  it('refuses a file this server did not store, a changed file once published, and a second publish or withdraw', async () => {
    const external = await h.call('POST', `${FW}/submit`, { token: admin, body: { productId: fleet.productId, moduleType: 'wifi', version: '9.9.9', file: 'https://example.com/fw.bin' } });
    expect(external.status).toBe(400);
    expect(Object.keys(external.body.data as object)).toEqual(['file']);

    const id = await publishedFirmware(h, admin, fleet.productId, '3.2.0');
    const other = (await detail(await publishedFirmware(h, admin, fleet.productId, '3.2.1'))).body.data;
    const swapped = await h.call('POST', `${FW}/submit`, { token: admin, body: { id, file: other.file }, lang: 'en' });
    expect(swapped.status).toBe(400);
    expect(swapped.body.msg).toContain('cannot change');
    expect((await h.call('POST', `${FW}/publish`, { token: admin, query: { id } })).status).toBe(400);
    expect((await h.call('POST', `${FW}/withdraw`, { token: admin, query: { id } })).status).toBe(200);
    expect((await detail(id)).body.data.state).toBe(3);
    expect((await h.call('POST', `${FW}/withdraw`, { token: admin, query: { id } })).status).toBe(400);
    expect((await h.call('POST', `${FW}/publish`, { token: admin, query: { id: '1' } })).status).toBe(404);
  });

  it('one version per product and module; a published version, or one a running task uses, is not removed', async () => {
    const id = await publishedFirmware(h, admin, fleet.productId, '3.3.0');
    await expect(publishedFirmware(h, admin, fleet.productId, '3.3.0')).rejects.toThrow(/409/);
    const removePublished = await h.call('POST', `${FW}/remove`, { token: admin, query: { ids: id } });
    expect(removePublished.status).toBe(400);
    const task = await h.call<Row>('POST', '/api/omc-device/ota-task/submit', { token: admin, body: { taskName: '占用', firmwareId: id, scope: 'all', rateLimit: 10 } });
    expect(task.status, task.body.msg).toBe(200);
    await h.call('POST', `${FW}/withdraw`, { token: admin, query: { id } });
    const inUse = await h.call('POST', `${FW}/remove`, { token: admin, query: { ids: id } });
    expect(inUse.status).toBe(400);
    expect(inUse.body.msg).toContain('占用');
    await h.call('POST', '/api/omc-device/ota-task/cancel', { token: admin, query: { id: task.body.data.id } });
    expect((await h.call('POST', `${FW}/remove`, { token: admin, query: { ids: id } })).status).toBe(200);
  });

  it('is the platform\'s to write; a tenant reads the firmware of its authorised product types only', async () => {
    const id = await publishedFirmware(h, admin, fleet.productId, '3.4.0');
    await grantCodes(h.server, ['firmware', 'firmware_add', 'firmware_edit', 'firmware_publish'], ['admin']);
    expect((await detail(id, tenantAdmin)).status).toBe(404);
    await h.server.ctx.db.execute(sql`insert into ymy_product_auth (id, tenant_id, type_id) values (${String(Date.now())}::bigint, '541742', ${fleet.typeId}::bigint)`);
    expect((await detail(id, tenantAdmin)).status).toBe(200);
    expect((await h.call('POST', `${FW}/publish`, { token: tenantAdmin, query: { id } })).status).toBe(403);
    expect((await h.call('POST', `${FW}/submit`, { token: tenantAdmin, body: { id, releaseNotes: 'x' } })).status).toBe(403);
    expect((await h.call('POST', `${FW}/withdraw`, { query: { id } })).status).toBe(401);
  });
});
