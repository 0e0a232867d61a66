/** Strings of the product screens (lazy: registered by their chunks, i18n/lazy.ts). */
export const productZh = {
  productAuth: {
    tenants: '租户',
    tenantSearch: '搜索租户',
    noTenants: '暂无租户',
    types: '可见的产品类型',
    pickTenant: '请先在左侧选择租户',
    noTypes: '暂无产品类型, 请先在「产品类型」中新增',
    save: '保存授权',
    saved: '已保存「{{tenant}}」的产品类型授权',
    summary: '已授权 {{n}} / {{total}} 个类型',
    hint: '租户只能看到已授权类型的产品、型号、说明、批次和设备; 平台租户可见全部类型。',
  },
  cloudSync: {
    button: '从云平台同步',
    title: '从云平台同步产品',
    vendor: '云平台',
    start: '开始同步',
    hint: '用服务器上配置的云平台密钥拉取产品: 云端产品ID相同的产品更新描述; 尚未登记的云端产品列在下方, 请在本页新增后再使用。',
    result: '云端共 {{fetched}} 个产品, 更新 {{updated}} 个',
    unmatched: '尚未登记的云端产品',
    cloudProductId: '云端产品ID',
    name: '名称',
  },
};

export const productEn: typeof productZh = {
  productAuth: {
    tenants: 'Tenants',
    tenantSearch: 'Search tenants',
    noTenants: 'No tenants',
    types: 'Product types it sees',
    pickTenant: 'Pick a tenant on the left first',
    noTypes: 'No product types yet; add them under "Product types"',
    save: 'Save',
    saved: 'Saved the product types of "{{tenant}}"',
    summary: '{{n}} of {{total}} types granted',
    hint: 'A tenant sees only the products, models, manuals, batches and devices of the types granted to it; the platform tenant sees every type.',
  },
  cloudSync: {
    button: 'Sync from the IoT cloud',
    title: 'Sync products from the IoT cloud',
    vendor: 'IoT cloud',
    start: 'Sync',
    hint: 'Pulls the cloud\'s products with the keys configured on the server: products with the same cloud product ID take its description; cloud products not registered here are listed below; add them on this screen to use them.',
    result: '{{fetched}} products in the cloud, {{updated}} updated',
    unmatched: 'Cloud products not registered here',
    cloudProductId: 'Cloud product ID',
    name: 'Name',
  },
};
