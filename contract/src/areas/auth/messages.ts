import type { I18nText } from '../../i18n.js';

/** Messages of the auth area (sign-in, guest registration and the public agreements); merged into the contract's `messages` by the area registry. */
export const authMessages = {
  badCredentials: { zh: '用户名或密码错误', en: 'Wrong user name or password' },
  accountPending: { zh: '账号正在等待管理员审核', en: 'The account is waiting for an administrator\'s approval' },
  grantUnsupported: { zh: '不支持的授权类型: {grant}', en: 'Unsupported grant type: {grant}' },
  grantNotAllowed: { zh: '该客户端不允许此授权类型: {grant}', en: 'This client may not use the grant type: {grant}' },
  refreshInvalid: { zh: '刷新令牌无效或已使用, 请重新登录', en: 'The refresh token is invalid or was already used; please sign in again' },
  deptNotHeld: { zh: '当前用户不属于该部门', en: 'You do not belong to this department' },
  roleNotHeld: { zh: '当前用户没有该角色', en: 'You do not hold this role' },
  usernameRequired: { zh: '请输入用户名', en: 'Please enter the user name' },
  passwordRequired: { zh: '请输入密码', en: 'Please enter the password' },
  cacheCleared: { zh: '清除完毕', en: 'Cache cleared' },
  logsSaved: { zh: '发送成功!', en: 'Sent!' },
  accountTaken: { zh: '账号「{account}」已被注册', en: 'The account "{account}" is already taken' },
  accountFormat: { zh: '账号只能包含字母、数字、下划线、点和横线, 长度 2 到 64', en: 'The account may contain letters, digits, "_", "." and "-", 2 to 64 characters' },
  registeredPending: { zh: '注册成功, 请等待管理员审核', en: 'Registered; the account awaits an administrator\'s approval' },
  oauthUnknown: { zh: '第三方账号不存在 (未配置第三方登录)', en: 'Unknown third-party account (no third-party sign-in is configured)' },
  logSignIn: { zh: '登录成功', en: 'Signed in' },
  logSignInFailed: { zh: '登录失败: {reason}', en: 'Sign-in failed: {reason}' },
  logSignOut: { zh: '退出登录', en: 'Signed out' },
  logRefreshReused: { zh: '已用过的刷新令牌被再次使用, 其会话已注销', en: 'A used refresh token was presented again; its session was revoked' },
  agreementNotFound: { zh: '协议不存在或尚未发布', en: 'The agreement does not exist or is not published' },
} as const satisfies Record<string, I18nText>;
