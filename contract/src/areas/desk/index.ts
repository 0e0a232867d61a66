import { defineArea } from '../../area.js';
import { noticeResource } from './notice.js';

export * from './dashboard.js';
export * from './notice.js';
export * from './noticeBell.js';

/** The desk area: the workbench: notices, and the header's notice bell. */
export default /* @__PURE__ */ defineArea({
  name: 'desk',
  resources: {
    notice: noticeResource,
  },
  menus: [{ code: 'desk', name: { zh: '工作台', en: 'Workbench' }, route: '/desk', sort: 1, icon: 'iconfont iconicon_airplay' }],
});
