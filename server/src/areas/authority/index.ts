import { apiScopeResource, dataScopeResource, roleResource } from '@console/contract/areas/authority/index';
import {
  menuResource, tenantPackageResource, tenantResource, topMenuResource, userResource,
} from '@console/contract/areas/system/index';
import { msg, PLATFORM_TENANT } from '@console/contract';
import { and, eq, inArray } from 'drizzle-orm';
import { isPlatformAdmin, PLATFORM_ADMIN_ROLE } from '../../core/access.js';
import { confirmFirst } from '../../core/errors.js';
import type { AppContext } from '../../core/context.js';
import { bind, defineArea } from '../../core/area.js';
import { schema } from '../../core/db/index.js';
import { nextId } from '../../core/ids.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { seedDicts } from '../../seed/steps.js';
import { AUTHORITY_FOUNDATION_STEPS } from './dataSteps.js';
import { menuHooks, registerMenuRoleActions, roleHooks, topMenuHooks } from './menusRoles.js';
import { packageHooks, registerTenantActions, tenantHooks } from './tenants.js';
import { registerUserActions, userHooks } from './users.js';
import { param } from '../system/index.js';

/** Scopes change what lists answer and which calls pass: every instance's caches forget them. */
function scopeHooks(ctx: AppContext): ResourceHooks {
  return {
    afterSave: async (_tx, _row, c) => c.afterCommit(() => ctx.permissions.invalidate()),
    beforeRemove: async (tx, rows, c) => {
      await tx.delete(schema.roleScope).where(inArray(schema.roleScope.scopeId, rows.map((r) => String(r.id))));
      c.afterCommit(() => ctx.permissions.invalidate());
    },
  };
}

const LOCKOUT_EXAMPLES = 3;

/**
 * An API scope closes the calls it names to every role not granted it: one that would close calls to the
 * caller or to the platform's super administrator is saved only once the caller confirmed the warning.
 */
function apiScopeHooks(ctx: AppContext): ResourceHooks {
  const base = scopeHooks(ctx);
  return {
    ...base,
    beforeSave: async (tx, values, c) => {
      if (c.confirmed.has('apiScopeLockout')) return;
      const scope = {
        id: c.stored ? String(c.stored.id) : undefined,
        path: String(values.scopePath ?? c.stored?.scopePath ?? ''),
        type: Number(values.scopeType ?? c.stored?.scopeType ?? 1),
      };
      const adminRoles = (await tx.select({ id: schema.role.id }).from(schema.role).where(and(
        eq(schema.role.tenantId, PLATFORM_TENANT), eq(schema.role.roleAlias, PLATFORM_ADMIN_ROLE), eq(schema.role.isDeleted, 0),
      ))).map((r) => r.id);
      const mine = await ctx.permissions.callsClosedBy(tx, c.user.tenantId, c.user.roleIds, scope);
      const admins = await ctx.permissions.callsClosedBy(tx, PLATFORM_TENANT, adminRoles, scope);
      if (mine.length === 0 && admins.length === 0) return;
      const calls = [...new Set([...mine, ...admins])];
      const who = mine.length && admins.length && !isPlatformAdmin(c.user) ? 'apiScopeWhoBoth' : mine.length ? 'apiScopeWhoYou' : 'apiScopeWhoAdmin';
      throw confirmFirst('apiScopeLockout', 'apiScopeLockout', {
        who: { zh: msg(who, 'zh'), en: msg(who, 'en') },
        count: calls.length,
        calls: calls.slice(0, LOCKOUT_EXAMPLES).join(', '),
      });
    },
  };
}

/** Authority: menus, top menus, roles and their grants, data and API scopes, tenants and packages, users. */
export const authorityArea = defineArea({
  name: 'authority',
  resources: [
    bind(menuResource, schema.menu, menuHooks),
    bind(topMenuResource, schema.topMenu, topMenuHooks),
    bind(roleResource, schema.role, roleHooks),
    bind(dataScopeResource, schema.scopeData, scopeHooks),
    bind(apiScopeResource, schema.scopeApi, apiScopeHooks),
    bind(tenantPackageResource, schema.tenantPackage, packageHooks),
    bind(tenantResource, schema.tenant, tenantHooks),
    bind(userResource, schema.user, userHooks),
  ],
  routes(app, ctx) {
    registerMenuRoleActions(app, ctx);
    registerTenantActions(app, ctx);
    registerUserActions(app, ctx);
  },
  dataSteps: [
    ...AUTHORITY_FOUNDATION_STEPS,
    {
      name: '0201-authority-dicts',
      run: (tx) => seedDicts(tx, [
        { code: 'menu_open', name: '新窗口', nameEn: 'New window', items: [['1', '否', 'No'], ['2', '是', 'Yes']] },
        { code: 'user_type', name: '用户平台', nameEn: 'User platform', items: [['1', 'WEB', 'Web'], ['2', 'APP', 'App'], ['3', '其他', 'Other']] },
        {
          code: 'data_scope_type', name: '数据权限类型', nameEn: 'Data scope type',
          items: [['1', '全部可见', 'All'], ['2', '本人可见', 'Own rows'], ['3', '所在机构可见', 'Own department'], ['4', '所在机构及子级可见', 'Own department and below'], ['5', '自定义', 'Custom departments']],
        },
        {
          code: 'api_scope_type', name: '接口权限类型', nameEn: 'API scope method',
          items: [['1', '全部', 'Any'], ['2', 'GET', 'GET'], ['3', 'POST', 'POST'], ['4', 'PUT', 'PUT'], ['5', 'DELETE', 'DELETE']],
        },
      ]),
    },
    {
      name: '0202-init-password-param',
      async run(tx) {
        const [exists] = await tx.select({ id: param.id }).from(param).where(eq(param.paramKey, 'account.initPassword'));
        if (!exists) await tx.insert(param).values({ id: nextId(), paramName: '账号初始密码', paramKey: 'account.initPassword', paramValue: '123456', remark: '新建用户、新租户管理员与重置密码时使用' });
      },
    },
  ],
});
