import { format, type I18nText, type Lang } from './i18n.js';

/**
 * Messages the server sends back in `msg` (and that the console shows itself).
 * Keys are stable; the server picks the language from Accept-Language.
 */
export const messages = {
  ok: { zh: '操作成功', en: 'Success' },
  noData: { zh: '暂无承载数据', en: 'No data' },
  failed: { zh: '操作失败', en: 'Operation failed' },
  badRequest: { zh: '请求参数错误', en: 'Invalid request' },
  invalidJson: { zh: '请求体不是合法的 JSON', en: 'The request body is not valid JSON' },
  unsupportedMedia: { zh: '不支持的请求类型: {type}', en: 'Unsupported content type: {type}' },
  validationFailed: { zh: '参数校验失败: {detail}', en: 'Validation failed: {detail}' },
  required: { zh: '{field}不能为空', en: '{field} is required' },
  tooLong: { zh: '{field}长度不能超过 {max} 个字符', en: '{field} must be at most {max} characters' },
  tooSmall: { zh: '{field}不能小于 {min}', en: '{field} must be at least {min}' },
  tooLarge: { zh: '{field}不能大于 {max}', en: '{field} must be at most {max}' },
  notInteger: { zh: '{field}必须是整数', en: '{field} must be a whole number' },
  notNumber: { zh: '{field}必须是数字', en: '{field} must be a number' },
  badDate: { zh: '{field}不是合法的时间 (yyyy-MM-dd HH:mm:ss)', en: '{field} is not a valid time (yyyy-MM-dd HH:mm:ss)' },
  badEnum: { zh: '{field}的取值无效', en: '{field} has an invalid value' },
  badType: { zh: '{field}的类型不正确', en: '{field} has the wrong type' },
  badId: { zh: '{field}不是合法的编号', en: '{field} is not a valid id' },
  unknownField: { zh: '未知字段: {field}', en: 'Unknown field: {field}' },
  unknownFilter: { zh: '不支持的查询条件: {field}', en: 'Unsupported filter: {field}' },
  unknownSort: { zh: '不支持的排序字段: {field}', en: 'Unsupported sort field: {field}' },
  badPage: { zh: '分页参数错误: {field} 必须是 {min} 到 {max} 之间的整数', en: 'Invalid paging: {field} must be a whole number from {min} to {max}' },
  duplicate: { zh: '{field}「{value}」已存在', en: '{field} "{value}" already exists' },
  notFound: { zh: '数据不存在或已删除', en: 'The record does not exist or was deleted' },
  routeNotFound: { zh: '接口不存在: {method} {url}', en: 'No such endpoint: {method} {url}' },
  idsRequired: { zh: '请选择至少一条数据', en: 'Please select at least one record' },
  tooManyIds: { zh: '一次最多操作 {max} 条数据', en: 'At most {max} records at a time' },
  unauthorized: { zh: '请求未授权', en: 'Unauthorized' },
  tokenMissing: { zh: '缺失令牌, 鉴权失败', en: 'Missing token: authentication failed' },
  tokenInvalid: { zh: '令牌无效或已过期, 请重新登录', en: 'The token is invalid or expired; please sign in again' },
  clientMissing: { zh: '请求头中缺少客户端信息', en: 'No client information in the request header' },
  clientInvalid: { zh: '客户端认证失败', en: 'Client authentication failed' },
  forbidden: { zh: '无权执行该操作 ({code})', en: 'You are not allowed to do this ({code})' },
  platformOnly: { zh: '只有平台租户可以修改该数据', en: 'Only the platform tenant may change this data' },
  rateLimited: { zh: '请求过于频繁, 请稍后再试', en: 'Too many requests; please try again later' },
  serverError: { zh: '服务器内部错误, 请稍后再试', en: 'Internal server error; please try again later' },
  // sign-in
  badCredentials: { zh: '用户名或密码错误', en: 'Wrong user name or password' },
  accountLocked: { zh: '登录失败次数过多, 账号已锁定, 请 {minutes} 分钟后再试', en: 'Too many failed sign-ins; the account is locked for {minutes} more minutes' },
  accountDisabled: { zh: '账号已停用, 请联系管理员', en: 'The account is disabled; contact your administrator' },
  accountPending: { zh: '账号正在等待管理员审核', en: 'The account is waiting for an administrator\'s approval' },
  tenantMissing: { zh: '租户不存在', en: 'Unknown tenant' },
  tenantDisabled: { zh: '租户已停用', en: 'The tenant is disabled' },
  tenantExpired: { zh: '租户已过期, 请联系管理员', en: 'The tenant has expired; contact your administrator' },
  grantUnsupported: { zh: '不支持的授权类型: {grant}', en: 'Unsupported grant type: {grant}' },
  grantNotAllowed: { zh: '该客户端不允许此授权类型: {grant}', en: 'This client may not use the grant type: {grant}' },
  captchaRequired: { zh: '请输入验证码', en: 'Please enter the captcha' },
  captchaInvalid: { zh: '验证码不正确', en: 'The captcha is wrong' },
  refreshInvalid: { zh: '刷新令牌无效或已使用, 请重新登录', en: 'The refresh token is invalid or was already used; please sign in again' },
  deptNotHeld: { zh: '当前用户不属于该部门', en: 'You do not belong to this department' },
  roleNotHeld: { zh: '当前用户没有该角色', en: 'You do not hold this role' },
  usernameRequired: { zh: '请输入用户名', en: 'Please enter the user name' },
  passwordRequired: { zh: '请输入密码', en: 'Please enter the password' },
  passwordNotMd5: { zh: '密码格式错误 (应为 MD5)', en: 'The password must be sent as an MD5 hex digest' },
  cacheCleared: { zh: '清除完毕', en: 'Cache cleared' },
  oldPasswordWrong: { zh: '原密码不正确', en: 'The current password is wrong' },
  passwordsDiffer: { zh: '两次输入的密码不一致', en: 'The two passwords do not match' },
  passwordUnchanged: { zh: '新密码不能与原密码相同', en: 'The new password must differ from the current one' },
  phoneInvalid: { zh: '手机号码格式不正确', en: 'The phone number is not valid' },
  emailInvalid: { zh: '邮箱格式不正确', en: 'The email address is not valid' },
  logsSaved: { zh: '发送成功!', en: 'Sent!' },
} as const satisfies Record<string, I18nText>;

export type MessageKey = keyof typeof messages;

export function msg(key: MessageKey, lang: Lang, params?: Record<string, string | number>): string {
  return format(messages[key][lang], params);
}
