import type { I18nText } from '../../i18n.js';

/** Messages of the authority area (roles, their grants and scopes); merged into the contract's `messages` by the area registry. */
export const authorityMessages = {
  grantUnknownMenu: { zh: '菜单不存在或已删除: {ids}', en: 'Unknown or deleted menus: {ids}' },
  grantOutside: { zh: '不能授予超出权限范围 (租户套餐或自己的权限) 的菜单: {names}', en: 'These menus are outside what you may grant (the tenant\'s package or your own permissions): {names}' },
  grantAdminLockout: { zh: '超级管理员角色必须保留角色管理与权限设置, 否则无人能再授权', en: 'The super administrator role must keep role management and its permission setting, or nobody could grant again' },
  roleHasUsers: { zh: '角色「{name}」仍有用户 (如 {account}), 不能删除', en: 'The role "{name}" is still held by users (such as {account}); it cannot be deleted' },
  roleProtected: { zh: '超级管理员角色不能删除或修改别名', en: 'The super administrator role cannot be deleted nor its alias changed' },
  scopeUnknown: { zh: '权限不存在或已删除: {ids}', en: 'Unknown or deleted scopes: {ids}' },
} as const satisfies Record<string, I18nText>;
