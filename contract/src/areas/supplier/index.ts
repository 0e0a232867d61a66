import { defineArea } from '../../area.js';
import { areaAgentResource } from './agent.js';
import { deviceAreaResource } from './area.js';
import { areaOaResource } from './areaOa.js';
import { areaDispatchOaResource, areaDispatchResource } from './dispatch.js';
import { supplierMessages } from './messages.js';
import { areaModifyLogResource } from './modifyLog.js';
import { areaWarnResource } from './warnLog.js';

export * from './agent.js';
export * from './alarm.js';
export * from './approval.js';
export * from './area.js';
export * from './areaOa.js';
export * from './dispatch.js';
export * from './modifyLog.js';
export * from './warnLog.js';

/** The supplier area: regional business (agents and their regions, dispatch, device areas, cross-region warnings). */
export default /* @__PURE__ */ defineArea({
  name: 'supplier',
  resources: {
    area: deviceAreaResource,
    area_oa: areaOaResource,
    area_agent: areaAgentResource,
    area_dispatch: areaDispatchResource,
    area_dispatch_oa: areaDispatchOaResource,
    area_modify_log: areaModifyLogResource,
    region_wrong_log: areaWarnResource,
  },
  messages: supplierMessages,
  menus: [
    { code: 'supplier', name: { zh: '供应商', en: 'Supplier' }, route: '/supplier', sort: 35, icon: 'iconfont iconicon_shakehands' },
    // menus.md names it `region`, the code of base › region too: menu codes are permission codes, unique
    { code: 'supplier_region', parent: 'supplier', name: { zh: '区域管理', en: 'Regions' }, route: '/supplier/region', sort: 1, icon: 'iconfont iconicon_discovery' },
  ],
});
