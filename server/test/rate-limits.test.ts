import { describe, expect, it } from 'vitest';
import { ADDRESS_BUDGET } from '../src/core/auth/signInGuard.js';
import { md5, useServer } from './harness.js';

// A server of its own: the budgets are per address, and every test here comes from the same one.
const h = useServer();

describe('failed sign-ins per address', () => {
  it('refuses every password grant from an address that spent its budget, even a right password, and counts no successes', async () => {
    for (let i = 0; i < 3; i++) await h.login('541742', 'admin', 'admin');
    const attempt = (username: string, password: string) => h.tokenRequest(
      { grant_type: 'password', tenantId: '541742', username, password: md5(password) }, { 'tenant-id': '541742' },
    );
    // unknown accounts: no per-account lockout gets in the way, only the address budget
    for (let i = 0; i < ADDRESS_BUDGET.max; i++) {
      const res = await attempt(`nobody${i}`, 'guess');
      expect(res.statusCode).toBe(400);
      expect(res.json().error_description).toBe('用户名或密码错误');
    }
    const refused = await attempt('admin', 'admin');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error_description).toMatch(/^请求过于频繁, 请 \d+ 秒后再试$/);
    const en = await h.tokenRequest({ grant_type: 'password', tenantId: '541742', username: 'admin', password: md5('admin') }, { 'accept-language': 'en' });
    expect(en.json().error_description).toMatch(/^Too many requests; try again in \d+ seconds$/);
  });
});

describe('front-end error uploads per address', () => {
  it('accepts 20 uploads a minute and refuses the next with a clear message', async () => {
    const record = { type: 'error', message: 'boom', url: '/wel/index', time: '2026-11-21 08:00:00' };
    for (let i = 0; i < 20; i++) {
      expect((await h.call('POST', '/api/blade-auth/oauth/logout', { body: [record] })).status).toBe(200);
    }
    const refused = await h.call('POST', '/api/blade-auth/oauth/logout', { body: [record] });
    expect(refused.status).toBe(429);
    expect(refused.body.msg).toMatch(/^请求过于频繁, 请 \d+ 秒后再试$/);
  });
});
