import { deptResource, paramResource, postResource } from '@console/contract/areas/system/index';
import { bind, defineArea } from '../../core/area.js';
import { schema } from '../../core/db/index.js';
import { registerDictRoutes } from './dict.js';
import { registerMenuRoutes } from './menu.js';
import { ORG_DATA_STEPS, registerOrgRoutes } from './org.js';
import { registerProfileRoutes } from './profile.js';
import { appModule } from './public.js';
import { param, post } from './tables.js';
import { clientResource, dictBizResource, dictResource } from '@console/contract/areas/system/index';
import { clientHooks, registerClientRoutes } from './client.js';
import { bizDictHooks, registerDictionaryRoutes, systemDictHooks } from './dictionary.js';
import { dictBiz } from './tables.js';

// the regions' table stays among the system's tables (the base area serves it)
export { param, region } from './tables.js';
export { type RetentionParam, retentionDaysOf, seedRetentionParam } from './retentionParam.js';

/**
 * blade-system: menus, dictionaries, parameters, organisation (departments, posts), clients, the signed-in user's
 * profile; and the console's public calls (its switches, the server's health, guest registration).
 */
export const systemArea = defineArea({
  name: 'system',
  resources: [
    bind(paramResource, param),
    // a department with users is refused by the engine's rule (the users' deptId names it)
    bind(deptResource, schema.dept),
    bind(postResource, post),
    bind(dictResource, schema.dict, systemDictHooks),
    bind(dictBizResource, dictBiz, bizDictHooks),
    bind(clientResource, schema.client, clientHooks),
  ],
  async routes(app, ctx) {
    registerMenuRoutes(app, ctx);
    registerDictRoutes(app, ctx);
    registerProfileRoutes(app, ctx);
    registerOrgRoutes(app, ctx);
    registerDictionaryRoutes(app, ctx);
    registerClientRoutes(app, ctx);
    await appModule(app, ctx);
  },
  dataSteps: ORG_DATA_STEPS,
});
