import { POSTSALE_APP_API } from '@console/contract/areas/postsale/index';
import { expect } from 'vitest';
import { SMS, type SmsSender } from '../src/areas/resource/index.js';
import { type Harness, md5 } from './harness.js';

type Body = Record<string, unknown>;

/**
 * The phone app's side in tests: SMS codes recorded instead of sent, users registered through the app's own calls,
 * and calls made with an app token.
 */
export function appSide(h: Harness, tenantId: string) {
  const sent: Array<{ tenantId: string; phone: string; code: string }> = [];
  const recordingSms: SmsSender = {
    async send(tenant, phones, params) {
      sent.push({ tenantId: tenant, phone: phones[0]!, code: params.code! });
      return { success: true, code: 'OK', msg: 'recorded' };
    },
  };
  let seq = 0;
  const call = <T = unknown>(method: 'GET' | 'POST', url: string, token: string | undefined, body?: Body, lang: 'zh' | 'en' = 'zh') =>
    h.call<T>(method, url, {
      noClient: true, lang, headers: token ? { 'blade-auth': `bearer ${token}` } : {},
      ...(method === 'GET' ? { query: body as Record<string, string> } : { body }),
    });
  return {
    sent,
    recordingSms,
    /** records the codes from now on */
    listen: () => h.server.ctx.services.replace(SMS, recordingSms),
    call,
    newPhone: () => `139${String(Date.now() % 1e4).padStart(4, '0')}${String(++seq).padStart(4, '0')}`,
    lastCode: (phone: string) => sent.filter((s) => s.phone === phone).at(-1)!.code,
    /** registers through the app (a code, then the sign-up) and answers the app token */
    async register(phone: string, password = 'Lock#2026'): Promise<string> {
      const asked = await call('POST', POSTSALE_APP_API.smsCode, undefined, { tenantId, phone, purpose: 'register' });
      expect(asked.status, asked.body.msg).toBe(200);
      const code = sent.filter((s) => s.phone === phone).at(-1)!.code;
      const res = await call<{ accessToken: string }>('POST', POSTSALE_APP_API.register, undefined, { tenantId, phone, smsCode: code, password: md5(password), nickname: `n${phone.slice(-4)}` });
      expect(res.status, res.body.msg).toBe(200);
      return res.body.data.accessToken;
    },
  };
}
