import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { md5, useServer } from './harness.js';

const h = useServer();
let token: string;

beforeAll(async () => {
  await h.createUser('541742', 'profiler', 'old-pass', ['admin']);
  token = (await h.login('541742', 'profiler', 'old-pass')).access_token;
});

describe('own profile', () => {
  it('reads and updates the signed-in user\'s profile, never exposing the password', async () => {
    const before = await h.call<Record<string, unknown>>('GET', '/api/blade-system/user/info', { token });
    expect(before.body.data).toMatchObject({ account: 'profiler', tenantId: '541742' });
    expect(before.body.data).not.toHaveProperty('password');
    const res = await h.call('POST', '/api/blade-system/user/update-info', {
      token, body: { realName: '张三', phone: '13800138000', email: 'zs@example.com', sex: 1, birthday: '1990-05-01' },
    });
    expect(res.body).toMatchObject({ code: 200, data: true });
    const after = await h.call<Record<string, unknown>>('GET', '/api/blade-user/info', { token });
    expect(after.body.data).toMatchObject({ realName: '张三', phone: '13800138000', email: 'zs@example.com', sex: 1, birthday: '1990-05-01 00:00:00' });
  });

  it('refuses a bad phone, email or birthday, and fields it does not own, changing nothing', async () => {
    const bad = await h.call('POST', '/api/blade-system/user/update-info', { token, body: { phone: '23800138000', email: 'x@', birthday: '1990-02-30' } });
    expect(bad.status).toBe(400);
    expect(bad.body.data).toEqual({ phone: '手机号码格式不正确', email: '邮箱格式不正确', birthday: '生日不是合法的时间 (yyyy-MM-dd HH:mm:ss)' });
    // the spec 5 phone messages, as the form shows them; a phone can be changed but not cleared
    for (const [phone, message] of [['12345', '手机号码长度不是11位'], ['', '手机号码不能为空'], [null, '手机号码不能为空']] as const) {
      const refused = await h.call('POST', '/api/blade-system/user/update-info', { token, body: { phone } });
      expect(refused.status).toBe(400);
      expect(refused.body.data).toEqual({ phone: message });
    }
    const english = await h.call('POST', '/api/blade-system/user/update-info', { token, body: { phone: '12345' }, headers: { 'Accept-Language': 'en' } });
    expect(english.body.data).toEqual({ phone: 'The phone number is not 11 digits long' });
    const before = await h.call<Record<string, unknown>>('GET', '/api/blade-system/user/info', { token });
    // keys the form does not own are dropped, never written (BladeX ignores unknown properties too)
    const escalate = await h.call('POST', '/api/blade-system/user/update-info', { token, body: { roleId: '1', tenantId: '000000', password: 'x' } });
    expect(escalate.status).toBe(200);
    const info = await h.call<Record<string, unknown>>('GET', '/api/blade-system/user/info', { token });
    expect(info.body.data.phone).toBe('13800138000');
    expect(info.body.data).toMatchObject({ roleId: before.body.data.roleId, tenantId: before.body.data.tenantId });
  });

  it('takes an avatar only as an http(s) link or a link to this server\'s files', async () => {
    for (const avatar of ['javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', '//evil.example.com/a.png', 'JAVASCRIPT:x', 'files/a.png', '/\\evil.example.com']) {
      const res = await h.call('POST', '/api/blade-system/user/update-info', { token, body: { avatar } });
      expect(res.status).toBe(400);
      expect(res.body.data).toEqual({ avatar: '头像只能是 http(s) 链接或本站的文件链接' });
    }
    for (const avatar of ['https://cdn.example.com/a.png', '/files/541742/20261123/0123456789abcdef0123456789abcdef.png']) {
      expect((await h.call('POST', '/api/blade-system/user/update-info', { token, body: { avatar } })).status).toBe(200);
    }
    const info = await h.call<Record<string, unknown>>('GET', '/api/blade-system/user/info', { token });
    expect(info.body.data.avatar).toBe('/files/541742/20261123/0123456789abcdef0123456789abcdef.png');
  });

  it('needs a token', async () => {
    expect((await h.call('GET', '/api/blade-system/user/info')).status).toBe(401);
    expect((await h.call('POST', '/api/blade-system/user/update-info', { body: { realName: 'x' } })).status).toBe(401);
  });
});

describe('department and role options', () => {
  it('lists only the departments and roles the user holds, in the user\'s tenant', async () => {
    const depts = await h.call<Array<{ id: string; deptName: string }>>('GET', '/api/blade-system/dept/select', { token });
    expect(depts.body.data.map((d) => d.deptName)).toEqual(['演示租户']);
    const roles = await h.call<Array<{ roleAlias: string }>>('GET', '/api/blade-system/role/select', { token });
    expect(roles.body.data.map((r) => r.roleAlias)).toEqual(['admin']);
  });
});

describe('tenant by domain', () => {
  it('answers the tenant bound to a domain publicly, and {} for any other', async () => {
    await h.server.ctx.db.execute(sql`update blade_tenant set domain = 'demo.example.com' where tenant_id = '541742'`);
    const hit = await h.call('GET', '/api/blade-system/tenant/info', { noClient: true, query: { domain: 'https://demo.example.com/login' } });
    expect(hit.body.data).toMatchObject({ tenantId: '541742', domain: 'demo.example.com' });
    const miss = await h.call('GET', '/api/blade-system/tenant/info', { noClient: true, query: { domain: 'other.example.com' } });
    expect(miss.body.data).toEqual({});
    expect((await h.call('GET', '/api/blade-system/tenant/info', { noClient: true })).body.data).toEqual({});
  });
});

describe('password change', () => {
  it('checks the current password and the confirmation, with clear messages', async () => {
    const change = (body: Record<string, string>) => h.call('POST', '/api/blade-system/user/update-password', { token, body });
    const wrong = await change({ oldPassword: md5('nope'), newPassword: md5('n1'), newPassword1: md5('n1') });
    expect(wrong.body).toMatchObject({ code: 400, msg: '原密码不正确', data: { oldPassword: '原密码不正确' } });
    const differ = await change({ oldPassword: md5('old-pass'), newPassword: md5('n1'), newPassword1: md5('n2') });
    expect(differ.body.msg).toBe('两次输入的密码不一致');
    const plain = await change({ oldPassword: 'old-pass', newPassword: md5('n1'), newPassword1: md5('n1') });
    expect(plain.body.data).toEqual({ oldPassword: '密码格式错误 (应为 MD5)' });
    const missing = await change({});
    expect(Object.keys(missing.body.data as object).sort()).toEqual(['newPassword', 'newPassword1', 'oldPassword']);
  });

  it('changes the password and signs out every other session of the user, keeping this one', async () => {
    const other = (await h.login('541742', 'profiler', 'old-pass')).access_token;
    const res = await h.call('POST', '/api/blade-system/user/update-password', {
      token, body: { oldPassword: md5('old-pass'), newPassword: md5('new-pass'), newPassword1: md5('new-pass') },
    });
    expect(res.body).toMatchObject({ code: 200, data: true });
    expect((await h.call('GET', '/api/blade-system/user/info', { token })).status).toBe(200);
    expect((await h.call('GET', '/api/blade-system/user/info', { token: other })).status).toBe(401);
    const oldLogin = await h.tokenRequest({ grant_type: 'password', tenantId: '541742', username: 'profiler', password: md5('old-pass') });
    expect(oldLogin.statusCode).toBe(400);
    expect((await h.login('541742', 'profiler', 'new-pass')).account).toBe('profiler');
  });
});
