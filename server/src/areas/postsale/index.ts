import type { FeatureModule } from '../../core/area.js';
import { registerAppApi } from './appApi.js';

/** After-sales: the app's users and the calls of the vendor's phone app (its sign-in, log upload, update check). */
export const postsaleFeature: FeatureModule = {
  name: 'postsale',
  routes: registerAppApi,
};
