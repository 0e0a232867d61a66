import { APP_AUTH } from '../../core/access.js';
import { defineArea, provide } from '../../core/area.js';
import { appTokenVerifier, registerAppApi } from './appApi.js';

/** After-sales: the app's users and the calls of the vendor's phone app (its sign-in, log upload, update check). */
export const postsaleArea = defineArea({
  name: 'postsale',
  services: [provide(APP_AUTH, appTokenVerifier)],
  routes: registerAppApi,
});
