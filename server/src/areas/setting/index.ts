import { agreementSettingResource, paymentSettingResource, TC_PAYMENT_OPTION_PATH, PAYMENT_SETTING_PATH } from '@console/contract/areas/setting/index';
import { bind, defineArea } from '../../core/area.js';
import { type DictSeed, seedDicts } from '../../seed/steps.js';
import { AGREEMENT_DATA_STEP, agreementHooks, registerAgreements } from './agreementSettings.js';
import { paymentChannelsFor, paymentSettingHooks, registerPaymentSettings } from './payments.js';
import { agreement, paymentSetting } from './tables.js';
import { tenant } from '../../core/db/schema.js';

export { enabledPayment } from './payments.js';
export * from './payment/index.js';

const SETTING_DICTS: DictSeed[] = [
  { code: 'pay_channel', name: '支付方式', nameEn: 'Payment channel', items: [['wechat', '微信支付', 'WeChat Pay'], ['alipay', '支付宝', 'Alipay']] },
  { code: 'agreement_type', name: '协议类型', nameEn: 'Agreement type', items: [['user', '用户协议', 'User agreement'], ['privacy', '隐私政策', 'Privacy policy']] },
  { code: 'agreement_language', name: '协议语言', nameEn: 'Language', items: [['zh', '中文', 'Chinese'], ['en', '英文', 'English']] },
];

/** Settings (系统设置): the tenants' payment channels, and the user agreement and privacy policy. */
export const settingArea = defineArea({
  name: 'setting',
  resources: [bind(paymentSettingResource, paymentSetting, paymentSettingHooks), bind(agreementSettingResource, agreement, agreementHooks)],
  // the tenant console reads the same settings under its own prefix
  urlAliases: [{ from: TC_PAYMENT_OPTION_PATH, to: PAYMENT_SETTING_PATH }],
  dataSteps: [
    AGREEMENT_DATA_STEP,
    { name: '1001-setting-dicts', run: (tx) => seedDicts(tx, SETTING_DICTS) },
    {
      name: '1002-payment-channels',
      async run(tx) {
        for (const { id } of await tx.select({ id: tenant.tenantId }).from(tenant)) await paymentChannelsFor(tx, id);
      },
    },
  ],
  tenantSetup: paymentChannelsFor,
  routes(app, ctx) {
    registerPaymentSettings(app, ctx);
    registerAgreements(app, ctx);
  },
});
