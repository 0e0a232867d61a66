import { defineArea } from '../../area.js';
import { attachResource } from './attach.js';
import { ossResource } from './oss.js';
import { smsResource } from './sms.js';
import { resourceMessages } from './messages.js';

export * from './attach.js';
export * from './oss.js';
export * from './sms.js';

/** The resource area: attachments, object storage, SMS. */
export default /* @__PURE__ */ defineArea({
  name: 'resource',
  resources: {
    attach: attachResource,
    sms: smsResource,
    oss: ossResource,
  },
  messages: resourceMessages,
  menus: [{ code: 'resource', name: { zh: '资源管理', en: 'Resources' }, route: '/resource', sort: 97, icon: 'iconfont iconicon_folder' }],
});
