import { type Lang, msg, type MessageKey, type TokenResponse } from '@console/contract';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { JSON_OR_FORM } from '../../core/apiDocs.js';
import { isMd5Hex, verifyDecoy, verifyPassword } from '../../core/auth/index.js';
import type { AppContext, ClientInfo } from '../../core/context.js';
import { AppError, inLang } from '../../core/errors.js';
import { type Executor, inTenant, schema } from '../../core/db/index.js';
import { splitList } from '../../core/ids.js';
import { type AttemptRefusal, LOCK_MINUTES } from '../../core/auth/signInGuard.js';
import { usableTenant } from '../../core/tenants.js';
import { consumeCaptcha } from './captcha.js';

export { ADDRESS_BUDGET, CAPTCHA_AFTER_FAILURES, LOCK_MINUTES, MAX_FAILED_SIGN_INS } from '../../core/auth/signInGuard.js';

/** An OAuth error answer: `{ error, error_description, code, success: false, msg }`. */
class OAuthError extends Error {
  constructor(readonly status: number, readonly error: string, readonly key: MessageKey, readonly params?: Record<string, string | number>) {
    super(key);
  }
}

const tokenParams = z.object({
  grant_type: z.string().optional(),
  grantType: z.string().optional(),
  tenantId: z.string().optional(),
  username: z.string().optional(),
  account: z.string().optional(),
  password: z.string().optional(),
  refresh_token: z.string().optional(),
  refreshToken: z.string().optional(),
  deptId: z.string().optional(),
  roleId: z.string().optional(),
  scope: z.string().optional(),
  type: z.string().optional(),
}).passthrough();

type UserRow = typeof schema.user.$inferSelect;

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  return s?.trim() || undefined;
}

/**
 * Picks the active department and roles: all held ones, or the ones asked for (switch mode: one role,
 * or a comma list such as a token's own role_id) if every one is held.
 */
function activeIdentity(user: UserRow, deptId: string | undefined, roleId: string | undefined) {
  const depts = splitList(user.deptId);
  const roles = splitList(user.roleId);
  const asked = splitList(roleId);
  if (deptId && !depts.includes(deptId)) throw new OAuthError(400, 'invalid_request', 'deptNotHeld');
  if (asked.some((r) => !roles.includes(r))) throw new OAuthError(400, 'invalid_request', 'roleNotHeld');
  return { deptId: deptId ?? depts[0] ?? '', roleIds: asked.length ? [...new Set(asked)] : roles };
}

/**
 * An address past its budget is answered after a pause: a script that ignores 429 and retries at once
 * would otherwise get tens of thousands of answers a second and take the CPU from everyone else. Bounded,
 * so the pause itself cannot be used to hold the server's sockets.
 */
const TARPIT_MS = 1000;
const TARPIT_MAX_WAITING = 1000;
let tarpitted = 0;
async function tarpit(): Promise<void> {
  if (tarpitted >= TARPIT_MAX_WAITING) return;
  tarpitted++;
  try {
    await new Promise((r) => setTimeout(r, TARPIT_MS));
  } finally {
    tarpitted--;
  }
}

export function registerTokenRoute(app: FastifyInstance, ctx: AppContext): void {
  // Spec 6: a department and role are asked for only in switch mode; otherwise a sign-in acts with all held roles.
  const askedIdentity = (deptId: string | undefined, roleId: string | undefined) =>
    ctx.config.console.switchMode ? { deptId, roleId } : { deptId: undefined, roleId: undefined };

  const issue = async (
    tx: Executor,
    req: FastifyRequest,
    client: ClientInfo,
    user: UserRow,
    identity: { deptId: string; roleIds: string[] },
    sessionId: string | null,
  ): Promise<TokenResponse> => {
    const roles = identity.roleIds.length
      ? await tx.select({ id: schema.role.id, alias: schema.role.roleAlias, name: schema.role.roleName }).from(schema.role)
        .where(and(eq(schema.role.tenantId, user.tenantId), eq(schema.role.isDeleted, 0)))
      : [];
    const held = roles.filter((r) => identity.roleIds.includes(r.id));
    const sid = sessionId ?? await ctx.sessions.create(tx, {
      tenantId: user.tenantId,
      userId: user.id,
      clientId: client.clientId,
      refreshTtlSeconds: client.refreshTokenValidity,
      remoteIp: req.ip,
      userAgent: header(req, 'user-agent'),
    });
    const refresh = await ctx.sessions.issueRefreshToken(tx, user.tenantId, sid, client.refreshTokenValidity);
    const claims = {
      token_type: 'access_token' as const,
      tenant_id: user.tenantId,
      user_id: user.id,
      dept_id: identity.deptId,
      role_id: held.map((r) => r.id).join(','),
      role_name: held.map((r) => r.alias).join(','),
      post_id: user.postId,
      account: user.account,
      user_name: user.account,
      real_name: user.realName ?? '',
      client_id: client.clientId,
      sid,
    };
    const access = await ctx.signer.sign(claims, client.accessTokenValidity);
    return {
      access_token: access,
      token_type: 'bearer',
      refresh_token: refresh,
      expires_in: client.accessTokenValidity,
      scope: 'all',
      tenant_id: user.tenantId,
      user_id: user.id,
      dept_id: claims.dept_id,
      role_id: claims.role_id,
      post_id: user.postId,
      account: user.account,
      user_name: user.account,
      real_name: user.realName ?? '',
      nick_name: user.name ?? '',
      avatar: user.avatar ?? '',
      role_name: claims.role_name,
      oauth_id: '',
      client_id: client.clientId,
      license: 'iot-console',
      detail: { type: 'web' },
    };
  };

  const refusal = (r: AttemptRefusal): OAuthError => {
    switch (r.kind) {
      case 'addressSpent': return new OAuthError(429, 'invalid_request', 'tooManyRequests', { seconds: r.seconds });
      case 'locked': return new OAuthError(400, 'invalid_grant', 'accountLocked', { minutes: r.minutes });
      case 'captchaRequired': return new OAuthError(400, 'captcha_required', 'captchaRequiredForAccount');
    }
  };

  /**
   * The password grant. The address budget is spent before anything is checked; the password is verified
   * outside any transaction (argon2 holds no connection and no row lock, and at most `ctx.hashing.limit`
   * run at once); an unknown account costs a decoy verification and is counted and answered like a
   * known one; only the token's session is written, in one short transaction.
   */
  const passwordGrant = async (req: FastifyRequest, client: ClientInfo, p: z.output<typeof tokenParams>, captchaSolved: boolean): Promise<TokenResponse> => {
    const tenantId = (p.tenantId ?? header(req, 'tenant-id') ?? ctx.config.console.defaultTenantId).trim();
    const account = (p.username ?? p.account ?? '').trim();
    const password = (p.password ?? '').trim().toLowerCase();
    if (!account) throw new OAuthError(400, 'invalid_request', 'usernameRequired');
    if (!password) throw new OAuthError(400, 'invalid_request', 'passwordRequired');
    if (!isMd5Hex(password)) throw new OAuthError(400, 'invalid_request', 'passwordNotMd5');
    if (account.length > 64 || tenantId.length > 12) throw new OAuthError(400, 'invalid_grant', 'badCredentials');
    const spent = await ctx.signIns.spend(req);
    if (spent) {
      await tarpit();
      throw refusal(spent);
    }
    const fail = (e: OAuthError): never => {
      ctx.logs.usual(req, tenantId, 'warn', 'login', { key: 'logSignInFailed', params: { reason: { key: e.key, params: e.params } } }, account);
      throw e;
    };
    // an unknown tenant keeps the attempt spent, like a wrong password: tenant ids cannot be enumerated
    const { problem } = await usableTenant(ctx.db, tenantId);
    if (problem) fail(new OAuthError(400, 'invalid_grant', problem));
    const { deptId, roleId } = askedIdentity(header(req, 'dept-id'), header(req, 'role-id'));
    // the account's attempt is taken before the password is verified, so a burst gets no more than a sequence
    const refused = await ctx.signIns.reserve(req, tenantId, account, captchaSolved);
    if (refused) fail(refusal(refused));

    const { user, good } = await ctx.signIns.verifying(req, tenantId, account, async () => {
      const [found] = await inTenant(ctx.db, { tenantId }, (tx) => tx.select().from(schema.user)
        .where(and(eq(schema.user.tenantId, tenantId), eq(schema.user.account, account), eq(schema.user.isDeleted, 0))));
      return { user: found, good: await ctx.hashing.run(() => (found ? verifyPassword(found.passwordHash, password) : verifyDecoy(password))) };
    });
    if (!user || !good) {
      const { locked } = await ctx.signIns.failed(req, tenantId, account);
      fail(locked
        ? new OAuthError(400, 'invalid_grant', 'accountLocked', { minutes: LOCK_MINUTES })
        : new OAuthError(400, 'invalid_grant', 'badCredentials'));
    }
    await ctx.signIns.succeeded(req, tenantId, account);
    if (user!.status === 2) fail(new OAuthError(400, 'invalid_grant', 'accountDisabled'));
    if (user!.status === 3) fail(new OAuthError(400, 'invalid_grant', 'accountPending'));
    const identity = activeIdentity(user!, deptId, roleId);
    const token = await inTenant(ctx.db, { tenantId }, (tx) => issue(tx, req, client, user!, identity, null));
    ctx.logs.usual(req, tenantId, 'info', 'login', { key: 'logSignIn' }, account);
    return token;
  };

  const refreshGrant = async (req: FastifyRequest, client: ClientInfo, p: z.output<typeof tokenParams>): Promise<TokenResponse> => {
    const token = (p.refresh_token ?? p.refreshToken ?? '').trim();
    const tenantId = (p.tenantId ?? header(req, 'tenant-id') ?? '').trim();
    if (!token || !tenantId) throw new OAuthError(400, 'invalid_request', 'refreshInvalid');
    const { deptId, roleId } = askedIdentity(p.deptId?.trim() || header(req, 'dept-id'), p.roleId?.trim() || header(req, 'role-id'));
    let revokedSession: string | null = null;
    const result = await inTenant(ctx.db, { tenantId }, async (tx) => {
      const used = await ctx.sessions.consumeRefreshToken(tx, token);
      if (!used.ok) {
        return { error: new OAuthError(400, 'invalid_grant', 'refreshInvalid'), reason: used.reason };
      }
      if (used.clientId !== client.clientId) return { error: new OAuthError(400, 'invalid_grant', 'refreshInvalid') };
      const [user] = await tx.select().from(schema.user)
        .where(and(eq(schema.user.id, used.userId), eq(schema.user.tenantId, tenantId), eq(schema.user.isDeleted, 0)));
      if (!user || user.status !== 1) {
        await ctx.sessions.revokeIn(tx, used.sessionId, 'user-unavailable');
        revokedSession = used.sessionId;
        return { error: new OAuthError(400, 'invalid_grant', user ? 'accountDisabled' : 'refreshInvalid') };
      }
      const identity = activeIdentity(user, deptId, roleId);
      return { token: await issue(tx, req, client, user, identity, used.sessionId) };
    }).catch((e: unknown) => {
      if (e instanceof OAuthError) return { error: e };
      throw e;
    });
    if (revokedSession) await ctx.sessions.publishRevoked(revokedSession);
    if ('reason' in result && result.reason === 'reused') {
      ctx.logs.usual(req, tenantId, 'warn', 'refresh-reuse', { key: 'logRefreshReused' });
    }
    if (result.error) throw result.error;
    return result.token!;
  };

  const send = (reply: FastifyReply, lang: Lang, e: OAuthError) => {
    const text = msg(e.key, lang, e.params);
    if (e.status === 429 && e.params?.seconds !== undefined) void reply.header('retry-after', String(e.params.seconds));
    return reply.code(e.status).send({ error: e.error, error_description: text, code: e.status, success: false, msg: text });
  };

  app.post('/api/blade-auth/oauth/token', {
    config: { access: { public: true }, title: { zh: '登录', en: 'Sign in' }, oauthErrors: true },
    schema: {
      tags: ['blade-auth'],
      summary: 'Issue tokens (grant_type password | captcha | refresh_token); answers the OAuth2 token object',
      querystring: tokenParams,
      docsOnly: {
        body: tokenParams,
        consumes: JSON_OR_FORM,
        response: {
          200: z.object({
            access_token: z.string(), token_type: z.literal('bearer'), refresh_token: z.string(), expires_in: z.number(), scope: z.string(),
            tenant_id: z.string(), user_id: z.string(), dept_id: z.string(), role_id: z.string(), post_id: z.string(), account: z.string(),
            user_name: z.string(), real_name: z.string(), nick_name: z.string(), avatar: z.string(), role_name: z.string(), oauth_id: z.string(),
            client_id: z.string(), license: z.string(), detail: z.object({ type: z.string() }),
          }).describe('the OAuth2 token object (no envelope); errors add error and error_description to the envelope'),
        },
      },
    },
  }, async (req, reply) => {
    const lang = req.lang;
    let client: ClientInfo;
    try {
      client = await app.clients.verify(req.headers.authorization);
    } catch (e) {
      if (e instanceof AppError && e.code === 400) return send(reply, lang, new OAuthError(400, 'invalid_request', e.key, inLang(e.params, lang)));
      return send(reply, lang, new OAuthError(401, 'invalid_client', req.headers.authorization ? 'clientInvalid' : 'clientMissing'));
    }
    req.client = client;
    const body = req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {};
    const parsed = tokenParams.safeParse({ ...body, ...(req.query as object) });
    if (!parsed.success) return send(reply, lang, new OAuthError(400, 'invalid_request', 'badRequest'));
    const p = parsed.data;
    const grant = (p.grant_type ?? p.grantType ?? 'password').trim();
    try {
      if (!client.grantTypes.includes(grant) && !(grant === 'captcha' && client.grantTypes.includes('password'))) {
        if (['password', 'captcha', 'refresh_token'].includes(grant)) throw new OAuthError(400, 'unauthorized_client', 'grantNotAllowed', { grant });
        throw new OAuthError(400, 'unsupported_grant_type', 'grantUnsupported', { grant });
      }
      switch (grant) {
        case 'password':
          // captcha mode is enforced here, not only by the login form
          if (ctx.config.console.captchaMode) throw new OAuthError(400, 'invalid_request', 'captchaRequired');
          return await passwordGrant(req, client, p, false);
        case 'captcha': {
          const key = header(req, 'captcha-key');
          const code = header(req, 'captcha-code');
          if (!key || !code) throw new OAuthError(400, 'invalid_request', 'captchaRequired');
          if (!(await consumeCaptcha(ctx.db, key, code))) throw new OAuthError(400, 'invalid_grant', 'captchaInvalid');
          return await passwordGrant(req, client, p, true);
        }
        case 'refresh_token':
          return await refreshGrant(req, client, p);
        default:
          throw new OAuthError(400, 'unsupported_grant_type', 'grantUnsupported', { grant });
      }
    } catch (e) {
      if (e instanceof OAuthError) return send(reply, lang, e);
      throw e;
    }
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    clients: import('../../core/access.js').ClientVerifier;
  }
}
