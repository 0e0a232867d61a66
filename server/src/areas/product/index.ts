import { msg, t } from '@console/contract';
import {
  brandResource, deliverResource, DEVICE_COLUMN_KEY, deviceColumnResource, explainResource, productAuthResource,
  productModelResource, productResource, productTypeResource, projectResource,
} from '@console/contract/areas/product/index';
import { bind, type DataStep, defineArea } from '../../core/area.js';
import { type DictSeed, seedDicts } from '../../seed/steps.js';
import { missingSetting, registerCloudSync } from './cloudSync.js';
import { registerProductAuthActions } from './productAuth.js';
import { and, eq, ne } from 'drizzle-orm';
import { conflict, fieldError } from '../../core/errors.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { deliverHooks } from './deliveries.js';
import { brand, deliver, deviceColumn, explain, product, productAuth, productModel, productType, project } from './tables.js';
import { byProductColumn, byTypeColumn } from './typeAccess.js';
import { productDirectory } from './directory.js';
import { mountAction } from '../../core/resource/actions.js';

const PRODUCT_DICTS: DictSeed[] = [
  { code: 'cloud_vendor', name: '云平台', nameEn: 'IoT cloud', items: [['1', '腾讯云 IoT Explorer', 'Tencent Cloud IoT Explorer'], ['2', '阿里云物联网平台', 'Alibaba Cloud IoT Platform']] },
];

const MANUAL_DICTS: DictSeed[] = [
  { code: 'explain_language', name: '说明语言', nameEn: 'Manual language', items: [['zh-CN', '简体中文', 'Simplified Chinese'], ['zh-TW', '繁體中文', 'Traditional Chinese'], ['en-US', 'English', 'English']] },
];

const DEVICE_COLUMN_DICTS: DictSeed[] = [
  { code: 'device_column_type', name: '属性值类型', nameEn: 'Value type', items: [['text', '文本', 'Text'], ['number', '数字', 'Number'], ['date', '日期', 'Date'], ['boolean', '是/否', 'Yes/No']] },
];

/** A column key is a word (it names `attributes.<key>`), one per product type. */
const deviceColumnHooks = (): ResourceHooks => ({
  async beforeSave(tx, values, c) {
    if (c.mode !== 'create') return;
    const key = String(values.columnKey ?? '');
    if (!DEVICE_COLUMN_KEY.test(key)) throw fieldError('columnKeyInvalid', c.lang, 'columnKey');
    const [taken] = await tx.select({ id: deviceColumn.id }).from(deviceColumn)
      .where(and(eq(deviceColumn.typeId, String(values.typeId)), eq(deviceColumn.columnKey, key), eq(deviceColumn.isDeleted, 0), ...(values.id ? [ne(deviceColumn.id, String(values.id))] : [])));
    if (taken) {
      const field = t(deviceColumnResource.fields.columnKey.label, c.lang);
      throw conflict({ field, value: key }, { columnKey: msg('duplicate', c.lang, { field, value: key }) });
    }
  },
});

const PRODUCT_DATA_STEPS: DataStep[] = [
  { name: '0401-product-dicts', run: (tx) => seedDicts(tx, PRODUCT_DICTS) },
  { name: '0402-manual-dicts', run: (tx) => seedDicts(tx, MANUAL_DICTS) },
  { name: '0403-device-column-dicts', run: (tx) => seedDicts(tx, DEVICE_COLUMN_DICTS) },
];

export { DELIVERY_DEVICES, type Delivery, type DeliveryDevices } from './deliveries.js';
export { missingSetting, requireCloudKeys, tencentIotClient, VENDOR_NAMES } from './cloudSync.js';
export { productDirectory, productKey } from './directory.js';
export { deliver, deviceColumn, product, productModel, productType, project } from './tables.js';
export { authorisedTypeIds, byProductColumn, byTypeColumn } from './typeAccess.js';

/**
 * ymy-product and ymy-brand: the product catalogue (types, models, projects, products, brands, manuals), and the
 * deliveries of devices to customers (出货管理; their devices are the production area's: DELIVERY_DEVICES).
 */
export const productArea = defineArea({
  name: 'product',
  // 从云平台同步 needs the keys of one IoT cloud at least
  idleButtons: (config) => (missingSetting(1, config) && missingSetting(2, config) ? ['product_cloud_sync'] : []),
  resources: [
    // a tenant sees only the product types authorised to it (product_auth), and what is of those types
    bind(productTypeResource, productType, () => ({ scope: byTypeColumn(productType.id) })),
    bind(productModelResource, productModel, () => ({ scope: byTypeColumn(productModel.typeId) })),
    bind(projectResource, project),
    bind(productResource, product, (ctx) => {
      const directory = productDirectory(ctx);
      return {
        scope: byTypeColumn(product.typeId),
        // once the change is committed, no instance answers the product as it was
        afterSave: async (_tx, _saved, c) => c.afterCommit(() => directory.clear().then(() => undefined)),
        beforeRemove: async (_tx, _rows, c) => c.afterCommit(() => directory.clear().then(() => undefined)),
      };
    }),
    bind(brandResource, brand),
    bind(explainResource, explain, () => ({ scope: byProductColumn(explain.productId) })),
    bind(productAuthResource, productAuth),
    bind(deviceColumnResource, deviceColumn, () => ({ ...deviceColumnHooks(), scope: byTypeColumn(deviceColumn.typeId) })),
    bind(deliverResource, deliver, deliverHooks),
  ],
  routes: async (app, ctx) => {
    const directory = productDirectory(ctx);
    await directory.start();
    mountAction(app, ctx, productResource.actions.clearCache, async () => ({ cleared: await directory.clear() }));
    registerProductAuthActions(app, ctx);
    registerCloudSync(app, ctx);
  },
  dataSteps: PRODUCT_DATA_STEPS,
});
