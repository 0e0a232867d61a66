import type { I18nText } from '../../i18n.js';

/** Messages of the system area (users and their profile, departments, tenants and packages, dictionaries, clients); merged into the contract's `messages` by the area registry. */
export const systemMessages = {
  oldPasswordWrong: { zh: '原密码不正确', en: 'The current password is wrong' },
  passwordsDiffer: { zh: '两次输入的密码不一致', en: 'The two passwords do not match' },
  passwordUnchanged: { zh: '新密码不能与原密码相同', en: 'The new password must differ from the current one' },
  phoneRequired: { zh: '手机号码不能为空', en: 'The phone number must not be empty' },
  phoneLength: { zh: '手机号码长度不是11位', en: 'The phone number is not 11 digits long' },
  phoneInvalid: { zh: '手机号码格式不正确', en: 'The phone number is not valid' },
  emailInvalid: { zh: '邮箱格式不正确', en: 'The email address is not valid' },
  usersUnknown: { zh: '用户不存在或不属于本租户: {ids}', en: 'Users that do not exist or belong to another tenant: {ids}' },
  tenantProtected: { zh: '平台租户 (000000) 不能删除', en: 'The platform tenant (000000) cannot be deleted' },
  packageUnknown: { zh: '租户套餐不存在或已删除', en: 'The package does not exist or was deleted' },
  userSelfRemove: { zh: '不能删除自己的账号', en: 'You cannot delete your own account' },
  userLastAdmin: { zh: '不能删除或停用最后一个超级管理员', en: 'The last super administrator cannot be deleted or disabled' },
  notPending: { zh: '用户 {account} 不在待审核状态', en: 'The user {account} is not awaiting approval' },
  dictSealed: { zh: '字典「{name}」已封存, 不能修改或删除', en: 'The dictionary entry "{name}" is sealed; it cannot be changed or removed' },
  dictUnsealOnly: { zh: '已封存的字典只能由平台管理员解除封存 (只修改封存为否)', en: 'A sealed entry can only be unsealed (set sealed to no, nothing else) by the platform administrator' },
  dictKeyDuplicate: { zh: '字典「{code}」中已存在键值「{key}」', en: 'The dictionary "{code}" already has the key "{key}"' },
  dictCodeTaken: { zh: '字典编号「{code}」已被其他字典使用', en: 'The dictionary code "{code}" is used by another dictionary' },
  clientIdFormat: { zh: '客户端 id 只能包含字母、数字和 _ . -', en: 'A client id has only letters, digits and _ . -' },
  clientGrantTypes: { zh: '授权类型只能是 {allowed}', en: 'Grant types must be among {allowed}' },
  clientInUse: { zh: '「{clientId}」是您当前登录所用的客户端, 不能删除或修改其客户端 id', en: 'The client "{clientId}" is the one you are signed in with; it cannot be removed or renamed' },
  clientSecretInUse: { zh: '「{clientId}」是您当前登录所用的客户端, 重置密钥会使当前控制台无法访问; 请用其他客户端登录后再重置', en: 'The client "{clientId}" is the one you are signed in with; resetting its secret would lock this console out. Sign in with another client to reset it' },
  logPasswordChanged: { zh: '已修改密码, 其他 {count} 个会话已退出', en: 'Password changed; {count} other sessions signed out' },
  logGuestRegistered: { zh: '访客账号 {account} 已注册, 等待审核', en: 'The guest account {account} registered and awaits approval' },
} as const satisfies Record<string, I18nText>;
