import { areaAgentResource, areaWarnResource, deviceAreaResource } from '@console/contract/areas/supplier/index';
import { bind, defineArea } from '../../core/area.js';
import { type DictSeed, seedDicts } from '../../seed/steps.js';
import { areaAgentHooks, registerAgentActions } from './agent.js';
import { deviceAreaHooks } from './area.js';
import { areaAgent, areaWarn, deviceArea } from './tables.js';
import { areaWarnHooks, registerWarnActions } from './warnLog.js';

const SUPPLIER_DICTS: DictSeed[] = [
  { code: 'area_source', name: '区域来源', nameEn: 'Area source', items: [['manual', '手工', 'Manual'], ['import', '导入', 'Import'], ['dispatch', '派发', 'Dispatch']] },
];

/** Regional business (供应商 › 区域管理): the devices' regions, agents and the regions they hold. */
export const supplierArea = defineArea({
  name: 'supplier',
  resources: [
    bind(deviceAreaResource, deviceArea, deviceAreaHooks), bind(areaAgentResource, areaAgent, areaAgentHooks),
    bind(areaWarnResource, areaWarn, areaWarnHooks),
  ],
  dataSteps: [{ name: '0801-supplier-dicts', run: (tx) => seedDicts(tx, SUPPLIER_DICTS) }],
  routes: (app, ctx) => {
    registerAgentActions(app, ctx);
    registerWarnActions(app, ctx);
  },
});
