import { defineArea } from '../../area.js';
import { logApiResource } from './logApi.js';
import { logErrorResource } from './logError.js';
import { logUsualResource } from './logUsual.js';

export * from './logApi.js';
export * from './logError.js';
export * from './logUsual.js';

/** The monitor area: the usual, API and error logs. */
export default /* @__PURE__ */ defineArea({
  name: 'monitor',
  resources: {
    log_usual: logUsualResource,
    log_api: logApiResource,
    log_error: logErrorResource,
  },
  menus: [{ code: 'monitor', name: { zh: '系统监控', en: 'Monitoring' }, route: '/monitor', sort: 98, icon: 'iconfont icon-jiankong' }],
});
