import { defineResource } from '../../resource.js';

const PATH = '/api/blade-system/region';

/**
 * Administrative divisions (blade_region), platform-wide: China's provinces, cities and districts seeded with
 * their national codes (110000 北京市). A region's id is its code, so `detail?code=` and `remove?id=` name the
 * same thing (as in BladeX, where the code is the key).
 */
export const regionResource = defineResource({
  code: 'region',
  path: PATH,
  title: { zh: '行政区划', en: 'Regions' },
  scope: 'platform',
  nameField: 'name',
  defaultSort: { field: 'code', order: 'asc' },
  tree: { parentField: 'parentId', ancestorsColumn: 'ancestors', labelField: 'name' },
  // BladeX's console asks `lazy-tree?parentCode=` (00 for the provinces) and `detail?code=`
  keyAliases: { code: 'id', parentCode: 'parentId' },
  menu: {
    parent: 'base', route: '/base/region', name: { zh: '行政区划', en: 'Regions' }, sort: 1, icon: 'iconfont iconicon_discovery',
    buttons: [
      { code: 'region_import', name: { zh: '导入', en: 'Import' }, alias: 'import', placement: 'toolbar' },
      { code: 'region_export', name: { zh: '导出', en: 'Export' }, alias: 'export', placement: 'toolbar' },
    ],
  },
  io: { export: { permission: 'region_export' }, import: { permission: 'region_import' } },
  fields: {
    code: {
      type: 'string', label: { zh: '区划编号', en: 'Code' }, required: { zh: '请输入区划编号', en: 'Please enter the region code' },
      max: 12, unique: true, immutable: true, search: 'like', sortable: true, width: 130,
      help: { zh: '国家统计局区划代码: 省市区 6 位, 乡镇 9 位, 村 12 位', en: 'National code: 6 digits for provinces, cities and districts, 9 for towns, 12 for villages' },
    },
    parentId: { type: 'ref', ref: 'region', label: { zh: '上级区划', en: 'Parent region' }, list: false, immutable: true },
    name: { type: 'string', label: { zh: '区划名称', en: 'Name' }, required: { zh: '请输入区划名称', en: 'Please enter the region name' }, max: 64, search: 'like' },
    regionLevel: { type: 'int', label: { zh: '层级', en: 'Level' }, dict: 'region_level', search: 'equal', form: false, width: 100 },
    provinceName: { type: 'string', label: { zh: '省份', en: 'Province' }, max: 64, form: false, list: false },
    cityName: { type: 'string', label: { zh: '城市', en: 'City' }, max: 64, form: false, list: false },
    districtName: { type: 'string', label: { zh: '区县', en: 'District' }, max: 64, form: false, list: false },
    sort: { type: 'int', label: { zh: '排序', en: 'Sort' }, min: 0, max: 100000, sortable: true, width: 90, defaultValue: 1 },
    remark: { type: 'text', label: { zh: '备注', en: 'Remark' }, max: 500 },
  },
});
