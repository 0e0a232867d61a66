import { defineArea } from '../../area.js';
import { regionResource } from './region.js';
import { baseMessages } from './messages.js';

export * from './region.js';

/** The base area: administrative regions. */
export default /* @__PURE__ */ defineArea({
  name: 'base',
  resources: {
    region: regionResource,
  },
  messages: baseMessages,
  menus: [{ code: 'base', name: { zh: '基础配置', en: 'Basics' }, route: '/base', sort: 95, icon: 'iconfont iconicon_compile' }],
});
