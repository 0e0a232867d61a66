import type { FastifyRequest } from 'fastify';
import type { Kv } from '../kv.js';
import { sha256Hex } from './passwords.js';

/** Failed sign-ins one address may make in a quarter of an hour, across every account and tenant. */
export const ADDRESS_BUDGET = { max: 30, windowSeconds: 900 };
/** Wrong passwords for one account from one address before that address is locked out of it. */
export const MAX_FAILED_SIGN_INS = 5;
export const LOCK_MINUTES = 30;
/** Wrong passwords for one account from anywhere before every sign-in to it needs a captcha. */
export const CAPTCHA_AFTER_FAILURES = 5;

export type AttemptRefusal =
  | { kind: 'addressSpent'; seconds: number }
  | { kind: 'locked'; minutes: number }
  | { kind: 'captchaRequired' };

/**
 * Counters that make password guessing expensive without letting anyone lock out someone else:
 *
 * - every attempt spends the caller's address budget BEFORE anything is checked (atomically, in Redis
 *   when configured), so a parallel burst gets at most the budget; a successful sign-in gives it back;
 * - the account's budgets (from this address, from anywhere) are taken the same way before the password is
 *   verified (`reserve`), so twenty attempts at once from twenty addresses verify no more than five;
 * - wrong passwords lock the account only for the address they came from (5 in 30 minutes);
 * - wrong passwords from anywhere make the account ask for a captcha instead of refusing it, so an
 *   attacker elsewhere slows the real user down by a captcha, never locks them out.
 *
 * Counters are keyed by the account name given, not by the user row, so an unknown account is counted,
 * locked and answered exactly like an existing one (nothing tells them apart). `unlock` (user/unlock)
 * starts every counter of an account afresh through a generation number.
 */
export class SignInGuard {
  constructor(private readonly kv: Kv) {}

  private static who(tenantId: string, account: string): string {
    return sha256Hex(`${tenantId}\u0001${account}`).slice(0, 32);
  }

  private async generation(who: string): Promise<string> {
    return (await this.kv.get(`signin:gen:${who}`)) ?? '0';
  }

  private async keys(req: FastifyRequest, tenantId: string, account: string) {
    const who = SignInGuard.who(tenantId, account);
    const gen = await this.generation(who);
    return {
      address: `signin:addr:${req.ip}`,
      accountAtAddress: `signin:lock:${who}:${gen}:${req.ip}`,
      account: `signin:acct:${who}:${gen}`,
    };
  }

  /** Spends one attempt of the address budget; refuses once it is spent. Call before checking anything. */
  async spend(req: FastifyRequest): Promise<AttemptRefusal | null> {
    const { count, resetSeconds } = await this.kv.hit(`signin:addr:${req.ip}`, ADDRESS_BUDGET.windowSeconds);
    return count > ADDRESS_BUDGET.max ? { kind: 'addressSpent', seconds: resetSeconds } : null;
  }

  /**
   * Takes one attempt of the account's budgets (from this address, and from anywhere) before the password is
   * verified, or refuses: this address is locked out of the account, or the account needs a captcha. The
   * counters are incremented first and the attempt given back when refused, so parallel attempts from many
   * addresses get no more verifications than a sequence. Follow with `failed`, `succeeded` or `giveBack`.
   */
  async reserve(req: FastifyRequest, tenantId: string, account: string, captchaSolved: boolean): Promise<AttemptRefusal | null> {
    const k = await this.keys(req, tenantId, account);
    const [here, anywhere] = await Promise.all([
      this.kv.hit(k.accountAtAddress, LOCK_MINUTES * 60),
      this.kv.hit(k.account, LOCK_MINUTES * 60),
    ]);
    let refusal: AttemptRefusal | null = null;
    if (here.count > MAX_FAILED_SIGN_INS) refusal = { kind: 'locked', minutes: Math.ceil(here.resetSeconds / 60) };
    else if (!captchaSolved && anywhere.count > CAPTCHA_AFTER_FAILURES) refusal = { kind: 'captchaRequired' };
    if (refusal) await this.giveBackKeys(k);
    return refusal;
  }

  /**
   * Runs the verification of an attempt taken by `reserve`; when it throws (database or hashing unavailable)
   * the password was not checked, so the attempt is given back.
   */
  async verifying<T>(req: FastifyRequest, tenantId: string, account: string, verify: () => Promise<T>): Promise<T> {
    try {
      return await verify();
    } catch (e) {
      await this.giveBackKeys(await this.keys(req, tenantId, account));
      throw e;
    }
  }

  private async giveBackKeys(k: { accountAtAddress: string; account: string }): Promise<void> {
    await Promise.all([this.kv.unhit(k.accountAtAddress), this.kv.unhit(k.account)]);
  }

  /** A wrong password (or an unknown account) after `reserve`: its attempt stays spent; answers whether this address is now locked out. */
  async failed(req: FastifyRequest, tenantId: string, account: string): Promise<{ locked: boolean }> {
    const k = await this.keys(req, tenantId, account);
    const here = await this.kv.peek(k.accountAtAddress);
    return { locked: (here?.count ?? 0) >= MAX_FAILED_SIGN_INS };
  }

  /** The right password: the address gets its attempt back and the account's counters start afresh. */
  async succeeded(req: FastifyRequest, tenantId: string, account: string): Promise<void> {
    const k = await this.keys(req, tenantId, account);
    await Promise.all([this.kv.unhit(k.address), this.kv.del(k.accountAtAddress), this.kv.del(k.account)]);
  }

  /** Clears every lock and captcha requirement of an account, from every address (user/unlock). */
  async unlock(tenantId: string, account: string): Promise<void> {
    const who = SignInGuard.who(tenantId, account);
    const next = String(Number(await this.generation(who)) + 1);
    await this.kv.set(`signin:gen:${who}`, next, 30 * 24 * 3600);
  }
}
