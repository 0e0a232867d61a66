import { z } from 'zod';
import { defineActions, idsParamSchema, okOutput } from '../../action.js';
import { defineResource } from '../../resource.js';

const PATH = '/api/blade-system/user';
/** BladeX answers the same calls under /api/blade-user as under /api/blade-system/user. */
export const USER_PATH_ALIAS = '/api/blade-user';

const userIds = z.object({ userIds: idsParamSchema });
const idParam = z.string().trim().regex(/^\d{1,19}$/);

/** Users (blade_user) of a tenant: accounts, their departments, roles and posts. */
export const userResource = defineResource({
  code: 'user',
  path: PATH,
  title: { zh: '用户管理', en: 'Users' },
  scope: 'tenant',
  nameField: 'account',
  page: 'custom',
  menu: {
    parent: 'system', route: '/system/user', name: { zh: '用户管理', en: 'Users' }, sort: 1, icon: 'iconfont iconicon_principal',
    buttons: [
      { code: 'user_role', name: { zh: '角色配置', en: 'Roles' }, alias: 'role', placement: 'toolbar', action: 'grant', custom: true },
      { code: 'user_reset', name: { zh: '密码重置', en: 'Reset password' }, alias: 'reset', placement: 'toolbar', action: 'resetPassword', custom: true },
      { code: 'user_unlock', name: { zh: '账号解封', en: 'Unlock' }, alias: 'unlock', placement: 'toolbar', action: 'unlock', custom: true },
      { code: 'user_import', name: { zh: '导入', en: 'Import' }, alias: 'import', placement: 'toolbar' },
      { code: 'user_export', name: { zh: '导出', en: 'Export' }, alias: 'export', placement: 'toolbar' },
      { code: 'user_platform', name: { zh: '平台配置', en: 'Platform' }, alias: 'platform', placement: 'row', action: 'updatePlatform', custom: true },
      { code: 'user_audit', name: { zh: '注册审核', en: 'Approve sign-ups' }, alias: 'audit', placement: 'toolbar', action: 'auditPass', custom: true },
    ],
  },
  io: { export: { permission: 'user_export', name: 'export-user' }, import: { permission: 'user_import', name: 'import-user' } },
  fields: {
    account: {
      type: 'string', label: { zh: '登录账号', en: 'Account' }, required: { zh: '请输入登录账号', en: 'Please enter the account' },
      max: 64, unique: true, immutable: true, search: 'like', sortable: true, width: 130,
    },
    password: {
      type: 'string', label: { zh: '密码', en: 'Password' }, writeOnly: true, max: 64,
      help: { zh: '留空则使用初始密码, 用户首次登录须修改', en: 'Empty: the initial password, to be changed at the first sign-in' },
    },
    name: { type: 'string', label: { zh: '用户昵称', en: 'Nickname' }, required: { zh: '请输入用户昵称', en: 'Please enter the nickname' }, max: 64, width: 120 },
    realName: { type: 'string', label: { zh: '用户姓名', en: 'Real name' }, required: { zh: '请输入用户姓名', en: 'Please enter the real name' }, max: 64, search: 'like', key: true, width: 120 },
    code: { type: 'string', label: { zh: '用户编号', en: 'Code' }, max: 32, list: false },
    deptId: { type: 'ids', ref: 'dept', label: { zh: '所属部门', en: 'Departments' }, required: { zh: '请选择所属部门', en: 'Please select the departments' }, max: 20, width: 160 },
    roleId: { type: 'ids', ref: 'role', label: { zh: '所属角色', en: 'Roles' }, required: { zh: '请选择所属角色', en: 'Please select the roles' }, max: 20, key: true, width: 160 },
    postId: { type: 'ids', ref: 'post', label: { zh: '所属岗位', en: 'Posts' }, max: 20, list: false },
    phone: { type: 'string', label: { zh: '手机号码', en: 'Phone' }, max: 32, format: 'mobile', search: 'like', width: 130 },
    email: { type: 'string', label: { zh: '电子邮箱', en: 'Email' }, max: 128, format: 'email', list: false },
    sex: { type: 'int', label: { zh: '用户性别', en: 'Sex' }, dict: 'sex', list: false },
    birthday: { type: 'datetime', label: { zh: '用户生日', en: 'Birthday' }, list: false },
    userType: { type: 'int', label: { zh: '用户平台', en: 'Platform' }, dict: 'user_type', defaultValue: 1, search: 'equal', width: 100 },
    status: { type: 'int', label: { zh: '用户状态', en: 'Status' }, dict: 'user_status', defaultValue: 1, search: 'equal', key: true, width: 100, min: 1, max: 3 },
  },
  actions: defineActions(PATH, {
    grant: {
      method: 'POST', permission: 'user_role', title: { zh: '用户角色配置', en: 'Users: set roles' },
      input: z.object({ userIds: idsParamSchema, roleIds: idsParamSchema }), output: okOutput,
    },
    resetPassword: {
      segment: 'reset-password', method: 'POST', permission: 'user_reset', title: { zh: '重置密码', en: 'Users: reset the password' },
      input: userIds, output: okOutput,
    },
    unlock: {
      method: 'POST', permission: 'user_unlock', title: { zh: '账号解封', en: 'Users: clear the sign-in lockout' },
      input: userIds, output: okOutput,
    },
    platformDetail: {
      segment: 'platform-detail', method: 'GET', permission: 'user_platform', title: { zh: '用户平台详情', en: 'Users: platform settings' },
      input: z.object({ id: idParam }), output: z.object({ id: z.string(), account: z.string(), userType: z.number(), userExt: z.string().nullable() }),
    },
    updatePlatform: {
      segment: 'update-platform', method: 'POST', permission: 'user_platform', title: { zh: '用户平台配置', en: 'Users: set the platform' },
      input: z.object({ userId: idParam, userType: z.coerce.number().int().min(1).max(9), userExt: z.string().max(4000).optional() }),
      output: okOutput,
    },
    auditPass: {
      segment: 'audit-pass', method: 'POST', permission: 'user_audit', title: { zh: '注册审核通过', en: 'Users: approve sign-ups' },
      input: userIds, output: okOutput,
    },
    auditRefuse: {
      segment: 'audit-refuse', method: 'POST', permission: 'user_audit', title: { zh: '注册审核拒绝', en: 'Users: refuse sign-ups' },
      input: userIds, output: okOutput,
    },
  }),
});
