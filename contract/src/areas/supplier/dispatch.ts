import { defineActions } from '../../action.js';
import type { Fields } from '../../resourceDef.js';
import { defineResource } from '../../resource.js';
import { approvalFields, pendingOnly, processAction, processButton } from './approval.js';
import { deviceAreaResource } from './area.js';

export const AREA_DISPATCH_PATH = '/api/omc-device/area-dispatch';
export const AREA_DISPATCH_OA_PATH = '/api/omc-device/area-dispatch-oa';

/** What a dispatch names: the region, the agent who sells there, and the locks (one SN, or a batch). */
const dispatchFields = {
  code: { ...deviceAreaResource.fields.code, search: 'equal' },
  codeName: deviceAreaResource.fields.codeName,
  agentId: { type: 'ref', ref: 'area_agent', label: { zh: '代理', en: 'Agent' }, required: { zh: '请选择代理', en: 'Please choose the agent' }, search: 'equal', width: 160 },
  deviceSn: {
    type: 'string', label: { zh: '设备 SN', en: 'Device SN' }, max: 32, upperCase: true, search: 'prefix', width: 170,
    help: { zh: '一台设备的 SN, 或填写批次号派发整批', en: "One lock's SN, or a batch number for the whole batch" },
  },
  batchNo: { type: 'string', label: { zh: '批次号', en: 'Batch' }, max: 32, search: 'equal', width: 150 },
  quantity: { type: 'int', label: { zh: '数量', en: 'Locks' }, form: false, key: true, width: 80 },
  dispatchTime: { type: 'datetime', label: { zh: '派发时间', en: 'Dispatched at' }, sortable: true, search: 'dateRange' },
  createTime: { type: 'datetime', label: { zh: '创建时间', en: 'Created at' }, form: false, list: false, sortable: true, search: 'dateRange' },
} as const satisfies Fields;

/**
 * A dispatch of locks (one SN or a batch) to an agent's region (区域派发): each lock's device area takes the region
 * and the agent. Removing a dispatch removes the device areas it still holds.
 */
export const areaDispatchResource = defineResource({
  code: 'area_dispatch',
  path: AREA_DISPATCH_PATH,
  title: { zh: '区域派发', en: 'Dispatch' },
  scope: 'tenant',
  nameField: 'code',
  routes: { submit: 'update' },
  menu: {
    parent: 'supplier_region', route: '/supplier/region/dispatch', name: { zh: '区域派发', en: 'Dispatch' }, sort: 4, icon: 'iconfont iconicon_send',
    buttons: [{ code: 'area_dispatch_import', name: { zh: '导入', en: 'Import' }, alias: 'import', placement: 'toolbar' }],
  },
  io: { export: { permission: 'area_dispatch' }, import: { permission: 'area_dispatch_import' } },
  // the list's region: the one picked and every region under it
  fields: { ...dispatchFields, code: { ...dispatchFields.code, search: 'region' } },
});

/**
 * A dispatch waiting for approval (派发审批): approved by someone other than its requester (`process`), it becomes a
 * dispatch. `import-file` is BladeX's other name of its import.
 */
export const areaDispatchOaResource = defineResource({
  code: 'area_dispatch_oa',
  path: AREA_DISPATCH_OA_PATH,
  title: { zh: '派发审批', en: 'Dispatch approval' },
  scope: 'tenant',
  nameField: 'code',
  routes: { submit: 'update' },
  rowButtons: pendingOnly,
  menu: {
    parent: 'supplier_region', route: '/supplier/region/dispatch_oa', name: { zh: '派发审批', en: 'Dispatch approval' }, sort: 5, icon: 'iconfont iconicon_doc',
    buttons: [
      processButton('area_dispatch_oa_process'),
      { code: 'area_dispatch_oa_import', name: { zh: '导入', en: 'Import' }, alias: 'import', placement: 'toolbar' },
    ],
  },
  io: { export: { permission: 'area_dispatch_oa' }, import: { permission: 'area_dispatch_oa_import' } },
  fields: {
    ...dispatchFields,
    ...approvalFields,
    dispatchId: { type: 'ref', ref: 'area_dispatch', label: { zh: '派发记录', en: 'Dispatch' }, form: false, list: false, onRemove: 'detach' },
  },
  actions: defineActions(AREA_DISPATCH_OA_PATH, {
    process: processAction({ zh: '派发审批：审批', en: 'Dispatch approval: decide' }, 'area_dispatch_oa_process'),
  }),
});
