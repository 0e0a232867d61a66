import { noticeResource } from '@console/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { schema } from '../../core/db/index.js';
import { mountResource } from '../../core/resource/engine.js';
import { registerDashboardRoute } from './dashboard.js';

/** blade-desk: notices and the dashboard's figures. */
export async function deskModule(app: FastifyInstance, ctx: AppContext): Promise<void> {
  mountResource(app, ctx, noticeResource, schema.notice);
  registerDashboardRoute(app, ctx);
}
