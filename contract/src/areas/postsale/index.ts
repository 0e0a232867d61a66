import { defineArea } from '../../area.js';
import { postsaleDeviceResource } from './device.js';
import { feedbackReplyResource, feedbackResource } from './feedback.js';
import { postsaleMessages } from './messages.js';
import { postsaleRecordResource } from './record.js';
import { postsaleUserResource } from './user.js';

export * from './appPaths.js';
export * from './device.js';
export * from './feedback.js';
export * from './record.js';
export * from './user.js';

/** The postsale area (售后管理): the app's users, their locks, service records and feedback, and the app's calls. */
export default /* @__PURE__ */ defineArea({
  name: 'postsale',
  resources: {
    postsale_user: postsaleUserResource,
    postsale_device: postsaleDeviceResource,
    postsale_record: postsaleRecordResource,
    feedback: feedbackResource,
    feedback_reply_list: feedbackReplyResource,
  },
  messages: postsaleMessages,
  menus: [{ code: 'postsale', name: { zh: '售后管理', en: 'After-sales' }, route: '/postsale', sort: 40, icon: 'iconfont iconicon_service' }],
});
