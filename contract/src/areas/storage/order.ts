import { z } from 'zod';
import { defineActions } from '../../action.js';
import { idInput } from '../../ids.js';
import { defineResource } from '../../resource.js';

export const STORAGE_ORDER_PATH = '/api/ymy-storage/order';
export const TC_STORAGE_ORDER_PATH = '/tc/omc-storage/order';

export const PAY_CHANNEL = { wechat: 'wechat', alipay: 'alipay' } as const;
export type PayChannel = (typeof PAY_CHANNEL)[keyof typeof PAY_CHANNEL];
export const PAY_CHANNELS = [PAY_CHANNEL.wechat, PAY_CHANNEL.alipay] as const;
export const PAY_STATE = { unpaid: 'unpaid', paid: 'paid', refunded: 'refunded' } as const;

const snInput = z.string().trim().min(1).max(32).transform((v) => v.toUpperCase());

/** An event in an order's life, as `order-detail` answers it (created, paid, transferred, token reset). */
export const orderEventSchema = z.object({
  action: z.string(), fromSn: z.string(), toSn: z.string(), detail: z.string(), by: z.string(), time: z.string(),
});

/**
 * A cloud-storage order (云存订单): placed and paid in the app for one lock, its plan copied from the price it was
 * placed at. Paid, it runs from `startTime` to `endTime` (after the lock's earlier plans). The finance clerk
 * reconciles them; the remaining period moves to another lock of the same owner (`order-transfer`), audited.
 */
export const storageOrderResource = defineResource({
  code: 'storage_order',
  path: STORAGE_ORDER_PATH,
  title: { zh: '云存订单', en: 'Orders' },
  scope: 'tenant',
  nameField: 'orderNo',
  // orders are made by the app; the console writes their remark
  buttons: { add: false },
  rowButtons: { delete: { field: 'payState', values: [PAY_STATE.unpaid] } },
  menu: {
    parent: 'storage', route: '/storage/order', name: { zh: '云存订单', en: 'Orders' }, sort: 2, icon: 'iconfont iconicon_doc',
    buttons: [
      {
        code: 'storage_order_transfer', name: { zh: '转移', en: 'Transfer' }, alias: 'transfer', placement: 'row', action: 'orderTransfer',
        shownWhen: { field: 'payState', values: [PAY_STATE.paid] },
        ask: { field: 'deviceSn', label: { zh: '转入设备 SN', en: 'To the lock (SN)' }, required: { zh: '请输入转入设备的 SN', en: 'Please enter the SN of the lock to move to' }, max: 32, upperCase: true, also: { fromSn: 'deviceSn' } },
        done: { zh: '剩余时长已转移到 {deviceSn}', en: 'The remaining period moved to {deviceSn}' },
      },
      {
        code: 'storage_order_token', name: { zh: '重置令牌', en: 'Reset token' }, alias: 'token', placement: 'row', action: 'resetToken',
        shownWhen: { field: 'payState', values: [PAY_STATE.paid] },
        confirm: { zh: '重置后设备须使用新令牌上传录像。确定重置?', en: 'The lock must upload with the new token afterwards. Reset?' },
      },
    ],
  },
  fields: {
    orderNo: { type: 'string', label: { zh: '订单号', en: 'Order no.' }, max: 32, form: false, search: 'like', key: true, width: 200 },
    deviceSn: { type: 'string', label: { zh: '设备 SN', en: 'Device SN' }, max: 32, upperCase: true, form: false, search: 'prefix', key: true, width: 170 },
    appUserId: { type: 'ref', ref: 'postsale_user', onRemove: 'keep', label: { zh: '用户', en: 'User' }, form: false, search: 'equal', width: 130 },
    priceId: { type: 'ref', ref: 'storage_price', onRemove: 'keep', label: { zh: '套餐', en: 'Plan' }, form: false, list: false },
    planName: { type: 'string', label: { zh: '套餐', en: 'Plan' }, max: 64, form: false, width: 140 },
    months: { type: 'int', label: { zh: '时长(月)', en: 'Months' }, form: false, width: 90 },
    storageDays: { type: 'int', label: { zh: '循环存储(天)', en: 'Days kept' }, form: false, list: false },
    amount: { type: 'money', currency: 'currency', label: { zh: '金额', en: 'Amount' }, form: false, sortable: true, key: true, width: 110 },
    currency: { type: 'string', label: { zh: '币种', en: 'Currency' }, dict: 'currency', max: 3, form: false, list: false },
    payChannel: { type: 'string', label: { zh: '支付方式', en: 'Paid with' }, dict: 'pay_channel', max: 16, form: false, search: 'equal', width: 100 },
    payState: { type: 'string', label: { zh: '支付状态', en: 'Payment' }, dict: 'pay_state', max: 16, form: false, search: 'equal', key: true, width: 90 },
    payTime: { type: 'datetime', label: { zh: '支付时间', en: 'Paid at' }, form: false, sortable: true, search: 'dateRange', width: 160 },
    transactionId: { type: 'string', label: { zh: '支付流水号', en: 'Transaction' }, max: 64, form: false, search: 'equal', list: false },
    startTime: { type: 'datetime', label: { zh: '开始时间', en: 'Starts' }, form: false, width: 160 },
    endTime: { type: 'datetime', label: { zh: '到期时间', en: 'Ends' }, form: false, sortable: true, key: true, width: 160 },
    transferredFrom: { type: 'string', label: { zh: '转自设备', en: 'Moved from' }, max: 32, form: false, width: 170 },
    remark: { type: 'text', label: { zh: '备注', en: 'Remark' }, max: 500 },
  },
  actions: defineActions(STORAGE_ORDER_PATH, {
    orderDetail: {
      segment: 'order-detail', method: 'GET', permission: 'storage_order', title: { zh: '云存订单：订单详情', en: 'Orders: the order with its history' },
      input: z.object({ id: idInput }),
      output: z.object({ order: z.record(z.string(), z.unknown()), events: z.array(orderEventSchema) }),
    },
    resetToken: {
      segment: 'reset-token', method: 'GET', permission: 'storage_order_token', title: { zh: '云存订单：重置令牌', en: 'Orders: reset the upload token' },
      input: z.object({ id: idInput }), output: z.object({ token: z.string() }),
    },
    orderTransfer: {
      segment: 'order-transfer', method: 'POST', permission: 'storage_order_transfer', title: { zh: '云存订单：转移', en: 'Orders: transfer' },
      // `fromSn`: the lock the operator saw the order on; a move made meanwhile by someone else is refused
      input: z.object({ id: idInput, deviceSn: snInput, fromSn: snInput.optional() }), output: z.object({ deviceSn: z.string(), endTime: z.string() }),
    },
  }),
});
