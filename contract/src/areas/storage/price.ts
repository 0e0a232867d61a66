import { defineResource } from '../../resource.js';

export const STORAGE_PRICE_PATH = '/api/ymy-storage/price';
/** the tenant console's path of the same plans (spec section 7) */
export const TC_STORAGE_PRICE_PATH = '/tc/omc-storage/price';

/**
 * A cloud-storage plan (套餐价格) for the locks of a product type: how many months it runs, how many days of
 * recordings it keeps (rolling), and its price in minor units of its currency. An order copies the plan as it was
 * when it was placed: a later change of price never changes an order.
 */
export const storagePriceResource = defineResource({
  code: 'storage_price',
  path: STORAGE_PRICE_PATH,
  title: { zh: '套餐价格', en: 'Plans' },
  scope: 'tenant',
  nameField: 'planName',
  defaultSort: { field: 'sort', order: 'asc' },
  menu: { parent: 'storage', route: '/storage/price', name: { zh: '套餐价格', en: 'Plans' }, sort: 1, icon: 'iconfont iconicon_coinpurse_line' },
  fields: {
    planName: {
      type: 'string', label: { zh: '套餐名称', en: 'Plan' }, required: { zh: '请输入套餐名称', en: 'Please enter the plan\'s name' },
      max: 64, search: 'like', key: true, width: 160,
    },
    productTypeId: {
      type: 'ref', ref: 'product_type', label: { zh: '产品类型', en: 'Product type' }, required: { zh: '请选择产品类型', en: 'Please choose the product type' },
      search: 'equal', width: 140,
    },
    months: { type: 'int', label: { zh: '时长(月)', en: 'Months' }, required: { zh: '请输入时长', en: 'Please enter the months' }, min: 1, max: 120, key: true, width: 90 },
    storageDays: {
      type: 'int', label: { zh: '循环存储(天)', en: 'Days kept' }, required: { zh: '请输入循环存储天数', en: 'Please enter the days kept' }, min: 1, max: 365, width: 110,
      help: { zh: '录像滚动保留的天数', en: 'Recordings are kept for this many days, rolling' },
    },
    price: { type: 'money', currency: 'currency', label: { zh: '价格', en: 'Price' }, required: { zh: '请输入价格', en: 'Please enter the price' }, min: 1, key: true, width: 110 },
    originalPrice: { type: 'money', currency: 'currency', label: { zh: '原价', en: 'List price' }, width: 110 },
    currency: { type: 'string', label: { zh: '币种', en: 'Currency' }, dict: 'currency', max: 3, required: true, defaultValue: 'CNY', width: 80 },
    onSale: { type: 'boolean', label: { zh: '在售', en: 'On sale' }, dict: 'yes_no', search: 'equal', key: true, defaultValue: 1, width: 80 },
    sort: { type: 'int', label: { zh: '排序', en: 'Sort' }, min: 0, max: 100000, sortable: true, defaultValue: 1, width: 80 },
  },
});
