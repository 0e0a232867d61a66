import { PLATFORM_TENANT } from '@console/contract';
import { userResource } from '@console/contract/areas/system/index';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { PLATFORM_ADMIN_ROLE } from '../../core/access.js';
import { hashPassword, isMd5Hex, md5Hex } from '../../core/auth/index.js';
import type { AppContext, AuthUser } from '../../core/context.js';
import { type Executor, schema } from '../../core/db/index.js';
import { AppError, fieldError, notFound } from '../../core/errors.js';
import { isId } from '../../core/ids.js';
import { mountAction } from '../../core/resource/actions.js';
import { deptSubtreeIds } from '../../core/resource/dataScope.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { param } from '../system/index.js';

const DEFAULT_INIT_PASSWORD = '123456';
const STATUS_NORMAL = 1;
const STATUS_PENDING = 3;

/** The MD5 (as clients send passwords) of the initial password: param account.initPassword, 123456 by default. */
export async function initialPasswordMd5(ctx: AppContext): Promise<string> {
  const [row] = await ctx.db.select({ value: param.paramValue }).from(param)
    .where(and(eq(param.paramKey, 'account.initPassword'), eq(param.isDeleted, 0)));
  return md5Hex(row?.value || DEFAULT_INIT_PASSWORD);
}

/** Refuses adding accounts beyond the tenant's quota (accountNumber; -1 is unlimited). */
export async function checkQuota(tx: Executor, tenantId: string, adding: number): Promise<void> {
  const [tenant] = await tx.select({ accountNumber: schema.tenant.accountNumber }).from(schema.tenant)
    .where(and(eq(schema.tenant.tenantId, tenantId), eq(schema.tenant.isDeleted, 0)));
  if (!tenant || tenant.accountNumber < 0) return;
  const [row] = await tx.select({ n: sql<number>`count(*)` }).from(schema.user)
    .where(and(eq(schema.user.tenantId, tenantId), eq(schema.user.isDeleted, 0), ne(schema.user.status, STATUS_PENDING)));
  if (Number(row?.n ?? 0) + adding > tenant.accountNumber) throw new AppError(400, 'tenantFull');
}

/** The users named, all of the caller's tenant and live, or 400 naming the missing ones. */
async function usersOf(tx: Executor, user: AuthUser, ids: string[], lang: 'zh' | 'en') {
  const rows = await tx.select().from(schema.user)
    .where(and(inArray(schema.user.id, ids), eq(schema.user.tenantId, user.tenantId), eq(schema.user.isDeleted, 0)));
  if (rows.length !== ids.length) {
    const found = new Set(rows.map((r) => r.id));
    throw fieldError('usersUnknown', lang, 'userIds', { ids: ids.filter((id) => !found.has(id)).join(',') });
  }
  return rows;
}

/** The platform's last live administrators may not go: someone must be able to sign in and grant. */
async function guardLastAdmin(tx: Executor, tenantId: string, leaving: string[], lang: 'zh' | 'en'): Promise<void> {
  if (tenantId !== PLATFORM_TENANT) return;
  const [adminRole] = await tx.select({ id: schema.role.id }).from(schema.role)
    .where(and(eq(schema.role.tenantId, PLATFORM_TENANT), eq(schema.role.roleAlias, PLATFORM_ADMIN_ROLE), eq(schema.role.isDeleted, 0)));
  if (!adminRole) return;
  const admins = await tx.select({ id: schema.user.id }).from(schema.user).where(and(
    eq(schema.user.tenantId, PLATFORM_TENANT), eq(schema.user.isDeleted, 0), eq(schema.user.status, STATUS_NORMAL),
    sql`(',' || ${schema.user.roleId} || ',') like ${`%,${adminRole.id},%`}`,
  ));
  if (admins.length && admins.every((a) => leaving.includes(a.id))) throw fieldError('userLastAdmin', lang, 'ids');
}

/** The hash of the initial password, shared by the users created within a minute of each other (an import). */
function initialHashes(ctx: AppContext): () => Promise<string> {
  let cached: { at: number; hash: Promise<string> } | undefined;
  return () => {
    if (!cached || Date.now() - cached.at > 60_000) cached = { at: Date.now(), hash: initialPasswordMd5(ctx).then(hashPassword) };
    return cached.hash;
  };
}

export function userHooks(ctx: AppContext): ResourceHooks {
  const initialHash = initialHashes(ctx);
  const forget = (tenantId: string, ids: string[], c: { afterCommit(fn: () => Promise<void>): void }) =>
    c.afterCommit(() => ctx.users.invalidate(tenantId, ids));
  return {
    // passwords arrive as the MD5 the console sends; the slow hash is made before the transaction opens
    async prepare(values, c) {
      const given = values.password;
      if (typeof given === 'string' && given !== '') {
        const md5 = given.trim().toLowerCase();
        if (!isMd5Hex(md5)) throw fieldError('passwordNotMd5', c.lang, 'password');
        return { hash: await hashPassword(md5), initial: false };
      }
      return c.mode === 'create' ? { hash: await initialHash(), initial: true } : undefined;
    },
    async beforeSave(tx, values, c) {
      const prepared = c.prepared as { hash: string; initial: boolean } | undefined;
      // the write-only password is no column: its hash is
      delete values.password;
      if (prepared) {
        values.passwordHash = prepared.hash;
        // an initial password, or one an administrator set for someone else, is changed at the next sign-in
        values.passwordReset = prepared.initial || c.stored?.id !== c.user.userId ? 1 : 0;
      }
      if (c.mode === 'create' && values.status !== STATUS_PENDING) await checkQuota(tx, c.user.tenantId, 1);
      if (c.mode === 'update' && c.stored && values.status !== undefined && values.status !== STATUS_NORMAL) {
        await guardLastAdmin(tx, c.user.tenantId, [String(c.stored.id)], c.lang);
      }
      if (c.stored) forget(c.user.tenantId, [String(c.stored.id)], c);
    },
    async beforeRemove(tx, rows, c) {
      const ids = rows.map((r) => String(r.id));
      if (ids.includes(c.user.userId)) throw fieldError('userSelfRemove', c.lang, 'ids');
      await guardLastAdmin(tx, c.user.tenantId, ids, c.lang);
      forget(c.user.tenantId, ids, c);
    },
    listAliases: ['page'],
    listParams: {
      // BladeX's user/page?deptId=: the users of a department and of every department under it
      deptId: async (tx, user, value, lang) => {
        if (!isId(value)) throw fieldError('badId', lang, 'deptId', { field: 'deptId' });
        const depts = await deptSubtreeIds(tx, user.tenantId, value);
        if (depts.length === 0) return sql`false`;
        return sql`${schema.user.id} in (select ud.user_id from blade_user_dept ud where ud.tenant_id = ${user.tenantId}
          and ud.dept_id = any(${`{${depts.join(',')}}`}::bigint[]))`;
      },
    },
  };
}

export function registerUserActions(app: FastifyInstance, ctx: AppContext): void {
  const actions = userResource.actions;

  mountAction(app, ctx, actions.grant, async (input, { user, tx, lang, afterCommit }) => {
    const rows = await usersOf(tx, user, input.userIds, lang);
    const roles = await tx.select({ id: schema.role.id }).from(schema.role)
      .where(and(inArray(schema.role.id, input.roleIds), eq(schema.role.tenantId, user.tenantId), eq(schema.role.isDeleted, 0)));
    if (roles.length !== input.roleIds.length) {
      const found = new Set(roles.map((r) => r.id));
      throw fieldError('rolesUnknown', lang, 'roleIds', { ids: input.roleIds.filter((id) => !found.has(id)).join(',') });
    }
    const [adminRole] = await tx.select({ id: schema.role.id }).from(schema.role)
      .where(and(eq(schema.role.tenantId, PLATFORM_TENANT), eq(schema.role.roleAlias, PLATFORM_ADMIN_ROLE)));
    if (adminRole && !input.roleIds.includes(adminRole.id)) await guardLastAdmin(tx, user.tenantId, rows.map((r) => r.id), lang);
    await tx.update(schema.user).set({ roleId: input.roleIds.join(','), updateUser: user.userId, updateTime: new Date() })
      .where(and(inArray(schema.user.id, input.userIds), eq(schema.user.tenantId, user.tenantId)));
    afterCommit(() => ctx.users.invalidate(user.tenantId, input.userIds));
    return true;
  });

  mountAction(app, ctx, actions.resetPassword, async (input, { user, tx, lang, afterCommit }) => {
    await usersOf(tx, user, input.userIds, lang);
    // one hash for all: argon2 salts it, and every user gets the same initial password anyway
    const [init] = await tx.select({ value: param.paramValue }).from(param)
      .where(and(eq(param.paramKey, 'account.initPassword'), eq(param.isDeleted, 0)));
    const hash = await hashPassword(md5Hex(init?.value || DEFAULT_INIT_PASSWORD));
    await tx.update(schema.user).set({ passwordHash: hash, passwordReset: 1, updateUser: user.userId, updateTime: new Date() })
      .where(and(inArray(schema.user.id, input.userIds), eq(schema.user.tenantId, user.tenantId)));
    // a reset password signs the user out everywhere
    const revoked: string[] = [];
    for (const id of input.userIds) revoked.push(...await ctx.sessions.revokeUserSessions(tx, id, null, 'password-reset'));
    afterCommit(async () => {
      for (const sid of revoked) await ctx.sessions.publishRevoked(sid);
    });
    return true;
  });

  mountAction(app, ctx, actions.unlock, async (input, { user, tx, lang, afterCommit }) => {
    const rows = await usersOf(tx, user, input.userIds, lang);
    afterCommit(async () => {
      for (const r of rows) await ctx.signIns.unlock(user.tenantId, r.account);
    });
    return true;
  });

  mountAction(app, ctx, actions.platformDetail, async (input, { user, tx }) => {
    const [row] = await tx.select().from(schema.user)
      .where(and(eq(schema.user.id, input.id), eq(schema.user.tenantId, user.tenantId), eq(schema.user.isDeleted, 0)));
    if (!row) throw notFound();
    return { id: row.id, account: row.account, userType: row.userType, userExt: row.userExt };
  });

  mountAction(app, ctx, actions.updatePlatform, async (input, { user, tx }) => {
    const updated = await tx.update(schema.user)
      .set({ userType: input.userType, userExt: input.userExt ?? null, updateUser: user.userId, updateTime: new Date() })
      .where(and(eq(schema.user.id, input.userId), eq(schema.user.tenantId, user.tenantId), eq(schema.user.isDeleted, 0)))
      .returning({ id: schema.user.id });
    if (!updated.length) throw notFound();
    return true;
  });

  mountAction(app, ctx, actions.auditPass, async (input, { user, tx, lang, afterCommit }) => {
    const rows = await usersOf(tx, user, input.userIds, lang);
    const notPending = rows.find((r) => r.status !== STATUS_PENDING);
    if (notPending) throw fieldError('notPending', lang, 'userIds', { account: notPending.account });
    await checkQuota(tx, user.tenantId, rows.length);
    await tx.update(schema.user).set({ status: STATUS_NORMAL, updateUser: user.userId, updateTime: new Date() })
      .where(and(inArray(schema.user.id, input.userIds), eq(schema.user.tenantId, user.tenantId)));
    afterCommit(() => ctx.users.invalidate(user.tenantId, input.userIds));
    return true;
  });

  mountAction(app, ctx, actions.auditRefuse, async (input, { user, tx, lang, afterCommit }) => {
    const rows = await usersOf(tx, user, input.userIds, lang);
    const notPending = rows.find((r) => r.status !== STATUS_PENDING);
    if (notPending) throw fieldError('notPending', lang, 'userIds', { account: notPending.account });
    // a refused sign-up is removed, which frees its account name
    await tx.update(schema.user).set({ isDeleted: 1, updateUser: user.userId, updateTime: new Date() })
      .where(and(inArray(schema.user.id, input.userIds), eq(schema.user.tenantId, user.tenantId)));
    afterCommit(() => ctx.users.invalidate(user.tenantId, input.userIds));
    return true;
  });
}
