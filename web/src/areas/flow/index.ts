import { defineArea, messageTypes } from '../../shell/area';
import type { flowZh } from './i18n';

export const flowArea = defineArea({
  name: 'flow',
  pages: () => import('./pages'),
  // the leave request's business form (the `flow` dictionary's routes, flowRoutes.ts)
  routes: [
    { path: '/work/process/leave/form/:processDefinitionId', load: async () => (await import('./leave/LeaveFormPage')).LeaveFormPage },
    { path: '/work/process/leave/handle/:taskId/:processInstanceId/:businessId', load: async () => (await import('./leave/LeaveHandlePage')).LeaveHandlePage },
    { path: '/work/process/leave/detail/:processInstanceId/:businessId', load: async () => (await import('./leave/LeaveDetailPage')).LeaveDetailPage },
  ],
  messages: messageTypes<{ flow: typeof flowZh }>(),
});
