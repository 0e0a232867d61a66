import { z } from 'zod';
import { defineActions, okOutput } from '../../action.js';
import { TREE_NODE } from '../../treeNode.js';
import { defineResource, idListInput } from '../../resource.js';

const PATH = '/api/blade-system/role';

export const roleOption = z.object({ id: z.string(), roleName: z.string(), roleAlias: z.string() });
const nonEmptyIds = idListInput.refine((v) => v !== '', { params: { kind: 'idsRequired' } });

/** Roles (blade_role): a tenant's tree of roles; each is granted menus, data scopes and API scopes. */
export const roleResource = defineResource({
  code: 'role',
  path: PATH,
  title: { zh: '角色管理', en: 'Roles' },
  scope: 'tenant',
  nameField: 'roleName',
  page: 'custom',
  tree: { parentField: 'parentId', labelField: 'roleName', unpagedList: true },
  menu: {
    parent: 'authority', route: '/authority/role', name: { zh: '角色管理', en: 'Roles' }, sort: 1, icon: 'iconfont iconicon_principal',
    buttons: [{ code: 'role_grant', name: { zh: '权限设置', en: 'Permissions' }, alias: 'grant', placement: 'toolbar', action: 'grant', custom: true }],
  },
  fields: {
    roleName: { type: 'string', label: { zh: '角色名称', en: 'Name' }, required: { zh: '请输入角色名称', en: 'Please enter the role name' }, max: 100, search: 'like', width: 180 },
    roleNameEn: { type: 'string', label: { zh: '英文名称', en: 'English name' }, max: 100, list: false },
    roleAlias: {
      type: 'string', label: { zh: '角色别名', en: 'Alias' }, required: { zh: '请输入角色别名', en: 'Please enter the role alias' }, max: 100, unique: true, search: 'like',
    },
    parentId: { type: 'ref', ref: 'role', label: { zh: '上级角色', en: 'Parent role' }, list: false },
    sort: { type: 'int', label: { zh: '排序', en: 'Sort' }, required: { zh: '请输入排序', en: 'Please enter the sort order' }, min: 0, max: 100000, sortable: true, width: 80, defaultValue: 1 },
  },
  actions: defineActions(PATH, {
    grant: {
      method: 'POST', permission: 'role_grant', title: { zh: '角色权限设置', en: 'Roles: grant menus and scopes' },
      input: z.object({
        roleIds: nonEmptyIds,
        menuIds: idListInput.default(''),
        dataScopeIds: idListInput.default(''),
        apiScopeIds: idListInput.default(''),
      }),
      output: okOutput,
    },
    roleScopeKeys: {
      segment: 'scope-keys', method: 'GET', permission: 'role', title: { zh: '角色已授权数据/接口权限', en: 'Roles: scope ids granted to roles' },
      // category 1: data scopes, 2: API scopes
      input: z.object({ roleIds: idListInput, category: z.coerce.number().int().min(1).max(2) }), output: z.array(z.string()),
    },
    treeById: {
      segment: 'tree-by-id', method: 'GET', permission: 'role', alsoFor: ['user'], title: { zh: '角色树 (按角色)', en: 'Roles: the tree of a role\'s tenant' },
      input: z.object({ roleId: z.string().trim().regex(/^\d{1,19}$/).optional() }), output: z.array(TREE_NODE),
    },
    select: {
      method: 'GET', permission: null, title: { zh: '角色下拉数据', en: 'Roles: options' },
      // BladeX: the roles of `userId` (the caller's own when absent), or those named by `roleId`
      input: z.object({ userId: z.string().trim().regex(/^\d{1,19}$/).optional(), roleId: z.string().max(2000).optional() }),
      output: z.array(roleOption),
    },
  }),
});
