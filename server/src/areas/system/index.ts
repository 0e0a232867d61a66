import { deptResource, paramResource, postResource, regionResource } from '@console/contract';
import { schema } from '../../core/db/index.js';
import { bind, type FeatureModule } from '../../core/area.js';
import { registerDictRoutes } from './dict.js';
import { registerMenuRoutes } from './menu.js';
import { deptHooks, ORG_DATA_STEPS, regionHooks, registerOrgRoutes } from './org.js';
import { registerProfileRoutes } from './profile.js';
import { post, region } from './tables.js';
import { clientResource, dictBizResource, dictResource } from '@console/contract';
import { clientHooks, registerClientRoutes } from './client.js';
import { bizDictHooks, registerDictionaryRoutes, systemDictHooks } from './dictionary.js';
import { dictBiz } from './tables.js';

/** blade-system: menus, dictionaries, parameters, organisation (departments, posts, regions), the signed-in user's profile. */
export const systemFeature: FeatureModule = {
  name: 'system',
  resources: [
    bind(paramResource, schema.param),
    bind(deptResource, schema.dept, deptHooks),
    bind(postResource, post),
    bind(regionResource, region, regionHooks),
    bind(dictResource, schema.dict, systemDictHooks),
    bind(dictBizResource, dictBiz, bizDictHooks),
    bind(clientResource, schema.client, clientHooks),
  ],
  routes(app, ctx) {
    registerMenuRoutes(app, ctx);
    registerDictRoutes(app, ctx);
    registerProfileRoutes(app, ctx);
    registerOrgRoutes(app, ctx);
    registerDictionaryRoutes(app, ctx);
    registerClientRoutes(app, ctx);
  },
  dataSteps: ORG_DATA_STEPS,
};
