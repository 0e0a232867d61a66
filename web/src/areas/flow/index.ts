import { defineArea, messageTypes } from '../../shell/area';
import type { flowZh } from './i18n';

export const flowArea = defineArea({
  name: 'flow',
  pages: () => import('./pages'),
  // the leave request's business form (the `flow` dictionary's routes, flowRoutes.ts)
  routes: [
    { path: '/work/process/leave/form/:processDefinitionId', title: { zh: '请假申请', en: 'Apply for leave' }, load: async () => (await import('./leave/LeaveFormPage')).LeaveFormPage },
    { path: '/work/process/leave/handle/:taskId/:processInstanceId/:businessId', title: { zh: '请假审批', en: 'Leave approval' }, load: async () => (await import('./leave/LeaveHandlePage')).LeaveHandlePage },
    { path: '/work/process/leave/detail/:processInstanceId/:businessId', title: { zh: '请假详情', en: 'Leave request' }, load: async () => (await import('./leave/LeaveDetailPage')).LeaveDetailPage },
  ],
  messages: messageTypes<{ flow: typeof flowZh }>(),
});
