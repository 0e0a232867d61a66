import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import { CONSOLE_CLIENT, crudPaths, PLATFORM_TENANT } from '@console/contract';
import { noticeResource } from '@console/contract/areas/desk/index';
import { paramResource } from '@console/contract/areas/system/index';
import { hashPassword, md5Hex, sha256Hex } from '../core/auth/index.js';
import { type Tx, schema } from '../core/db/index.js';
import { nextId } from '../core/ids.js';
import { BUTTON_ICONS, ensureMenus, grantToRoles, type MenuSeed, standardButtons } from './menus.js';
import type { DataStep } from './runner.js';

export const DEMO_TENANT = '541742';

export interface DictSeed {
  code: string;
  name: string;
  nameEn: string;
  /** each item: key, Chinese, English, and its remark (the `flow` dictionary's route of a category) */
  items: Array<[key: string, zh: string, en: string, remark?: string]>;
}

const DICTS: DictSeed[] = [
  {
    code: 'notice', name: '通知类型', nameEn: 'Notice category',
    items: [['1', '发布通知', 'Release'], ['2', '批转通知', 'Approval'], ['3', '转发通知', 'Forward'],
      ['4', '指示通知', 'Instruction'], ['5', '任免通知', 'Appointment'], ['6', '事务通知', 'Affairs']],
  },
  { code: 'sex', name: '性别', nameEn: 'Sex', items: [['1', '男', 'Male'], ['2', '女', 'Female'], ['3', '未知', 'Unknown']] },
  { code: 'menu_category', name: '菜单类型', nameEn: 'Menu category', items: [['1', '菜单', 'Menu'], ['2', '按钮', 'Button']] },
  {
    code: 'button_func', name: '按钮功能', nameEn: 'Button placement',
    items: [['1', '工具栏', 'Toolbar'], ['2', '操作栏', 'Row'], ['3', '工具操作栏', 'Toolbar and row']],
  },
  { code: 'yes_no', name: '是否', nameEn: 'Yes / no', items: [['0', '否', 'No'], ['1', '是', 'Yes']] },
  { code: 'user_status', name: '用户状态', nameEn: 'User status', items: [['1', '正常', 'Normal'], ['2', '停用', 'Disabled'], ['3', '待审核', 'Awaiting approval']] },
];

/** Inserts dictionaries: a header row (dictKey -1) and its items, per code. */
export async function seedDicts(tx: Tx, dicts: DictSeed[]): Promise<void> {
  for (const d of dicts) {
    const headerId = nextId();
    await tx.insert(schema.dict).values({ id: headerId, parentId: '0', code: d.code, dictKey: '-1', dictValue: d.name, dictValueEn: d.nameEn, sort: 0 });
    await tx.insert(schema.dict).values(d.items.map(([key, zh, en, remark], i) => ({
      id: nextId(), parentId: headerId, code: d.code, dictKey: key, dictValue: zh, dictValueEn: en, sort: i + 1, remark: remark ?? null,
    })));
  }
}

async function seedTenant(tx: Tx, t: { tenantId: string; name: string; roleAlias: string; roleName: string; deptName: string; extraRoles?: Array<[string, string]> }) {
  await tx.insert(schema.tenant).values({ id: nextId(), tenantId: t.tenantId, tenantName: t.name, linkman: 'admin', accountNumber: -1 });
  const deptId = nextId();
  await tx.insert(schema.dept).values({ id: deptId, tenantId: t.tenantId, parentId: '0', ancestors: '0', deptName: t.deptName, fullName: t.deptName, sort: 1 });
  const roleId = nextId();
  await tx.insert(schema.role).values({ id: roleId, tenantId: t.tenantId, roleName: t.roleName, roleAlias: t.roleAlias, sort: 1 });
  for (const [i, [alias, name]] of (t.extraRoles ?? []).entries()) {
    await tx.insert(schema.role).values({ id: nextId(), tenantId: t.tenantId, roleName: name, roleAlias: alias, sort: i + 2 });
  }
  await tx.insert(schema.user).values({
    id: nextId(), tenantId: t.tenantId, account: 'admin', passwordHash: await hashPassword(md5Hex('admin')),
    name: 'admin', realName: '管理员', roleId, deptId, userType: 1,
  });
}

/** The menus of the foundation: workbench › notices, system › parameters (menus.md), with BladeX's icons. */
const FOUNDATION_MENUS: MenuSeed[] = [
  {
    code: 'desk', name: '工作台', nameEn: 'Workbench', path: '/desk', source: 'iconfont iconicon_airplay', sort: 1,
    children: [{
      code: 'notice', name: '通知公告', nameEn: 'Notices', path: '/desk/notice', source: 'iconfont iconicon_sms', sort: 1,
      buttons: standardButtons('notice', crudPaths(noticeResource)),
    }],
  },
  {
    code: 'system', name: '系统管理', nameEn: 'System', path: '/system', source: 'iconfont iconicon_setting', sort: 99,
    children: [{
      code: 'param', name: '参数管理', nameEn: 'Parameters', path: '/system/param', source: 'iconfont iconicon_community_line', sort: 8,
      buttons: standardButtons('param', crudPaths(paramResource)),
    }],
  },
];

/**
 * The antd icon names the menus and top menus of steps 0002 and 0004 were first seeded with, and the
 * iconfont class each became (step 0006).
 */
const ANTD_SEEDED_ICONS: Readonly<Record<string, string>> = {
  DesktopOutlined: 'iconfont iconicon_airplay',
  NotificationOutlined: 'iconfont iconicon_sms',
  SettingOutlined: 'iconfont iconicon_setting',
  ControlOutlined: 'iconfont iconicon_community_line',
};

/** Codes of the buttons step 0002 seeded without an icon. */
function seededButtonCodes(tree: readonly MenuSeed[]): string[] {
  return tree.flatMap((m) => [...(m.buttons ?? []).map((b) => b.code), ...seededButtonCodes(m.children ?? [])]);
}

export const DATA_STEPS: DataStep[] = [
  {
    name: '0001-platform-base',
    async run(tx) {
      await tx.insert(schema.client).values({
        id: nextId(), clientId: CONSOLE_CLIENT.id, clientSecret: sha256Hex(CONSOLE_CLIENT.secret), scope: 'all',
        authorizedGrantTypes: 'password,captcha,refresh_token', accessTokenValidity: 3600, refreshTokenValidity: 604800,
      });
      await seedTenant(tx, {
        tenantId: PLATFORM_TENANT, name: '管理组', roleAlias: 'administrator', roleName: '超级管理员', deptName: '平台运营部',
        extraRoles: [['user', '用户']],
      });
      await seedTenant(tx, { tenantId: DEMO_TENANT, name: '演示租户', roleAlias: 'admin', roleName: '管理员', deptName: '演示租户' });
      await seedDicts(tx, DICTS);
    },
  },
  {
    name: '0002-menus-foundation',
    async run(tx) {
      const ids = await ensureMenus(tx, FOUNDATION_MENUS);
      await grantToRoles(tx, ids.values(), ['administrator'], [PLATFORM_TENANT]);
      const notice = ['desk', 'notice', 'notice_add', 'notice_edit', 'notice_delete', 'notice_view'].map((c) => ids.get(c)!);
      await grantToRoles(tx, notice, ['admin'], [DEMO_TENANT]);
      await grantToRoles(tx, ['desk', 'notice', 'notice_view'].map((c) => ids.get(c)!), ['user'], [PLATFORM_TENANT]);
    },
  },
  {
    // Icons BladeX's way (Saber renders `source` as an iconfont class): a menu or top menu still holding
    // the antd name it was seeded with gets its iconfont class, and a seeded button still without an icon
    // gets BladeX's; any other value is an administrator's choice and stays.
    name: '0006-bladex-menu-icons',
    async run(tx) {
      for (const [antd, iconfont] of Object.entries(ANTD_SEEDED_ICONS)) {
        await tx.update(schema.menu).set({ source: iconfont }).where(and(eq(schema.menu.source, antd), eq(schema.menu.category, 1)));
        await tx.update(schema.topMenu).set({ source: iconfont }).where(eq(schema.topMenu.source, antd));
      }
      const buttons = seededButtonCodes(FOUNDATION_MENUS);
      for (const [alias, icon] of Object.entries(BUTTON_ICONS)) {
        await tx.update(schema.menu).set({ source: icon }).where(and(
          eq(schema.menu.category, 2), eq(schema.menu.alias, alias), inArray(schema.menu.code, buttons),
          or(eq(schema.menu.source, ''), isNull(schema.menu.source)),
        ));
      }
    },
  },
];
