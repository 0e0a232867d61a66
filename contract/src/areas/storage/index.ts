import { defineArea } from '../../area.js';
import { storageMessages } from './messages.js';
import { storageOrderResource } from './order.js';
import { storagePriceResource } from './price.js';

export * from './appPaths.js';
export * from './order.js';
export * from './price.js';

/** The storage area (云存储): cloud-storage plans, orders placed and paid in the app, their transfers. */
export default /* @__PURE__ */ defineArea({
  name: 'storage',
  resources: { storage_price: storagePriceResource, storage_order: storageOrderResource },
  messages: storageMessages,
  menus: [{ code: 'storage', name: { zh: '云存储', en: 'Cloud storage' }, route: '/storage', sort: 45, icon: 'iconfont iconicon_cloud' }],
});
