import { z } from 'zod';
import { defineActions, okOutput } from '../../action.js';
import { defineResource } from '../../resource.js';

export const SETTING_PATH = '/api/ymy-system/setting';
export const PAYMENT_SETTING_PATH = `${SETTING_PATH}/payment-setting`;
/** the tenant console's path of the same settings (spec section 7) */
export const TC_PAYMENT_OPTION_PATH = '/tc/omc-config/option/payment';

/**
 * A payment channel's merchant settings (支付设置), one row per channel of a tenant, made with the tenant: WeChat Pay
 * (API v3) and Alipay. Keys are stored encrypted and answered masked; a key that does not parse, or a private key
 * that does not match its certificate, is refused on save. The providers' addresses are the server's own setting,
 * never a tenant's: nothing a tenant types makes the server call elsewhere.
 */
export const paymentSettingResource = defineResource({
  code: 'payment_setting',
  path: PAYMENT_SETTING_PATH,
  title: { zh: '支付设置', en: 'Payment' },
  scope: 'tenant',
  nameField: 'channel',
  buttons: { add: false, delete: false },
  defaultSort: { field: 'channel', order: 'desc' },
  menu: { parent: 'setting', route: '/setting/payment', name: { zh: '支付设置', en: 'Payment' }, sort: 1, icon: 'iconfont iconicon_coinpurse_line' },
  fields: {
    channel: { type: 'string', label: { zh: '支付方式', en: 'Channel' }, dict: 'pay_channel', max: 16, immutable: true, form: false, key: true, width: 110, sortable: true },
    enabled: { type: 'boolean', label: { zh: '启用', en: 'Enabled' }, dict: 'yes_no', key: true, defaultValue: 0, width: 80 },
    appId: { type: 'string', label: { zh: 'AppID', en: 'App ID' }, max: 64, width: 180 },
    mchId: { formWhen: { field: 'channel', values: ['wechat'] }, type: 'string', label: { zh: '商户号', en: 'Merchant ID' }, max: 32, width: 130, help: { zh: '微信支付商户号', en: 'WeChat Pay merchant ID' } },
    apiKey: { formWhen: { field: 'channel', values: ['wechat'] }, type: 'string', label: { zh: 'APIv3 密钥', en: 'APIv3 key' }, max: 64, secret: true, list: false, help: { zh: '微信支付 APIv3 密钥, 32 位', en: 'WeChat Pay APIv3 key, 32 characters' } },
    certSerial: { formWhen: { field: 'channel', values: ['wechat'] }, type: 'string', label: { zh: '商户证书序列号', en: 'Certificate serial' }, max: 64, list: false },
    privateKey: { type: 'text', label: { zh: '商户私钥', en: 'Private key' }, max: 8000, secret: true, list: false, help: { zh: 'PEM 格式', en: 'PEM' } },
    merchantCert: {
      formWhen: { field: 'channel', values: ['wechat'] }, type: 'text', label: { zh: '商户证书', en: 'Merchant certificate' }, max: 8000, list: false,
      help: { zh: '微信支付商户 API 证书 (apiclient_cert.pem), 用于核对私钥与序列号', en: 'The WeChat Pay merchant API certificate (apiclient_cert.pem): the private key and the serial are checked against it' },
    },
    publicKey: {
      type: 'text', label: { zh: '平台证书/公钥', en: 'Platform certificate / public key' }, max: 8000, list: false,
      help: { zh: '微信支付平台证书或公钥; 支付宝公钥', en: 'WeChat Pay\'s platform certificate or public key; Alipay\'s public key' },
    },
    notifyUrl: { type: 'string', label: { zh: '回调地址', en: 'Notification URL' }, max: 500, form: false, virtual: true, width: 300 },
  },
});

/** one channel's settings as the console reads them: secrets masked */
export const paymentSettingView = z.object({
  id: z.string(), channel: z.string(), enabled: z.number(), appId: z.string(), mchId: z.string(), apiKey: z.string(), certSerial: z.string(),
  privateKey: z.string(), merchantCert: z.string(), publicKey: z.string(), notifyUrl: z.string(),
});

/** BladeX's calls of the same settings: every channel at once, and a save of one (the engine's submit of its row) */
export const paymentSettingActions = defineActions(SETTING_PATH, {
  read: {
    segment: 'payment-setting', method: 'GET', permission: 'payment_setting', title: { zh: '支付设置：读取', en: 'Payment: read' },
    input: z.object({}), output: z.array(paymentSettingView),
  },
  save: {
    segment: 'payment-setting', method: 'POST', permission: 'payment_setting_edit', title: { zh: '支付设置：保存', en: 'Payment: save' },
    input: z.object({
      channel: z.enum(['wechat', 'alipay']), enabled: z.union([z.literal(0), z.literal(1), z.boolean()]).optional(),
      appId: z.string().max(64).optional(), mchId: z.string().max(32).optional(), apiKey: z.string().max(64).optional(), certSerial: z.string().max(64).optional(),
      privateKey: z.string().max(8000).optional(), merchantCert: z.string().max(8000).optional(), publicKey: z.string().max(8000).optional(),
    }).strict(),
    output: okOutput,
  },
});
