import { defineActions } from '../../action.js';
import { defineResource } from '../../resource.js';
import { approvalFields, pendingOnly, processAction, processButton } from './approval.js';
import { deviceAreaResource } from './area.js';

export const AREA_OA_PATH = '/api/ymy-device/area-oa';

const { deviceSn, code, codeName, agentId, dispatchTime } = deviceAreaResource.fields;

/**
 * A change of a lock's region waiting for approval (区域审批): asked with the same fields as the device area and a
 * reason; someone other than the requester approves or rejects it (`process`). Approved, it writes the device area
 * and a modify log row. Called under /api/ymy-device/area-oa and /api/omc-device/area-oa.
 */
export const areaOaResource = defineResource({
  code: 'area_oa',
  path: AREA_OA_PATH,
  title: { zh: '区域审批', en: 'Area approval' },
  scope: 'tenant',
  nameField: 'deviceSn',
  routes: { submit: 'update' },
  rowButtons: pendingOnly,
  menu: {
    parent: 'supplier_region', route: '/supplier/region/area_oa', name: { zh: '区域审批', en: 'Area approval' }, sort: 2, icon: 'iconfont iconicon_doc',
    buttons: [
      processButton('area_oa_process'),
      { code: 'area_oa_import', name: { zh: '导入', en: 'Import' }, alias: 'import', placement: 'toolbar' },
      { code: 'area_oa_export', name: { zh: '导出', en: 'Export' }, alias: 'export', placement: 'toolbar' },
    ],
  },
  io: { export: { permission: 'area_oa_export', name: 'export-area' }, import: { permission: 'area_oa_import' } },
  fields: {
    deviceSn: { ...deviceSn, search: 'prefix' },
    code: { ...code, search: 'equal' },
    codeName,
    agentId,
    dispatchTime,
    reason: { type: 'string', label: { zh: '变更原因', en: 'Reason' }, required: { zh: '请输入变更原因', en: 'Please enter the reason' }, max: 255, width: 180 },
    ...approvalFields,
    createTime: { type: 'datetime', label: { zh: '申请时间', en: 'Asked at' }, form: false, sortable: true, search: 'dateRange' },
  },
  actions: defineActions(AREA_OA_PATH, {
    process: processAction({ zh: '区域审批：审批', en: 'Area approval: decide' }, 'area_oa_process'),
  }),
});
