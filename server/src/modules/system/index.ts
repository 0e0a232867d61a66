import { paramResource } from '@console/contract';
import { schema } from '../../core/db/index.js';
import { bind, type FeatureModule } from '../feature.js';
import { registerDictRoutes } from './dict.js';
import { registerMenuRoutes } from './menu.js';
import { registerProfileRoutes } from './profile.js';

/** blade-system: menus, dictionaries, parameters, the signed-in user's profile. */
export const systemFeature: FeatureModule = {
  name: 'system',
  resources: [bind(paramResource, schema.param)],
  routes(app, ctx) {
    registerMenuRoutes(app, ctx);
    registerDictRoutes(app, ctx);
    registerProfileRoutes(app, ctx);
  },
};
