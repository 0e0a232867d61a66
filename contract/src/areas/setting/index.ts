import { defineArea } from '../../area.js';
import { agreementSettingResource } from './agreement.js';
import { settingMessages } from './messages.js';
import { paymentSettingResource } from './payment.js';

export * from './agreement.js';
export * from './payment.js';

/** The setting area (系统设置): payment channels and the agreements. */
export default /* @__PURE__ */ defineArea({
  name: 'setting',
  resources: { payment_setting: paymentSettingResource, agreement_setting: agreementSettingResource },
  messages: settingMessages,
  menus: [{ code: 'setting', name: { zh: '系统设置', en: 'Settings' }, route: '/setting', sort: 50, icon: 'iconfont iconicon_setting' }],
});
