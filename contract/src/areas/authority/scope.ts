import { defineResource } from '../../resource.js';

/** Data scopes (blade_scope_data): a row filter applied by the server to the lists of the menu they name. */
export const dataScopeResource = defineResource({
  code: 'data_scope',
  path: '/api/blade-system/data-scope',
  title: { zh: '数据权限', en: 'Data scopes' },
  scope: 'platform',
  nameField: 'scopeName',
  menu: {
    parent: 'authority', route: '/authority/datascope', name: { zh: '数据权限', en: 'Data scopes' }, sort: 2, icon: 'iconfont icon-shujuquanxian',
    buttons: [{ code: 'data_scope_setting', name: { zh: '权限配置', en: 'Configure' }, alias: 'setting', placement: 'row' }],
  },
  fields: {
    menuId: { type: 'ref', ref: 'menu', label: { zh: '所属菜单', en: 'Menu' }, required: { zh: '请选择所属菜单', en: 'Please select the menu' }, width: 140 },
    scopeName: { type: 'string', label: { zh: '权限名称', en: 'Name' }, required: { zh: '请输入权限名称', en: 'Please enter the name' }, max: 255, search: 'like' },
    resourceCode: { type: 'string', label: { zh: '权限编号', en: 'Code' }, required: { zh: '请输入权限编号', en: 'Please enter the code' }, max: 255, unique: true, search: 'like' },
    scopeColumn: {
      type: 'string', label: { zh: '权限字段', en: 'Column' }, required: { zh: '请输入权限字段', en: 'Please enter the column' }, max: 255, defaultValue: 'create_dept',
      help: { zh: '资源表中比较的列, 如 create_dept、create_user、dept_id', en: 'The column of the resource\'s table compared, e.g. create_dept, create_user, dept_id' },
    },
    scopeType: { type: 'int', label: { zh: '规则类型', en: 'Type' }, dict: 'data_scope_type', required: { zh: '请选择规则类型', en: 'Please select the type' }, search: 'equal', width: 150 },
    scopeValue: {
      type: 'text', label: { zh: '规则值', en: 'Value' }, max: 2000, list: false,
      help: { zh: '自定义类型: 逗号分隔的部门编号', en: 'Custom type: comma-separated department ids' },
    },
    remark: { type: 'text', label: { zh: '备注', en: 'Remark' }, max: 500 },
  },
});

/** API scopes (blade_scope_api): calls (method + path) only the roles granted them may make. */
export const apiScopeResource = defineResource({
  code: 'api_scope',
  path: '/api/blade-system/api-scope',
  title: { zh: '接口权限', en: 'API scopes' },
  scope: 'platform',
  nameField: 'scopeName',
  menu: {
    parent: 'authority', route: '/authority/apiscope', name: { zh: '接口权限', en: 'API scopes' }, sort: 3, icon: 'iconfont icon-jiekouquanxian',
    buttons: [{ code: 'api_scope_setting', name: { zh: '权限配置', en: 'Configure' }, alias: 'setting', placement: 'row' }],
  },
  fields: {
    menuId: { type: 'ref', ref: 'menu', label: { zh: '所属菜单', en: 'Menu' }, required: { zh: '请选择所属菜单', en: 'Please select the menu' }, width: 140 },
    scopeName: { type: 'string', label: { zh: '权限名称', en: 'Name' }, required: { zh: '请输入权限名称', en: 'Please enter the name' }, max: 255, search: 'like' },
    resourceCode: { type: 'string', label: { zh: '权限编号', en: 'Code' }, required: { zh: '请输入权限编号', en: 'Please enter the code' }, max: 255, unique: true, search: 'like' },
    scopePath: {
      type: 'string', label: { zh: '权限路径', en: 'Path' }, required: { zh: '请输入权限路径', en: 'Please enter the path' }, max: 500, search: 'like',
      help: { zh: '接口路径, 如 /api/blade-system/user/remove; 以 * 结尾匹配前缀', en: 'The API path, e.g. /api/blade-system/user/remove; a trailing * matches a prefix' },
    },
    scopeType: { type: 'int', label: { zh: '接口方法', en: 'Method' }, dict: 'api_scope_type', required: { zh: '请选择接口方法', en: 'Please select the method' }, search: 'equal', width: 120 },
    remark: { type: 'text', label: { zh: '备注', en: 'Remark' }, max: 500 },
  },
});
