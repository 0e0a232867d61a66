import { PLATFORM_TENANT } from '@console/contract';
import { roleResource } from '@console/contract/areas/authority/index';
import { menuResource, topMenuResource } from '@console/contract/areas/system/index';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { isPlatformAdmin, PLATFORM_ADMIN_ROLE } from '../../core/access.js';
import type { AppContext, AuthUser } from '../../core/context.js';
import { type Executor, schema } from '../../core/db/index.js';
import { fieldError, forbidden, notFound } from '../../core/errors.js';
import { isId, splitList } from '../../core/ids.js';
import { localName } from '../../core/localName.js';
import { mountAction } from '../../core/resource/actions.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { TreeRules } from '../../core/resource/tree.js';
import { checkGrantable, grantableMenuIds, grantForest, guardPlatformAdminRole, liveMenus, scopeForest, withAncestors } from './grants.js';

/** Every change to menus, top menus or grants reaches every instance's permission cache after it commits. */
export function menuHooks(ctx: AppContext): ResourceHooks {
  const invalidate = (c: { afterCommit(fn: () => Promise<void>): void }) => c.afterCommit(() => ctx.permissions.invalidate());
  return {
    treeFilter: () => eq(schema.menu.category, 1),
    afterSave: async (_tx, _row, c) => invalidate(c),
    beforeRemove: async (_tx, _rows, c) => invalidate(c),
  };
}

export function topMenuHooks(ctx: AppContext): ResourceHooks {
  return {
    afterSave: async (_tx, _row, c) => c.afterCommit(() => ctx.permissions.invalidate()),
    beforeRemove: async (tx, rows, c) => {
      await tx.delete(schema.topMenuSetting).where(inArray(schema.topMenuSetting.topMenuId, rows.map((r) => String(r.id))));
      c.afterCommit(() => ctx.permissions.invalidate());
    },
  };
}

/**
 * Roles: the platform's administrator role keeps its alias and cannot be removed; a role still held by users
 * cannot be removed; every change reaches the permission caches and the users holding it.
 */
export function roleHooks(ctx: AppContext): ResourceHooks {
  const after = (tenantId: string, c: { afterCommit(fn: () => Promise<void>): void }) => c.afterCommit(async () => {
    await ctx.permissions.invalidate();
    await ctx.users.invalidate(tenantId);
  });
  return {
    async beforeSave(_tx, values, c) {
      const stored = c.stored;
      if (stored && stored.tenantId === PLATFORM_TENANT && stored.roleAlias === PLATFORM_ADMIN_ROLE && values.roleAlias !== undefined && values.roleAlias !== PLATFORM_ADMIN_ROLE) {
        throw fieldError('roleProtected', c.lang, 'roleAlias');
      }
      after(c.user.tenantId, c);
    },
    async beforeRemove(tx, rows, c) {
      for (const row of rows) {
        if (row.tenantId === PLATFORM_TENANT && row.roleAlias === PLATFORM_ADMIN_ROLE) throw fieldError('roleProtected', c.lang, 'ids');
        const [holder] = await tx.select({ account: schema.user.account }).from(schema.user)
          .where(and(eq(schema.user.isDeleted, 0), eq(schema.user.tenantId, c.user.tenantId), sql`(',' || ${schema.user.roleId} || ',') like ${`%,${String(row.id)},%`}`)).limit(1);
        if (holder) throw fieldError('roleHasUsers', c.lang, 'ids', { name: String(row.roleName), account: holder.account });
      }
      await tx.delete(schema.roleMenu).where(inArray(schema.roleMenu.roleId, rows.map((r) => String(r.id))));
      await tx.delete(schema.roleScope).where(inArray(schema.roleScope.roleId, rows.map((r) => String(r.id))));
      after(c.user.tenantId, c);
    },
  };
}

export function registerMenuRoleActions(app: FastifyInstance, ctx: AppContext): void {
  const menuActions = menuResource.actions;

  mountAction(app, ctx, menuActions.lazyMenuList, async (input, { tx, lang }) => {
    const parentId = input.parentId ?? '0';
    const rows = await tx.select().from(schema.menu)
      .where(and(eq(schema.menu.isDeleted, 0), eq(schema.menu.category, 1), eq(schema.menu.parentId, parentId)))
      .orderBy(asc(schema.menu.sort), asc(schema.menu.id));
    const ids = rows.map((r) => r.id);
    const parents = ids.length
      ? new Set((await tx.selectDistinct({ p: schema.menu.parentId }).from(schema.menu)
        .where(and(inArray(schema.menu.parentId, ids), eq(schema.menu.isDeleted, 0), eq(schema.menu.category, 1)))).map((r) => r.p))
      : new Set<string>();
    return rows.map((m) => ({ ...menuRecord(m, lang), hasChildren: parents.has(m.id) }));
  });

  mountAction(app, ctx, menuActions.menuList, async (_input, { tx, lang }) => {
    const rows = (await liveMenus(tx)).filter((m) => m.category === 1);
    return TreeRules.nest(rows.map((m) => ({ ...menuRecord(m, lang), id: m.id, parentId: m.parentId })));
  });

  mountAction(app, ctx, menuActions.grantTree, async (_input, { user, tx, lang, granted }) => {
    const menus = await liveMenus(tx);
    const grantable = await grantableMenuIds(ctx, tx, user, granted, menus);
    const shown = grantable ? withAncestors(grantable, menus) : null;
    const scopes = async (table: typeof schema.scopeData | typeof schema.scopeApi) => tx.select({ id: table.id, menuId: table.menuId, scopeName: table.scopeName })
      .from(table).where(eq(table.isDeleted, 0)).orderBy(asc(table.id));
    // BladeX's GrantTreeVO: a Saber console's 权限设置 reads all three
    return {
      menu: grantForest(shown ? menus.filter((m) => shown.has(m.id)) : menus, lang),
      dataScope: scopeForest(await scopes(schema.scopeData), menus, grantable, lang),
      apiScope: scopeForest(await scopes(schema.scopeApi), menus, grantable, lang),
    };
  });

  mountAction(app, ctx, menuActions.roleTreeKeys, async (input, { user, tx }) => {
    const roleIds = splitList(input.roleIds);
    if (!roleIds.length) return { menu: [], dataScope: [], apiScope: [] };
    const rows = await tx.selectDistinct({ menuId: schema.roleMenu.menuId }).from(schema.roleMenu)
      .innerJoin(schema.role, eq(schema.role.id, schema.roleMenu.roleId))
      .innerJoin(schema.menu, and(eq(schema.menu.id, schema.roleMenu.menuId), eq(schema.menu.isDeleted, 0)))
      .where(and(inArray(schema.roleMenu.roleId, roleIds), eq(schema.role.tenantId, user.tenantId), eq(schema.role.isDeleted, 0)));
    // a tenant's roles never see a menu outside its package, even one granted before the package shrank
    const pkg = await ctx.permissions.packageMenus(user.tenantId, tx);
    // BladeX's CheckedTreeVO
    return {
      menu: rows.map((r) => r.menuId).filter((id) => !pkg || pkg.has(id)),
      dataScope: await roleScopeIds(tx, user, roleIds, 1),
      apiScope: await roleScopeIds(tx, user, roleIds, 2),
    };
  });

  mountAction(app, ctx, menuActions.grantTopTree, async (_input, { tx, lang }) => {
    const tops = await tx.select().from(schema.topMenu).where(eq(schema.topMenu.isDeleted, 0)).orderBy(asc(schema.topMenu.sort), asc(schema.topMenu.id));
    return { menu: tops.map((t) => ({ id: t.id, parentId: '0', title: localName(t.name, t.nameEn, lang), key: t.id, value: t.id })) };
  });

  mountAction(app, ctx, menuActions.topTreeKeys, async (input, { tx }) => {
    const ids = splitList(input.topMenuIds);
    if (!ids.length) return { menu: [] };
    const rows = await tx.selectDistinct({ menuId: schema.topMenuSetting.menuId }).from(schema.topMenuSetting)
      .where(inArray(schema.topMenuSetting.topMenuId, ids));
    return { menu: rows.map((r) => r.menuId) };
  });

  mountAction(app, ctx, topMenuResource.actions.grant, async (input, { tx, lang, afterCommit }) => {
    const topIds = splitList(input.topMenuIds);
    const menuIds = splitList(input.menuIds);
    const tops = await tx.select({ id: schema.topMenu.id }).from(schema.topMenu)
      .where(and(inArray(schema.topMenu.id, topIds), eq(schema.topMenu.isDeleted, 0)));
    if (tops.length !== topIds.length) throw notFound();
    checkGrantable(menuIds, await liveMenus(tx), null, lang);
    await tx.delete(schema.topMenuSetting).where(inArray(schema.topMenuSetting.topMenuId, topIds));
    const rows = topIds.flatMap((topMenuId) => menuIds.map((menuId) => ({ topMenuId, menuId })));
    if (rows.length) await tx.insert(schema.topMenuSetting).values(rows);
    afterCommit(() => ctx.permissions.invalidate());
    return true;
  });

  const roleActions = roleResource.actions;

  mountAction(app, ctx, roleActions.grant, async (input, { user, tx, lang, granted, afterCommit }) => {
    const roleIds = splitList(input.roleIds);
    const menuIds = splitList(input.menuIds);
    const dataScopeIds = splitList(input.dataScopeIds);
    const apiScopeIds = splitList(input.apiScopeIds);
    const roles = await tx.select({ id: schema.role.id }).from(schema.role)
      .where(and(inArray(schema.role.id, roleIds), eq(schema.role.tenantId, user.tenantId), eq(schema.role.isDeleted, 0)));
    if (roles.length !== roleIds.length) {
      const found = new Set(roles.map((r) => r.id));
      throw fieldError('rolesUnknown', lang, 'roleIds', { ids: roleIds.filter((id) => !found.has(id)).join(',') });
    }
    const menus = await liveMenus(tx);
    checkGrantable(menuIds, menus, await grantableMenuIds(ctx, tx, user, granted, menus), lang);
    await guardPlatformAdminRole(tx, roleIds, menuIds, menus, lang);
    for (const [ids, table, field] of [[dataScopeIds, schema.scopeData, 'dataScopeIds'], [apiScopeIds, schema.scopeApi, 'apiScopeIds']] as const) {
      if (!ids.length) continue;
      const found = new Set((await tx.select({ id: table.id }).from(table).where(and(inArray(table.id, ids), eq(table.isDeleted, 0)))).map((r) => r.id));
      const missing = ids.filter((id) => !found.has(id));
      if (missing.length) throw fieldError('scopeUnknown', lang, field, { ids: missing.join(',') });
    }
    await tx.delete(schema.roleMenu).where(inArray(schema.roleMenu.roleId, roleIds));
    const menuRows = roleIds.flatMap((roleId) => menuIds.map((menuId) => ({ roleId, menuId })));
    if (menuRows.length) await tx.insert(schema.roleMenu).values(menuRows);
    await tx.delete(schema.roleScope).where(inArray(schema.roleScope.roleId, roleIds));
    const scopeRows = roleIds.flatMap((roleId) => [
      ...dataScopeIds.map((scopeId) => ({ roleId, scopeId, scopeCategory: 1 })),
      ...apiScopeIds.map((scopeId) => ({ roleId, scopeId, scopeCategory: 2 })),
    ]);
    if (scopeRows.length) await tx.insert(schema.roleScope).values(scopeRows);
    afterCommit(() => ctx.permissions.invalidate());
    return true;
  });

  // the scopes granted to roles of the caller's tenant (the grant dialog's checked boxes), live ones only
  mountAction(app, ctx, roleActions.roleScopeKeys, async (input, { user, tx }) => roleScopeIds(tx, user, splitList(input.roleIds), input.category === 1 ? 1 : 2));

  mountAction(app, ctx, roleActions.treeById, async (input, { user, tx, lang }) => {
    let tenantId = user.tenantId;
    if (input.roleId) {
      const [role] = await tx.select({ tenantId: schema.role.tenantId }).from(schema.role).where(and(eq(schema.role.id, input.roleId), eq(schema.role.isDeleted, 0)));
      if (!role) throw notFound();
      tenantId = role.tenantId;
    }
    if (tenantId !== user.tenantId && !isPlatformAdmin(user)) throw forbidden('platformAdminOnly');
    if (tenantId !== user.tenantId) await tx.execute(sql`select set_config('app.tenant_id', ${tenantId}, true)`);
    const roles = await tx.select().from(schema.role).where(and(eq(schema.role.tenantId, tenantId), eq(schema.role.isDeleted, 0)))
      .orderBy(asc(schema.role.sort), asc(schema.role.id));
    return TreeRules.nest(roles.map((r) => ({
      id: r.id, parentId: r.parentId, title: localName(r.roleName, r.roleNameEn, lang), key: r.id, value: r.id, hasChildren: roles.some((c) => c.parentId === r.id),
    })));
  });

  // the "switch role" dialog's options: the roles a user holds (the caller's own unless a user
  // administrator asks for another user of the tenant), or the ones named by roleId
  mountAction(app, ctx, roleActions.select, async (input, { user, tx, lang, granted }) => {
    let ids: string[];
    if (input.roleId !== undefined) ids = splitList(input.roleId).filter(isId);
    else {
      const userId = input.userId ?? user.userId;
      if (userId !== user.userId && !granted.has('user')) throw forbidden('forbidden', { code: 'user' });
      const [row] = await tx.select({ roleId: schema.user.roleId }).from(schema.user)
        .where(and(eq(schema.user.id, userId), eq(schema.user.tenantId, user.tenantId), eq(schema.user.isDeleted, 0)));
      ids = splitList(row?.roleId ?? '');
    }
    if (!ids.length) return [];
    const rows = await tx.select({ id: schema.role.id, roleName: schema.role.roleName, roleNameEn: schema.role.roleNameEn, roleAlias: schema.role.roleAlias })
      .from(schema.role).where(and(inArray(schema.role.id, ids), eq(schema.role.tenantId, user.tenantId), eq(schema.role.isDeleted, 0)))
      .orderBy(asc(schema.role.sort), asc(schema.role.id));
    return rows.map((r) => ({ id: r.id, roleName: localName(r.roleName, r.roleNameEn, lang), roleAlias: r.roleAlias }));
  });
}

/** the scopes of a kind (1 data, 2 API) granted to roles of the caller's tenant, live ones only */
async function roleScopeIds(tx: Executor, user: AuthUser, roleIds: string[], category: 1 | 2): Promise<string[]> {
  if (!roleIds.length) return [];
  const table = category === 1 ? schema.scopeData : schema.scopeApi;
  const rows = await tx.selectDistinct({ scopeId: schema.roleScope.scopeId }).from(schema.roleScope)
    .innerJoin(schema.role, eq(schema.role.id, schema.roleScope.roleId))
    .innerJoin(table, and(eq(table.id, schema.roleScope.scopeId), eq(table.isDeleted, 0)))
    .where(and(
      inArray(schema.roleScope.roleId, roleIds), eq(schema.roleScope.scopeCategory, category),
      eq(schema.role.tenantId, user.tenantId), eq(schema.role.isDeleted, 0),
    ));
  return rows.map((r) => r.scopeId);
}

function menuRecord(m: typeof schema.menu.$inferSelect, lang: 'zh' | 'en') {
  return {
    id: m.id, parentId: m.parentId, code: m.code, name: localName(m.name, m.nameEn, lang), nameEn: m.nameEn, alias: m.alias, path: m.path,
    source: m.source, sort: m.sort, category: m.category, action: m.action, isOpen: m.isOpen, component: m.component, remark: m.remark,
  };
}
