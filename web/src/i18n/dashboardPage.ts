/** Strings of the dashboard /wel/dashboard (lazy: registered by its chunk, i18n/lazy.ts). */
export const dashboardPageZh = {
  title: '仪表盘',
  days: '近 {{n}} 天',
  usersTotal: '用户总数',
  awaitingApproval: '待审核用户',
  tenants: '租户数',
  activeSessions: '在线会话',
  signIns: '每日登录次数',
  apiCalls: '每日接口调用与错误',
  calls: '接口调用',
  errors: '接口错误',
  loadFailed: '统计数据加载失败',
  retry: '重试',
};

export const dashboardPageEn: typeof dashboardPageZh = {
  title: 'Dashboard',
  days: 'Last {{n}} days',
  usersTotal: 'Users',
  awaitingApproval: 'Awaiting approval',
  tenants: 'Tenants',
  activeSessions: 'Active sessions',
  signIns: 'Sign-ins per day',
  apiCalls: 'API calls and errors per day',
  calls: 'API calls',
  errors: 'Errors',
  loadFailed: 'The figures could not be loaded',
  retry: 'Retry',
};
