import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AccessClaims, TokenSigner } from '../src/core/auth/tokens.js';

const claims: AccessClaims = {
  token_type: 'access_token', tenant_id: '000000', user_id: '1', dept_id: '1', role_id: '1', role_name: 'administrator', post_id: '',
  account: 'admin', user_name: 'admin', real_name: 'admin', client_id: 'saber', sid: 's1',
};

describe('verified tokens kept by the signer', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers a kept token until its expiry, then refuses it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const signer = new TokenSigner('a-secret-of-enough-length-for-hs256');
    const token = await signer.sign(claims, 60);
    expect((await signer.verify(token))?.user_id).toBe('1');
    expect((await signer.verify(token))?.user_id).toBe('1');
    vi.setSystemTime(Date.now() + 61_000);
    expect(await signer.verify(token)).toBeNull();
    expect(await signer.verify(token)).toBeNull();
  });

  it('refuses a token altered after its original was kept, and one signed with another secret', async () => {
    const signer = new TokenSigner('a-secret-of-enough-length-for-hs256');
    const token = await signer.sign(claims, 60);
    expect(await signer.verify(token)).not.toBeNull();
    const [h, p, sig] = token.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), tenant_id: '541742' })).toString('base64url')}.${sig}`;
    expect(await signer.verify(forged)).toBeNull();
    const other = await new TokenSigner('another-secret-of-enough-length-x').sign(claims, 60);
    expect(await signer.verify(other)).toBeNull();
  });

  it('keeps an app token apart from a console token', async () => {
    const signer = new TokenSigner('a-secret-of-enough-length-for-hs256');
    const token = await signer.sign(claims, 60);
    expect(await signer.verify(token)).not.toBeNull();
    expect(await signer.verifyApp(token)).toBeNull();
  });
});
