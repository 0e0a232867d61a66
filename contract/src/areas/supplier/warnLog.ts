import { z } from 'zod';
import { defineActions, okOutput } from '../../action.js';
import { idInput } from '../../ids.js';
import { defineResource } from '../../resource.js';
import { REGION_ALARM } from './alarm.js';

export const AREA_WARN_PATH = REGION_ALARM.path;

/**
 * A cross-region warning (区域预警日志): a lock dispatched to one region activated in another (grey-market selling).
 * Written by the server when a device reports where it is (or by hand, from a report in the field); one per device
 * and activated region. The operator handles it (handled, with a remark).
 */
export const areaWarnResource = defineResource({
  code: 'region_wrong_log',
  path: AREA_WARN_PATH,
  title: { zh: '区域预警日志', en: 'Region warnings' },
  scope: 'tenant',
  nameField: 'deviceSn',
  routes: { submit: 'update' },
  defaultSort: { field: 'activationTime', order: 'desc' },
  menu: {
    parent: 'supplier_region', route: '/supplier/region/wrong_log', name: { zh: '区域预警日志', en: 'Region warnings' }, sort: 7, icon: 'iconfont iconicon_notice',
    buttons: [
      {
        code: 'region_wrong_log_handle', name: { zh: '处理', en: 'Handle' }, alias: 'handle', placement: 'row', action: 'handle',
        shownWhen: { field: 'handled', values: [0] },
        confirm: { zh: '将该预警标记为已处理?', en: 'Mark this warning as handled?' },
      },
      { code: 'region_wrong_log_export', name: { zh: '导出', en: 'Export' }, alias: 'export', placement: 'toolbar' },
      { code: 'region_wrong_log_import', name: { zh: '导入', en: 'Import' }, alias: 'import', placement: 'toolbar' },
    ],
  },
  // an import brings in warnings found elsewhere (a field report, the old system's log)
  io: { export: { permission: 'region_wrong_log_export' }, import: { permission: 'region_wrong_log_import' } },
  fields: {
    deviceSn: {
      type: 'string', label: { zh: '设备 SN', en: 'Device SN' }, required: { zh: '请输入设备 SN', en: 'Please enter the device SN' },
      max: 32, upperCase: true, immutable: true, search: 'prefix', key: true, width: 170,
    },
    dispatchedCode: { type: 'string', label: { zh: '派发区域编号', en: 'Dispatched region code' }, max: 64, immutable: true, list: false },
    activatedCode: { type: 'string', label: { zh: '激活区域编号', en: 'Activated region code' }, max: 64, immutable: true, list: false },
    dispatchedName: { type: 'string', label: { zh: '派发区域', en: 'Dispatched to' }, form: false, virtual: true, key: true, width: 200 },
    activatedName: { type: 'string', label: { zh: '激活区域', en: 'Activated in' }, form: false, virtual: true, key: true, width: 200 },
    location: { type: 'string', label: { zh: '激活位置', en: 'Location' }, max: 255, immutable: true, width: 200 },
    activationTime: { type: 'datetime', label: { zh: '激活时间', en: 'Activated at' }, immutable: true, sortable: true, search: 'dateRange' },
    handled: { type: 'boolean', label: { zh: '已处理', en: 'Handled' }, dict: 'yes_no', search: 'equal', key: true, width: 90, defaultValue: 0 },
    handleRemark: { type: 'text', label: { zh: '处理备注', en: 'Remark' }, max: 500 },
  },
  actions: defineActions(AREA_WARN_PATH, {
    handle: {
      method: 'POST', permission: 'region_wrong_log_handle', title: { zh: '区域预警：处理', en: 'Region warnings: handle' },
      input: z.object({ id: idInput, remark: z.string().trim().max(500).optional() }), output: okOutput,
    },
  }),
});
