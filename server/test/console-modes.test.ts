import { describe, expect, it } from 'vitest';
import { setCaptchaGenerator } from '../src/areas/auth/captcha.js';
import { md5, useServer } from './harness.js';

// The console switches are enforced by the server, not only by the login form.
describe('switch mode off (the default)', () => {
  const h = useServer();

  it('signs in with all held roles, ignoring Dept-Id and Role-Id', async () => {
    const all = await h.login('000000', 'admin', 'admin');
    const [, userRole] = all.role_id.split(',');
    const asked = await h.login('000000', 'admin', 'admin', { 'role-id': userRole!, 'dept-id': '1' });
    expect(asked.role_id).toBe(all.role_id);
    expect(asked.dept_id).toBe(all.dept_id);
    const refreshed = await h.tokenRequest({ grant_type: 'refresh_token', refresh_token: asked.refresh_token, tenantId: '000000', roleId: userRole! });
    expect(refreshed.json().role_id).toBe(all.role_id);
  });

  it('signs in to the default tenant when no tenant is given', async () => {
    const res = await h.tokenRequest({ grant_type: 'password', username: 'admin', password: md5('admin') });
    expect(res.json()).toMatchObject({ tenant_id: '000000' });
  });
});

describe('captcha mode on', () => {
  const h = useServer({ CAPTCHA_MODE: 'true', DEFAULT_TENANT_ID: '541742', REGION_ALARM_MS: '60000' });

  it('refuses the plain password grant and accepts the captcha grant', async () => {
    const plain = await h.tokenRequest({ grant_type: 'password', tenantId: '000000', username: 'admin', password: md5('admin') });
    expect(plain.statusCode).toBe(400);
    expect(plain.json().error_description).toBe('请输入验证码');
    setCaptchaGenerator(() => 'Q4W8E');
    const captcha = (await h.call('GET', '/api/blade-auth/oauth/captcha', { noClient: true })).raw.json<{ key: string }>();
    const ok = await h.tokenRequest(
      { grant_type: 'captcha', tenantId: '000000', username: 'admin', password: md5('admin') },
      { 'captcha-key': captcha.key, 'captcha-code': 'Q4W8E' },
    );
    expect(ok.statusCode).toBe(200);
  });

  it('serves its switches to the console', async () => {
    const res = await h.call('GET', '/api/app/pub/console-config');
    expect(res.body.data).toEqual({ switchMode: false, captchaMode: true, tenantMode: true, defaultTenantId: '541742', timeZone: 'Asia/Shanghai', regionAlarmMs: 60000 });
  });
});
