import { timingSafeEqual } from 'node:crypto';
import { PLATFORM_TENANT } from '@console/contract';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sha256Hex } from './auth/index.js';
import type { AppCaller, AppContext, AuthUser, ClientInfo } from './context.js';
import { schema } from './db/index.js';
import { AppError, forbidden, unauthorized } from './errors.js';
import { splitList } from './ids.js';
import { limitByIp } from './rateLimit.js';
import { serviceKey } from './services.js';

const CLIENT_CACHE_MS = 60_000;
export const PLATFORM_ADMIN_ROLE = 'administrator';

/** Verifies the phone app's tokens for `{ app: true }` routes (the after-sales area provides it). */
export interface AppAuth {
  verify(token: string): Promise<AppCaller>;
}
export const APP_AUTH = serviceKey<AppAuth>('appAuth');

/** Paths whose routes must declare who may call them. */
export const API_PREFIXES = ['/api/', '/sc/', '/tc/'];

/** The writes a user whose password must be changed may still make. */
const PASSWORD_RESET_ALLOWED = new Set([
  '/api/blade-system/user/update-password', '/api/blade-auth/oauth/logout', '/api/blade-auth/oauth/token',
]);

export function isApiPath(url: string): boolean {
  return API_PREFIXES.some((p) => url.startsWith(p));
}

export class ClientVerifier {
  private readonly cache = new Map<string, { at: number; client: ClientInfo | null }>();

  constructor(private readonly ctx: Pick<AppContext, 'db'>) {}

  clear(): void {
    this.cache.clear();
  }

  /** The client named in `Authorization: Basic …`; throws 401 when absent or wrong. */
  async verify(header: string | undefined): Promise<ClientInfo> {
    const m = /^Basic(?: |%20)+(\S+)$/i.exec(header?.trim() ?? '');
    if (!m?.[1]) throw unauthorized('clientMissing');
    const cached = this.cache.get(m[1]);
    if (cached && Date.now() - cached.at < CLIENT_CACHE_MS) {
      if (!cached.client) throw unauthorized('clientInvalid');
      return cached.client;
    }
    // strict base64: Node's decoder would skip junk (`<valid>!!` decoding to the valid client)
    const wellEncoded = m[1].length <= 1024 && m[1].length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(m[1]);
    const decoded = wellEncoded ? Buffer.from(m[1], 'base64').toString('utf8') : '';
    // a NUL is refused like a NUL in any other input (PostgreSQL cannot take it); other control characters
    // are never in a client id or secret
    if (decoded.includes('\u0000')) throw new AppError(400, 'nulByte', { field: 'Authorization' });
    const sep = decoded.indexOf(':');
    const wellFormed = sep > 0 && !/[\u0001-\u001f]/.test(decoded);
    const client = wellFormed ? await this.lookup(decoded.slice(0, sep), decoded.slice(sep + 1)) : null;
    if (this.cache.size > 1000) this.cache.clear();
    this.cache.set(m[1], { at: Date.now(), client });
    if (!client) throw unauthorized('clientInvalid');
    return client;
  }

  private async lookup(clientId: string, secret: string): Promise<ClientInfo | null> {
    const [row] = await this.ctx.db
      .select()
      .from(schema.client)
      .where(and(eq(schema.client.clientId, clientId), eq(schema.client.isDeleted, 0), eq(schema.client.status, 1)));
    if (!row) return null;
    const a = Buffer.from(row.clientSecret, 'utf8');
    const b = Buffer.from(sha256Hex(secret), 'utf8');
    if (a.length !== b.length || !timingSafeEqual(a, b)) return null;
    return {
      clientId: row.clientId,
      grantTypes: splitList(row.authorizedGrantTypes),
      accessTokenValidity: row.accessTokenValidity,
      refreshTokenValidity: row.refreshTokenValidity,
    };
  }
}

/** The bearer token of a request: the Blade-Auth header, or the blade-auth query parameter (downloads, iframes). */
export function bearerOf(req: FastifyRequest): { token: string; fromQuery: boolean } | null {
  const header = req.headers['blade-auth'];
  const fromHeader = Array.isArray(header) ? header[0] : header;
  const query = (req.query as Record<string, unknown> | undefined)?.['blade-auth'];
  const raw = fromHeader ?? (typeof query === 'string' ? query : undefined);
  if (!raw) return null;
  const m = /^(?:bearer|crypto)\s+(\S+)$/i.exec(raw.trim());
  if (!m?.[1]) return null;
  return { token: m[1], fromQuery: fromHeader === undefined };
}

/** Checks the caller against the route's declared access, on every API request. */
export function installAccessControl(app: FastifyInstance, ctx: AppContext, clients: ClientVerifier): void {
  app.addHook('onRoute', (route) => {
    if (isApiPath(route.url) && !route.config?.access) {
      throw new Error(`route ${route.method} ${route.url} does not declare its access`);
    }
    const access = route.config?.access;
    if (isApiPath(route.url) && access && 'permission' in access) {
      for (const method of [route.method].flat()) ctx.permissions.noteSignedInRoute(method, route.url);
    }
  });

  app.addHook('preHandler', async (req) => {
    const access = req.routeOptions.config?.access;
    if (!access) return;
    // calls anyone may make without signing in share one budget per address (on top of their own, such
    // as the token endpoint's), kept in the kv store so every instance counts together
    if ((('public' in access && !access.ownBudget) || 'client' in access) && isApiPath(req.url)) {
      await limitByIp(ctx, req, { name: 'public', max: ctx.config.limits.publicPerMinute, windowSeconds: 60 });
    }
    if ('public' in access) return;
    if ('app' in access) {
      const token = bearerOf(req);
      if (!token) throw unauthorized('tokenMissing');
      const appAuth = ctx.services.find(APP_AUTH);
      if (!appAuth) throw unauthorized('tokenInvalid');
      req.appUser = await appAuth.verify(token.token);
      return;
    }
    const bearer = 'permission' in access ? bearerOf(req) : null;
    // A token in the query string (downloads, iframes) stands alone: such links cannot carry Basic auth.
    if (!bearer?.fromQuery) req.client = await clients.verify(req.headers.authorization);
    if ('client' in access) return;

    if (!bearer) throw unauthorized('tokenMissing');
    const claims = await ctx.signer.verify(bearer.token);
    if (!claims) throw unauthorized('tokenInvalid');
    if (req.client && req.client.clientId !== claims.client_id) throw unauthorized('tokenInvalid');
    if (!(await ctx.sessions.isActive(claims.tenant_id, claims.sid))) throw unauthorized('tokenInvalid');
    // what the user holds now, not what the token says they held at sign-in: a change to their roles,
    // departments or status takes effect at this request
    const current = await ctx.users.current(claims.tenant_id, claims.user_id);
    if (current.status !== 1) throw unauthorized('tokenInvalid');
    // an initial or reset password is changed before anything else is saved (reading stays possible)
    if (current.passwordReset && req.method !== 'GET' && !PASSWORD_RESET_ALLOWED.has(req.url.split('?')[0]!)) throw forbidden('passwordChangeRequired');
    const signedRoles = splitList(claims.role_id);
    const chosen = ctx.config.console.switchMode ? signedRoles.filter((r) => current.roleIds.includes(r)) : [];
    const roleIds = chosen.length ? chosen : current.roleIds;
    const user: AuthUser = {
      tenantId: claims.tenant_id,
      userId: claims.user_id,
      deptId: current.deptIds.includes(claims.dept_id) ? claims.dept_id : current.deptIds[0] ?? '',
      roleIds,
      roleAliases: roleIds.map((id) => current.aliases.get(id)).filter((a): a is string => a !== undefined),
      account: claims.account,
      userName: claims.user_name,
      clientId: claims.client_id,
      sessionId: claims.sid,
    };
    req.user = user;
    if (access.permission) {
      const codes = await ctx.permissions.codes(user.tenantId, user.roleIds);
      const wanted = typeof access.permission === 'string' ? [access.permission] : access.permission;
      if (!wanted.some((code) => codes.has(code))) throw forbidden('forbidden', { code: wanted.join(' | ') });
    }
    if (access.platformWrite && user.tenantId !== PLATFORM_TENANT) throw forbidden('platformOnly');
    if (access.platformAdmin && !isPlatformAdmin(user)) throw forbidden('platformAdminOnly');
    if (!(await ctx.permissions.apiAllowed(user.tenantId, user.roleIds, req.method, req.url))) throw forbidden('forbidden', { code: req.url.split('?')[0]! });
  });
}

/** The platform's administrators: the administrator role of tenant 000000. */
export function isPlatformAdmin(user: AuthUser): boolean {
  return user.tenantId === PLATFORM_TENANT && user.roleAliases.includes(PLATFORM_ADMIN_ROLE);
}

export function requireUser(req: FastifyRequest): AuthUser {
  if (!req.user) throw new AppError(401, 'unauthorized');
  return req.user;
}
