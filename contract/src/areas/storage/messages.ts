import type { I18nText } from '../../i18n.js';

/** Messages of the storage area (cloud-storage plans, orders and payment). */
export const storageMessages = {
  orderNotPaid: { zh: '订单 {orderNo} 未支付, 不能转移', en: 'The order {orderNo} is not paid: nothing to move' },
  orderRefunded: { zh: '订单 {orderNo} 已退款, 不能转移', en: 'The order {orderNo} was refunded: it cannot be moved' },
  orderEnded: { zh: '订单 {orderNo} 已到期, 没有剩余时长', en: 'The order {orderNo} has ended: no period is left' },
  orderSameLock: { zh: '订单已属于设备 {sn}', en: 'The order already belongs to the lock {sn}' },
  orderNotOwnersLock: { zh: '设备 {sn} 不是该订单用户名下的设备', en: 'The lock {sn} is not one the order\'s user owns' },
  orderMovedMeanwhile: { zh: '订单 {orderNo} 刚被他人转移, 请刷新后重试', en: 'The order {orderNo} was just moved by someone else: reload and try again' },
  orderByApp: { zh: '云存订单由用户在 APP 中下单', en: 'Orders are placed by users in the app' },
  orderNotRemovable: { zh: '订单 {orderNo} 已支付, 不能删除', en: 'The order {orderNo} was paid: it cannot be removed' },
  planNotOnSale: { zh: '套餐「{name}」已下架', en: 'The plan {name} is no longer on sale' },
  planNotForLock: { zh: '套餐「{name}」不适用于设备 {sn}', en: 'The plan {name} is not for the lock {sn}' },
  payChannelOff: { zh: '未开通{channel}', en: '{channel} is not set up' },
  payCurrency: { zh: '该套餐的币种 {currency} 不能通过微信支付或支付宝支付', en: 'Plans in {currency} cannot be paid through WeChat Pay or Alipay' },
  payFailed: { zh: '支付下单失败: {detail}', en: 'The payment could not be created: {detail}' },
  logPayNoticeRefused: { zh: '{channel} 支付通知被拒绝: {why}', en: '{channel} payment notification refused: {why}' },
  orderTokenReset: { zh: '已为订单 {orderNo} 生成新令牌', en: 'A new token was made for the order {orderNo}' },
} as const satisfies Record<string, I18nText>;
