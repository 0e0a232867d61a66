import { eq, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { isPlatformAdmin } from '../../access.js';
import type { AuthUser } from '../../context.js';
import { type Executor, inTenant } from '../../db/index.js';
import { badRequest, forbidden } from '../../errors.js';
import { dataScopeCondition } from '../dataScope.js';
import type { ResourceMount } from './resourceMount.js';

/** live rows of the caller's tenant (data layer; row-level security adds its own) */
export function visible(m: ResourceMount, user: AuthUser): SQL[] {
  const conds: SQL[] = m.softDeleted ? [eq(m.col('isDeleted'), 0)] : [];
  if (m.tenantScoped) conds.push(eq(m.col('tenantId'), user.tenantId));
  return conds;
}

/**
 * Live rows the caller may see: the tenant's, narrowed by the data scopes granted to their roles on this
 * menu and by the resource's own scope hook. The rules are read before the request's transaction opens
 * (PGlite has one connection): `scopeFor(m, user)` loads them, its result builds the conditions in the transaction.
 */
export async function scopeFor(m: ResourceMount, user: AuthUser): Promise<(tx: Executor) => Promise<SQL[]>> {
  const rules = m.tenantScoped ? await m.ctx.permissions.dataScopes(user.tenantId, user.roleIds, m.def.code) : [];
  const dataScope = dataScopeCondition(rules, m.table, m.columns, user);
  return async (tx: Executor): Promise<SQL[]> => {
    const own = await m.hooks.scope?.(tx, user);
    return [...visible(m, user), ...(dataScope ? [dataScope] : []), ...(own ? [own] : [])];
  };
}

/** the same conditions, with the data scopes read through an open transaction (import and export) */
export async function scopeIn(m: ResourceMount, tx: Executor, user: AuthUser): Promise<SQL[]> {
  const rules = m.tenantScoped ? await m.ctx.permissions.dataScopes(user.tenantId, user.roleIds, m.def.code, tx) : [];
  const dataScope = dataScopeCondition(rules, m.table, m.columns, user);
  const own = await m.hooks.scope?.(tx, user);
  return [...visible(m, user), ...(dataScope ? [dataScope] : []), ...(own ? [own] : [])];
}

/** runs `fn` in a transaction of the caller's tenant */
export function runAs<T>(m: ResourceMount, user: AuthUser, fn: (tx: Executor) => Promise<T>): Promise<T> {
  return inTenant(m.ctx.db, { tenantId: user.tenantId }, fn);
}

export async function requireCode(m: ResourceMount, user: AuthUser, code: string): Promise<void> {
  const granted = await m.ctx.permissions.codes(user.tenantId, user.roleIds);
  if (!granted.has(code)) throw forbidden('forbidden', { code });
}

/** the tenant a read is for: the caller's, or (platform administrators only) the one named by `tenantId` */
export function readTenant(m: ResourceMount, req: FastifyRequest, user: AuthUser): AuthUser {
  const asked = (req.query as Record<string, unknown>).tenantId;
  if (typeof asked !== 'string' || asked === '' || asked === user.tenantId || !m.tenantScoped) return user;
  if (!isPlatformAdmin(user)) throw forbidden('platformAdminOnly');
  if (!/^\d{6}$/.test(asked)) throw badRequest('tenantUnknown');
  return { ...user, tenantId: asked };
}
