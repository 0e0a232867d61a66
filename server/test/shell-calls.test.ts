import { randomBytes } from 'node:crypto';
import type { Agreement, DashboardOverview, ServerStatus, UploadedFile } from '@console/contract';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { inTenant, schema } from '../src/core/db/index.js';
import { BASIC, md5, useServer } from './harness.js';
import { agreement } from '../src/areas/setting/tables.js';
import { attach } from '../src/areas/resource/tables.js';

const h = useServer();
let platformToken: string;
let demoToken: string;

beforeAll(async () => {
  platformToken = (await h.login('000000', 'admin', 'admin')).access_token;
  demoToken = (await h.login('541742', 'admin', 'admin')).access_token;
});

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), randomBytes(200)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(200)]);

function multipart(file: Buffer, filename: string, contentType: string, field = 'file') {
  const boundary = `----test${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
}

async function upload(file: Buffer, filename: string, opts: { token?: string; kind?: string; contentType?: string; field?: string } = {}) {
  const body = multipart(file, filename, opts.contentType ?? 'image/png', opts.field);
  const headers: Record<string, string> = { authorization: BASIC, 'content-type': body.contentType };
  if (opts.token) headers['blade-auth'] = `bearer ${opts.token}`;
  const raw = await h.server.app.inject({
    method: 'POST', url: '/api/blade-resource/oss/endpoint/put-file', query: opts.kind ? { kind: opts.kind } : undefined, headers, payload: body.payload,
  });
  return { status: raw.statusCode, body: raw.json() as { code: number; msg: string; data: UploadedFile } };
}

describe('console switches', () => {
  it('are public and carry the spec defaults', async () => {
    const res = await h.call('GET', '/api/app/pub/console-config', { noClient: true });
    expect(res.body.data).toEqual({ switchMode: false, captchaMode: false, tenantMode: true, defaultTenantId: '000000', timeZone: 'Asia/Shanghai', regionAlarmMs: 180000 });
  });
});

describe('agreements', () => {
  it('serve the default user agreement and privacy policy in the caller\'s language, publicly', async () => {
    const zh = await h.call<Agreement>('GET', '/api/app/pub/get-agreement', { query: { type: 'user' }, noClient: true });
    expect(zh.body.data).toMatchObject({ type: 'user', language: 'zh', title: '用户服务协议', version: '1.0' });
    expect(zh.body.data.content).toContain('<h2>用户服务协议</h2>');
    const en = await h.call<Agreement>('GET', '/api/app/pub/get-agreement', { query: { type: 'privacy' }, lang: 'en' });
    expect(en.body.data).toMatchObject({ type: 'privacy', language: 'en', title: 'Privacy Policy' });
  });

  it('refuse an unknown type with a clear message', async () => {
    const res = await h.call('GET', '/api/app/pub/get-agreement', { query: { type: 'cookies' } });
    expect(res.status).toBe(400);
    expect(res.body.data).toEqual({ type: '协议类型的取值无效' });
    expect((await h.call('GET', '/api/app/pub/get-agreement')).status).toBe(400);
  });

  it('answer not found when nothing is published, and never serve script', async () => {
    await h.server.ctx.db.update(agreement).set({ content: '<p>ok</p><script>alert(1)</script><img src=x onerror=alert(1)>' })
      .where(sql`type = 'privacy' and language = 'zh'`);
    const cleaned = await h.call<Agreement>('GET', '/api/app/pub/get-agreement', { query: { type: 'privacy' } });
    expect(cleaned.body.data.content).not.toMatch(/script|onerror/);
    await h.server.ctx.db.update(agreement).set({ publishTime: new Date(Date.now() + 86_400_000) }).where(sql`type = 'privacy'`);
    const res = await h.call('GET', '/api/app/pub/get-agreement', { query: { type: 'privacy' } });
    expect(res.status).toBe(404);
    expect(res.body.msg).toBe('协议不存在或尚未发布');
  });
});

describe('server status', () => {
  it('reports online with the database round trip, under /sc and /tc, publicly', async () => {
    for (const prefix of ['/sc', '/tc']) {
      const res = await h.call<ServerStatus>('GET', `${prefix}/ymy-ipc/back/check-server-status`, { noClient: true });
      expect(res.body.data.online).toBe(true);
      expect(res.body.data.dbMillis).toBeGreaterThanOrEqual(0);
      expect(res.body.data.time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    }
  });
});

describe('file upload', () => {
  it('stores an avatar, registers it for the tenant and serves it by its unguessable link', async () => {
    const res = await upload(PNG, 'me.png', { token: demoToken, kind: 'avatar' });
    expect(res.body.code).toBe(200);
    expect(res.body.data.link).toMatch(/^\/files\/541742\/\d{8}\/[0-9a-f]{32}\.png\/me\.png$/);
    const served = await h.server.app.inject({ method: 'GET', url: res.body.data.link });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.equals(PNG)).toBe(true);
    const rows = await inTenant(h.server.ctx.db, { tenantId: '541742' }, (tx) => tx.select().from(attach).where(eq(attach.id, res.body.data.attachId)));
    expect(rows[0]).toMatchObject({ tenantId: '541742', extension: 'png', attachSize: PNG.length, originalName: 'me.png' });
    // RLS: the other tenant does not see the row
    const other = await inTenant(h.server.ctx.db, { tenantId: '000000' }, (tx) => tx.select().from(attach).where(eq(attach.id, res.body.data.attachId)));
    expect(other).toEqual([]);
  });

  it('decides the type by content: a jpeg named .png is stored as jpg; a text file named .png is refused as an avatar', async () => {
    const jpeg = await upload(JPEG, 'photo.png', { token: demoToken, kind: 'avatar' });
    expect(jpeg.body.data.link).toMatch(/[0-9a-f]{32}\.jpg\/photo\.png$/);
    const fake = await upload(Buffer.from('<svg onload=alert(1)>'), 'x.png', { token: demoToken, kind: 'avatar' });
    expect(fake.status).toBe(400);
    expect(fake.body.msg).toBe('头像只能是 jpg 或 png 格式');
  });

  it('refuses an avatar over 500 KB and keeps nothing', async () => {
    const before = await h.server.ctx.db.select({ n: sql<number>`count(*)::int` }).from(attach);
    const big = Buffer.concat([PNG, Buffer.alloc(500 * 1024)]);
    const res = await upload(big, 'big.png', { token: demoToken, kind: 'avatar' });
    expect(res.status).toBe(413);
    expect(res.body.msg).toBe('文件不能超过 500 KB');
    const after = await h.server.ctx.db.select({ n: sql<number>`count(*)::int` }).from(attach);
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it('keeps the name a file was uploaded with in its link and its download (RFC 5987 for a Chinese name)', async () => {
    const name = "产品说明书 (v2)'s.pdf";
    const res = await upload(Buffer.from('%PDF-1.4 manual'), name, { token: demoToken });
    expect(res.status, res.body.msg).toBe(200);
    const link = res.body.data.link;
    expect(decodeURIComponent(link.slice(link.lastIndexOf('/') + 1))).toBe(name);
    expect(link).not.toMatch(/[\s'()]/);
    const served = await h.server.app.inject({ method: 'GET', url: link });
    expect(served.statusCode).toBe(200);
    const disposition = String(served.headers['content-disposition']);
    expect(disposition).toMatch(/filename="[\x20-\x7e]+\.pdf"/);
    expect(decodeURIComponent(/filename\*=UTF-8''([^;]+)/.exec(disposition)![1]!)).toBe(name);
    // the link without its name still serves the file; another name on the key changes nothing
    const key = link.split('/').slice(0, 5).join('/');
    expect((await h.server.app.inject({ method: 'GET', url: key })).statusCode).toBe(200);
    expect((await h.server.app.inject({ method: 'GET', url: `${key}/other.pdf` })).headers['content-disposition']).toBe(disposition);
    // a very long name is cut before its extension
    const long = await upload(Buffer.from('%PDF-1.4 x'), `${'很长的名字'.repeat(60)}.pdf`, { token: demoToken });
    expect(long.body.data.link.length).toBeLessThan(400);
    expect(long.body.data.link).toMatch(/\.pdf$/);
  });

  it('serves unrecognised files as downloads that cannot run script', async () => {
    const res = await upload(Buffer.from('<html><script>alert(1)</script></html>'), 'page.html', { token: demoToken, contentType: 'text/html' });
    expect(res.body.data.link).toMatch(/\.html$/);
    const served = await h.server.app.inject({ method: 'GET', url: res.body.data.link });
    expect(served.headers['content-type']).toBe('application/octet-stream');
    expect(served.headers['content-disposition']).toMatch(/^attachment;/);
    expect(served.headers['content-security-policy']).toContain('sandbox');
  });

  it('answers bad uploads clearly: no token, not multipart, wrong field, unknown kind, empty file, unknown link', async () => {
    expect((await upload(PNG, 'a.png', {})).status).toBe(401);
    const json = await h.call('POST', '/api/blade-resource/oss/endpoint/put-file', { token: demoToken, body: { file: 'x' } });
    expect(json.status).toBe(400);
    expect(json.body.msg).toBe('请以 multipart/form-data 上传文件, 字段名 file');
    expect((await upload(PNG, 'a.png', { token: demoToken, field: 'avatar' })).status).toBe(400);
    expect((await upload(PNG, 'a.png', { token: demoToken, kind: 'script' })).status).toBe(400);
    const empty = await upload(Buffer.alloc(0), 'a.bin', { token: demoToken });
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toBe('文件内容为空');
    for (const url of ['/files/541742/20260101/00000000000000000000000000000000.png', '/files/../secrets.json', '/files/x']) {
      expect((await h.server.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    }
  });
});

describe('guest registration', () => {
  const register = (body: Record<string, unknown>, lang?: 'zh' | 'en') =>
    h.call('POST', '/api/blade-user/register-guest', { body, lang });

  it('creates an account awaiting approval that cannot sign in yet', async () => {
    const res = await register({ tenantId: '541742', name: '访客', account: 'guest.one', password: md5('secret1') });
    expect(res.body).toMatchObject({ code: 200, msg: '注册成功, 请等待管理员审核' });
    const [row] = await inTenant(h.server.ctx.db, { tenantId: '541742' }, (tx) => tx.select().from(schema.user).where(eq(schema.user.account, 'guest.one')));
    expect(row).toMatchObject({ status: 3, roleId: '', realName: '访客' });
    const login = await h.tokenRequest({ grant_type: 'password', tenantId: '541742', username: 'guest.one', password: md5('secret1') }, { 'tenant-id': '541742' });
    expect(login.statusCode).toBe(400);
    expect(login.json().error_description).toBe('账号正在等待管理员审核');
  });

  it('refuses a taken account, an unknown tenant, a bad account, a clear-text password and an oauth id, creating nothing', async () => {
    const taken = await register({ tenantId: '541742', account: 'admin', password: md5('x') });
    expect(taken.status).toBe(409);
    expect(taken.body.data).toEqual({ account: '账号「admin」已被注册' });
    const tenant = await register({ tenantId: '999999', account: 'someone', password: md5('x') }, 'en');
    expect(tenant.body.data).toEqual({ tenantId: 'The tenant does not exist or is disabled' });
    expect((await register({ tenantId: '541742', account: 'a b<', password: md5('x') })).body.data).toEqual({ account: '账号只能包含字母、数字、下划线、点和横线, 长度 2 到 64' });
    expect((await register({ tenantId: '541742', account: 'plain', password: 'secret' })).status).toBe(400);
    expect((await register({ tenantId: '541742', account: 'oauthy', password: md5('x'), oauthId: '42' })).status).toBe(400);
    expect((await register({ tenantId: '541742', account: 'extra', password: md5('x'), roleId: '1' })).status).toBe(400);
    const rows = await inTenant(h.server.ctx.db, { tenantId: '541742' }, (tx) => tx.select().from(schema.user).where(sql`account in ('someone','plain','oauthy','extra')`));
    expect(rows).toEqual([]);
  });

  it('limits sign-ups per address to 10 an hour', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push((await register({ tenantId: '541742', account: `flood${i}`, password: md5('x') })).status);
    }
    // this file's earlier sign-ups came from the same address and count too
    expect(statuses.filter((s) => s !== 429).length).toBeLessThan(10);
    const refused = await register({ tenantId: '541742', account: 'flood-last', password: md5('x') });
    expect(refused.status).toBe(429);
    expect(refused.body.msg).toMatch(/^请求过于频繁, 请 \d+ 秒后再试$/);
  });
});

describe('dashboard', () => {
  it('gives the tenant\'s own figures with a full series of days', async () => {
    const res = await h.call<DashboardOverview>('GET', '/api/blade-desk/dashboard/overview', { token: demoToken, query: { days: 7 } });
    const d = res.body.data;
    expect(d.days).toBe(7);
    expect(d.tenants.total).toBe(1);
    const users = await inTenant(h.server.ctx.db, { tenantId: '541742' }, (tx) => tx.select({ n: sql<number>`count(*)::int` }).from(schema.user).where(eq(schema.user.isDeleted, 0)));
    expect(d.users.total).toBe(users[0]!.n);
    for (const series of [d.signIns, d.apiCalls, d.errors]) {
      expect(series).toHaveLength(7);
      expect(series.map((p) => p.day)).toEqual([...series.map((p) => p.day)].sort());
    }
    expect(d.signIns.at(-1)!.count).toBeGreaterThanOrEqual(1);
    expect(d.activeSessions).toBeGreaterThanOrEqual(1);
  });

  it('gives the platform administrator every tenant\'s figures', async () => {
    const res = await h.call<DashboardOverview>('GET', '/api/blade-desk/dashboard/overview', { token: platformToken });
    expect(res.body.data.days).toBe(14);
    expect(res.body.data.tenants.total).toBe(2);
    expect(res.body.data.signIns.at(-1)!.count).toBeGreaterThanOrEqual(2);
  });

  it('needs a token and a sensible window', async () => {
    expect((await h.call('GET', '/api/blade-desk/dashboard/overview')).status).toBe(401);
    const bad = await h.call('GET', '/api/blade-desk/dashboard/overview', { token: demoToken, query: { days: 1000 } });
    expect(bad.status).toBe(400);
  });
});
