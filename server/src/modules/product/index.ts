import { brandResource, productModelResource, productResource, productTypeResource, projectResource } from '@console/contract';
import type { DataStep } from '../../seed/runner.js';
import { type DictSeed, seedDicts } from '../../seed/steps.js';
import { bind, type FeatureModule } from '../feature.js';
import { brand, product, productModel, productType, project } from './tables.js';

const PRODUCT_DICTS: DictSeed[] = [
  { code: 'cloud_vendor', name: '云平台', nameEn: 'IoT cloud', items: [['1', '腾讯云 IoT Explorer', 'Tencent Cloud IoT Explorer'], ['2', '阿里云物联网平台', 'Alibaba Cloud IoT Platform']] },
];

const PRODUCT_DATA_STEPS: DataStep[] = [{ name: '0401-product-dicts', run: (tx) => seedDicts(tx, PRODUCT_DICTS) }];

/** ymy-product and ymy-brand: the product catalogue (types, models, projects, products, brands). */
export const productFeature: FeatureModule = {
  name: 'product',
  resources: [
    bind(productTypeResource, productType),
    bind(productModelResource, productModel),
    bind(projectResource, project),
    bind(productResource, product),
    bind(brandResource, brand),
  ],
  dataSteps: PRODUCT_DATA_STEPS,
};
