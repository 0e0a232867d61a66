import { defineResource } from '../../resource.js';
import { LOG_BUTTONS, LOG_RECENT, logRequestFields } from './logUsual.js';

/** The API log (blade_log_api): every write call, its title, answer status and time; parameters masked. */
export const logApiResource = defineResource({
  code: 'log_api',
  path: '/api/blade-log/api',
  title: { zh: '接口日志', en: 'API log' },
  scope: 'tenant',
  readOnly: true,
  buttons: LOG_BUTTONS,
  recent: LOG_RECENT,
  nameField: 'title',
  menu: { parent: 'monitor', route: '/monitor/log/api', name: { zh: '接口日志', en: 'API log' }, sort: 2, icon: 'iconfont icon-rizhi' },
  fields: {
    title: { type: 'string', label: { zh: '日志标题', en: 'Title' }, max: 255, search: 'like', width: 200 },
    type: { type: 'string', label: { zh: '结果', en: 'Outcome' }, dict: 'log_api_type', search: 'equal', max: 16, width: 90 },
    status: { type: 'int', label: { zh: '响应状态', en: 'Status' }, search: 'equal', width: 90 },
    ...logRequestFields,
    time: { type: 'int', label: { zh: '耗时 (毫秒)', en: 'Time (ms)' }, width: 100 },
  },
});
