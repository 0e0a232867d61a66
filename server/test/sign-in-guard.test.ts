import { describe, expect, it } from 'vitest';
import { ADDRESS_BUDGET, CAPTCHA_AFTER_FAILURES, MAX_FAILED_SIGN_INS } from '../src/core/auth/signInGuard.js';
import type { AccessClaims } from '../src/core/auth/tokens.js';
import { CAPTCHAS_PER_ADDRESS, setCaptchaGenerator } from '../src/areas/auth/captcha.js';
import { BASIC, md5, useServer } from './harness.js';

/** Sign-in under attack: bursts, lockout abuse, account and tenant enumeration, password guessing elsewhere. */
const h = useServer();

let address = 0;
/** A fresh client address per scenario: the budgets are per address. */
const newAddress = () => `10.20.${Math.floor(++address / 250)}.${address % 250}`;

const grant = (from: string, tenantId: string, username: string, password: string, extra: { lang?: string; headers?: Record<string, string>; grant?: string } = {}) =>
  h.server.app.inject({
    method: 'POST', url: '/api/blade-auth/oauth/token', remoteAddress: from,
    query: { grant_type: extra.grant ?? 'password', tenantId, username, password: md5(password) },
    headers: { authorization: BASIC, 'tenant-id': tenantId, ...(extra.lang ? { 'accept-language': extra.lang } : {}), ...extra.headers },
  });

async function captchaHeaders(from: string): Promise<Record<string, string>> {
  setCaptchaGenerator(() => 'ABCDE');
  const res = await h.server.app.inject({ method: 'GET', url: '/api/blade-auth/oauth/captcha', remoteAddress: from });
  return { 'captcha-key': (res.json() as { key: string }).key, 'captcha-code': 'abcde' };
}

describe('the address budget', () => {
  it('is spent before the password is checked: a parallel burst of 60 gets exactly the budget checked', async () => {
    const from = newAddress();
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => grant(from, '541742', `burst${i}`, 'guess')));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 400)).toHaveLength(ADDRESS_BUDGET.max);
    expect(statuses.filter((s) => s === 429)).toHaveLength(60 - ADDRESS_BUDGET.max);
    // the right password from that address is refused too until the window ends
    expect((await grant(from, '541742', 'admin', 'admin')).statusCode).toBe(429);
  });

  it('is given back by a successful sign-in, so an office signing in all day is never slowed down', async () => {
    const from = newAddress();
    for (let i = 0; i < ADDRESS_BUDGET.max + 5; i++) expect((await grant(from, '541742', 'admin', 'admin')).statusCode).toBe(200);
  });

  it('is spent by unknown tenants like wrong passwords, so tenant ids cannot be enumerated', async () => {
    const from = newAddress();
    for (let i = 0; i < ADDRESS_BUDGET.max; i++) {
      const res = await grant(from, String(100000 + i), 'admin', 'admin');
      expect(res.statusCode).toBe(400);
    }
    expect((await grant(from, '200000', 'admin', 'admin')).statusCode).toBe(429);
    expect((await grant(from, '541742', 'admin', 'admin')).statusCode).toBe(429);
  });
});

describe('lockout', () => {
  it('locks an account only for the address the wrong passwords came from; elsewhere the real user signs in with a captcha', async () => {
    await h.createUser('541742', 'victim', 'real-pass', ['user']);
    const attacker = newAddress();
    for (let i = 0; i < MAX_FAILED_SIGN_INS - 1; i++) {
      expect((await grant(attacker, '541742', 'victim', `guess${i}`)).json().error_description).toBe('用户名或密码错误');
    }
    expect((await grant(attacker, '541742', 'victim', 'guess-last')).json().error_description).toMatch(/账号已锁定/);
    // the attacker's address is locked out of the account, even with the right password
    expect((await grant(attacker, '541742', 'victim', 'real-pass')).json().error_description).toMatch(/账号已锁定, 请 30 分钟后再试/);
    // the real user elsewhere is asked for a captcha instead of being refused
    const home = newAddress();
    const asked = await grant(home, '541742', 'victim', 'real-pass');
    expect(asked.statusCode).toBe(400);
    expect(asked.json()).toMatchObject({ error: 'captcha_required', error_description: '该账号登录失败次数较多, 请输入验证码后再登录' });
    const withCaptcha = await grant(home, '541742', 'victim', 'real-pass', { grant: 'captcha', headers: await captchaHeaders(home) });
    expect(withCaptcha.statusCode).toBe(200);
    expect(withCaptcha.json()).toMatchObject({ account: 'victim' });
    // a success starts the account's counters afresh: no captcha needed any more
    expect((await grant(home, '541742', 'victim', 'real-pass')).statusCode).toBe(200);
  });

  it('a wrong captcha does not let the password be tried', async () => {
    await h.createUser('541742', 'victim2', 'real-pass', ['user']);
    for (let i = 0; i < CAPTCHA_AFTER_FAILURES; i++) await grant(newAddress(), '541742', 'victim2', `guess${i}`);
    const from = newAddress();
    const headers = await captchaHeaders(from);
    const wrong = await grant(from, '541742', 'victim2', 'real-pass', { grant: 'captcha', headers: { ...headers, 'captcha-code': 'zzzzz' } });
    expect(wrong.json().error_description).toBe('验证码不正确');
    expect((await grant(from, '541742', 'victim2', 'real-pass')).json().error).toBe('captcha_required');
  });

  it('answers unknown and existing accounts alike: same messages at every step', async () => {
    await h.createUser('541742', 'known', 'real-pass', ['user']);
    const from = newAddress();
    const trace = async (account: string) => {
      const out: string[] = [];
      for (let i = 0; i < MAX_FAILED_SIGN_INS + 1; i++) {
        const res = await grant(from, '541742', account, `guess${i}`);
        out.push(`${res.statusCode} ${res.json().error} ${res.json().error_description}`);
      }
      out.push((await grant(newAddress(), '541742', account, 'x')).json().error);
      return out;
    };
    const known = await trace('known');
    const unknown = await trace('unknown-account');
    expect(unknown).toEqual(known);
    expect(known.at(-2)).toMatch(/锁定/);
    expect(known.at(-1)).toBe('captcha_required');
  });

  it('user/unlock (SignInGuard.unlock) clears the lock from every address', async () => {
    await h.createUser('541742', 'unlockme', 'real-pass', ['user']);
    const from = newAddress();
    for (let i = 0; i < MAX_FAILED_SIGN_INS; i++) await grant(from, '541742', 'unlockme', 'bad');
    expect((await grant(from, '541742', 'unlockme', 'real-pass')).json().error_description).toMatch(/锁定/);
    await h.server.ctx.signIns.unlock('541742', 'unlockme');
    expect((await grant(from, '541742', 'unlockme', 'real-pass')).statusCode).toBe(200);
  });
});

describe('the account budget under parallel bursts', () => {
  /** Counts the password verifications (argon2 runs) made while fn runs. */
  async function verificationsDuring<T>(fn: () => Promise<T>): Promise<{ result: T; verified: number }> {
    const hashing = h.server.ctx.hashing;
    const run = hashing.run.bind(hashing);
    let verified = 0;
    hashing.run = ((work: () => Promise<unknown>) => {
      verified++;
      return run(work);
    }) as typeof hashing.run;
    try {
      return { result: await fn(), verified };
    } finally {
      hashing.run = run;
    }
  }

  it('checks at most the budget of a burst of 20 wrong passwords from 20 addresses; the rest are asked for a captcha', async () => {
    await h.createUser('541742', 'burst-victim', 'real-pass', ['user']);
    const { result, verified } = await verificationsDuring(() =>
      Promise.all(Array.from({ length: 20 }, (_, i) => grant(newAddress(), '541742', 'burst-victim', `guess${i}`))));
    const errors = result.map((r) => r.json().error as string);
    expect(verified).toBeLessThanOrEqual(CAPTCHA_AFTER_FAILURES);
    expect(errors.filter((e) => e === 'invalid_grant')).toHaveLength(verified);
    expect(errors.filter((e) => e === 'captcha_required')).toHaveLength(20 - verified);
    // the same as a sequence: the budget is spent, so even the right password now needs a captcha, unchecked
    const after = await verificationsDuring(() => grant(newAddress(), '541742', 'burst-victim', 'real-pass'));
    expect(after.result.json().error).toBe('captcha_required');
    expect(after.verified).toBe(0);
    const from = newAddress();
    const withCaptcha = await grant(from, '541742', 'burst-victim', 'real-pass', { grant: 'captcha', headers: await captchaHeaders(from) });
    expect(withCaptcha.statusCode).toBe(200);
  });

  it('gives a sequence the same budget: the sixth wrong password from a sixth address is not checked', async () => {
    await h.createUser('541742', 'seq-victim', 'real-pass', ['user']);
    const { result, verified } = await verificationsDuring(async () => {
      const out = [];
      for (let i = 0; i < 20; i++) out.push((await grant(newAddress(), '541742', 'seq-victim', `guess${i}`)).json().error as string);
      return out;
    });
    expect(verified).toBe(CAPTCHA_AFTER_FAILURES);
    expect(result.slice(0, CAPTCHA_AFTER_FAILURES)).toEqual(Array(CAPTCHA_AFTER_FAILURES).fill('invalid_grant'));
    expect(result.slice(CAPTCHA_AFTER_FAILURES)).toEqual(Array(20 - CAPTCHA_AFTER_FAILURES).fill('captcha_required'));
  });

  it('gives the right password inside a burst no pass beyond the budget', async () => {
    await h.createUser('541742', 'mixed-victim', 'real-pass', ['user']);
    const { result, verified } = await verificationsDuring(() => Promise.all(Array.from({ length: 20 }, (_, i) =>
      grant(newAddress(), '541742', 'mixed-victim', i === 19 ? 'real-pass' : `guess${i}`))));
    const signedIn = result.filter((r) => r.statusCode === 200).length;
    const refused = result.filter((r) => r.json().error === 'captcha_required').length;
    // each checked attempt was one of the budget; the right one answered with a token only if it was checked
    expect(verified).toBeLessThanOrEqual(CAPTCHA_AFTER_FAILURES + (signedIn ? CAPTCHA_AFTER_FAILURES : 0));
    expect(refused).toBe(20 - verified);
    if (!signedIn) expect(verified).toBeLessThanOrEqual(CAPTCHA_AFTER_FAILURES);
  });

  it('counts a burst from one address once per attempt: that address is locked after the budget, the rest unchecked', async () => {
    await h.createUser('541742', 'one-address-victim', 'real-pass', ['user']);
    const from = newAddress();
    const { result, verified } = await verificationsDuring(() =>
      Promise.all(Array.from({ length: 12 }, (_, i) => grant(from, '541742', 'one-address-victim', `guess${i}`))));
    expect(verified).toBeLessThanOrEqual(MAX_FAILED_SIGN_INS);
    expect(result.filter((r) => /锁定/.test(r.json().error_description as string)).length).toBeGreaterThanOrEqual(12 - verified);
  });
});

describe('other guessing and flooding', () => {
  it('limits guesses of the current password on update-password per user', async () => {
    await h.createUser('541742', 'changer', 'real-pass', ['user']);
    const token = (await h.login('541742', 'changer', 'real-pass')).access_token;
    const attempt = (old: string) => h.call('POST', '/api/blade-user/update-password', {
      token, body: { oldPassword: md5(old), newPassword: md5('next-pass'), newPassword1: md5('next-pass') },
    });
    for (let i = 0; i < 10; i++) expect((await attempt(`guess${i}`)).body.msg).toBe('原密码不正确');
    const refused = await attempt('real-pass');
    expect(refused.status).toBe(429);
    expect(refused.body.msg).toMatch(/请求过于频繁/);
  });

  it('limits captchas per address', async () => {
    const from = newAddress();
    for (let i = 0; i < CAPTCHAS_PER_ADDRESS.max; i++) {
      expect((await h.server.app.inject({ method: 'GET', url: '/api/blade-auth/oauth/captcha', remoteAddress: from })).statusCode).toBe(200);
    }
    const refused = await h.server.app.inject({ method: 'GET', url: '/api/blade-auth/oauth/captcha', remoteAddress: from });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 429, success: false });
  });
});

describe('tokens and platform actions', () => {
  it('refuses a validly signed token whose tenant differs from its session\'s', async () => {
    const t = await h.login('541742', 'admin', 'admin');
    const [, payload] = t.access_token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as AccessClaims;
    expect((await h.call('GET', '/api/blade-auth/oauth/user-info', { token: t.access_token })).status).toBe(200);
    const forged = await h.server.ctx.signer.sign({ ...claims, tenant_id: '000000' }, 3600);
    const res = await h.call('GET', '/api/blade-auth/oauth/user-info', { token: forged });
    expect(res.status).toBe(401);
  });

  it('clear-cache is the platform administrators\' alone', async () => {
    const tenantAdmin = (await h.login('541742', 'admin', 'admin')).access_token;
    const refused = await h.call('GET', '/api/blade-auth/oauth/clear-cache', { token: tenantAdmin });
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe('只有平台管理员可以执行该操作');
    await h.createUser('000000', 'platform-user', 'pw', ['user']);
    const platformUser = (await h.login('000000', 'platform-user', 'pw')).access_token;
    expect((await h.call('GET', '/api/blade-auth/oauth/clear-cache', { token: platformUser })).status).toBe(403);
    const admin = (await h.login('000000', 'admin', 'admin')).access_token;
    const ok = await h.call('GET', '/api/blade-auth/oauth/clear-cache', { token: admin });
    expect(ok.body).toMatchObject({ code: 200, msg: '清除完毕' });
  });
});
