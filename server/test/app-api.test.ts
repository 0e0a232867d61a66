import { APP_API } from '@console/contract';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/core/auth/index.js';
import { inTenant } from '../src/core/db/index.js';
import { nextId } from '../src/core/ids.js';
import { appVersion } from '../src/areas/device/tables.js';
import { postsaleUser } from '../src/areas/postsale/tables.js';
import { md5, useServer } from './harness.js';
import { multipart } from './multipart.js';
import { attach } from '../src/areas/resource/tables.js';

/**
 * The phone app's calls (issue 11: app logs "uploaded by the app"): sign-in of an after-sales user by phone and
 * password, the app's log upload (listed on the console's App logs screen of its tenant only), the update check;
 * app tokens and console tokens never stand for each other.
 */
type Row = Record<string, unknown>;
const h = useServer();
const APP_LOGS = '/api/omc-log/app/list';
let tenantAdmin: string;
let platformAdmin: string;

async function appUser(tenantId: string, phone: string, password: string, extra: Partial<typeof postsaleUser.$inferInsert> = {}): Promise<string> {
  const id = nextId();
  const passwordHash = await hashPassword(md5(password));
  await inTenant(h.server.ctx.db, { tenantId }, (tx) => tx.insert(postsaleUser).values({ id, tenantId, phone, passwordHash, nickname: `n${phone.slice(-4)}`, ...extra }));
  return id;
}

const signIn = (body: Row, lang: 'zh' | 'en' = 'zh', headers: Record<string, string> = {}) =>
  h.call<{ accessToken: string; expiresIn: number; user: Row }>('POST', APP_API.token, { body, lang, noClient: true, headers });

async function appToken(tenantId: string, phone: string, password: string): Promise<string> {
  const res = await signIn({ tenantId, phone, password: md5(password) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.accessToken;
}

function upload(token: string | undefined, parts: Parameters<typeof multipart>[0], lang: 'zh' | 'en' = 'en') {
  const { payload, contentType } = multipart(parts);
  return h.server.app.inject({
    method: 'POST', url: APP_API.logUpload, payload,
    headers: { 'content-type': contentType, 'accept-language': lang, ...(token ? { 'blade-auth': `bearer ${token}` } : {}) },
  });
}

const logFile = (text = 'I/Lock: bluetooth connected\nE/Lock: unlock timeout\n') => ({ name: 'file', filename: 'app.log', type: 'text/plain', data: Buffer.from(text) });
const attachments = async (tenantId: string) => (await inTenant(h.server.ctx.db, { tenantId }, (tx) => tx.select().from(attach))).length;

beforeAll(async () => {
  tenantAdmin = (await h.login('541742', 'admin', 'admin')).access_token;
  platformAdmin = (await h.login('000000', 'admin', 'admin')).access_token;
  await appUser('541742', '13800000001', 'Lock#2026');
  await appUser('541742', '13800000002', 'Lock#2026', { status: 0 });
  await appUser('000000', '13800000001', 'Other#2026');
});

describe('app sign-in', () => {
  it('answers an app token and the user for the right phone and password; the sign-in time is kept', async () => {
    const res = await signIn({ tenantId: '541742', phone: '13800000001', password: md5('Lock#2026') });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ tokenType: 'bearer', expiresIn: 30 * 24 * 3600, tenantId: '541742', user: { phone: '13800000001', nickname: 'n0001' } });
    expect(res.body.data.accessToken.split('.')).toHaveLength(3);
    const [row] = await inTenant(h.server.ctx.db, { tenantId: '541742' }, (tx) => tx.select().from(postsaleUser).where(eq(postsaleUser.phone, '13800000001')));
    expect(row!.lastLoginTime).toBeInstanceOf(Date);
    // the same phone in another tenant is another person with another password
    expect((await signIn({ tenantId: '000000', phone: '13800000001', password: md5('Other#2026') })).status).toBe(200);
    expect((await signIn({ tenantId: '000000', phone: '13800000001', password: md5('Lock#2026') })).status).toBe(400);
  });

  it('refuses a wrong password and an unknown phone alike, a disabled user, an unknown tenant and malformed input, in the caller\'s language', async () => {
    const wrong = await signIn({ tenantId: '541742', phone: '13800000001', password: md5('nope') });
    const unknown = await signIn({ tenantId: '541742', phone: '13900000009', password: md5('nope') });
    expect([wrong.status, unknown.status]).toEqual([400, 400]);
    expect(wrong.body.msg).toBe('手机号或密码错误');
    expect(unknown.body.msg).toBe(wrong.body.msg);
    expect((await signIn({ tenantId: '541742', phone: '13800000002', password: md5('Lock#2026') }, 'en')).body.msg).toBe('The account is disabled; contact your administrator');
    expect((await signIn({ tenantId: '999999', phone: '13800000001', password: md5('Lock#2026') }, 'en')).body.msg).toBe('Unknown tenant');
    const missing = await signIn({ tenantId: '541742', password: md5('x') }, 'en');
    expect([missing.status, missing.body.data]).toEqual([400, { phone: 'Please enter the phone number' }]);
    const clear = await signIn({ tenantId: '541742', phone: '13800000001', password: 'Lock#2026' }, 'en');
    expect(clear.status).toBe(400);
    expect(Object.keys(clear.body.data as Row)).toEqual(['password']);
    const extra = await signIn({ tenantId: '541742', phone: '1', password: md5('x'), role: 'admin' }, 'en');
    expect(extra.status).toBe(400);
    expect(extra.body.data).toMatchObject({ role: expect.stringContaining('role') });
  });

  it('locks the phone for this address after five wrong passwords, even with the right one', async () => {
    await appUser('541742', '13800000005', 'Right#2026');
    for (let i = 0; i < 5; i++) await signIn({ tenantId: '541742', phone: '13800000005', password: md5(`wrong${i}`) }, 'en', { 'x-forwarded-for': '10.9.9.9' });
    const locked = await signIn({ tenantId: '541742', phone: '13800000005', password: md5('Right#2026') }, 'en');
    expect(locked.status).toBe(400);
    expect(locked.body.msg).toMatch(/locked|captcha/);
  });
});

describe('app log upload', () => {
  let token: string;
  beforeAll(async () => {
    token = await appToken('541742', '13800000001', 'Lock#2026');
  });

  it('stores the file and lists the log on the console of the user\'s tenant only, with phone, version, OS and model', async () => {
    const res = await upload(token, [
      { name: 'appVersion', data: '3.2.1' }, { name: 'os', data: 'Android 14' }, { name: 'phoneModel', data: 'Pixel 8' }, logFile('E/Lock: timeout 42\n'),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const saved = res.json().data as { id: string; logFile: string };
    const list = await h.call<{ records: Row[] }>('GET', APP_LOGS, { token: tenantAdmin, query: { phone: '3800000001' } });
    const mine = list.body.data.records.find((r) => r.id === saved.id);
    expect(mine).toMatchObject({ phone: '13800000001', appVersion: '3.2.1', os: 'Android 14', phoneModel: 'Pixel 8', logFile: saved.logFile });
    const file = await h.server.app.inject({ method: 'GET', url: saved.logFile });
    expect(file.body).toBe('E/Lock: timeout 42\n');
    // the platform tenant is another tenant: it does not see the log
    const other = await h.call<{ records: Row[] }>('GET', APP_LOGS, { token: platformAdmin, query: { size: 100 } });
    expect(other.body.data.records.some((r) => r.id === saved.id)).toBe(false);
    // written to the API log under the user's tenant, as the app user
    await h.server.ctx.logs.flush();
    const audit = (await h.server.ctx.db.execute(sql`select create_by from blade_log_api where tenant_id = '541742' and request_uri = ${APP_API.logUpload}`) as unknown as { rows: Row[] }).rows;
    expect(audit.map((r) => r.create_by)).toContain('app:13800000001');
  });

  it('takes text parts sent after the file too', async () => {
    const res = await upload(token, [logFile(), { name: 'appVersion', data: '3.2.2' }]);
    expect(res.statusCode, res.body).toBe(200);
    const list = await h.call<{ records: Row[] }>('GET', APP_LOGS, { token: tenantAdmin, query: { appVersion: '3.2.2' } });
    expect(list.body.data.records.map((r) => r.id)).toEqual([res.json().data.id]);
  });

  it('refuses bad input with the field named, and keeps nothing of it', async () => {
    const before = await attachments('541742');
    const tooLong = await upload(token, [{ name: 'appVersion', data: 'x'.repeat(33) }, logFile()]);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().data).toEqual({ appVersion: 'App version must be at most 32 characters' });
    const lateBad = await upload(token, [logFile(), { name: 'phoneModel', data: 'y'.repeat(65) }]);
    expect(lateBad.statusCode).toBe(400);
    expect(Object.keys(lateBad.json().data)).toEqual(['phoneModel']);
    const unknown = await upload(token, [{ name: 'userId', data: '1' }, logFile()]);
    expect(unknown.statusCode).toBe(400);
    expect(Object.keys(unknown.json().data)).toEqual(['userId']);
    const noFile = await upload(token, [{ name: 'appVersion', data: '1.0' }]);
    expect([noFile.statusCode, noFile.json().msg]).toEqual([400, 'Please choose a file to upload']);
    const otherPart = await upload(token, [{ name: 'image', filename: 'a.log', data: 'x' }]);
    expect(otherPart.statusCode).toBe(400);
    const notMultipart = await h.call('POST', APP_API.logUpload, { token, body: { appVersion: '1' }, noClient: true });
    expect(notMultipart.status).toBe(400);
    expect(await attachments('541742')).toBe(before);
  });

  it('takes only a live app token: none, a console token, a forged one, or one of a user since disabled or given a new password is refused', async () => {
    expect((await upload(undefined, [logFile()])).statusCode).toBe(401);
    expect((await upload(tenantAdmin, [logFile()])).statusCode).toBe(401);
    const [head, body] = token.split('.');
    expect((await upload(`${head}.${body}.${'A'.repeat(43)}`, [logFile()])).statusCode).toBe(401);

    await appUser('541742', '13800000007', 'Lock#2026');
    const later = await appToken('541742', '13800000007', 'Lock#2026');
    expect((await upload(later, [logFile()])).statusCode).toBe(200);
    await inTenant(h.server.ctx.db, { tenantId: '541742' }, (tx) => tx.update(postsaleUser).set({ passwordTime: new Date(Date.now() + 1000) }).where(eq(postsaleUser.phone, '13800000007')));
    expect((await upload(later, [logFile()])).statusCode).toBe(401);
    const again = await appToken('541742', '13800000007', 'Lock#2026');
    await inTenant(h.server.ctx.db, { tenantId: '541742' }, (tx) => tx.update(postsaleUser).set({ status: 0 }).where(eq(postsaleUser.phone, '13800000007')));
    expect((await upload(again, [logFile()])).statusCode).toBe(401);
  });

  it('an app token opens no console call', async () => {
    const res = await h.call('GET', APP_LOGS, { token });
    expect(res.status).toBe(401);
    expect((await h.call('GET', '/api/blade-auth/oauth/user-info', { token })).status).toBe(401);
  });
});

describe('app update check', () => {
  beforeAll(async () => {
    const version = (versionCode: number, state: number, forceUpdate: number) => ({
      id: nextId(), platform: 'android', versionName: `4.${versionCode}`, versionCode, state, forceUpdate, package: `/files/apk-${versionCode}.apk`,
    });
    await h.server.ctx.db.insert(appVersion).values([version(400, 2, 1), version(401, 2, 0), version(402, 1, 1), version(403, 3, 1)]);
  });
  const check = (query: Record<string, string | number>, lang: 'zh' | 'en' = 'en') =>
    h.call<{ updateAvailable: boolean; forceUpdate: boolean; latest: Row | null }>('GET', APP_API.latestVersion, { query, noClient: true, lang });

  it('answers the newest published version; force only when a skipped published version demands it; drafts and withdrawn ones never count', async () => {
    const old = await check({ platform: 'android', versionCode: 399 });
    expect(old.status).toBe(200);
    expect(old.body.data).toMatchObject({ updateAvailable: true, forceUpdate: true, latest: { versionCode: 401, versionName: '4.401' } });
    expect(String(old.body.data.latest!.downloadUrl)).toMatch(/^https?:\/\/.+\/files\/apk-401\.apk$/);
    expect((await check({ platform: 'android', versionCode: 400 })).body.data).toMatchObject({ updateAvailable: true, forceUpdate: false });
    expect((await check({ platform: 'android', versionCode: 401 })).body.data).toMatchObject({ updateAvailable: false, forceUpdate: false });
    expect((await check({ platform: 'ios' })).body.data).toEqual({ updateAvailable: false, forceUpdate: false, latest: null });
  });

  it('refuses an unknown platform, a bad version code or an unknown parameter, naming it', async () => {
    const platform = await check({ platform: 'symbian' });
    expect(platform.status).toBe(400);
    expect(Object.keys(platform.body.data as unknown as Row)).toEqual(['platform']);
    const code = await check({ platform: 'android', versionCode: 'abc' });
    expect(code.status).toBe(400);
    expect(Object.keys(code.body.data as unknown as Row)).toEqual(['versionCode']);
    expect((await check({ platform: 'android', tenantId: '1' })).status).toBe(400);
  });
});
