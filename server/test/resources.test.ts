import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { msg, type Page, type UploadedFile } from '@console/contract';
import { eq } from 'drizzle-orm';
// @ts-expect-error s3rver ships no types
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTenant } from '../src/core/db/index.js';
import { attach, oss, sms } from '../src/areas/resource/tables.js';
import { BASIC, type Harness, useServer } from './harness.js';

const PLATFORM = '000000';
const DEMO = '541742';
const SECRET = `sk-${randomBytes(12).toString('hex')}`;
const ACCESS = `ak-${randomBytes(12).toString('hex')}`;

/** A local stand-in for the SMS providers' APIs: records each request, answers as the provider does. */
const calls: Array<{ url: string; headers: Record<string, unknown>; body: string }> = [];
let provider: HttpServer;
let providerUrl = '';
/** A real S3-compatible server (s3rver), in-process on loopback. */
let s3: { run(): Promise<{ port: number }>; close(): Promise<void> };
let s3Dir = '';
let s3Url = '';

beforeAll(async () => {
  provider = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      calls.push({ url: req.url ?? '', headers: req.headers, body });
      res.setHeader('content-type', 'application/json');
      if (req.headers['x-tc-action'] === 'SendSms') {
        const set = (JSON.parse(body) as { PhoneNumberSet: string[] }).PhoneNumberSet;
        res.end(JSON.stringify({ Response: { RequestId: 'tc-req', SendStatusSet: set.map((p) => ({ PhoneNumber: p, Code: p.endsWith('0000') ? 'LimitExceeded' : 'Ok', Message: 'm' })) } }));
      } else {
        const ok = !(req.url ?? '').includes('SignName=Bad');
        res.end(JSON.stringify(ok ? { Code: 'OK', Message: 'OK', BizId: 'ali-biz', RequestId: 'r' } : { Code: 'isv.SMS_SIGNATURE_ILLEGAL', Message: 'bad signature', RequestId: 'r' }));
      }
    });
  });
  await new Promise<void>((r) => provider.listen(0, '127.0.0.1', r));
  providerUrl = `http://127.0.0.1:${(provider.address() as { port: number }).port}`;
  s3Dir = await mkdtemp(join(tmpdir(), 'console-s3-'));
  s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3Dir, configureBuckets: [{ name: 'console' }] });
  const { port } = await s3.run();
  s3Url = `http://127.0.0.1:${port}`;
}, 60_000);

afterAll(async () => {
  await s3?.close();
  await new Promise((r) => provider?.close(r));
  await rm(s3Dir, { recursive: true, force: true });
});

// the local S3 stand-in listens on loopback, which a tenant's storage endpoint may reach only when the operator lists it
const h = useServer({ OUTBOUND_ALLOW_HOSTS: '127.0.0.1' });
let admin: string;
let demo: string;
let demoUser: string;

beforeAll(async () => {
  // the provider's address is known only now: point the server's SMS endpoints at it
  h.server.ctx.config.smsEndpoints = { aliyun: providerUrl, tencent: providerUrl };
  admin = (await h.login(PLATFORM, 'admin', 'admin')).access_token;
  demo = (await h.login(DEMO, 'admin', 'admin')).access_token;
  await h.createUser(DEMO, 'plainuser', 'pw', ['user']);
  demoUser = (await h.login(DEMO, 'plainuser', 'pw')).access_token;
});

/** Every answer of the file must leave the secret out: checked on each call's raw body. */
const answers: string[] = [];
async function call<T = unknown>(method: 'GET' | 'POST', url: string, opts: Parameters<Harness['call']>[2] = {}) {
  const res = await h.call<T>(method, url, opts);
  answers.push(res.raw.body);
  return res;
}

type Config = Record<string, unknown> & { id: string; status: number; accessKey: string | null; secretKey: string | null };
const SMS = '/api/blade-resource/sms';
const OSS = '/api/blade-resource/oss';

describe('SMS configurations', () => {
  let logOne: Config;
  let ali: Config;

  it('creates configurations disabled, keys sealed at rest and answered as ******', async () => {
    const created = await call<Config>('POST', `${SMS}/submit`, { token: demo, body: { smsCode: 'log', category: 9, templateId: 'T1', status: 2 } });
    expect(created.status).toBe(200);
    logOne = created.body.data;
    expect(logOne).toMatchObject({ status: 1, statusName: '否', categoryName: '仅记录日志', accessKey: null });
    const a = await call<Config>('POST', `${SMS}/submit`, {
      token: demo, body: { smsCode: 'ali', category: 1, templateId: 'SMS_1', signName: 'Lock', accessKey: ACCESS, secretKey: SECRET },
    });
    expect(a.status).toBe(200);
    ali = a.body.data;
    expect(ali).toMatchObject({ accessKey: '******', secretKey: '******' });
    const [stored] = await inTenant(h.server.ctx.db, { tenantId: DEMO }, (tx) => tx.select().from(sms).where(eq(sms.id, ali.id)));
    expect(stored!.secretKey).toMatch(/^v1:/);
    expect(stored!.secretKey).not.toContain(SECRET);
    expect(stored!.accessKey).not.toContain(ACCESS);
  });

  it('refuses bad input naming the field', async () => {
    const missing = await call('POST', `${SMS}/submit`, { token: demo, body: { category: 1, templateId: 'x' }, lang: 'en' });
    expect(missing.status).toBe(400);
    expect(missing.body.data).toHaveProperty('smsCode');
    const noKeys = await call('POST', `${SMS}/submit`, { token: demo, body: { smsCode: 'k', category: 2, templateId: 'x', signName: 's' } });
    expect(noKeys.status).toBe(400);
    expect(Object.keys(noKeys.body.data as object)).toEqual(['accessKey']);
    const badCategory = await call('POST', `${SMS}/submit`, { token: demo, body: { smsCode: 'k', category: 5, templateId: 'x' } });
    expect(badCategory.status).toBe(400);
    expect(badCategory.body.data).toHaveProperty('category');
    const dup = await call('POST', `${SMS}/submit`, { token: demo, body: { smsCode: 'ali', category: 9, templateId: 'x' } });
    expect(dup.status).toBe(409);
    expect((await call('POST', `${SMS}/enable`, { token: demo, query: { id: 'abc' } })).status).toBe(400);
  });

  it('keeps the stored secret when an edit sends back ****** or nothing, and replaces it when a new one is sent', async () => {
    const detail = await call<Config>('GET', `${SMS}/detail`, { token: demo, query: { id: ali.id } });
    expect(detail.body.data).toMatchObject({ accessKey: '******', secretKey: '******' });
    const echoed = await call<Config>('POST', `${SMS}/submit`, { token: demo, body: { ...detail.body.data, remark: 'edited' } });
    expect(echoed.status).toBe(200);
    const blank = await call<Config>('POST', `${SMS}/submit`, { token: demo, body: { id: ali.id, secretKey: '' } });
    expect(blank.status).toBe(200);
    const [kept] = await inTenant(h.server.ctx.db, { tenantId: DEMO }, (tx) => tx.select().from(sms).where(eq(sms.id, ali.id)));
    const { unseal } = await import('../src/core/secrets.js');
    expect(unseal(h.server.ctx.config.encryptionKey, kept!.secretKey!)).toBe(SECRET);
    expect(kept!.remark).toBe('edited');
    const list = await call<Page<Config>>('GET', `${SMS}/list`, { token: demo, query: { smsCode: 'ali' } });
    expect(list.body.data.records[0]).toMatchObject({ smsCode: 'ali', secretKey: '******' });
    // a secret is no filter
    expect((await call('GET', `${SMS}/list`, { token: demo, query: { secretKey: SECRET } })).status).toBe(400);
  });

  it('enables one configuration at a time per tenant', async () => {
    expect((await call('POST', `${SMS}/enable`, { token: demo, query: { id: logOne.id } })).status).toBe(200);
    expect((await call('POST', `${SMS}/enable`, { token: demo, query: { id: ali.id } })).status).toBe(200);
    const rows = (await call<Page<Config>>('GET', `${SMS}/list`, { token: demo })).body.data.records;
    expect(rows.filter((r) => r.status === 2).map((r) => r.id)).toEqual([ali.id]);
    // an edit cannot enable a second one behind enable's back
    await call('POST', `${SMS}/submit`, { token: demo, body: { id: logOne.id, status: 2 } });
    expect((await call<Config>('GET', `${SMS}/detail`, { token: demo, query: { id: logOne.id } })).body.data.status).toBe(1);
    // concurrent enables still leave exactly one
    await Promise.all([logOne.id, ali.id, logOne.id, ali.id].map((id) => call('POST', `${SMS}/enable`, { token: demo, query: { id } })));
    const after = (await call<Page<Config>>('GET', `${SMS}/list`, { token: demo })).body.data.records;
    expect(after.filter((r) => r.status === 2)).toHaveLength(1);
    // the database refuses a second enabled row whatever the code does
    await expect(inTenant(h.server.ctx.db, { tenantId: DEMO }, (tx) => tx.update(sms).set({ status: 2 }).where(eq(sms.tenantId, DEMO)))).rejects.toThrow();
    expect((await call('POST', `${SMS}/enable`, { token: demo, query: { id: ali.id } })).status).toBe(200);
  });

  it('sends through the log provider: the message lands in the usual log', async () => {
    const sent = await call('POST', `${SMS}/endpoint/send-message`, { token: demo, query: { code: 'log', phones: '13800138000,13900139000', params: '{"code":"4321"}' } });
    expect(sent.status).toBe(200);
    expect(sent.body.data).toEqual({ success: true, code: 'OK', msg: 'logged' });
    await h.server.ctx.logs.flush();
    const logs = await call<Page<{ logData: string }>>('GET', '/api/blade-log/usual/list', { token: demo, query: { logId_equal: 'sms' } });
    expect(logs.body.data.records[0]!.logData).toContain('4321');
    expect(logs.body.data.records[0]!.logData).toContain('*******8000');
  });

  it('sends through Aliyun\'s SDK to the configured endpoint, signed with the stored keys', async () => {
    calls.length = 0;
    const sent = await call('POST', `${SMS}/endpoint/send-message`, { token: demo, body: { phones: ['13800138000'], params: { code: '9876' } } });
    expect(sent.status).toBe(200);
    expect(sent.body.data).toEqual({ success: true, code: 'OK', msg: 'ali-biz' });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toContain('PhoneNumbers=13800138000');
    expect(decodeURIComponent(calls[0]!.url)).toContain('TemplateParam={"code":"9876"}');
    expect(String(calls[0]!.headers.authorization)).toContain(ACCESS);
    expect(JSON.stringify(calls[0])).not.toContain(SECRET);
    // the provider's refusal is a 400 with its reason
    await call('POST', `${SMS}/submit`, { token: demo, body: { id: ali.id, signName: 'Bad' } });
    const refused = await call('POST', `${SMS}/endpoint/send-message`, { token: demo, query: { phones: '13800138000' } });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toContain('SMS_SIGNATURE_ILLEGAL');
  });

  it('sends through Tencent Cloud\'s SDK with positional parameters', async () => {
    const tc = await call<Config>('POST', `${SMS}/submit`, {
      token: demo, body: { smsCode: 'tc', category: 2, templateId: '1001', signName: 'Lock', appId: '1400000001', accessKey: ACCESS, secretKey: SECRET },
    });
    expect(tc.status).toBe(200);
    calls.length = 0;
    const sent = await call('POST', `${SMS}/endpoint/send-message`, { token: demo, query: { code: 'tc', phones: '+8613800138000', params: '{"a":"1","b":2}' } });
    expect(sent.body.data).toEqual({ success: true, code: 'OK', msg: 'tc-req' });
    expect(JSON.parse(calls[0]!.body)).toMatchObject({ PhoneNumberSet: ['+8613800138000'], SmsSdkAppId: '1400000001', TemplateId: '1001', TemplateParamSet: ['1', '2'] });
    const partial = await call('POST', `${SMS}/endpoint/send-message`, { token: demo, query: { code: 'tc', phones: '+8613800000000' } });
    expect(partial.status).toBe(400);
    expect(partial.body.msg).toContain('LimitExceeded');
  });

  it('refuses bad phones, parameters and unknown codes naming the field', async () => {
    const bad = await call('POST', `${SMS}/endpoint/send-message`, { token: demo, query: { code: 'log', phones: '12ab' } });
    expect(bad.status).toBe(400);
    expect(bad.body.data).toHaveProperty('phones');
    const params = await call('POST', `${SMS}/endpoint/send-message`, { token: demo, query: { code: 'log', phones: '13800138000', params: '[1]' } });
    expect(params.body.data).toHaveProperty('params');
    const unknown = await call('POST', `${SMS}/endpoint/send-message`, { token: demo, query: { code: 'nope', phones: '13800138000' } });
    expect(unknown.status).toBe(400);
    const none = await call('POST', `${SMS}/endpoint/send-message`, { token: admin, query: { phones: '13800138000' } });
    expect(none.status).toBe(400);
  });

  it('needs a token and the grants; keeps tenants apart', async () => {
    expect((await call('GET', `${SMS}/list`)).status).toBe(401);
    expect((await call('GET', `${SMS}/list`, { token: demoUser })).status).toBe(403);
    expect((await call('POST', `${SMS}/enable`, { token: demoUser, query: { id: ali.id } })).status).toBe(403);
    expect((await call('POST', `${SMS}/endpoint/send-message`, { token: demoUser, query: { phones: '13800138000' } })).status).toBe(403);
    expect((await call('GET', `${SMS}/detail`, { token: admin, query: { id: ali.id } })).status).toBe(404);
    expect((await call('POST', `${SMS}/submit`, { token: admin, body: { id: ali.id, remark: 'hijack' } })).status).toBe(404);
    expect((await call('POST', `${SMS}/enable`, { token: admin, query: { id: logOne.id } })).status).toBe(404);
    expect((await call('POST', `${SMS}/remove`, { token: admin, query: { ids: ali.id } })).status).toBe(404);
    expect((await call<Page<Config>>('GET', `${SMS}/list`, { token: admin })).body.data.records.some((r) => r.id === ali.id)).toBe(false);
    expect((await call('POST', `${SMS}/endpoint/send-message`, { token: admin, query: { code: 'ali', phones: '13800138000' } })).status).toBe(400);
    expect((await call('POST', `${SMS}/remove`, { token: demo, query: { ids: logOne.id } })).status).toBe(200);
  });
});

function png(size: number): Buffer {
  const head = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
  return Buffer.concat([head, randomBytes(Math.max(0, size - head.length))]).subarray(0, size);
}

async function upload(token: string, file: Buffer, filename = 'photo.png') {
  const boundary = `----t${randomBytes(6).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`),
    file, Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const raw = await h.server.app.inject({
    method: 'POST', url: '/api/blade-resource/oss/endpoint/put-file', payload,
    headers: { authorization: BASIC, 'content-type': `multipart/form-data; boundary=${boundary}`, 'blade-auth': `bearer ${token}` },
  });
  answers.push(raw.body);
  return { status: raw.statusCode, body: raw.json() as { msg: string; data: UploadedFile } };
}

async function s3Objects(): Promise<string[]> {
  return (await readdir(s3Dir, { recursive: true })).map(String).filter((p) => p.endsWith('._S3rver_object'));
}

describe('object storage and attachments', () => {
  let s3Config: Config;
  let localFile: UploadedFile;
  let s3File: UploadedFile;
  const body = png(3000);

  it('stores on the local disk until an S3 configuration is enabled, then in its bucket', async () => {
    localFile = (await upload(demo, png(2000))).body.data;
    const bad = await call('POST', `${OSS}/submit`, { token: demo, body: { ossCode: 's3', category: 2, endpoint: s3Url } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.data as object)).toEqual(['bucketName']);
    const badEndpoint = await call('POST', `${OSS}/submit`, { token: demo, body: { ossCode: 's3', category: 2, endpoint: 'ftp://x', bucketName: 'console', accessKey: 'S3RVER', secretKey: 'S3RVER' } });
    expect(badEndpoint.body.data).toHaveProperty('endpoint');
    const created = await call<Config>('POST', `${OSS}/submit`, {
      token: demo, body: { ossCode: 's3', category: 2, endpoint: s3Url, bucketName: 'console', accessKey: 'S3RVER', secretKey: 'S3RVER', region: 'us-east-1' },
    });
    expect(created.status).toBe(200);
    s3Config = created.body.data;
    expect(s3Config).toMatchObject({ accessKey: '******', secretKey: '******', status: 1, categoryName: 'S3 兼容存储' });
    expect((await call('POST', `${OSS}/enable`, { token: demo, query: { id: s3Config.id } })).status).toBe(200);
    const up = await upload(demo, body);
    expect(up.status).toBe(200);
    s3File = up.body.data;
    expect(await s3Objects()).toHaveLength(1);
    const [row] = await inTenant(h.server.ctx.db, { tenantId: DEMO }, (tx) => tx.select().from(attach).where(eq(attach.id, s3File.attachId)));
    expect(row!.ossId).toBe(s3Config.id);
    // served from the bucket through the same link
    const served = await h.server.app.inject({ method: 'GET', url: s3File.link });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(body)).toBe(true);
    // the local file stays reachable after the switch
    expect((await h.server.app.inject({ method: 'GET', url: localFile.link })).statusCode).toBe(200);
  });

  it('lists attachments with the storage holding each, downloads with the token in the query', async () => {
    const page = await call<Page<Record<string, unknown>>>('GET', '/api/blade-resource/attach/list', { token: demo });
    expect(page.status).toBe(200);
    const s3Row = page.body.data.records.find((r) => r.id === s3File.attachId)!;
    expect(s3Row).toMatchObject({ ossId: s3Config.id, ossIdName: 's3', attachSize: 3000, extension: 'png' });
    const token = demo;
    const dl = await h.server.app.inject({ method: 'GET', url: `/api/blade-resource/attach/download?id=${s3File.attachId}&blade-auth=bearer%20${token}`, headers: { authorization: BASIC } });
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-disposition']).toMatch(/^attachment;/);
    expect(dl.rawPayload.equals(body)).toBe(true);
    expect((await h.server.app.inject({ method: 'GET', url: `/api/blade-resource/attach/download?id=${s3File.attachId}`, headers: { authorization: BASIC } })).statusCode).toBe(401);
    const foreign = await h.server.app.inject({ method: 'GET', url: `/api/blade-resource/attach/download?id=${s3File.attachId}`, headers: { authorization: BASIC, 'blade-auth': `bearer ${admin}` } });
    expect(foreign.statusCode).toBe(404);
    const noGrant = await h.server.app.inject({ method: 'GET', url: `/api/blade-resource/attach/download?id=${s3File.attachId}`, headers: { authorization: BASIC, 'blade-auth': `bearer ${demoUser}` } });
    expect(noGrant.statusCode).toBe(403);
    expect((await call('GET', '/api/blade-resource/attach/list', { token: demoUser })).status).toBe(403);
    expect((await call('GET', '/api/blade-resource/attach/detail', { token: admin, query: { id: s3File.attachId } })).status).toBe(404);
    expect((await call('POST', '/api/blade-resource/attach/submit', { token: demo, body: { originalName: 'x' } })).status).toBe(404);
  });

  it('refuses uploads when the enabled bucket refuses the keys, leaving no row', async () => {
    const before = await s3Objects();
    expect((await call('POST', `${OSS}/submit`, { token: demo, body: { id: s3Config.id, accessKey: 'UNKNOWN', secretKey: 'wrong-secret' } })).status).toBe(200);
    const refused = await upload(demo, png(500));
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe(msg('storageUnavailable', 'zh'));
    expect(await s3Objects()).toEqual(before);
    const [rows] = await inTenant(h.server.ctx.db, { tenantId: DEMO }, (tx) => tx.select().from(attach).where(eq(attach.attachSize, 500)));
    expect(rows).toBeUndefined();
    expect((await call('POST', `${OSS}/submit`, { token: demo, body: { id: s3Config.id, accessKey: 'S3RVER', secretKey: 'S3RVER' } })).status).toBe(200);
  });

  it('removing an attachment deletes the row from the quota and the stored file', async () => {
    const other = await call('POST', '/api/blade-resource/attach/remove', { token: admin, query: { ids: s3File.attachId } });
    expect(other.status).toBe(404);
    expect((await call('POST', '/api/blade-resource/attach/remove', { token: demo, query: { ids: `${s3File.attachId},${localFile.attachId}` } })).status).toBe(200);
    expect(await s3Objects()).toHaveLength(0);
    expect((await h.server.app.inject({ method: 'GET', url: s3File.link })).statusCode).toBe(404);
    expect((await h.server.app.inject({ method: 'GET', url: localFile.link })).statusCode).toBe(404);
    const files = await readdir(join(h.server.ctx.config.dataDir, 'files'), { recursive: true, withFileTypes: true });
    expect(files.filter((f) => f.isFile() && localFile.link.endsWith(f.name))).toHaveLength(0);
  });

  it('keeps OSS configurations per tenant, one enabled each', async () => {
    const local = await call<Config>('POST', `${OSS}/submit`, { token: demo, body: { ossCode: 'disk', category: 1 } });
    expect((await call('POST', `${OSS}/enable`, { token: demo, query: { id: local.body.data.id } })).status).toBe(200);
    const list = (await call<Page<Config>>('GET', `${OSS}/list`, { token: demo })).body.data.records;
    expect(list.filter((r) => r.status === 2).map((r) => r.id)).toEqual([local.body.data.id]);
    expect((await call('GET', `${OSS}/detail`, { token: admin, query: { id: s3Config.id } })).status).toBe(404);
    expect((await call('POST', `${OSS}/enable`, { token: admin, query: { id: s3Config.id } })).status).toBe(404);
    expect((await call('POST', `${OSS}/enable`, { token: demoUser, query: { id: s3Config.id } })).status).toBe(403);
    expect((await call('GET', `${OSS}/list`)).status).toBe(401);
    // uploads go to the local disk again
    const up = await upload(demo, png(100));
    const [row] = await inTenant(h.server.ctx.db, { tenantId: DEMO }, (tx) => tx.select().from(attach).where(eq(attach.id, up.body.data.attachId)));
    expect(row!.ossId).toBe(local.body.data.id);
    const [stored] = await inTenant(h.server.ctx.db, { tenantId: DEMO }, (tx) => tx.select().from(oss).where(eq(oss.id, s3Config.id)));
    expect(stored!.secretKey).toMatch(/^v1:/);
  });
});

describe('secrets', () => {
  it('never appear in any answer', () => {
    expect(answers.length).toBeGreaterThan(30);
    for (const a of answers) {
      expect(a).not.toContain(SECRET);
      expect(a).not.toContain(ACCESS);
      expect(a).not.toContain('wrong-secret');
    }
  });
});
