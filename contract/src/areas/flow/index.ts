import { defineArea } from '../../area.js';
import { flowFollowResource, flowManagerResource, flowModelResource, workClaimResource, workDoneResource, workSendResource, workStartResource, workTodoResource } from './flow.js';
import { flowMessages } from './messages.js';

export * from './flow.js';

/** The flow area: process models, deployments, running instances and my work (the leave process). */
export default /* @__PURE__ */ defineArea({
  name: 'flow',
  resources: {
    flow_model: flowModelResource,
    flow_manager: flowManagerResource,
    flow_follow: flowFollowResource,
    work_start: workStartResource,
    work_claim: workClaimResource,
    work_todo: workTodoResource,
    work_send: workSendResource,
    work_done: workDoneResource,
  },
  messages: flowMessages,
  menus: [
    { code: 'work', name: { zh: '我的事务', en: 'My work' }, route: '/work', sort: 2, icon: 'iconfont iconicon_doc' },
    { code: 'flow', name: { zh: '流程管理', en: 'Processes' }, route: '/flow', sort: 40, icon: 'iconfont iconicon_exchange' },
  ],
});
