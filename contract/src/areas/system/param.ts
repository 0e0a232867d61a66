import { defineResource } from '../../resource.js';

/** System parameters (spec section 5): platform-wide key/value settings. */
export const paramResource = defineResource({
  code: 'param',
  path: '/api/blade-system/param',
  title: { zh: '参数管理', en: 'Parameters' },
  scope: 'platform',
  nameField: 'paramKey',
  menu: { parent: 'system', route: '/system/param', name: { zh: '参数管理', en: 'Parameters' }, sort: 8, icon: 'iconfont iconicon_community_line' },
  fields: {
    paramName: {
      type: 'string',
      label: { zh: '参数名称', en: 'Parameter name' },
      required: { zh: '请输入参数名称', en: 'Please enter the parameter name' },
      max: 255,
      search: 'like',
      sortable: true,
    },
    paramKey: {
      type: 'string',
      label: { zh: '参数键名', en: 'Parameter key' },
      required: { zh: '请输入参数键名', en: 'Please enter the parameter key' },
      max: 255,
      search: 'like',
      unique: true,
      sortable: true,
    },
    paramValue: {
      type: 'text',
      label: { zh: '参数键值', en: 'Parameter value' },
      required: { zh: '请输入参数键值', en: 'Please enter the parameter value' },
      max: 4000,
      list: true,
    },
    remark: { type: 'text', label: { zh: '备注', en: 'Remark' }, max: 500 },
  },
});
