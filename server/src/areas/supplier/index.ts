import {
  AREA_DISPATCH_OA_PATH, AREA_OA_PATH, areaAgentResource, areaDispatchOaResource, areaDispatchResource, areaModifyLogResource, areaOaResource,
  areaWarnResource, DEVICE_AREA_PATH, deviceAreaResource,
} from '@console/contract/areas/supplier/index';
import { bind, defineArea } from '../../core/area.js';
import { type DictSeed, seedDicts } from '../../seed/steps.js';
import { areaAgentHooks, registerAgentActions } from './agent.js';
import { registerApprovalActions, areaOaHooks } from './approvals.js';
import { deviceAreaHooks } from './area.js';
import { watchLocations } from './crossRegion.js';
import { areaDispatchHooks, areaDispatchOaHooks } from './dispatch.js';
import { areaModifyLogHooks } from './modifyLog.js';
import { areaAgent, areaDispatch, areaDispatchOa, areaModifyLog, areaOa, areaWarn, deviceArea } from './tables.js';
import { areaWarnHooks, registerWarnActions } from './warnLog.js';

const SUPPLIER_DICTS: DictSeed[] = [
  { code: 'area_source', name: '区域来源', nameEn: 'Area source', items: [['manual', '手工', 'Manual'], ['import', '导入', 'Import'], ['dispatch', '派发', 'Dispatch']] },
];
const APPROVAL_DICTS: DictSeed[] = [
  { code: 'area_oa_status', name: '区域审批状态', nameEn: 'Approval status', items: [['0', '待审批', 'Pending'], ['1', '已通过', 'Approved'], ['2', '已驳回', 'Rejected']] },
];

/** Regional business (供应商 › 区域管理): the devices' regions, agents and the regions they hold. */
export const supplierArea = defineArea({
  name: 'supplier',
  resources: [
    bind(deviceAreaResource, deviceArea, deviceAreaHooks), bind(areaAgentResource, areaAgent, areaAgentHooks),
    bind(areaWarnResource, areaWarn, areaWarnHooks), bind(areaOaResource, areaOa, areaOaHooks),
    bind(areaDispatchResource, areaDispatch, areaDispatchHooks), bind(areaDispatchOaResource, areaDispatchOa, areaDispatchOaHooks),
    bind(areaModifyLogResource, areaModifyLog, areaModifyLogHooks),
  ],
  // BladeX calls the device areas and their approvals under two prefixes (spec section 7), and names the dispatch
  // approvals' import `import-file` too
  urlAliases: [
    { from: '/api/omc-device/area/', to: `${DEVICE_AREA_PATH}/` },
    { from: '/api/omc-device/area-oa/', to: `${AREA_OA_PATH}/` },
    { from: `${AREA_DISPATCH_OA_PATH}/import-file`, to: `${AREA_DISPATCH_OA_PATH}/import` },
  ],
  dataSteps: [
    { name: '0801-supplier-dicts', run: (tx) => seedDicts(tx, SUPPLIER_DICTS) },
    { name: '0802-supplier-approval-dicts', run: (tx) => seedDicts(tx, APPROVAL_DICTS) },
  ],
  routes: (app, ctx) => {
    registerAgentActions(app, ctx);
    registerWarnActions(app, ctx);
    registerApprovalActions(app, ctx);
    watchLocations(ctx);
  },
});
