import { describe, expect, it } from 'vitest';
import { useServer } from './harness.js';

// a server of its own with a small budget: every call here comes from one address
const h = useServer({ PUBLIC_RATE_PER_MINUTE: '5' });

describe('calls that need no sign-in, per address', () => {
  it('share one budget per minute: the next is refused with 429, a clear message and Retry-After; signed-in calls are not counted', async () => {
    const admin = (await h.login('000000', 'admin', 'admin')).access_token; // 1 (the token endpoint counts)
    for (let i = 0; i < 2; i++) expect((await h.call('GET', '/api/app/pub/console-config', { noClient: true })).status).toBe(200);
    expect((await h.call('GET', '/api/blade-system/tenant/info', { noClient: true, query: { domain: 'x.example' } })).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await h.call('GET', '/api/blade-desk/notice/list', { token: admin })).status).toBe(200);
    expect((await h.call('GET', '/api/app/pub/console-config', { noClient: true })).status).toBe(200); // 5
    const refused = await h.call('GET', '/api/blade-auth/oauth/captcha', { noClient: true, lang: 'en' });
    expect(refused.status).toBe(429);
    expect(refused.raw.headers['retry-after']).toBeDefined();
    const token = await h.tokenRequest({ grant_type: 'password', tenantId: '000000', username: 'admin', password: 'x' });
    expect(token.statusCode).toBe(429);
    expect(token.json().error_description).toMatch(/^请求过于频繁/);
    expect((await h.call('GET', '/api/blade-desk/notice/list', { token: admin })).status).toBe(200);
  });
});
