import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { registerCaptchaRoute } from './captcha.js';
import { registerSessionRoutes } from './session.js';
import { registerTokenRoute } from './token.js';

/** blade-auth: sign-in, tokens, captcha, sign-out. */
export async function authModule(app: FastifyInstance, ctx: AppContext): Promise<void> {
  registerTokenRoute(app, ctx);
  registerCaptchaRoute(app, ctx);
  registerSessionRoutes(app, ctx);
}
