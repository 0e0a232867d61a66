import { defineArea } from '../../core/area.js';
import { registerCaptchaRoute } from './captcha.js';
import { registerSessionRoutes } from './session.js';
import { registerTokenRoute } from './token.js';

export { consumeCaptcha } from './captcha.js';

/** blade-auth: sign-in, tokens, captcha, sign-out. */
export const authArea = defineArea({
  name: 'auth',
  routes(app, ctx) {
    registerTokenRoute(app, ctx);
    registerCaptchaRoute(app, ctx);
    registerSessionRoutes(app, ctx);
  },
});
