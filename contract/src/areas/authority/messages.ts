import type { I18nText } from '../../i18n.js';

/** Messages of the authority area (roles, their grants and scopes); merged into the contract's `messages` by the area registry. */
export const authorityMessages = {
  packagePlatformMenus: {
    zh: '租户套餐不能包含平台专用菜单: {menus} (租户管理、租户套餐、产品授权仅平台管理员使用)',
    en: 'A tenant package cannot include menus of the platform: {menus} (tenants, packages and product authorisation are the platform administrators\' alone)',
  },
  grantUnknownMenu: { zh: '菜单不存在或已删除: {ids}', en: 'Unknown or deleted menus: {ids}' },
  grantOutside: { zh: '不能授予超出权限范围 (租户套餐或自己的权限) 的菜单: {names}', en: 'These menus are outside what you may grant (the tenant\'s package or your own permissions): {names}' },
  grantAdminLockout: { zh: '超级管理员角色必须保留角色管理与权限设置, 否则无人能再授权', en: 'The super administrator role must keep role management and its permission setting, or nobody could grant again' },
  roleHasUsers: { zh: '角色「{name}」仍有用户 (如 {account}), 不能删除', en: 'The role "{name}" is still held by users (such as {account}); it cannot be deleted' },
  roleProtected: { zh: '超级管理员角色不能删除或修改别名', en: 'The super administrator role cannot be deleted nor its alias changed' },
  apiScopeLockout: {
    zh: '该接口权限尚未授予{who}, 保存后{who}将无法调用 {count} 个接口 (如 {calls}); 请先确认, 或保存后立即在角色的权限设置中授予',
    en: 'This API scope is not granted to {who}: once saved, {who} can no longer make {count} calls (such as {calls}); confirm first, or grant it in the role\'s permission settings right after',
  },
  apiScopeWhoYou: { zh: '您', en: 'you' },
  apiScopeWhoAdmin: { zh: '超级管理员', en: 'the super administrator' },
  apiScopeWhoBoth: { zh: '您和超级管理员', en: 'you and the super administrator' },
  scopeUnknown: { zh: '权限不存在或已删除: {ids}', en: 'Unknown or deleted scopes: {ids}' },
} as const satisfies Record<string, I18nText>;
