import { paramResource } from '@console/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { schema } from '../../core/db/index.js';
import { mountResource } from '../../core/resource/engine.js';
import { registerDictRoutes } from './dict.js';
import { registerMenuRoutes } from './menu.js';

/** blade-system: menus, dictionaries, parameters. */
export async function systemModule(app: FastifyInstance, ctx: AppContext): Promise<void> {
  registerMenuRoutes(app, ctx);
  registerDictRoutes(app, ctx);
  mountResource(app, ctx, paramResource, schema.param);
}
