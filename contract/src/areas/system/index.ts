import { defineArea } from '../../area.js';
import { clientResource } from './client.js';
import { deptResource } from './dept.js';
import { dictBizResource, dictResource } from './dict.js';
import { menuResource, topMenuResource } from './menu.js';
import { paramResource } from './param.js';
import { postResource } from './post.js';
import { tenantPackageResource, tenantResource } from './tenant.js';
import { userResource } from './user.js';
import { systemMessages } from './messages.js';

export * from './client.js';
export * from './dept.js';
export * from './dict.js';
export * from './menu.js';
export * from './param.js';
export * from './post.js';
export * from './tenant.js';
export * from './user.js';

/** The system area: users, departments, posts, dictionaries, menus, parameters, tenants and their packages, clients. */
export default /* @__PURE__ */ defineArea({
  name: 'system',
  resources: {
    param: paramResource,
    dept: deptResource,
    post: postResource,
    menu: menuResource,
    topmenu: topMenuResource,
    tenant_package: tenantPackageResource,
    tenant: tenantResource,
    user: userResource,
    dict: dictResource,
    dictbiz: dictBizResource,
    client: clientResource,
  },
  messages: systemMessages,
  menus: [{ code: 'system', name: { zh: '系统管理', en: 'System' }, route: '/system', sort: 99, icon: 'iconfont iconicon_setting' }],
});
