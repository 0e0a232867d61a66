import { z } from 'zod';
import { defineActions, okOutput } from '../../action.js';
import { idListInput, defineResource } from '../../resource.js';

const PATH = '/api/blade-system/menu';
const TOP_PATH = '/api/blade-system/topmenu';

/** A grant tree node (menus and their buttons), as the role and package dialogs show them. */
export interface GrantNode {
  id: string;
  parentId: string;
  title: string;
  key: string;
  value: string;
  category?: number;
  /** a platform administrator's menu (tenants, packages, product authorisation) or a button of one: never in a tenant's package */
  platformOnly?: true;
  children?: GrantNode[];
}
const grantNode: z.ZodType<GrantNode> = z.lazy(() => z.object({
  id: z.string(), parentId: z.string(), title: z.string(), key: z.string(), value: z.string(), category: z.number().optional(),
  platformOnly: z.literal(true).optional(), children: z.array(grantNode).optional(),
}));
/** BladeX's GrantTreeVO: the menus (and buttons) to grant, and the data and API scopes each under its menu */
const grantTrees = z.object({ menu: z.array(grantNode), dataScope: z.array(grantNode), apiScope: z.array(grantNode) });
/** BladeX's CheckedTreeVO: the ids held, per kind */
const checkedKeys = z.object({ menu: z.array(z.string()), dataScope: z.array(z.string()), apiScope: z.array(z.string()) });

/** Menus and buttons (blade_menu), platform-wide: the menu tree every role is granted from. */
export const menuResource = defineResource({
  code: 'menu',
  path: PATH,
  title: { zh: '菜单管理', en: 'Menus' },
  scope: 'platform',
  nameField: 'name',
  tree: { parentField: 'parentId', labelField: 'name', unpagedList: true },
  menu: { parent: 'system', route: '/system/menu', name: { zh: '菜单管理', en: 'Menus' }, sort: 5, icon: 'iconfont icon-caidan' },
  fields: {
    name: { type: 'string', label: { zh: '菜单名称', en: 'Name' }, required: { zh: '请输入菜单名称', en: 'Please enter the menu name' }, max: 100, search: 'like', width: 180 },
    nameEn: { type: 'string', label: { zh: '英文名称', en: 'English name' }, max: 100, list: false },
    code: { type: 'string', label: { zh: '菜单编号', en: 'Code' }, required: { zh: '请输入菜单编号', en: 'Please enter the menu code' }, max: 100, unique: true, search: 'like' },
    alias: { type: 'string', label: { zh: '菜单别名', en: 'Alias' }, required: { zh: '请输入菜单别名', en: 'Please enter the alias' }, max: 100, defaultValue: 'menu', width: 100 },
    path: { type: 'string', label: { zh: '路由地址', en: 'Route' }, max: 500, search: 'like' },
    source: { type: 'string', label: { zh: '菜单图标', en: 'Icon' }, max: 255, width: 120 },
    parentId: { type: 'ref', ref: 'menu', label: { zh: '上级菜单', en: 'Parent menu' }, list: false },
    category: { type: 'int', label: { zh: '菜单类型', en: 'Type' }, dict: 'menu_category', required: { zh: '请选择菜单类型', en: 'Please select the type' }, search: 'equal', width: 90, defaultValue: 1 },
    action: { type: 'int', label: { zh: '按钮功能', en: 'Button placement' }, dict: 'button_func', min: 0, max: 3, width: 110, defaultValue: 0 },
    isOpen: { type: 'int', label: { zh: '新窗口', en: 'New window' }, dict: 'menu_open', min: 1, max: 2, width: 90, defaultValue: 1 },
    component: { type: 'string', label: { zh: '组件', en: 'Component' }, max: 255, list: false },
    sort: { type: 'int', label: { zh: '排序', en: 'Sort' }, required: { zh: '请输入菜单排序', en: 'Please enter the sort order' }, min: 0, max: 100000, sortable: true, width: 80, defaultValue: 1 },
    remark: { type: 'text', label: { zh: '备注', en: 'Remark' }, max: 500 },
  },
  actions: defineActions(PATH, {
    lazyMenuList: {
      segment: 'lazy-menu-list', method: 'GET', permission: 'menu', title: { zh: '菜单懒加载列表', en: 'Menus: the menus (no buttons) under parentId' },
      input: z.object({ parentId: z.string().trim().regex(/^\d{1,19}$/).optional() }), output: z.array(z.record(z.string(), z.unknown())),
    },
    menuList: {
      segment: 'menu-list', method: 'GET', permission: 'menu', title: { zh: '菜单列表 (不含按钮)', en: 'Menus: the tree without buttons' },
      input: z.object({}), output: z.array(z.record(z.string(), z.unknown())),
    },
    grantTree: {
      segment: 'grant-tree', method: 'GET', permission: 'role', alsoFor: ['topmenu', 'tenant_package'], title: { zh: '授权菜单树', en: 'Menus: the tree the caller may grant' },
      input: z.object({}), output: grantTrees,
    },
    roleTreeKeys: {
      segment: 'role-tree-keys', method: 'GET', permission: 'role', title: { zh: '角色已授权菜单', en: 'Menus: ids granted to roles' },
      input: z.object({ roleIds: idListInput }), output: checkedKeys,
    },
    grantTopTree: {
      segment: 'grant-top-tree', method: 'GET', permission: 'topmenu', alsoFor: ['role'], title: { zh: '顶部菜单授权树', en: 'Menus: top menus to grant' },
      input: z.object({}), output: z.object({ menu: z.array(grantNode) }),
    },
    topTreeKeys: {
      segment: 'top-tree-keys', method: 'GET', permission: 'topmenu', title: { zh: '顶部菜单已配置菜单', en: 'Menus: ids under top menus' },
      input: z.object({ topMenuIds: idListInput }), output: z.object({ menu: z.array(z.string()) }),
    },
  }),
});

/** Top menus (blade_top_menu): each shows the subtrees it names in the header bar. */
export const topMenuResource = defineResource({
  code: 'topmenu',
  path: TOP_PATH,
  title: { zh: '顶部菜单', en: 'Top menus' },
  scope: 'platform',
  nameField: 'name',
  defaultSort: { field: 'sort', order: 'asc' },
  page: 'custom',
  menu: {
    parent: 'system', route: '/system/topmenu', name: { zh: '顶部菜单', en: 'Top menus' }, sort: 6, icon: 'iconfont iconicon_dispose',
    buttons: [{ code: 'topmenu_setting', name: { zh: '菜单配置', en: 'Menus' }, alias: 'setting', placement: 'toolbar', action: 'grant', custom: true }],
  },
  fields: {
    name: { type: 'string', label: { zh: '菜单名称', en: 'Name' }, required: { zh: '请输入菜单名称', en: 'Please enter the name' }, max: 100, search: 'like' },
    nameEn: { type: 'string', label: { zh: '英文名称', en: 'English name' }, max: 100 },
    code: { type: 'string', label: { zh: '菜单编号', en: 'Code' }, required: { zh: '请输入菜单编号', en: 'Please enter the code' }, max: 100, unique: true, search: 'like' },
    source: { type: 'string', label: { zh: '菜单图标', en: 'Icon' }, max: 255 },
    path: { type: 'string', label: { zh: '路由地址', en: 'Route' }, max: 500 },
    sort: { type: 'int', label: { zh: '排序', en: 'Sort' }, required: { zh: '请输入排序', en: 'Please enter the sort order' }, min: 0, max: 100000, sortable: true, defaultValue: 1 },
  },
  actions: defineActions(TOP_PATH, {
    grant: {
      method: 'POST', permission: 'topmenu_setting', platform: 'write', title: { zh: '顶部菜单配置', en: 'Top menus: set their menus' },
      input: z.object({ topMenuIds: idListInput.refine((v) => v !== '', { params: { kind: 'idsRequired' } }), menuIds: idListInput.default('') }),
      output: okOutput,
    },
  }),
});
