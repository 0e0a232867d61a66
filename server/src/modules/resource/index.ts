import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { registerFileRoutes } from './files.js';

/** blade-resource: file uploads (the OSS and attachment screens come with their own feature). */
export async function resourceModule(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await registerFileRoutes(app, ctx);
}
