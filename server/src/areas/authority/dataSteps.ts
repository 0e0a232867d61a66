import { PLATFORM_TENANT } from '@console/contract';
import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { DataStep } from '../../core/area.js';
import { schema } from '../../core/db/index.js';
import { nextId, splitList } from '../../core/ids.js';
import { DEMO_TENANT } from '../../seed/steps.js';

/** English names of the seeded roles and departments: tenant, Chinese name as seeded, English name. */
const ENGLISH_ROLE_NAMES: Array<[tenantId: string, zh: string, en: string]> = [
  [PLATFORM_TENANT, '超级管理员', 'Super administrator'],
  [PLATFORM_TENANT, '用户', 'User'],
  [DEMO_TENANT, '管理员', 'Administrator'],
];
const ENGLISH_DEPT_NAMES: Array<[tenantId: string, zh: string, en: string]> = [
  [PLATFORM_TENANT, '平台运营部', 'Platform operations'],
  [PLATFORM_TENANT, '研发中心', 'R&D center'],
  [DEMO_TENANT, '演示租户', 'Demo tenant'],
];
/** The seeded administrators' nickname, and the one the console shows them by in English. */
const SEEDED_ADMIN_NICKNAME = 'admin';
const ENGLISH_ADMIN_NICKNAME = 'Administrator';

/**
 * Authority's seed beside the platform's foundation (seed/steps.ts, which seeds the tenants, their administrators
 * and the first menus): the top menus, the platform administrator's second post, the English names.
 */
export const AUTHORITY_FOUNDATION_STEPS: DataStep[] = [
  {
    // Top menus (spec 2 "top-menu"): each names a root menu and shows its whole subtree.
    name: '0004-top-menus',
    async run(tx) {
      const roots = await tx.select({ id: schema.menu.id, code: schema.menu.code }).from(schema.menu)
        .where(and(inArray(schema.menu.code, ['desk', 'system']), eq(schema.menu.parentId, '0'), eq(schema.menu.isDeleted, 0)));
      const tops = [
        { code: 'workbench', name: '工作台', nameEn: 'Workbench', source: 'iconfont iconicon_airplay', root: 'desk', sort: 1 },
        { code: 'system', name: '系统管理', nameEn: 'System', source: 'iconfont iconicon_setting', root: 'system', sort: 2 },
      ];
      for (const top of tops) {
        const root = roots.find((r) => r.code === top.root);
        if (!root) continue;
        const id = nextId();
        await tx.insert(schema.topMenu).values({ id, code: top.code, name: top.name, nameEn: top.nameEn, source: top.source, sort: top.sort });
        await tx.insert(schema.topMenuSetting).values({ topMenuId: id, menuId: root.id });
      }
    },
  },
  {
    // The platform's admin works in two departments with two roles, so "switch department/role" has
    // something to switch to out of the box (spec 2 dialogs).
    name: '0005-platform-admin-second-post',
    async run(tx) {
      await tx.execute(sql`select set_config('app.tenant_id', ${PLATFORM_TENANT}, true)`);
      const [admin] = await tx.select().from(schema.user)
        .where(and(eq(schema.user.tenantId, PLATFORM_TENANT), eq(schema.user.account, 'admin'), eq(schema.user.isDeleted, 0)));
      const [userRole] = await tx.select().from(schema.role)
        .where(and(eq(schema.role.tenantId, PLATFORM_TENANT), eq(schema.role.roleAlias, 'user'), eq(schema.role.isDeleted, 0)));
      const [ops] = await tx.select().from(schema.dept)
        .where(and(eq(schema.dept.tenantId, PLATFORM_TENANT), eq(schema.dept.parentId, '0'), eq(schema.dept.isDeleted, 0)));
      if (!admin || !userRole || !ops) return;
      const deptId = nextId();
      await tx.insert(schema.dept).values({
        id: deptId, tenantId: PLATFORM_TENANT, parentId: ops.id, ancestors: `0,${ops.id}`, deptName: '研发中心', fullName: '研发中心', sort: 2,
      });
      const roleIds = [...new Set([...splitList(admin.roleId), userRole.id])].join(',');
      const deptIds = [...new Set([...splitList(admin.deptId), deptId])].join(',');
      await tx.update(schema.user).set({ roleId: roleIds, deptId: deptIds }).where(eq(schema.user.id, admin.id));
    },
  },
  {
    // English names for the seeded roles and departments (answered to callers in English), and an English
    // display name for the seeded administrators: the console shows a user by the nickname in English
    // (by the real name in Chinese). Only rows still holding the seeded Chinese name, without an English
    // one, and nicknames still as seeded are touched: an administrator's own edits stay.
    name: '0007-english-names',
    async run(tx) {
      for (const [tenantId, zh, en] of ENGLISH_ROLE_NAMES) {
        await tx.update(schema.role).set({ roleNameEn: en }).where(and(
          eq(schema.role.tenantId, tenantId), eq(schema.role.roleName, zh), or(isNull(schema.role.roleNameEn), eq(schema.role.roleNameEn, '')),
        ));
      }
      for (const [tenantId, zh, en] of ENGLISH_DEPT_NAMES) {
        await tx.update(schema.dept).set({ deptNameEn: en }).where(and(
          eq(schema.dept.tenantId, tenantId), eq(schema.dept.deptName, zh), or(isNull(schema.dept.deptNameEn), eq(schema.dept.deptNameEn, '')),
        ));
      }
      await tx.update(schema.user).set({ name: ENGLISH_ADMIN_NICKNAME }).where(and(
        inArray(schema.user.tenantId, [PLATFORM_TENANT, DEMO_TENANT]), eq(schema.user.account, 'admin'),
        eq(schema.user.name, SEEDED_ADMIN_NICKNAME), eq(schema.user.isDeleted, 0),
      ));
    },
  },
];
