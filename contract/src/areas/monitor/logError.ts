import { defineResource } from '../../resource.js';
import { LOG_BUTTONS, LOG_RECENT, logRequestFields } from './logUsual.js';

/**
 * The error log (blade_log_error): the server's failures (type `server`) and the console's own errors
 * uploaded by `POST /api/blade-auth/oauth/logout` (type `web`), with their stack traces.
 */
export const logErrorResource = defineResource({
  code: 'log_error',
  path: '/api/blade-log/error',
  title: { zh: '错误日志', en: 'Error log' },
  scope: 'tenant',
  readOnly: true,
  buttons: LOG_BUTTONS,
  recent: LOG_RECENT,
  nameField: 'exceptionName',
  menu: { parent: 'monitor', route: '/monitor/log/error', name: { zh: '错误日志', en: 'Error log' }, sort: 3, icon: 'iconfont icon-bug' },
  fields: {
    type: { type: 'string', label: { zh: '来源', en: 'Source' }, dict: 'log_error_type', search: 'equal', max: 16, width: 90 },
    exceptionName: { type: 'string', label: { zh: '异常名', en: 'Exception' }, max: 255, search: 'like', width: 160 },
    message: { type: 'text', label: { zh: '异常信息', en: 'Message' }, max: 4000, list: true },
    stackTrace: { type: 'text', label: { zh: '堆栈', en: 'Stack trace' }, max: 20000 },
    fileName: { type: 'string', label: { zh: '文件', en: 'File' }, max: 1000, list: false },
    lineNumber: { type: 'int', label: { zh: '行号', en: 'Line' }, list: false },
    ...logRequestFields,
  },
});
