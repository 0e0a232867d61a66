import type { I18nText } from '../../i18n.js';

/** Messages of the product area (products, their cloud sync and deliveries); merged into the contract's `messages` by the area registry. */
export const productMessages = {
  columnKeyInvalid: { zh: '属性键须以字母开头, 只含字母、数字或下划线, 最多 32 位', en: 'The key must start with a letter and hold only letters, digits or underscores, at most 32' },
  cloudNotConfigured: { zh: '{vendor}未配置: 请在服务器上设置 {setting}', en: '{vendor} is not configured: set {setting} on the server' },
  deliverBatchProduct: { zh: '批次「{batchNo}」生产的不是所选产品', en: 'The batch "{batchNo}" is not of the product picked' },
  deliverOverBatch: { zh: '批次「{batchNo}」共 {quantity} 台, 已出货 {shipped} 台, 本次最多 {left} 台', en: 'The batch "{batchNo}" has {quantity} devices, {shipped} shipped: at most {left} more' },
  deliverNotEnoughDevices: {
    zh: '{source}还有 {left} 台未出货的设备, 本次需要 {needed} 台 (已出货给其他客户的设备须先退回)',
    en: '{source} has {left} devices not yet delivered, {needed} needed (devices delivered to another customer must be returned first)',
  },
  deliverSourceBatch: { zh: '批次「{batchNo}」', en: 'The batch "{batchNo}"' },
  deliverSourceProduct: { zh: '产品「{name}」', en: 'The product "{name}"' },
} as const satisfies Record<string, I18nText>;
