import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fleet, makeFleet, publishedFirmware } from './device-fixture.js';
import { BASIC, useServer } from './harness.js';

/**
 * The IPC firmware-cloud operations (issue 11) behind one interface: this server's own storage by default
 * (a presigned PUT link, the firmware register, one-device OTA tasks), Tencent IoT Explorer through its SDK
 * against a stand-in on this machine (FIRMWARE_CLOUD=tencent), and a clear refusal when that cloud has no keys.
 */
type Row = Record<string, unknown> & { id: string };
const IPC = '/sc/ymy-ipc/back';
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

const readBody = (req: IncomingMessage) => new Promise<Buffer>((resolve) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => resolve(Buffer.concat(chunks)));
});

/** Tencent IoT Explorer and its COS bucket, as far as the firmware calls go */
const calls: Array<{ action: string; params: Record<string, unknown>; signed: boolean }> = [];
const bucket = new Map<string, Buffer>();
const tencent = createServer(async (req, res) => {
  const body = await readBody(req);
  if (req.method === 'PUT') {
    bucket.set(req.url ?? '', body);
    res.end();
    return;
  }
  const action = String(req.headers['x-tc-action']);
  const params = JSON.parse(body.toString() || '{}') as Record<string, unknown>;
  calls.push({ action, params, signed: String(req.headers.authorization).startsWith('TC3-HMAC-SHA256 Credential=AKIDfw/') });
  const port = (tencent.address() as AddressInfo).port;
  const answers: Record<string, unknown> = {
    GetCOSURL: { Url: `http://127.0.0.1:${port}/cos/${String(params.ProductID)}/${String(params.FirmwareVersion)}?sign=x` },
    UploadFirmware: {},
    ListFirmwares: { TotalCount: 1, Firmwares: [{ Version: '5.0.0', Md5sum: 'a'.repeat(32), CreateTime: 1_700_000_000, ProductName: '云锁', Name: 'v5', Description: '', ProductId: 'TCPROD0001', FwType: 'mcu' }] },
    DescribeFirmwareTask: { TaskId: 7, Status: 1, ProductId: 'TCPROD0001', UpgradeMode: 'devicenames' },
    UpdateFirmware: {},
  };
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ Response: action in answers ? { ...(answers[action] as object), RequestId: 'r1' } : { Error: { Code: 'InvalidAction', Message: `unknown ${action}` }, RequestId: 'r2' } }));
});
const tencentPort = await new Promise<number>((resolve) => tencent.listen(0, '127.0.0.1', () => resolve((tencent.address() as AddressInfo).port)));
afterAll(() => void tencent.close());

describe('own storage (the default)', () => {
  const h = useServer();
  let admin: string;
  let tenantAdmin: string;
  let fleet: Fleet;
  const bytes = randomBytes(30_000);

  beforeAll(async () => {
    admin = (await h.login('000000', 'admin', 'admin')).access_token;
    tenantAdmin = (await h.login('541742', 'admin', 'admin')).access_token;
    fleet = await makeFleet(h, admin, { count: 2, tag: 'fc', version: '1.0.0' });
  });

  const put = (url: string, body: Buffer) => {
    const u = new URL(url);
    return h.server.app.inject({ method: 'PUT', url: u.pathname + u.search, payload: body, headers: { 'content-type': 'application/octet-stream' } });
  };

  it('hands out an upload link, takes the bytes PUT to it, and registers the version with the digests it measured', async () => {
    const link = await h.call<{ Url: string }>('POST', `${IPC}/GetCOSURL`, { token: admin, body: { ProductID: fleet.cloudProductId, FirmwareVersion: '2.0.0', FileSize: bytes.length } });
    expect(link.status, link.body.msg).toBe(200);
    expect(link.body.data.Url).toMatch(/\/sc\/ymy-ipc\/back\/firmware-file\?token=/);

    expect((await put(link.body.data.Url.replace(/token=./, 'token=X'), bytes)).statusCode).toBe(400);
    const stored = await put(link.body.data.Url, bytes);
    expect(stored.statusCode, stored.body).toBe(200);
    expect(stored.json().data).toEqual({ size: bytes.length, md5: md5(bytes) });

    const wrongMd5 = await h.call('POST', `${IPC}/UploadFirmware`, { token: admin, lang: 'en', body: { ProductID: fleet.cloudProductId, FirmwareVersion: '2.0.0', Md5sum: '0'.repeat(32), FileSize: bytes.length } });
    expect(wrongMd5.status).toBe(400);
    expect(wrongMd5.body.msg).toContain(md5(bytes));
    const wrongSize = await h.call('POST', `${IPC}/UploadFirmware`, { token: admin, body: { ProductID: fleet.cloudProductId, FirmwareVersion: '2.0.0', Md5sum: md5(bytes), FileSize: 5 } });
    expect(wrongSize.status).toBe(400);
    // another administrator registering the same version does not take this caller's file
    await h.createUser('000000', 'fwother', 'FwOther#2026', ['administrator']);
    const other = (await h.login('000000', 'fwother', 'FwOther#2026')).access_token;
    const notTheirs = await h.call('POST', `${IPC}/UploadFirmware`, { token: other, lang: 'en', body: { ProductID: fleet.cloudProductId, FirmwareVersion: '2.0.0', Md5sum: md5(bytes), FileSize: bytes.length } });
    expect(notTheirs.status).toBe(400);
    expect(notTheirs.body.msg).toContain('GetCOSURL');

    const registered = await h.call<{ FirmwareId: string }>('POST', `${IPC}/UploadFirmware`, {
      token: admin, body: { ProductID: fleet.cloudProductId, FirmwareVersion: '2.0.0', Md5sum: md5(bytes).toUpperCase(), FileSize: bytes.length, FirmwareDescription: '修复指纹识别' },
    });
    expect(registered.status, registered.body.msg).toBe(200);
    const fw = await h.call<Row>('GET', '/api/ymy-firmware/firmware/detail', { token: admin, query: { id: registered.body.data.FirmwareId } });
    expect(fw.body.data).toMatchObject({ productId: fleet.productId, version: '2.0.0', moduleType: 'mcu', state: 1, fileSize: bytes.length, md5: md5(bytes), releaseNotes: '修复指纹识别' });
    const served = await h.server.app.inject({ method: 'GET', url: String(fw.body.data.file) });
    expect(Buffer.compare(served.rawPayload, bytes)).toBe(0);

    // the upload is spent: a second registration finds no file
    const again = await h.call('POST', `${IPC}/UploadFirmware`, { token: admin, lang: 'en', body: { ProductID: fleet.productId, FirmwareVersion: '2.0.0', Md5sum: md5(bytes), FileSize: bytes.length } });
    expect(again.status).toBe(400);
    expect(again.body.msg).toContain('GetCOSURL');
  });

  it('refuses a file of another size than announced, an unknown product, and a registration the firmware register refuses', async () => {
    const link = await h.call<{ Url: string }>('POST', `${IPC}/GetCOSURL`, { token: admin, body: { ProductID: fleet.productId, FirmwareVersion: '2.0.1', FileSize: 10 } });
    const res = await put(link.body.data.Url, randomBytes(11));
    expect(res.statusCode).toBe(400);
    expect((await h.call('POST', `${IPC}/GetCOSURL`, { token: admin, body: { ProductID: 'NOSUCHPROD', FirmwareVersion: '1' } })).status).toBe(400);

    // version 2.0.0 exists: the register's own uniqueness answers
    const dup = await h.call<{ Url: string }>('POST', `${IPC}/GetCOSURL`, { token: admin, body: { ProductID: fleet.cloudProductId, FirmwareVersion: '2.0.0' } });
    expect((await put(dup.body.data.Url, bytes)).statusCode).toBe(200);
    const taken = await h.call('POST', `${IPC}/UploadFirmware`, { token: admin, body: { ProductID: fleet.cloudProductId, FirmwareVersion: '2.0.0', Md5sum: md5(bytes), FileSize: bytes.length } });
    expect(taken.status).toBe(409);
    const bad = await h.call('POST', `${IPC}/UploadFirmware`, { token: admin, body: { ProductID: fleet.cloudProductId, FirmwareVersion: '2.0.0', Md5sum: 'xyz', FileSize: 0 } });
    expect(bad.status).toBe(400);
  });

  it('lists versions in the cloud\'s shape, filtered by version and module', async () => {
    await publishedFirmware(h, admin, fleet.productId, '2.1.0');
    const all = await h.call<{ TotalCount: number; Firmwares: Row[] }>('POST', `${IPC}/ListFirmwares`, { token: admin, body: { PageNum: 1, PageSize: 10, ProductID: fleet.cloudProductId } });
    expect(all.status, all.body.msg).toBe(200);
    expect(all.body.data.TotalCount).toBe(2);
    expect(all.body.data.Firmwares.map((f) => f.Version).sort()).toEqual(['2.0.0', '2.1.0']);
    expect(all.body.data.Firmwares[0]).toMatchObject({ ProductId: fleet.cloudProductId, FwType: 'mcu' });
    const filtered = await h.call<{ TotalCount: number }>('POST', `${IPC}/ListFirmwares`, {
      token: admin, body: { PageNum: 1, PageSize: 10, ProductID: fleet.cloudProductId, Filters: [{ Name: 'Version', Values: ['2.1'] }] },
    });
    expect(filtered.body.data.TotalCount).toBe(1);
    const beyond = await h.call<{ TotalCount: number; Firmwares: Row[] }>('POST', `${IPC}/ListFirmwares`, { token: admin, body: { PageNum: 9, PageSize: 10, ProductID: fleet.cloudProductId } });
    expect(beyond.body.data).toEqual({ TotalCount: 2, Firmwares: [] });
    const unknown = await h.call('POST', `${IPC}/ListFirmwares`, { token: admin, body: { Filters: [{ Name: 'Colour', Values: ['red'] }] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toContain('Colour');
  });

  it('upgrades one device through an OTA task of its own, checks the version it runs, and describes the task', async () => {
    const sn = fleet.devices[0]!.sn;
    const wrongOrigin = await h.call('POST', `${IPC}/UpdateFirmware`, { token: admin, body: { ProductID: fleet.cloudProductId, DeviceName: sn, FirmwareVersion: '2.1.0', FirmwareOriVersion: '0.9.0' } });
    expect(wrongOrigin.status).toBe(400);
    expect(wrongOrigin.body.msg).toContain('1.0.0');
    const draft = await h.call('POST', `${IPC}/UpdateFirmware`, { token: admin, body: { ProductID: fleet.cloudProductId, DeviceName: sn, FirmwareVersion: '2.0.0', FirmwareOriVersion: '1.0.0' } });
    expect(draft.status).toBe(400);

    const started = await h.call<{ TaskId: string }>('POST', `${IPC}/UpdateFirmware`, { token: admin, body: { ProductID: fleet.cloudProductId, DeviceName: sn.toLowerCase(), FirmwareVersion: '2.1.0', FirmwareOriVersion: '1.0.0' } });
    expect(started.status, started.body.msg).toBe(200);
    const task = await h.call<Row>('GET', '/api/omc-device/ota-task/detail', { token: admin, query: { id: started.body.data.TaskId } });
    expect(task.body.data).toMatchObject({ scope: 'selected', deviceSns: sn, toVersion: '2.1.0', total: 1, state: 'running' });

    const described = await h.call<Row>('POST', `${IPC}/DescribeFirmwareTask`, { token: admin, body: { ProductID: fleet.cloudProductId, FirmwareVersion: '2.1.0', TaskId: started.body.data.TaskId } });
    expect(described.status, described.body.msg).toBe(200);
    expect(described.body.data).toMatchObject({ TaskId: started.body.data.TaskId, Status: 1, UpgradeMode: 'devicenames', ProductId: fleet.cloudProductId, Total: 1 });
    expect((await h.call('POST', `${IPC}/DescribeFirmwareTask`, { token: admin, body: { ProductID: fleet.cloudProductId, FirmwareVersion: '9.9.9', TaskId: started.body.data.TaskId } })).status).toBe(400);
    expect((await h.call('POST', `${IPC}/DescribeFirmwareTask`, { token: admin, body: { ProductID: fleet.cloudProductId, FirmwareVersion: '2.1.0', TaskId: 1 } })).status).toBe(404);
    await h.call('POST', '/api/omc-device/ota-task/cancel', { token: admin, query: { id: started.body.data.TaskId } });
  });

  it('has nothing to upload to a cloud: 上传云端 says where firmware lives and how to choose Tencent', async () => {
    const id = await publishedFirmware(h, admin, fleet.productId, '2.2.0');
    const res = await h.call('POST', '/api/ymy-firmware/firmware/cloud-upload', { token: admin, query: { id } });
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain('FIRMWARE_CLOUD=tencent');
  });

  it('is the platform\'s, behind firmware_cloud; an upload link is refused once expired or altered', async () => {
    for (const op of ['GetCOSURL', 'UploadFirmware', 'ListFirmwares', 'DescribeFirmwareTask', 'UpdateFirmware']) {
      expect((await h.call('POST', `${IPC}/${op}`, { token: tenantAdmin, body: {} })).status, op).toBe(403);
      expect((await h.call('POST', `/tc/ymy-ipc/back/${op}`, { body: {} })).status, op).toBe(401);
    }
    const noGrant = await h.server.app.inject({ method: 'PUT', url: `${IPC}/firmware-file`, payload: bytes, headers: { authorization: BASIC } });
    expect(noGrant.statusCode).toBe(400);
    const { readGrant, signGrant } = await import('../src/areas/device/firmwareCloud.js');
    const user = { tenantId: '000000', userId: '1', deptId: '', roleIds: [], roleAliases: [], account: 'a', userName: 'a', clientId: 'saber', sessionId: 's' };
    const expired = signGrant(h.server.ctx, { user, productId: fleet.productId, moduleType: 'mcu', version: '7', exp: Math.floor(Date.now() / 1000) - 1 });
    expect(readGrant(h.server.ctx, expired)).toBeNull();
    const live = signGrant(h.server.ctx, { user, productId: fleet.productId, moduleType: 'mcu', version: '7', exp: Math.floor(Date.now() / 1000) + 60 });
    expect(readGrant(h.server.ctx, live)?.version).toBe('7');
    const [body, mac] = live.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), version: '8' })).toString('base64url');
    expect(readGrant(h.server.ctx, `${forged}.${mac}`)).toBeNull();
  });
});

describe('Tencent IoT Explorer (FIRMWARE_CLOUD=tencent)', () => {
  const h = useServer({ FIRMWARE_CLOUD: 'tencent', TENCENT_IOT_SECRET_ID: 'AKIDfw', TENCENT_IOT_SECRET_KEY: 'fw-secret', TENCENT_IOT_ENDPOINT: `http://127.0.0.1:${tencentPort}` });
  let admin: string;
  let fleet: Fleet;

  beforeAll(async () => {
    admin = (await h.login('000000', 'admin', 'admin')).access_token;
    fleet = await makeFleet(h, admin, { count: 1, tag: 'tc' });
  });

  it('uploads a version to the cloud: GetCOSURL, the bytes PUT to its URL, UploadFirmware with their MD5', async () => {
    const bytes = randomBytes(20_000);
    const id = await publishedFirmware(h, admin, fleet.productId, '3.0.0', bytes);
    const res = await h.call<{ cloud: string; cloudFirmwareId: string }>('POST', '/api/ymy-firmware/firmware/cloud-upload', { token: admin, query: { id } });
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.data.cloudFirmwareId).toBe(`${fleet.cloudProductId}/mcu/3.0.0`);
    expect(bucket.get(`/cos/${fleet.cloudProductId}/3.0.0?sign=x`)?.equals(bytes)).toBe(true);
    expect(calls.find((c) => c.action === 'GetCOSURL')).toMatchObject({ signed: true, params: { ProductID: fleet.cloudProductId, FirmwareVersion: '3.0.0', FileSize: 20_000 } });
    expect(calls.find((c) => c.action === 'UploadFirmware')?.params).toMatchObject({ ProductID: fleet.cloudProductId, Md5sum: md5(bytes), FileSize: 20_000, FwType: 'mcu' });
    const fw = await h.call<Row>('GET', '/api/ymy-firmware/firmware/detail', { token: admin, query: { id } });
    expect(fw.body.data).toMatchObject({ cloudVendor: 1, cloudFirmwareId: `${fleet.cloudProductId}/mcu/3.0.0` });

    // a withdrawn version is not pushed, whatever the screen shows
    await h.call('POST', '/api/ymy-firmware/firmware/withdraw', { token: admin, query: { id } });
    const uploads = calls.filter((c) => c.action === 'UploadFirmware').length;
    const withdrawn = await h.call('POST', '/api/ymy-firmware/firmware/cloud-upload', { token: admin, query: { id }, lang: 'en' });
    expect(withdrawn.status).toBe(400);
    expect(withdrawn.body.msg).toContain('withdrawn');
    expect(calls.filter((c) => c.action === 'UploadFirmware')).toHaveLength(uploads);
  });

  it('offers 上传云端 (the firmware_cloud button)', async () => {
    type Node = { code: string; children?: Node[] };
    const codes = (nodes: Node[]): string[] => nodes.flatMap((n) => [n.code, ...codes(n.children ?? [])]);
    expect(codes((await h.call<Node[]>('GET', '/api/blade-system/menu/buttons', { token: admin })).body.data)).toContain('firmware_cloud');
  });

  it('passes the IPC operations to the cloud, naming a product here by its cloud product id', async () => {
    const list = await h.call<{ TotalCount: number; Firmwares: Row[] }>('POST', `${IPC}/ListFirmwares`, { token: admin, body: { PageNum: 1, PageSize: 10, ProductID: fleet.productId } });
    expect(list.status, list.body.msg).toBe(200);
    expect(list.body.data).toMatchObject({ TotalCount: 1, Firmwares: [{ Version: '5.0.0', ProductId: 'TCPROD0001' }] });
    expect(calls.at(-1)).toMatchObject({ action: 'ListFirmwares', params: { ProductID: fleet.cloudProductId, PageNum: 1 } });
    const task = await h.call<Row>('POST', `${IPC}/DescribeFirmwareTask`, { token: admin, body: { ProductID: 'TCPROD0001', FirmwareVersion: '5.0.0', TaskId: 7 } });
    expect(task.body.data).toMatchObject({ TaskId: 7, Status: 1 });
    const update = await h.call('POST', `${IPC}/UpdateFirmware`, { token: admin, body: { ProductID: 'TCPROD0001', DeviceName: 'dev1', FirmwareVersion: '5.0.0', FirmwareOriVersion: '4.0.0' } });
    expect(update.status, update.body.msg).toBe(200);
    expect(calls.at(-1)).toMatchObject({ action: 'UpdateFirmware', params: { DeviceName: 'dev1', FirmwareOriVersion: '4.0.0' } });
  });
});

describe('Tencent chosen without keys', () => {
  const h = useServer({ FIRMWARE_CLOUD: 'tencent' });
  it('names the missing setting, and calls nobody', async () => {
    const admin = (await h.login('000000', 'admin', 'admin')).access_token;
    const before = calls.length;
    const res = await h.call('POST', `${IPC}/ListFirmwares`, { token: admin, body: {} });
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain('TENCENT_IOT_SECRET_ID');
    expect(calls.length).toBe(before);
  });
});
