import { randomInt } from 'node:crypto';
import { type Lang, PLATFORM_TENANT } from '@console/contract';
import { tenantResource } from '@console/contract/areas/system/index';
import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { hashPassword, isMd5Hex, md5Hex } from '../../core/auth/index.js';
import type { AppContext, AuthUser } from '../../core/context.js';
import { type Executor, schema } from '../../core/db/index.js';
import { fieldError, notFound } from '../../core/errors.js';
import { nextId, splitList } from '../../core/ids.js';
import { mountAction } from '../../core/resource/actions.js';
import { parseDateTime } from '../../core/time.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { TENANT_ADMIN_ROLE } from '../../seed/resourceMenus.js';
import { liveMenus, platformOnlyMenuIds, withAncestors } from './grants.js';
import { TENANT_SETUP } from '../../core/tenants.js';

/** Runs the rest of a transaction as console_platform: writes that cross tenants on purpose (a new tenant's rows). */
export async function asPlatform(tx: Executor): Promise<void> {
  await tx.execute(sql`select set_config('role', 'console_platform', true)`);
}

/** A free 6-digit tenant id (never one used before, deleted or not). */
async function freeTenantId(tx: Executor): Promise<string> {
  for (;;) {
    const candidate = String(randomInt(100000, 1000000));
    const [taken] = await tx.select({ id: schema.tenant.id }).from(schema.tenant).where(eq(schema.tenant.tenantId, candidate)).limit(1);
    if (!taken) return candidate;
  }
}

/** The menus of a package with their ancestors (for granting), or none when there is no package. */
async function packageMenuIds(tx: Executor, packageId: string | null | undefined): Promise<string[]> {
  if (!packageId || packageId === '0') return [];
  const [pkg] = await tx.select().from(schema.tenantPackage).where(and(eq(schema.tenantPackage.id, packageId), eq(schema.tenantPackage.isDeleted, 0)));
  if (!pkg) return [];
  return [...withAncestors(splitList(pkg.menuId), await liveMenus(tx))];
}

/**
 * Creates what a new tenant needs to be used, in the caller's transaction: its administrator role (granted the
 * package's menus), its root department and its admin user (the initial password, to be changed at first sign-in).
 */
async function provisionTenant(tx: Executor, tenantId: string, tenantName: string, packageId: string | null, passwordHash: string, by: AuthUser): Promise<void> {
  await asPlatform(tx);
  const now = new Date();
  const audit = { createUser: by.userId, createTime: now, updateUser: by.userId, updateTime: now };
  const roleId = nextId();
  const deptId = nextId();
  await tx.insert(schema.role).values({ id: roleId, tenantId, parentId: '0', roleName: '管理员', roleNameEn: 'Administrator', roleAlias: TENANT_ADMIN_ROLE, sort: 1, ...audit });
  await tx.insert(schema.dept).values({ id: deptId, tenantId, parentId: '0', ancestors: '0', deptName: tenantName, fullName: tenantName, deptCategory: 1, sort: 1, ...audit });
  await tx.insert(schema.user).values({
    id: nextId(), tenantId, account: 'admin', passwordHash, name: 'admin', realName: '管理员',
    roleId, deptId, userType: 1, passwordReset: 1, ...audit,
  });
  const menuIds = await packageMenuIds(tx, packageId);
  if (menuIds.length) await tx.insert(schema.roleMenu).values(menuIds.map((menuId) => ({ roleId, menuId })));
}

/** Removes grants outside a package from the roles of the tenants on it (after the package shrank or changed). */
async function pruneGrants(tx: Executor, tenantIds: string[], allowed: string[]): Promise<void> {
  if (!tenantIds.length) return;
  await asPlatform(tx);
  const roles = await tx.select({ id: schema.role.id }).from(schema.role).where(and(inArray(schema.role.tenantId, tenantIds), eq(schema.role.isDeleted, 0)));
  if (!roles.length) return;
  const roleIds = roles.map((r) => r.id);
  await tx.delete(schema.roleMenu).where(and(inArray(schema.roleMenu.roleId, roleIds), allowed.length ? notInArray(schema.roleMenu.menuId, allowed) : undefined));
}

const PASSWORD_ALPHABETS = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnopqrstuvwxyz', '23456789', '@#%+=?'] as const;

/** 14 characters, each kind at least once, none easily misread (no 0/O, 1/l/I): a password read off a screen once */
export function randomPassword(): string {
  const all = PASSWORD_ALPHABETS.join('');
  const chars = PASSWORD_ALPHABETS.map((a) => a[randomInt(a.length)]!);
  while (chars.length < 14) chars.push(all[randomInt(all.length)]!);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}

export function tenantHooks(ctx: AppContext): ResourceHooks {
  return {
    revealed: { adminPassword: z.string() },
    // the new admin's password (the MD5 the console sends, or a random one) is hashed before the transaction
    // opens (argon2 is slow)
    prepare: async (values, c) => {
      if (c.mode !== 'create') return undefined;
      const given = typeof values.adminPassword === 'string' ? values.adminPassword.trim().toLowerCase() : '';
      if (given !== '' && !isMd5Hex(given)) throw fieldError('passwordNotMd5', c.lang, 'adminPassword');
      const generated = given === '' ? randomPassword() : undefined;
      return { hash: await hashPassword(generated ? md5Hex(generated) : given), generated };
    },
    async beforeSave(tx, values, c) {
      delete values.adminPassword;
      if (c.mode === 'create') values.tenantId = await freeTenantId(tx);
      else delete values.tenantId;
      if (values.packageId === '0') values.packageId = null;
    },
    async afterSave(tx, row, c) {
      if (c.mode === 'create') {
        const password = c.prepared as { hash: string; generated?: string };
        await provisionTenant(tx, String(row.tenantId), String(row.tenantName), (row.packageId as string | null) ?? null, password.hash, c.user);
        if (password.generated) c.reveal({ adminPassword: password.generated });
        await ctx.services.get(TENANT_SETUP).run(tx, String(row.tenantId));
      } else if (c.stored && c.stored.packageId !== row.packageId && row.packageId) {
        await pruneGrants(tx, [String(row.tenantId)], await packageMenuIds(tx, row.packageId as string));
      }
      c.afterCommit(() => ctx.permissions.invalidate());
    },
    async beforeRemove(_tx, rows, c) {
      if (rows.some((r) => r.tenantId === PLATFORM_TENANT)) throw fieldError('tenantProtected', c.lang, 'ids');
      c.afterCommit(() => ctx.permissions.invalidate());
    },
  };
}

export function packageHooks(ctx: AppContext): ResourceHooks {
  return {
    async beforeSave(tx, values, c) {
      if (values.menuId === undefined) return;
      const menus = await liveMenus(tx);
      const platformOnly = platformOnlyMenuIds(menus);
      const named = menus.filter((m) => platformOnly.has(m.id) && splitList(String(values.menuId)).includes(m.id));
      if (!named.length) return;
      const names = (lang: Lang) => named.filter((m) => m.category === 1).concat(named.filter((m) => m.category !== 1)).slice(0, 3)
        .map((m) => (lang === 'en' && m.nameEn ? m.nameEn : m.name)).join(lang === 'en' ? ', ' : '、');
      throw fieldError('packagePlatformMenus', c.lang, 'menuId', { menus: { zh: names('zh'), en: names('en') } });
    },
    async afterSave(tx, row, c) {
      if (c.mode === 'update') {
        const tenants = await tx.select({ tenantId: schema.tenant.tenantId }).from(schema.tenant)
          .where(and(eq(schema.tenant.packageId, String(row.id)), eq(schema.tenant.isDeleted, 0)));
        await pruneGrants(tx, tenants.map((t) => t.tenantId), await packageMenuIds(tx, String(row.id)));
      }
      c.afterCommit(() => ctx.permissions.invalidate());
    },
    async beforeRemove(_tx, _rows, c) {
      c.afterCommit(() => ctx.permissions.invalidate());
    },
  };
}

export function registerTenantActions(app: FastifyInstance, ctx: AppContext): void {
  const actions = tenantResource.actions;
  const tenantByCode = async (tx: Executor, tenantId: string, lang: 'zh' | 'en') => {
    const [row] = await tx.select().from(schema.tenant).where(and(eq(schema.tenant.tenantId, tenantId), eq(schema.tenant.isDeleted, 0)));
    if (!row) throw fieldError('tenantUnknownId', lang, 'tenantId', { tenantId });
    return row;
  };

  mountAction(app, ctx, actions.setting, async (input, { user, tx, afterCommit }) => {
    const ids = splitList(input.ids);
    const changes: Partial<typeof schema.tenant.$inferInsert> = { updateUser: user.userId, updateTime: new Date() };
    if (input.accountNumber !== undefined) changes.accountNumber = input.accountNumber;
    if (input.expireTime !== undefined) changes.expireTime = input.expireTime === '' ? null : parseDateTime(input.expireTime);
    const updated = await tx.update(schema.tenant).set(changes).where(and(inArray(schema.tenant.id, ids), eq(schema.tenant.isDeleted, 0))).returning({ id: schema.tenant.id });
    if (updated.length !== ids.length) throw notFound();
    afterCommit(() => ctx.permissions.invalidate());
    return true;
  });

  mountAction(app, ctx, actions.datasource, async (input, { user, tx, lang }) => {
    const row = await tenantByCode(tx, input.tenantId, lang);
    await tx.update(schema.tenant).set({ datasourceId: input.datasourceId || null, updateUser: user.userId, updateTime: new Date() }).where(eq(schema.tenant.id, row.id));
    return true;
  });

  mountAction(app, ctx, actions.packageDetail, async (input, { tx, lang }) => {
    const row = await tenantByCode(tx, input.tenantId, lang);
    if (!row.packageId) return null;
    const [pkg] = await tx.select().from(schema.tenantPackage).where(and(eq(schema.tenantPackage.id, row.packageId), eq(schema.tenantPackage.isDeleted, 0)));
    return pkg ? { id: pkg.id, packageName: pkg.packageName, menuId: pkg.menuId, remark: pkg.remark } : null;
  });

  mountAction(app, ctx, actions.packageSetting, async (input, { user, tx, lang, afterCommit }) => {
    const row = await tenantByCode(tx, input.tenantId, lang);
    const packageId = input.packageId || null;
    if (packageId) {
      const [pkg] = await tx.select({ id: schema.tenantPackage.id }).from(schema.tenantPackage)
        .where(and(eq(schema.tenantPackage.id, packageId), eq(schema.tenantPackage.isDeleted, 0)));
      if (!pkg) throw fieldError('packageUnknown', lang, 'packageId');
    }
    await tx.update(schema.tenant).set({ packageId, updateUser: user.userId, updateTime: new Date() }).where(eq(schema.tenant.id, row.id));
    if (packageId) await pruneGrants(tx, [row.tenantId], await packageMenuIds(tx, packageId));
    afterCommit(() => ctx.permissions.invalidate());
    return true;
  });

  mountAction(app, ctx, actions.select, async (_input, { tx }) => tx
    .select({ tenantId: schema.tenant.tenantId, tenantName: schema.tenant.tenantName }).from(schema.tenant)
    .where(eq(schema.tenant.isDeleted, 0)).orderBy(asc(schema.tenant.tenantId)));
}
