import { paramResource } from '@console/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { schema } from '../../core/db/index.js';
import { mountResource } from '../../core/resource/engine.js';
import { registerDictRoutes } from './dict.js';
import { registerMenuRoutes } from './menu.js';
import { registerProfileRoutes } from './profile.js';

/** blade-system: menus, dictionaries, parameters, the signed-in user's profile. */
export async function systemModule(app: FastifyInstance, ctx: AppContext): Promise<void> {
  registerMenuRoutes(app, ctx);
  registerDictRoutes(app, ctx);
  registerProfileRoutes(app, ctx);
  mountResource(app, ctx, paramResource, schema.param);
}
