import { defineArea } from '../../area.js';
import { citDictResource, citResource, rewriteSnResource } from './cit.js';
import { batchResource, certResource, factoryDeviceResource, factoryResource, stationResource } from './production.js';
import { productionMessages } from './messages.js';

export * from './cit.js';
export * from './production.js';

/** The production area: factories and stations, batches, certificates, CIT, SN rewrite. */
export default /* @__PURE__ */ defineArea({
  name: 'production',
  resources: {
    factory: factoryResource,
    station: stationResource,
    batch: batchResource,
    factory_device: factoryDeviceResource,
    cert: certResource,
    cit_dict: citDictResource,
    cit: citResource,
    rewrite_sn: rewriteSnResource,
  },
  messages: productionMessages,
  menus: [
    // first: the sidebar shows /production only as its first entry (spec section 2), and production is the business
    { code: 'production', name: { zh: '生产管理', en: 'Production' }, route: '/production', sort: 0, icon: 'iconfont iconicon_work' },
  ],
});
