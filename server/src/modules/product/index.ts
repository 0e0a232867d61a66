import { brandResource, explainResource, productAuthResource, productModelResource, productResource, productTypeResource, projectResource } from '@console/contract';
import type { DataStep } from '../../seed/runner.js';
import { type DictSeed, seedDicts } from '../../seed/steps.js';
import { bind, type FeatureModule } from '../feature.js';
import { registerProductAuthActions } from './productAuth.js';
import { brand, explain, product, productAuth, productModel, productType, project } from './tables.js';
import { byProductColumn, byTypeColumn } from './typeAccess.js';

const PRODUCT_DICTS: DictSeed[] = [
  { code: 'cloud_vendor', name: '云平台', nameEn: 'IoT cloud', items: [['1', '腾讯云 IoT Explorer', 'Tencent Cloud IoT Explorer'], ['2', '阿里云物联网平台', 'Alibaba Cloud IoT Platform']] },
];

const MANUAL_DICTS: DictSeed[] = [
  { code: 'explain_language', name: '说明语言', nameEn: 'Manual language', items: [['zh-CN', '简体中文', 'Simplified Chinese'], ['zh-TW', '繁體中文', 'Traditional Chinese'], ['en-US', 'English', 'English']] },
];

const PRODUCT_DATA_STEPS: DataStep[] = [
  { name: '0401-product-dicts', run: (tx) => seedDicts(tx, PRODUCT_DICTS) },
  { name: '0402-manual-dicts', run: (tx) => seedDicts(tx, MANUAL_DICTS) },
];

/** ymy-product and ymy-brand: the product catalogue (types, models, projects, products, brands, manuals). */
export const productFeature: FeatureModule = {
  name: 'product',
  resources: [
    // a tenant sees only the product types authorised to it (product_auth), and what is of those types
    bind(productTypeResource, productType, () => ({ scope: byTypeColumn(productType.id) })),
    bind(productModelResource, productModel, () => ({ scope: byTypeColumn(productModel.typeId) })),
    bind(projectResource, project),
    bind(productResource, product, () => ({ scope: byTypeColumn(product.typeId) })),
    bind(brandResource, brand),
    bind(explainResource, explain, () => ({ scope: byProductColumn(explain.productId) })),
    bind(productAuthResource, productAuth),
  ],
  routes: registerProductAuthActions,
  dataSteps: PRODUCT_DATA_STEPS,
};
