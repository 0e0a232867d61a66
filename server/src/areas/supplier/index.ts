import { areaAgentResource } from '@console/contract/areas/supplier/index';
import { bind, defineArea } from '../../core/area.js';
import { areaAgentHooks, registerAgentActions } from './agent.js';
import { areaAgent } from './tables.js';

/** Regional business (供应商 › 区域管理): agents and the regions they hold. */
export const supplierArea = defineArea({
  name: 'supplier',
  resources: [bind(areaAgentResource, areaAgent, areaAgentHooks)],
  routes: (app, ctx) => {
    registerAgentActions(app, ctx);
  },
});
