/** Strings of the product and production screens (lazy: registered by their chunks, i18n/lazy.ts). */
export const productionZh = {
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
  batchLog: {
    title: '生产记录 · {{batchNo}}',
    note: '新记录',
    notePlaceholder: '本次生产情况, 如首件检验、异常、返工…',
    required: '请输入生产记录',
    history: '历史记录',
    none: '暂无生产记录',
    saved: '生产记录已保存',
  },
};

export const productionEn: typeof productionZh = {
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
  batchLog: {
    title: 'Production notes · {{batchNo}}',
    note: 'New note',
    notePlaceholder: 'How production went: first-article check, defects, rework…',
    required: 'Please enter the note',
    history: 'History',
    none: 'No production notes yet',
    saved: 'Production note saved',
  },
};
