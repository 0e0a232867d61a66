import { noticeResource } from '@console/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { schema } from '../../core/db/index.js';
import { mountResource } from '../../core/resource/engine.js';
import { registerDashboardRoute } from './dashboard.js';
import { dropReadRows, registerNoticeReadRoutes } from './noticeRead.js';

/** blade-desk: notices, the bell's read state and the dashboard's figures. */
export async function deskModule(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const notices = mountResource(app, ctx, noticeResource, schema.notice, { afterRemove: (tx, ids) => dropReadRows(tx, ids) });
  registerNoticeReadRoutes(app, ctx, notices);
  registerDashboardRoute(app, ctx);
}
