import { defineArea } from '../../area.js';
import { areaAgentResource } from './agent.js';
import { deviceAreaResource } from './area.js';
import { supplierMessages } from './messages.js';
import { areaWarnResource } from './warnLog.js';

export * from './agent.js';
export * from './area.js';
export * from './warnLog.js';

/** The supplier area: regional business (agents and their regions, dispatch, device areas, cross-region warnings). */
export default /* @__PURE__ */ defineArea({
  name: 'supplier',
  resources: {
    area: deviceAreaResource,
    area_agent: areaAgentResource,
    region_wrong_log: areaWarnResource,
  },
  messages: supplierMessages,
  menus: [
    { code: 'supplier', name: { zh: '供应商', en: 'Supplier' }, route: '/supplier', sort: 35, icon: 'iconfont iconicon_shakehands' },
    // menus.md names it `region`, the code of base › region too: menu codes are permission codes, unique
    { code: 'supplier_region', parent: 'supplier', name: { zh: '区域管理', en: 'Regions' }, route: '/supplier/region', sort: 1, icon: 'iconfont iconicon_discovery' },
  ],
});
