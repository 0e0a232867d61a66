import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { inTenant, schema } from '../src/core/db/index.js';
import { setCaptchaGenerator } from '../src/areas/auth/captcha.js';
import { md5, useServer } from './harness.js';

// switch mode on: the Dept-Id / Role-Id tests need it (console-modes.test.ts covers it off)
const h = useServer({ SWITCH_MODE: 'true' });

describe('password grant', () => {
  it('signs in with the seeded admin and answers the OAuth2 token object', async () => {
    const t = await h.login('000000', 'admin', 'admin');
    expect(t.token_type).toBe('bearer');
    expect(t.access_token.split('.')).toHaveLength(3);
    expect(t.refresh_token).toMatch(/^[\w-]{40,}$/);
    expect(t.expires_in).toBe(3600);
    // the platform admin holds two roles (administrator, user) and two departments (seed 0005)
    expect(t).toMatchObject({ tenant_id: '000000', account: 'admin', role_name: 'administrator,user', real_name: '管理员', client_id: 'saber' });
    expect(t.role_id.split(',')).toHaveLength(2);
    expect(t.user_id).toMatch(/^\d+$/);
    const info = await h.call<{ account: string; roleAlias: string; tenantName: string }>('GET', '/api/blade-auth/oauth/user-info', { token: t.access_token });
    expect(info.body.data).toMatchObject({ account: 'admin', roleAlias: 'administrator,user', tenantName: '管理组' });
    expect(JSON.stringify(info.body)).not.toMatch(/argon2/);
  });

  it('signs in to the demo tenant with its own admin', async () => {
    const t = await h.login('541742', 'admin', 'admin');
    expect(t).toMatchObject({ tenant_id: '541742', role_name: 'admin' });
  });

  it('refuses a wrong password with error_description in the caller\'s language', async () => {
    const zh = await h.tokenRequest({ grant_type: 'password', tenantId: '000000', username: 'admin', password: md5('nope') });
    expect(zh.statusCode).toBe(400);
    expect(zh.json()).toMatchObject({ error: 'invalid_grant', error_description: '用户名或密码错误', code: 400, success: false });
    const en = await h.tokenRequest({ grant_type: 'password', tenantId: '000000', username: 'nobody', password: md5('x') }, { 'accept-language': 'en' });
    expect(en.json().error_description).toBe('Wrong user name or password');
  });

  it('refuses unknown tenants, plain-text passwords and missing fields with clear messages', async () => {
    const tenant = await h.tokenRequest({ grant_type: 'password', tenantId: '999999', username: 'admin', password: md5('admin') });
    expect(tenant.json().error_description).toBe('租户不存在');
    const plain = await h.tokenRequest({ grant_type: 'password', tenantId: '000000', username: 'admin', password: 'admin' });
    expect(plain.statusCode).toBe(400);
    expect(plain.json().error_description).toMatch(/MD5/);
    const missing = await h.tokenRequest({ grant_type: 'password', tenantId: '000000', password: md5('admin') });
    expect(missing.json().error_description).toBe('请输入用户名');
    const grant = await h.tokenRequest({ grant_type: 'magic' });
    expect(grant.json()).toMatchObject({ error: 'unsupported_grant_type' });
  });

  it('answers 401 invalid_client for a missing or wrong client', async () => {
    const none = await h.server.app.inject({ method: 'POST', url: '/api/blade-auth/oauth/token', query: { grant_type: 'password' } });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ error: 'invalid_client' });
    const wrong = await h.tokenRequest({ grant_type: 'password' }, { authorization: `Basic ${Buffer.from('saber:wrong').toString('base64')}` });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error_description).toBe('客户端认证失败');
  });

  it('accepts the parameters as a form body too', async () => {
    const res = await h.server.app.inject({
      method: 'POST', url: '/api/blade-auth/oauth/token',
      headers: { authorization: (await import('./harness.js')).BASIC, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `grant_type=password&tenantId=000000&username=admin&password=${md5('admin')}`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().account).toBe('admin');
  });

  it('locks an account for 30 minutes after five failures, refusing even the right password, and resets on success', async () => {
    await h.createUser('000000', 'locky', 'right-pass', ['user']);
    await h.createUser('000000', 'resetty', 'right-pass', ['user']);
    const attempt = (account: string, password: string) =>
      h.tokenRequest({ grant_type: 'password', tenantId: '000000', username: account, password: md5(password) });
    for (let i = 0; i < 4; i++) expect((await attempt('locky', 'bad')).json().error_description).toBe('用户名或密码错误');
    const fifth = await attempt('locky', 'bad');
    expect(fifth.json().error_description).toMatch(/锁定/);
    const right = await attempt('locky', 'right-pass');
    expect(right.statusCode).toBe(400);
    expect(right.json().error_description).toMatch(/30 分钟/);
    // four failures, then a success, then four more failures: not locked (the count was reset)
    for (let i = 0; i < 4; i++) await attempt('resetty', 'bad');
    expect((await attempt('resetty', 'right-pass')).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) await attempt('resetty', 'bad');
    expect((await attempt('resetty', 'right-pass')).statusCode).toBe(200);
  });

  it('refuses disabled and awaiting-approval accounts after checking the password', async () => {
    await h.createUser('000000', 'disabled1', 'pw', ['user'], { status: 2 });
    await h.createUser('000000', 'pending1', 'pw', ['user'], { status: 3 });
    const d = await h.tokenRequest({ grant_type: 'password', tenantId: '000000', username: 'disabled1', password: md5('pw') });
    expect(d.json().error_description).toBe('账号已停用, 请联系管理员');
    const p = await h.tokenRequest({ grant_type: 'password', tenantId: '000000', username: 'pending1', password: md5('pw') });
    expect(p.json().error_description).toBe('账号正在等待管理员审核');
    const wrong = await h.tokenRequest({ grant_type: 'password', tenantId: '000000', username: 'disabled1', password: md5('x') });
    expect(wrong.json().error_description).toBe('用户名或密码错误');
  });

  it('stores only an argon2id hash of the password', async () => {
    const [row] = await inTenant(h.server.ctx.db, { tenantId: '000000' }, (tx) =>
      tx.select().from(schema.user).where(eq(schema.user.account, 'admin')));
    expect(row!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('honours Dept-Id and Role-Id headers and rejects ids the user does not hold', async () => {
    const t = await h.login('000000', 'admin', 'admin');
    const ok = await h.login('000000', 'admin', 'admin', { 'dept-id': t.dept_id, 'role-id': t.role_id });
    expect(ok.role_id).toBe(t.role_id);
    const [administrator, user] = t.role_id.split(',');
    const narrowed = await h.login('000000', 'admin', 'admin', { 'role-id': user! });
    expect(narrowed).toMatchObject({ role_id: user, role_name: 'user' });
    expect((await h.login('000000', 'admin', 'admin', { 'role-id': administrator! })).role_name).toBe('administrator');
    const bad = await h.tokenRequest(
      { grant_type: 'password', tenantId: '000000', username: 'admin', password: md5('admin') },
      { 'role-id': '123' },
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error_description).toBe('当前用户没有该角色');
  });
});

describe('refresh tokens', () => {
  it('rotates on use, refuses reuse and then revokes the whole session', async () => {
    const first = await h.login('000000', 'admin', 'admin');
    const refreshed = await h.tokenRequest({ grant_type: 'refresh_token', refresh_token: first.refresh_token, tenantId: '000000' });
    expect(refreshed.statusCode).toBe(200);
    const second = refreshed.json();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await h.call('GET', '/api/blade-auth/oauth/user-info', { token: second.access_token })).status).toBe(200);

    const reuse = await h.tokenRequest({ grant_type: 'refresh_token', refresh_token: first.refresh_token, tenantId: '000000' });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().error).toBe('invalid_grant');
    // the theft signal revoked the session: the newest tokens are dead too
    expect((await h.call('GET', '/api/blade-auth/oauth/user-info', { token: second.access_token })).status).toBe(401);
    const later = await h.tokenRequest({ grant_type: 'refresh_token', refresh_token: second.refresh_token, tenantId: '000000' });
    expect(later.statusCode).toBe(400);
  });

  it('refuses a refresh token presented for another tenant', async () => {
    const t = await h.login('000000', 'admin', 'admin');
    const other = await h.tokenRequest({ grant_type: 'refresh_token', refresh_token: t.refresh_token, tenantId: '541742' });
    expect(other.statusCode).toBe(400);
    const ok = await h.tokenRequest({ grant_type: 'refresh_token', refresh_token: t.refresh_token, tenantId: '000000' });
    expect(ok.statusCode).toBe(200);
  });

  it('switches role on refresh only to a role the user holds', async () => {
    const t = await h.login('000000', 'admin', 'admin');
    const bad = await h.tokenRequest({ grant_type: 'refresh_token', refresh_token: t.refresh_token, tenantId: '000000', roleId: '42' });
    expect(bad.json().error_description).toBe('当前用户没有该角色');
  });
});

describe('sign-out and tokens', () => {
  it('makes the access token stop working at once and revokes the refresh token', async () => {
    const t = await h.login('000000', 'admin', 'admin');
    expect((await h.call('GET', '/api/blade-auth/oauth/logout', { token: t.access_token })).status).toBe(200);
    const after = await h.call('GET', '/api/blade-system/menu/routes', { token: t.access_token });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe(401);
    const refresh = await h.tokenRequest({ grant_type: 'refresh_token', refresh_token: t.refresh_token, tenantId: '000000' });
    expect(refresh.statusCode).toBe(400);
  });

  it('answers 401 for a missing, forged or tampered token', async () => {
    expect((await h.call('GET', '/api/blade-system/menu/routes')).body).toMatchObject({ code: 401, msg: '缺失令牌, 鉴权失败' });
    const forged = 'eyJhbGciOiJIUzI1NiJ9.eyJ0b2tlbl90eXBlIjoiYWNjZXNzX3Rva2VuIn0.c2lnbmF0dXJl';
    expect((await h.call('GET', '/api/blade-system/menu/routes', { token: forged })).status).toBe(401);
    const t = await h.login('000000', 'admin', 'admin');
    const [head, payload, sig] = t.access_token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const tampered = `${head}.${Buffer.from(JSON.stringify({ ...claims, tenant_id: '541742' })).toString('base64url')}.${sig}`;
    expect((await h.call('GET', '/api/blade-system/menu/routes', { token: tampered })).status).toBe(401);
  });

  it('requires the client Basic header with a header token, but accepts a query token alone (downloads)', async () => {
    const t = await h.login('000000', 'admin', 'admin');
    const noClient = await h.call('GET', '/api/blade-system/menu/routes', { token: t.access_token, noClient: true });
    expect(noClient.status).toBe(401);
    expect(noClient.body.msg).toBe('请求头中缺少客户端信息');
    const viaQuery = await h.call('GET', '/api/blade-system/menu/routes', { noClient: true, query: { 'blade-auth': `bearer ${t.access_token}` } });
    expect(viaQuery.status).toBe(200);
  });
});

describe('captcha', () => {
  it('serves a PNG captcha that is good for exactly one attempt', async () => {
    setCaptchaGenerator(() => 'K7M3X');
    const first = (await h.call('GET', '/api/blade-auth/oauth/captcha', { noClient: true })).raw.json<{ key: string; image: string }>();
    expect(first.image).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    const png = Buffer.from(first.image.split(',')[1]!, 'base64');
    expect(png.readUInt32BE(16)).toBe(130);
    expect(png.readUInt32BE(20)).toBe(48);
    const query = { grant_type: 'captcha', tenantId: '000000', username: 'admin', password: md5('admin') };
    const wrong = await h.tokenRequest(query, { 'captcha-key': first.key, 'captcha-code': 'AAAAA' });
    expect(wrong.json().error_description).toBe('验证码不正确');
    const again = await h.tokenRequest(query, { 'captcha-key': first.key, 'captcha-code': 'K7M3X' });
    expect(again.json().error_description).toBe('验证码不正确');

    const second = (await h.call('GET', '/api/blade-auth/oauth/captcha', { noClient: true })).raw.json<{ key: string }>();
    const ok = await h.tokenRequest(query, { 'captcha-key': second.key, 'captcha-code': 'k7m3x' });
    expect(ok.statusCode).toBe(200);
    const missing = await h.tokenRequest(query);
    expect(missing.json().error_description).toBe('请输入验证码');
  });
});
