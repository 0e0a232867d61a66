import {
  STORAGE_ORDER_PATH, STORAGE_PRICE_PATH, storageOrderResource, storagePriceResource, TC_STORAGE_ORDER_PATH, TC_STORAGE_PRICE_PATH,
} from '@console/contract/areas/storage/index';
import { bind, defineArea, provide } from '../../core/area.js';
import { type DictSeed, seedDicts } from '../../seed/steps.js';
import { LOCK_REPLACEMENT } from '../postsale/index.js';
import { registerAppStorage } from './appStorage.js';
import { registerPayNotify } from './notify.js';
import { registerOrderActions, storageOnReplacement, storageOrderHooks } from './orders.js';
import { storageOrder, storagePrice } from './tables.js';

const STORAGE_DICTS: DictSeed[] = [
  { code: 'currency', name: '币种', nameEn: 'Currency', items: [['CNY', '人民币', 'CNY'], ['USD', '美元', 'USD'], ['EUR', '欧元', 'EUR'], ['HKD', '港币', 'HKD'], ['JPY', '日元', 'JPY']] },
  { code: 'pay_state', name: '支付状态', nameEn: 'Payment state', items: [['unpaid', '待支付', 'Unpaid'], ['paid', '已支付', 'Paid'], ['refunded', '已退款', 'Refunded']] },
];

/** Cloud storage (云存储): plans, orders placed and paid from the app, their transfers between an owner's locks. */
export const storageArea = defineArea({
  name: 'storage',
  // a lock replaced under after-sales service takes its running plans along
  services: [provide(LOCK_REPLACEMENT, () => storageOnReplacement)],
  resources: [bind(storagePriceResource, storagePrice), bind(storageOrderResource, storageOrder, storageOrderHooks)],
  urlAliases: [
    { from: `${TC_STORAGE_PRICE_PATH}/`, to: `${STORAGE_PRICE_PATH}/` },
    { from: `${TC_STORAGE_ORDER_PATH}/`, to: `${STORAGE_ORDER_PATH}/` },
  ],
  dataSteps: [{ name: '1101-storage-dicts', run: (tx) => seedDicts(tx, STORAGE_DICTS) }],
  routes(app, ctx) {
    registerOrderActions(app, ctx);
    registerAppStorage(app, ctx);
    registerPayNotify(app, ctx);
  },
});
