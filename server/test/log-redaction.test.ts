import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { inTenant } from '../src/core/db/index.js';
import { maskParams, redactUrl } from '../src/core/redact.js';
import { md5, useServer } from './harness.js';

/** No credential reaches a log: the request log, the API log or the error log. */
const lines: string[] = [];
const h = useServer({ LOG_LEVEL: 'info' }, { logStream: { write: (line: string) => void lines.push(line) } });

describe('credentials in logs', () => {
  it('the request log, the API log and the error log hold no password, token, refresh token or captcha code', async () => {
    const password = md5('admin');
    const signIn = await h.tokenRequest({ grant_type: 'password', tenantId: '541742', username: 'admin', password }, { 'tenant-id': '541742' });
    const { access_token: access, refresh_token: refresh } = signIn.json() as { access_token: string; refresh_token: string };
    const refreshed = await h.tokenRequest({ grant_type: 'refresh_token', tenantId: '541742', refresh_token: refresh });
    expect(refreshed.statusCode).toBe(200);
    // a token in the query string (downloads, iframes) and a failed call that goes to the error log
    await h.server.app.inject({ method: 'GET', url: `/api/blade-desk/notice/list?blade-auth=${encodeURIComponent(`bearer ${access}`)}` });
    await h.server.app.inject({
      method: 'POST', url: '/api/blade-auth/oauth/token?grant_type=captcha&tenantId=541742&username=admin&password=' + password,
      headers: { authorization: (await import('./harness.js')).BASIC, 'captcha-key': 'k', 'captcha-code': 'SECRETCODE' },
    });
    await h.call('POST', '/api/blade-user/update-password', {
      token: access, query: { oldPassword: md5('wrong-old'), newPassword: md5('n1'), newPassword1: md5('n1') },
    });
    await h.server.ctx.logs.flush();

    const secrets = [password, access, refresh, md5('wrong-old'), md5('n1'), 'SECRETCODE'];
    const requestLog = lines.join('');
    expect(requestLog).toContain('/api/blade-auth/oauth/token'); // the log is really captured
    expect(requestLog).toContain('password=******');
    const rows = await inTenant(h.server.ctx.db, { tenantId: '000000', allTenants: true }, async (tx) => {
      const api = await tx.execute(sql`select params, request_uri from blade_log_api`);
      const err = await tx.execute(sql`select params, request_uri, message from blade_log_error`);
      const usual = await tx.execute(sql`select log_data, request_uri from blade_log_usual`);
      return JSON.stringify([api, err, usual].map((r) => (r as unknown as { rows: unknown[] }).rows));
    });
    expect(rows).toContain('******');
    for (const secret of secrets) {
      expect(requestLog).not.toContain(secret);
      expect(rows).not.toContain(secret);
    }
  });

  it('masks by key, at any depth and in URLs, without throwing on what it cannot copy', () => {
    expect(maskParams({ password: 'x', nested: { refresh_token: 'y', list: [{ 'Blade-Auth': 'z', title: 't' }] }, paramKey: 'k' }))
      .toEqual({ password: '******', nested: { refresh_token: '******', list: [{ 'Blade-Auth': '******', title: 't' }] }, paramKey: 'k' });
    expect(redactUrl('/api/blade-auth/oauth/token?tenantId=1&password=abc&refresh_token=def&blade-auth=bearer%20x&code=1'))
      .toBe('/api/blade-auth/oauth/token?tenantId=1&password=******&refresh_token=******&blade-auth=******&code=******');
    expect(redactUrl('/api/x/list?code=notice')).toBe('/api/x/list?code=notice');
    let deep: unknown = 'x';
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(JSON.stringify(maskParams({ deep }))).toMatch(/…/);
  });
});
