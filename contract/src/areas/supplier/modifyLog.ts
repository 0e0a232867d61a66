import { defineResource } from '../../resource.js';

export const AREA_MODIFY_LOG_PATH = '/api/omc-log/device-area-modify';

/**
 * The record of every change of a lock's region (区域变更日志): written by the server when a device area's region
 * changes (an edit, an approved change, a dispatch); old history can be imported. What was recorded stays: only
 * the reason can be edited.
 */
export const areaModifyLogResource = defineResource({
  code: 'area_modify_log',
  path: AREA_MODIFY_LOG_PATH,
  title: { zh: '区域变更日志', en: 'Area changes' },
  scope: 'tenant',
  nameField: 'deviceSn',
  routes: { submit: 'update' },
  menu: {
    parent: 'supplier_region', route: '/supplier/region/modify_log', name: { zh: '区域变更日志', en: 'Area changes' }, sort: 6, icon: 'iconfont iconicon_doc',
    buttons: [{ code: 'area_modify_log_import', name: { zh: '导入', en: 'Import' }, alias: 'import', placement: 'toolbar' }],
  },
  io: { export: { permission: 'area_modify_log' }, import: { permission: 'area_modify_log_import' } },
  fields: {
    deviceSn: {
      type: 'string', label: { zh: '设备 SN', en: 'Device SN' }, required: { zh: '请输入设备 SN', en: 'Please enter the device SN' },
      max: 32, upperCase: true, immutable: true, search: 'prefix', key: true, width: 170,
    },
    oldCode: { type: 'string', label: { zh: '原区域编号', en: 'Old region code' }, max: 64, immutable: true, list: false, regionPath: true },
    newCode: {
      type: 'string', label: { zh: '新区域编号', en: 'New region code' }, required: { zh: '请输入新区域编号', en: 'Please enter the new region code' },
      max: 64, immutable: true, list: false, regionPath: true,
    },
    oldName: { type: 'string', label: { zh: '原区域', en: 'From' }, form: false, virtual: true, width: 200 },
    newName: { type: 'string', label: { zh: '新区域', en: 'To' }, form: false, virtual: true, key: true, width: 200 },
    operator: { type: 'string', label: { zh: '操作人', en: 'Operator' }, max: 64, immutable: true, search: 'like', width: 110 },
    reason: { type: 'string', label: { zh: '变更原因', en: 'Reason' }, max: 255, width: 200 },
    createTime: { type: 'datetime', label: { zh: '变更时间', en: 'Changed at' }, form: false, sortable: true, search: 'dateRange' },
  },
});
