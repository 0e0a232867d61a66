import { defineArea } from '../../area.js';
import { roleResource } from './role.js';
import { apiScopeResource, dataScopeResource } from './scope.js';
import { authorityMessages } from './messages.js';

export * from './role.js';
export * from './scope.js';

/** The authority area: roles and their grants, data and API scopes. */
export default /* @__PURE__ */ defineArea({
  name: 'authority',
  resources: {
    role: roleResource,
    data_scope: dataScopeResource,
    api_scope: apiScopeResource,
  },
  messages: authorityMessages,
  menus: [{ code: 'authority', name: { zh: '权限管理', en: 'Authority' }, route: '/authority', sort: 96, icon: 'iconfont icon-quanxian' }],
});
