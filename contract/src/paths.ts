/** Fixed API paths the console calls outside the resource engine. */
export const API = {
  token: '/api/blade-auth/oauth/token',
  captcha: '/api/blade-auth/oauth/captcha',
  logout: '/api/blade-auth/oauth/logout',
  userInfo: '/api/blade-auth/oauth/user-info',
  clearCache: '/api/blade-auth/oauth/clear-cache',
  menuRoutes: '/api/blade-system/menu/routes',
  menuButtons: '/api/blade-system/menu/buttons',
  topMenu: '/api/blade-system/menu/top-menu',
  dictionary: '/api/blade-system/dict/dictionary',
  version: '/version.json',
  userProfile: '/api/blade-system/user/info',
  updateProfile: '/api/blade-system/user/update-info',
  updatePassword: '/api/blade-system/user/update-password',
  deptSelect: '/api/blade-system/dept/select',
  roleSelect: '/api/blade-system/role/select',
  tenantByDomain: '/api/blade-system/tenant/info',
  registerGuest: '/api/blade-user/register-guest',
  agreement: '/api/app/pub/get-agreement',
  consoleConfig: '/api/app/pub/console-config',
  putFile: '/api/blade-resource/oss/endpoint/put-file',
  serverStatus: '/sc/ymy-ipc/back/check-server-status',
  dashboard: '/api/blade-desk/dashboard/overview',
  noticeList: '/api/blade-desk/notice/list',
} as const;

/**
 * The calls of the vendor's phone app (its users are after-sales users of a tenant, not console users): sign-in
 * by phone and password, the app's own log upload, and the update check. See docs/app-api.md.
 */
export const APP_API = {
  token: '/api/app/auth/token',
  logUpload: '/api/app/log/upload',
  latestVersion: '/api/app/version/latest',
} as const;

/** The OAuth client the console identifies as (sent as Basic auth on every call). */
export const CONSOLE_CLIENT = { id: 'saber', secret: 'saber_secret' } as const;

export const PLATFORM_TENANT = '000000';
