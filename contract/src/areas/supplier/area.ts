import { defineResource } from '../../resource.js';

export const DEVICE_AREA_PATH = '/api/ymy-device/area';

/** A region path of the region tree, province first: `330000,330100,330106` (1 to 4 codes of 6, 9 or 12 digits). */
export const REGION_PATH_PATTERN = /^\d{6}(\d{3}){0,2}(,\d{6}(\d{3}){0,2}){0,3}$/;

/**
 * The device → region registry: the region (`code`, a path of the region tree) and the agent a lock was
 * dispatched to. One row per device of the tenant. BladeX's console calls it under /api/ymy-device/area and
 * /api/omc-device/area (the same calls), with `update` for the save and `export-area` for the export.
 */
export const deviceAreaResource = defineResource({
  code: 'area',
  path: DEVICE_AREA_PATH,
  title: { zh: '设备区域', en: 'Device areas' },
  scope: 'tenant',
  nameField: 'deviceSn',
  routes: { submit: 'update' },
  menu: {
    parent: 'supplier_region', route: '/supplier/region/area', name: { zh: '设备区域', en: 'Device areas' }, sort: 1, icon: 'iconfont iconicon_discovery',
    buttons: [
      { code: 'area_import', name: { zh: '导入', en: 'Import' }, alias: 'import', placement: 'toolbar' },
      { code: 'area_export', name: { zh: '导出', en: 'Export' }, alias: 'export', placement: 'toolbar' },
    ],
  },
  io: { export: { permission: 'area_export', name: 'export-area' }, import: { permission: 'area_import' } },
  fields: {
    deviceSn: {
      type: 'string', label: { zh: '设备 SN', en: 'Device SN' }, required: { zh: '请输入设备 SN', en: 'Please enter the device SN' },
      // one row per lock (ux_device_area_sn); checked after the lock is known to be the tenant's (area.ts)
      max: 32, upperCase: true, immutable: true, search: 'prefix', key: true, width: 170,
    },
    code: {
      type: 'string', label: { zh: '区域编号', en: 'Region code' }, required: { zh: '请选择所属区域', en: 'Please choose the region' }, max: 64, list: false,
      regionPath: true, search: 'region',
      help: {
        zh: '省、市或区县; 导入表格中填写区划编号路径, 省在前: 330000,330100,330106',
        en: 'A province, city or district; a sheet gives the codes from the province down: 330000,330100,330106',
      },
    },
    // the path's names (浙江省 / 杭州市 / 西湖区), for the list, the detail and the export
    codeName: { type: 'string', label: { zh: '所属区域', en: 'Region' }, form: false, virtual: true, key: true, width: 220 },
    agentId: { type: 'ref', ref: 'area_agent', label: { zh: '代理', en: 'Agent' }, search: 'equal', width: 160 },
    dispatchTime: { type: 'datetime', label: { zh: '派发时间', en: 'Dispatched at' }, sortable: true, search: 'dateRange' },
    source: { type: 'string', label: { zh: '来源', en: 'Source' }, dict: 'area_source', max: 16, form: false, search: 'equal', width: 90 },
    // the dispatch that placed the lock here: removing it removes the device areas it still holds
    dispatchId: { type: 'ref', ref: 'area_dispatch', label: { zh: '派发记录', en: 'Dispatch' }, form: false, list: false, onRemove: 'cascade' },
  },
});
