import { and, eq, isNull } from 'drizzle-orm';
import { type Db, type Executor, inTenant, schema } from '../db/index.js';
import { nextId } from '../ids.js';
import type { Kv } from '../kv.js';
import { newRefreshToken, sha256Hex } from './index.js';

const REVOKED_CHANNEL = 'session-revoked';
/** How long an instance trusts its cached "session is active" answer; revocations are pushed at once. */
const ACTIVE_CACHE_MS = 60_000;

export interface NewSession {
  tenantId: string;
  userId: string;
  clientId: string;
  refreshTtlSeconds: number;
  remoteIp?: string;
  userAgent?: string;
}

export type RefreshOutcome =
  | { ok: true; sessionId: string; userId: string; clientId: string }
  | { ok: false; reason: 'unknown' | 'expired' | 'reused' | 'revoked' };

/**
 * Sign-in sessions. Access tokens carry the session id; refresh tokens are single use and rotate;
 * presenting a used refresh token again revokes the whole session (token theft detection).
 */
export class Sessions {
  /** session id → when it was last seen active, and its tenant (a token must name the same tenant) */
  private readonly active = new Map<string, { at: number; tenantId: string }>();
  private readonly revoked = new Set<string>();

  constructor(private readonly db: Db, private readonly kv: Kv) {}

  async start(): Promise<void> {
    // a revocation missed while Redis was away: every session is read from the database again
    await this.kv.subscribe(REVOKED_CHANNEL, (sid) => this.markRevoked(sid), () => this.active.clear());
  }

  async create(tx: Executor, s: NewSession): Promise<string> {
    const id = nextId();
    await tx.insert(schema.authSession).values({
      id,
      tenantId: s.tenantId,
      userId: s.userId,
      clientId: s.clientId,
      expireTime: new Date(Date.now() + s.refreshTtlSeconds * 1000),
      remoteIp: s.remoteIp?.slice(0, 64),
      userAgent: s.userAgent?.slice(0, 500),
    });
    this.active.set(id, { at: Date.now(), tenantId: s.tenantId });
    return id;
  }

  async issueRefreshToken(tx: Executor, tenantId: string, sessionId: string, ttlSeconds: number): Promise<string> {
    const token = newRefreshToken();
    await tx.insert(schema.authRefreshToken).values({
      id: nextId(),
      tenantId,
      sessionId,
      tokenHash: sha256Hex(token),
      expireTime: new Date(Date.now() + ttlSeconds * 1000),
    });
    return token;
  }

  /** Uses up a refresh token of the tenant. */
  async consumeRefreshToken(tx: Executor, token: string): Promise<RefreshOutcome> {
    const [row] = await tx
      .select({ rt: schema.authRefreshToken, session: schema.authSession })
      .from(schema.authRefreshToken)
      .innerJoin(schema.authSession, eq(schema.authSession.id, schema.authRefreshToken.sessionId))
      .where(eq(schema.authRefreshToken.tokenHash, sha256Hex(token)))
      .for('update');
    if (!row) return { ok: false, reason: 'unknown' };
    if (row.session.revokedTime) return { ok: false, reason: 'revoked' };
    if (row.rt.usedTime) {
      await this.revokeIn(tx, row.session.id, 'refresh-token-reuse');
      return { ok: false, reason: 'reused' };
    }
    if (row.rt.expireTime.getTime() <= Date.now()) return { ok: false, reason: 'expired' };
    await tx.update(schema.authRefreshToken).set({ usedTime: new Date() }).where(eq(schema.authRefreshToken.id, row.rt.id));
    await tx.update(schema.authSession).set({ lastRefreshTime: new Date() }).where(eq(schema.authSession.id, row.session.id));
    return { ok: true, sessionId: row.session.id, userId: row.session.userId, clientId: row.session.clientId };
  }

  /** Revokes a session inside the caller's transaction; other instances hear of it after commit via publish(). */
  async revokeIn(tx: Executor, sessionId: string, reason: string): Promise<void> {
    await tx
      .update(schema.authSession)
      .set({ revokedTime: new Date(), revokeReason: reason })
      .where(and(eq(schema.authSession.id, sessionId), isNull(schema.authSession.revokedTime)));
    this.markRevoked(sessionId);
  }

  async publishRevoked(sessionId: string): Promise<void> {
    this.markRevoked(sessionId);
    await this.kv.publish(REVOKED_CHANNEL, sessionId);
  }

  /** Revokes every live session of a user except one (password change). Returns the revoked ids. */
  async revokeUserSessions(tx: Executor, userId: string, exceptSessionId: string | null, reason: string): Promise<string[]> {
    const rows = await tx
      .select({ id: schema.authSession.id })
      .from(schema.authSession)
      .where(and(eq(schema.authSession.userId, userId), isNull(schema.authSession.revokedTime)));
    const ids = rows.map((r) => r.id).filter((id) => id !== exceptSessionId);
    for (const id of ids) await this.revokeIn(tx, id, reason);
    return ids;
  }

  async isActive(tenantId: string, sessionId: string): Promise<boolean> {
    if (this.revoked.has(sessionId)) return false;
    const seen = this.active.get(sessionId);
    if (seen !== undefined && Date.now() - seen.at < ACTIVE_CACHE_MS) return seen.tenantId === tenantId;
    const [row] = await inTenant(this.db, { tenantId }, (tx) =>
      tx
        .select({ tenantId: schema.authSession.tenantId, revokedTime: schema.authSession.revokedTime, expireTime: schema.authSession.expireTime })
        .from(schema.authSession)
        .where(and(eq(schema.authSession.id, sessionId), eq(schema.authSession.tenantId, tenantId))),
    );
    // a token naming another tenant than its session's finds no row (and RLS hides it too)
    if (!row) return false;
    if (row.revokedTime || row.expireTime.getTime() <= Date.now()) {
      this.markRevoked(sessionId);
      return false;
    }
    if (this.active.size > 100_000) this.active.clear();
    this.active.set(sessionId, { at: Date.now(), tenantId: row.tenantId });
    return true;
  }

  private markRevoked(sessionId: string): void {
    this.active.delete(sessionId);
    this.revoked.add(sessionId);
    if (this.revoked.size > 100_000) this.revoked.clear(); // bounded; the database stays authoritative
  }
}
