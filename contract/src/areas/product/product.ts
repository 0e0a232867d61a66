import { z } from 'zod';
import { defineActions, okOutput } from '../../action.js';
import { defineResource, idListInput } from '../../resource.js';
import { TREE_NODE } from '../../treeNode.js';

/**
 * The product catalogue (domain.md "Products"): types › models › products, sold under brands and through
 * projects. One catalogue for the whole platform, kept by the vendor (tenant 000000); tenants read it.
 */

const remark = { type: 'text', label: { zh: '备注', en: 'Remark' }, max: 500 } as const;
const sort = { type: 'int', label: { zh: '排序', en: 'Sort' }, min: 0, max: 100000, sortable: true, width: 90, defaultValue: 1 } as const;

export const productTypeResource = defineResource({
  code: 'product_type',
  path: '/api/ymy-product/type',
  title: { zh: '产品类型', en: 'Product types' },
  scope: 'platform',
  nameField: 'typeName',
  defaultSort: { field: 'sort', order: 'asc' },
  menu: { parent: 'product', route: '/product/type', name: { zh: '产品类型', en: 'Product types' }, sort: 1, icon: 'iconfont iconicon_details' },
  fields: {
    typeName: {
      type: 'string', label: { zh: '类型名称', en: 'Type name' }, required: { zh: '请输入类型名称', en: 'Please enter the type name' },
      max: 64, search: 'like', sortable: true, unique: true,
    },
    typeCode: {
      type: 'string', label: { zh: '类型编码', en: 'Type code' }, required: { zh: '请输入类型编码', en: 'Please enter the type code' },
      max: 32, search: 'like', sortable: true, unique: true, immutable: true,
    },
    icon: { type: 'image', label: { zh: '图标', en: 'Icon' }, max: 1000, list: false },
    sort,
    remark,
  },
  actions: defineActions('/api/ymy-product/auth', {
    getAuthPtWithTenant: {
      segment: 'get-auth-pt-with-tenant', method: 'GET', permission: 'product_type', title: { zh: '本租户可见的产品类型', en: 'Product authorisation: the types my tenant sees' },
      input: z.object({}),
      output: z.array(z.object({ id: z.string(), typeName: z.string(), typeCode: z.string() })),
    },
  }),
});

export const brandResource = defineResource({
  code: 'brand',
  path: '/api/ymy-brand/brand',
  title: { zh: '品牌管理', en: 'Brands' },
  scope: 'platform',
  nameField: 'brandName',
  menu: { parent: 'product', route: '/product/brand', name: { zh: '品牌管理', en: 'Brands' }, sort: 5, icon: 'iconfont iconicon_shakehands' },
  fields: {
    brandName: {
      type: 'string', label: { zh: '品牌名称', en: 'Brand name' }, required: { zh: '请输入品牌名称', en: 'Please enter the brand name' },
      max: 64, search: 'like', sortable: true, unique: true,
    },
    logo: { type: 'image', label: { zh: '品牌标识', en: 'Logo' }, max: 1000, list: false },
    website: { type: 'string', format: 'url', label: { zh: '官网', en: 'Website' }, max: 500, width: 200 },
    remark,
  },
});

export const productModelResource = defineResource({
  code: 'product_model',
  path: '/api/ymy-product/model',
  title: { zh: '产品型号', en: 'Models' },
  scope: 'platform',
  nameField: 'modelName',
  menu: { parent: 'product', route: '/product/model', name: { zh: '产品型号', en: 'Models' }, sort: 2, icon: 'iconfont iconicon_doc' },
  fields: {
    typeId: {
      type: 'ref', ref: 'product_type', label: { zh: '产品类型', en: 'Product type' }, required: { zh: '请选择产品类型', en: 'Please select the product type' },
      search: 'equal', width: 120,
    },
    modelName: {
      type: 'string', label: { zh: '型号名称', en: 'Model name' }, required: { zh: '请输入型号名称', en: 'Please enter the model name' },
      max: 64, search: 'like', sortable: true,
    },
    modelCode: {
      type: 'string', label: { zh: '型号编码', en: 'Model code' }, required: { zh: '请输入型号编码', en: 'Please enter the model code' },
      max: 32, search: 'like', sortable: true, unique: true, immutable: true,
    },
    image: { type: 'image', label: { zh: '型号图片', en: 'Image' }, max: 1000, list: false },
    remark,
  },
});

export const projectResource = defineResource({
  code: 'project',
  path: '/api/ymy-product/project',
  title: { zh: '项目管理', en: 'Projects' },
  scope: 'platform',
  nameField: 'projectName',
  menu: { parent: 'product', route: '/product/project', name: { zh: '项目管理', en: 'Projects' }, sort: 3, icon: 'iconfont iconicon_work' },
  fields: {
    projectName: {
      type: 'string', label: { zh: '项目名称', en: 'Project name' }, required: { zh: '请输入项目名称', en: 'Please enter the project name' },
      max: 64, search: 'like', sortable: true,
    },
    projectCode: {
      type: 'string', label: { zh: '项目编码', en: 'Project code' }, required: { zh: '请输入项目编码', en: 'Please enter the project code' },
      max: 32, search: 'like', sortable: true, unique: true, immutable: true,
    },
    modelId: { type: 'ref', ref: 'product_model', label: { zh: '产品型号', en: 'Model' }, search: 'equal', width: 140 },
    remark,
  },
});

export const productResource = defineResource({
  code: 'product_info',
  path: '/api/ymy-product/product',
  title: { zh: '产品信息', en: 'Products' },
  scope: 'platform',
  nameField: 'productName',
  page: 'custom',
  menu: {
    parent: 'product', route: '/product/info', name: { zh: '产品信息', en: 'Products' }, sort: 4, icon: 'iconfont iconicon_mobilephone',
    buttons: [{
      code: 'product_clear_cache', name: { zh: '清除缓存', en: 'Clear cache' }, alias: 'clear', placement: 'toolbar', action: 'clearCache',
      confirm: {
        zh: '是否需要清除缓存? 各服务实例将从数据库重新读取产品信息(按云平台产品ID查找的产品)。',
        en: 'Clear the cache? Every server instance reads the products (looked up by cloud product ID) from the database again.',
      },
      done: { zh: '清除完毕 (本实例 {cleared} 条)', en: 'Cleared ({cleared} entries on this instance)' },
    }, {
      // offered only when the server holds the keys of an IoT cloud (the product area's idle buttons)
      code: 'product_cloud_sync', name: { zh: '从云平台同步', en: 'Sync from cloud' }, alias: 'sync', placement: 'toolbar', action: 'syncFromCloud', custom: true,
    }],
  },
  fields: {
    productName: {
      type: 'string', label: { zh: '产品名称', en: 'Product name' }, required: { zh: '请输入产品名称', en: 'Please enter the product name' },
      max: 64, search: 'like', sortable: true,
    },
    productCode: {
      type: 'string', label: { zh: '产品编码', en: 'Product code' }, required: { zh: '请输入产品编码', en: 'Please enter the product code' },
      max: 32, search: 'like', sortable: true, unique: true, immutable: true,
    },
    typeId: {
      type: 'ref', ref: 'product_type', label: { zh: '产品类型', en: 'Product type' }, required: { zh: '请选择产品类型', en: 'Please select the product type' },
      search: 'equal', width: 120,
    },
    modelId: {
      type: 'ref', ref: 'product_model', label: { zh: '产品型号', en: 'Model' }, required: { zh: '请选择产品型号', en: 'Please select the model' },
      search: 'equal', width: 140,
    },
    brandId: { type: 'ref', ref: 'brand', label: { zh: '品牌', en: 'Brand' }, search: 'equal', width: 120 },
    projectId: { type: 'ref', ref: 'project', label: { zh: '项目', en: 'Project' }, search: 'equal', width: 140 },
    cloudVendor: {
      type: 'int', label: { zh: '云平台', en: 'IoT cloud' }, dict: 'cloud_vendor', required: { zh: '请选择云平台', en: 'Please select the IoT cloud' },
      search: 'equal', width: 160,
    },
    cloudProductId: { type: 'string', label: { zh: '云端产品ID', en: 'Cloud product ID' }, max: 64, search: 'like', width: 160 },
    image: { type: 'image', label: { zh: '产品图片', en: 'Image' }, max: 1000, list: false },
    description: { type: 'text', label: { zh: '产品描述', en: 'Description' }, max: 2000, list: false },
  },
  actions: {
    ...defineActions('/api/ymy-product/product', {
      /** forgets the products every instance holds in memory (looked up by their cloud identity) */
      clearCache: {
        segment: 'clear-cache', method: 'POST', permission: 'product_clear_cache', platform: 'write',
        title: { zh: '产品信息：清除缓存', en: 'Products: clear the cache' },
        input: z.object({}),
        output: z.object({ cleared: z.number().int() }),
      },
    }),
    ...defineActions('/sc/ymy-ipc/back', {
      syncFromCloud: {
        segment: 'sync-product-info', method: 'POST', permission: 'product_cloud_sync', platform: 'write',
        title: { zh: '从云平台同步产品', en: 'Products: sync from the IoT cloud' },
        input: z.object({ cloudVendor: z.coerce.number().int().min(1).max(2) }),
        output: z.object({
          fetched: z.number().int(),
          updated: z.number().int(),
          /** cloud products no product here names (by cloud product id): register them to use them */
          unmatched: z.array(z.object({ cloudProductId: z.string(), name: z.string() })),
        }),
      },
    }),
  },
});

export const explainResource = defineResource({
  code: 'explain',
  path: '/api/ymy-product/explain',
  title: { zh: '产品说明', en: 'Manuals' },
  scope: 'platform',
  nameField: 'title',
  menu: { parent: 'product', route: '/product/explain', name: { zh: '产品说明', en: 'Manuals' }, sort: 6, icon: 'iconfont iconicon_study' },
  fields: {
    productId: {
      type: 'ref', ref: 'product_info', label: { zh: '产品', en: 'Product' }, required: { zh: '请选择产品', en: 'Please select the product' },
      search: 'equal', width: 160,
    },
    title: {
      type: 'string', label: { zh: '标题', en: 'Title' }, required: { zh: '请输入标题', en: 'Please enter the title' },
      max: 128, search: 'like', sortable: true,
    },
    language: {
      type: 'string', label: { zh: '语言', en: 'Language' }, dict: 'explain_language', required: { zh: '请选择语言', en: 'Please select the language' },
      search: 'equal', width: 110,
    },
    version: {
      type: 'string', label: { zh: '版本', en: 'Version' }, required: { zh: '请输入版本', en: 'Please enter the version' },
      max: 32, sortable: true, width: 100,
    },
    file: {
      type: 'file', label: { zh: '说明文件', en: 'File' }, required: { zh: '请上传说明文件', en: 'Please upload the file' }, max: 1000, width: 200,
    },
  },
});

const AUTH_PATH = '/api/ymy-product/auth';
const authTenant = z.string().trim().regex(/^\d{6}$/);

/**
 * Product-type authorisation (domain.md): which product types a tenant may see. A tenant other than the
 * platform sees only the types granted here, in the type, model, product, manual, batch and device lists.
 * The platform's administrators keep it; the register (one row per tenant and type) is theirs alone.
 */
export const productAuthResource = defineResource({
  code: 'product_auth',
  path: AUTH_PATH,
  title: { zh: '产品授权', en: 'Product authorisation' },
  scope: 'platform',
  platformAdminOnly: true,
  readOnly: true,
  page: 'custom',
  buttons: { add: false, edit: false, delete: false },
  menu: { parent: 'product', route: '/product/auth', name: { zh: '产品授权', en: 'Product authorisation' }, sort: 8, icon: 'iconfont iconicon_safety' },
  fields: {
    tenantId: { type: 'string', label: { zh: '租户编号', en: 'Tenant ID' }, max: 12, search: 'equal', width: 110 },
    // a removed type (no model or product uses it any more: those refuse it) is no longer granted to anyone
    typeId: { type: 'ref', ref: 'product_type', label: { zh: '产品类型', en: 'Product type' }, search: 'equal', width: 140, onRemove: 'cascade' },
  },
  actions: defineActions(AUTH_PATH, {
    getAuthPt: {
      segment: 'get-auth-pt', method: 'GET', permission: 'product_auth', platform: 'admin', title: { zh: '租户的产品类型授权', en: 'Product authorisation: a tenant\'s types' },
      input: z.object({ tenantId: authTenant }), output: z.array(z.string()),
    },
    saveAuthPt: {
      segment: 'save-auth-pt', method: 'POST', permission: 'product_auth', platform: 'admin', title: { zh: '保存产品类型授权', en: 'Product authorisation: save a tenant\'s types' },
      input: z.object({ tenantId: authTenant, typeIds: idListInput }), output: okOutput,
    },
    getPtTree: {
      segment: 'get-pt-tree', method: 'GET', permission: 'product_auth', platform: 'admin', title: { zh: '产品类型树', en: 'Product authorisation: the type tree' },
      input: z.object({}), output: z.array(TREE_NODE),
    },
  }),
});

/** A dynamic column key: what a station reports a device attribute as (`attributes.<key>`). */
export const DEVICE_COLUMN_KEY = /^[A-Za-z][A-Za-z0-9_]{0,31}$/;

/**
 * The device attributes a product type has (domain.md "Dynamic column"): the columns of the batch device
 * list and its export that vary by product type (an IMEI for a cellular lock, a lens for a camera). Kept
 * in the product type screen, with its edit button.
 */
export const deviceColumnResource = defineResource({
  code: 'device_column',
  path: '/api/ymy-product/device-column',
  title: { zh: '设备属性列', en: 'Device columns' },
  scope: 'platform',
  nameField: 'label',
  defaultSort: { field: 'sort', order: 'asc' },
  within: { parent: 'product_type', field: 'typeId', codes: { add: 'product_type_edit', edit: 'product_type_edit', delete: 'product_type_edit', view: 'product_type' } },
  fields: {
    typeId: {
      type: 'ref', ref: 'product_type', label: { zh: '产品类型', en: 'Product type' }, required: { zh: '请选择产品类型', en: 'Please select the product type' },
      // a type's own attribute columns go with it
      search: 'equal', immutable: true, width: 130, onRemove: 'cascade',
    },
    columnKey: {
      type: 'string', label: { zh: '属性键', en: 'Key' }, required: { zh: '请输入属性键', en: 'Please enter the key' }, max: 32, immutable: true, width: 130,
      help: { zh: '字母开头, 字母、数字或下划线, 如 imei', en: 'A letter, then letters, digits or underscores, such as imei' },
    },
    label: {
      type: 'string', label: { zh: '列名', en: 'Label' }, required: { zh: '请输入列名', en: 'Please enter the label' }, max: 32, search: 'like', width: 140,
    },
    labelEn: { type: 'string', label: { zh: '英文列名', en: 'Label (English)' }, max: 64, width: 140 },
    valueType: {
      type: 'string', label: { zh: '值类型', en: 'Value type' }, dict: 'device_column_type', required: { zh: '请选择值类型', en: 'Please select the value type' },
      defaultValue: 'text', width: 100,
    },
    sort: { type: 'int', label: { zh: '排序', en: 'Sort' }, min: 0, max: 100000, sortable: true, width: 80, defaultValue: 1 },
  },
});

/**
 * Deliveries (domain.md "Deliver"): products shipped to a customer tenant, from a batch or not. A tenant other
 * than the platform sees the deliveries made to it.
 */
export const deliverResource = defineResource({
  code: 'deliver',
  path: '/api/ymy-product/deliver',
  title: { zh: '出货管理', en: 'Deliveries' },
  scope: 'platform',
  nameField: 'trackingNo',
  defaultSort: { field: 'deliverTime', order: 'desc' },
  menu: { parent: 'product', route: '/product/deliver', name: { zh: '出货管理', en: 'Deliveries' }, sort: 7, icon: 'iconfont iconicon_addresslist' },
  fields: {
    productId: {
      type: 'ref', ref: 'product_info', label: { zh: '产品', en: 'Product' }, required: { zh: '请选择产品', en: 'Please select the product' },
      search: 'equal', immutable: true, width: 150,
    },
    customerTenantId: {
      type: 'string', label: { zh: '客户租户', en: 'Customer tenant' }, required: { zh: '请输入客户租户编号', en: 'Please enter the customer tenant ID' },
      max: 12, search: 'equal', width: 120, help: { zh: '6 位租户编号', en: 'The 6-digit tenant ID' },
    },
    batchId: { type: 'ref', ref: 'batch', label: { zh: '批次', en: 'Batch' }, search: 'equal', immutable: true, width: 140 },
    quantity: { type: 'int', label: { zh: '数量', en: 'Quantity' }, required: { zh: '请输入数量', en: 'Please enter the quantity' }, min: 1, max: 10_000_000, sortable: true, width: 100 },
    deliverTime: {
      type: 'datetime', label: { zh: '出货时间', en: 'Shipped at' }, required: { zh: '请选择出货时间', en: 'Please pick the shipping time' },
      search: 'dateRange', sortable: true,
    },
    trackingNo: { type: 'string', label: { zh: '物流单号', en: 'Tracking no.' }, max: 64, search: 'like', width: 170 },
    remark: { type: 'text', label: { zh: '备注', en: 'Remark' }, max: 500 },
  },
});
