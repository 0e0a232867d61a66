import type { CustomPageLoader } from '../../shell/area';

/** The flow area's custom pages by resource code (its manifest loads this list when the first menu page resolves). */
export const pages: Readonly<Record<string, CustomPageLoader>> = {
  flow_model: () => import('./ModelPage').then((m) => ({ default: m.ModelPage })),
  flow_manager: () => import('./ManagerPage').then((m) => ({ default: m.ManagerPage })),
  flow_follow: () => import('./FollowPage').then((m) => ({ default: m.FollowPage })),
  work_start: () => import('./WorkPages').then((m) => ({ default: m.WorkStartPage })),
  work_claim: () => import('./WorkPages').then((m) => ({ default: m.WorkClaimPage })),
  work_todo: () => import('./WorkPages').then((m) => ({ default: m.WorkTodoPage })),
  work_send: () => import('./WorkPages').then((m) => ({ default: m.WorkSendPage })),
  work_done: () => import('./WorkPages').then((m) => ({ default: m.WorkDonePage })),
};
