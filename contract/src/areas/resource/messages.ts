import type { I18nText } from '../../i18n.js';

/** Messages of the resource area (uploads, object storage and SMS); merged into the contract's `messages` by the area registry. */
export const resourceMessages = {
  fileTooLarge: { zh: '文件不能超过 {max}', en: 'The file must not exceed {max}' },
  avatarType: { zh: '头像只能是 jpg 或 png 格式', en: 'The avatar must be a jpg or png image' },
  imageType: { zh: '只能上传图片（jpg、png、gif 或 webp）', en: 'Only an image can be uploaded (jpg, png, gif or webp)' },
  storageQuotaExceeded: { zh: '租户存储空间不足: 已用 {used}, 共 {quota}, 放不下这个文件; 请联系管理员', en: 'Not enough storage for this file: the tenant uses {used} of {quota}; contact your administrator' },
  uploadsTooMany: { zh: '上传过于频繁: 每 {minutes} 分钟最多 {files} 个文件、共 {size}; 请 {seconds} 秒后再试', en: 'Too many uploads: at most {files} files and {size} per {minutes} minutes; try again in {seconds} seconds' },
  smsNoConfig: { zh: '没有可用的短信配置: 请先启用一个, 或指定资源编号', en: 'No SMS configuration to send with: enable one, or name one by its code' },
  smsSendFailed: { zh: '短信发送失败: {detail}', en: 'The SMS could not be sent: {detail}' },
  smsPhoneInvalid: { zh: '手机号码格式不正确: {phone}', en: 'Not a phone number: {phone}' },
  smsParamsInvalid: { zh: '短信参数应为 JSON 对象, 值为文字或数字', en: 'The parameters must be a JSON object of texts or numbers' },
  storageUnavailable: {
    zh: '存储服务暂不可用, 请稍后重试; 如持续出现, 请管理员检查对象存储配置',
    en: 'The storage service is unavailable. Try again later; if it persists, an administrator should check the object storage settings',
  },
  outboundInternal: {
    zh: '{field}不能是内部网络地址 ({host}), 请填写服务对外公开的地址',
    en: '{field} cannot be an internal address ({host}): give the service\'s public address',
  },
  logSmsRecorded: {
    zh: '短信 (仅记录, 未发送): 配置 {smsCode}, 模板 {templateId}, 签名 {signName}, 号码 {phones}, 参数 {params}',
    en: 'SMS (recorded, not sent): configuration {smsCode}, template {templateId}, signature {signName}, numbers {phones}, parameters {params}',
  },
} as const satisfies Record<string, I18nText>;
