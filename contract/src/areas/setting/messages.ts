import type { I18nText } from '../../i18n.js';

/** Messages of the setting area (payment and agreement settings). */
export const settingMessages = {
  paymentKeyUnparsable: { zh: '{field}无法解析, 请粘贴完整的 PEM 内容', en: 'The {field} does not parse: paste the whole PEM text' },
  paymentCertUnparsable: { zh: '{field}不是有效的证书或公钥', en: 'The {field} is not a valid certificate or public key' },
  paymentKeyMismatch: { zh: '私钥与证书不匹配', en: 'The private key does not match the certificate' },
  paymentApiV3Key: { zh: 'APIv3 密钥须为 32 位', en: 'The APIv3 key has 32 characters' },
  paymentRequired: { zh: '启用前请填写{field}', en: 'Fill in the {field} before enabling the channel' },
  paymentFormat: { zh: '{field}格式不正确', en: 'The {field} is not in the provider\'s format' },
  paymentKeyType: { zh: '{field}须为 2048 位以上的 RSA 密钥', en: 'The {field} must be an RSA key of 2048 bits or more' },
  paymentOwnKey: { zh: '{field}填成了商户自己的公钥, 应填写支付平台的公钥或证书', en: 'The {field} is the merchant\'s own public key: enter the provider\'s key or certificate' },
  paymentSerialMismatch: { zh: '证书序列号与证书不符', en: 'The serial is not the certificate\'s' },
  paymentCertExpired: { zh: '{field}已过期', en: 'The {field} has expired' },
  paymentChannelFixed: { zh: '支付方式随租户创建, 只能修改', en: 'The channels come with the tenant: they are edited, not added' },
  agreementPublished: { zh: '已发布的版本不能修改, 请新增一个版本', en: 'A published version cannot change: write a new version' },
} as const satisfies Record<string, I18nText>;
