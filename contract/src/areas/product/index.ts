import { defineArea } from '../../area.js';
import { brandResource, deliverResource, deviceColumnResource, explainResource, productAuthResource, productModelResource, productResource, productTypeResource, projectResource } from './product.js';
import { productMessages } from './messages.js';

export * from './product.js';

/** The product area: product types, models, projects, products, brands, manuals, device columns, deliveries, authorisation. */
export default /* @__PURE__ */ defineArea({
  name: 'product',
  resources: {
    product_type: productTypeResource,
    product_model: productModelResource,
    project: projectResource,
    product_info: productResource,
    brand: brandResource,
    explain: explainResource,
    product_auth: productAuthResource,
    device_column: deviceColumnResource,
    deliver: deliverResource,
  },
  messages: productMessages,
  menus: [{ code: 'product', name: { zh: '产品管理', en: 'Products' }, route: '/product', sort: 20, icon: 'iconfont iconicon_mobilephone' }],
});
