import { defineResource, type Fields } from '../../resource.js';

/**
 * The request columns every log has (domain.md "Logs"): who, where from, which call. Logs are append-only
 * and view-only: list (newest first) and detail; no add, edit or delete (retention purges old rows).
 */
export const logRequestFields = {
  createBy: { type: 'string', label: { zh: '操作人', en: 'User' }, max: 64, search: 'equal', width: 120 },
  requestUri: { type: 'string', label: { zh: '请求地址', en: 'Request URI' }, max: 2000, search: 'like', width: 260 },
  method: { type: 'string', label: { zh: '请求方法', en: 'Method' }, max: 16, search: 'equal', width: 90 },
  remoteIp: { type: 'string', label: { zh: '操作 IP', en: 'Remote IP' }, max: 64, width: 130 },
  serviceId: { type: 'string', label: { zh: '服务编号', en: 'Service' }, max: 64, list: false },
  serverHost: { type: 'string', label: { zh: '服务器名', en: 'Server host' }, max: 255, list: false },
  serverIp: { type: 'string', label: { zh: '服务器 IP', en: 'Server IP' }, max: 255, list: false },
  env: { type: 'string', label: { zh: '运行环境', en: 'Environment' }, max: 32, list: false },
  userAgent: { type: 'text', label: { zh: '用户代理', en: 'User agent' }, max: 1000 },
  methodClass: { type: 'string', label: { zh: '路由', en: 'Route' }, max: 255, list: false },
  methodName: { type: 'string', label: { zh: '方法名', en: 'Method name' }, max: 255, list: false },
  // the writer cuts parameters at 4000 characters and marks the cut with '…'
  params: { type: 'text', label: { zh: '请求参数', en: 'Parameters' }, max: 8000 },
  time: { type: 'int', label: { zh: '耗时 (毫秒)', en: 'Time (ms)' }, list: false },
} as const satisfies Fields;

/** No add, edit or delete button: a log is only viewed. */
export const LOG_BUTTONS = { add: false, edit: false, delete: false } as const;

/** The logs are partitioned by month of their time: a list without a time range shows the last week. */
export const LOG_RECENT = { field: 'createTime', days: 7 } as const;

/** The usual log (blade_log_usual): events the server records (sign-outs, SMS sent through the log provider, …). */
export const logUsualResource = defineResource({
  code: 'log_usual',
  path: '/api/blade-log/usual',
  title: { zh: '通用日志', en: 'Usual log' },
  scope: 'tenant',
  readOnly: true,
  buttons: LOG_BUTTONS,
  recent: LOG_RECENT,
  nameField: 'logId',
  menu: { parent: 'monitor', route: '/monitor/log/usual', name: { zh: '通用日志', en: 'Usual log' }, sort: 1, icon: 'iconfont iconicon_doc' },
  fields: {
    logLevel: { type: 'string', label: { zh: '日志级别', en: 'Level' }, dict: 'log_level', max: 16, search: 'equal', width: 90 },
    logId: { type: 'string', label: { zh: '日志业务', en: 'Event' }, dict: 'log_event', max: 100, search: 'equal', width: 140 },
    logData: { type: 'text', label: { zh: '日志数据', en: 'Data' }, max: 4000, list: true },
    ...logRequestFields,
  },
});
