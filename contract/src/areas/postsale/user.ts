import { z } from 'zod';
import { defineActions, okOutput } from '../../action.js';
import { idInput } from '../../ids.js';
import { defineResource } from '../../resource.js';

export const POSTSALE_USER_PATH = '/api/ymy-sale/postsaleuser';
/** BladeX's other path of the same users (spec section 7: `ymy-user/users`) */
export const APP_USERS_PATH = '/api/ymy-user/users';

/** an app user's `status`: only an active user signs in, and a disabled one's tokens stop working at once */
export const APP_USER_STATUS = { active: 1, disabled: 0 } as const;

/**
 * An app user (售后用户): a lock owner or member who registered in the brand's phone app with an SMS code. The
 * console does not create them; it edits their name, disables them, resets their password (the app then asks
 * for a new one through an SMS code) and exports them.
 */
export const postsaleUserResource = defineResource({
  code: 'postsale_user',
  path: POSTSALE_USER_PATH,
  title: { zh: '售后用户', en: 'App users' },
  scope: 'tenant',
  nameField: 'phone',
  buttons: { add: false },
  defaultSort: { field: 'registerTime', order: 'desc' },
  menu: {
    parent: 'postsale', route: '/postsale/user', name: { zh: '售后用户', en: 'App users' }, sort: 1, icon: 'iconfont iconicon_principal',
    buttons: [
      {
        code: 'postsale_user_reset', name: { zh: '重置密码', en: 'Reset password' }, alias: 'reset', placement: 'row', action: 'resetPass',
        confirm: { zh: '重置后该用户的 APP 立即退出登录, 须通过短信验证码设置新密码。确定重置?', en: 'The user\'s app is signed out at once and must set a new password with an SMS code. Reset?' },
      },
      { code: 'postsale_user_export', name: { zh: '导出', en: 'Export' }, alias: 'export', placement: 'toolbar' },
    ],
  },
  io: { export: { permission: 'postsale_user_export' } },
  fields: {
    phone: { type: 'string', label: { zh: '手机号', en: 'Phone' }, max: 32, format: 'mobile', immutable: true, unique: true, search: 'like', key: true, width: 140 },
    nickname: { type: 'string', label: { zh: '昵称', en: 'Nickname' }, max: 64, search: 'like', width: 140 },
    avatar: { type: 'image', label: { zh: '头像', en: 'Avatar' }, max: 1000, list: false },
    status: {
      type: 'int', label: { zh: '状态', en: 'Status' }, dict: 'app_user_status', required: true, search: 'equal', key: true, width: 90,
      defaultValue: APP_USER_STATUS.active, help: { zh: '停用后该用户的 APP 立即退出登录', en: 'A disabled user\'s app is signed out at once' },
    },
    passwordReset: { type: 'boolean', label: { zh: '待设新密码', en: 'Must set a password' }, dict: 'yes_no', form: false, search: 'equal', width: 110 },
    registerTime: { type: 'datetime', label: { zh: '注册时间', en: 'Registered' }, form: false, sortable: true, search: 'dateRange', width: 160 },
    lastLoginTime: { type: 'datetime', label: { zh: '最近登录', en: 'Last sign-in' }, form: false, sortable: true, width: 160 },
  },
  actions: defineActions(POSTSALE_USER_PATH, {
    resetPass: {
      segment: 'reset-pass', method: 'POST', permission: 'postsale_user_reset', title: { zh: '售后用户：重置密码', en: 'App users: reset password' },
      input: z.object({ id: idInput }), output: okOutput,
    },
  }),
});
