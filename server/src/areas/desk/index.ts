import { noticeResource } from '@console/contract/areas/desk/index';
import { bind, defineArea } from '../../core/area.js';
import { registerDashboardRoute, registerDeviceFiguresRoute } from './dashboard.js';
import { dropReadRows, registerNoticeReadRoutes } from './noticeRead.js';
import { notice } from './tables.js';

/** blade-desk: notices, the bell's read state and the dashboard's figures. */
export const deskArea = defineArea({
  name: 'desk',
  resources: [bind(noticeResource, notice, () => ({ afterRemove: (tx, ids, user) => dropReadRows(tx, ids, user) }))],
  routes(app, ctx) {
    registerNoticeReadRoutes(app, ctx, ctx.resources.get(noticeResource.code));
    registerDashboardRoute(app, ctx);
    registerDeviceFiguresRoute(app, ctx);
  },
});
