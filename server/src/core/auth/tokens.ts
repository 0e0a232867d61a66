import { randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

/** Claims of an access token; names follow the BladeX tokens so existing clients can read them. */
export interface AccessClaims {
  token_type: 'access_token';
  tenant_id: string;
  user_id: string;
  dept_id: string;
  role_id: string;
  role_name: string;
  post_id: string;
  account: string;
  user_name: string;
  real_name: string;
  client_id: string;
  /** the session this token belongs to; revoking the session stops the token at once */
  sid: string;
}

/**
 * Claims of an app user's token (the vendor's phone app, not the console): another token type, so neither
 * kind of token is ever taken for the other.
 */
export interface AppClaims {
  token_type: 'app_access_token';
  tenant_id: string;
  app_user_id: string;
  /** the user's password time (ms) when signed: a later password change or reset ends the token */
  pwt: number;
}

/** Tokens whose signature was checked, kept so a token's next calls skip the HMAC (about a tenth of a list call's CPU). */
const VERIFIED_TOKENS = 5000;

export class TokenSigner {
  /** imported once: jose would import a raw secret again on every verify (9% of a list call's CPU) */
  private readonly key: Promise<CryptoKey>;
  /**
   * token text → its payload, for tokens that verified: the same text always verifies the same way, so only its
   * expiry is checked again (oldest forgotten first). A token that failed is not kept: it costs its caller the check.
   */
  private readonly verifiedTokens = new Map<string, Record<string, unknown>>();

  constructor(secret: string) {
    this.key = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  }

  async sign(claims: AccessClaims, ttlSeconds: number): Promise<string> {
    return this.signed({ ...claims }, claims.user_id, ttlSeconds);
  }

  async signApp(claims: AppClaims, ttlSeconds: number): Promise<string> {
    return this.signed({ ...claims }, claims.app_user_id, ttlSeconds, 'app');
  }

  /** The claims of a valid, unexpired app token; null otherwise. */
  async verifyApp(token: string): Promise<AppClaims | null> {
    const p = await this.verified(token, 'app');
    const ok = p && p.token_type === 'app_access_token' && typeof p.app_user_id === 'string' && typeof p.tenant_id === 'string' && typeof p.pwt === 'number';
    return ok ? p as unknown as AppClaims : null;
  }

  private async signed(claims: Record<string, unknown>, subject: string, ttlSeconds: number, audience?: string): Promise<string> {
    const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt().setSubject(subject).setIssuer('iot-console');
    if (audience) jwt.setAudience(audience);
    return jwt.setExpirationTime(`${ttlSeconds}s`).sign(await this.key);
  }

  private async verified(token: string, audience?: string): Promise<Record<string, unknown> | null> {
    const key = `${audience ?? ''} ${token}`;
    const known = this.verifiedTokens.get(key);
    if (known) {
      if (typeof known.exp === 'number' && known.exp > Date.now() / 1000) return known;
      this.verifiedTokens.delete(key);
      return null;
    }
    try {
      const { payload } = await jwtVerify(token, await this.key, { issuer: 'iot-console', algorithms: ['HS256'], ...(audience ? { audience } : {}) });
      if (typeof payload.exp === 'number') {
        if (this.verifiedTokens.size >= VERIFIED_TOKENS) this.verifiedTokens.delete(this.verifiedTokens.keys().next().value!);
        this.verifiedTokens.set(key, payload);
      }
      return payload;
    } catch {
      return null;
    }
  }

  /** The claims of a valid, unexpired access token; null otherwise. */
  async verify(token: string): Promise<AccessClaims | null> {
    const p = await this.verified(token);
    const ok = p && p.token_type === 'access_token' && typeof p.sid === 'string' && typeof p.tenant_id === 'string';
    return ok ? p as unknown as AccessClaims : null;
  }
}

/** Opaque refresh tokens: 256 random bits. */
export function newRefreshToken(): string {
  return randomBytes(32).toString('base64url');
}
