import { chromeZh } from './chrome';
import { toolsZh } from './tools';
import { tabsZh } from './tabs';
import { pagesZh } from './pages';
import { listPageZh } from './listPage';

/** Chinese UI strings (the default language). en.ts mirrors this shape exactly. */
export const zh = {
  app: {
    name: 'IoT 管理控制台',
  },
  common: {
    ok: '确定',
    cancel: '取消',
    tip: '提示',
  },
  api: {
    unknownError: '未知错误',
    networkError: '网络异常, 请检查网络连接',
    badResponse: '服务器响应格式错误',
  },
  login: {
    title: '登录',
    subtitle: '多租户物联网后台管理系统',
    tenantId: '租户ID',
    username: '用户名',
    password: '密码',
    tenantIdRequired: '请输入租户ID',
    usernameRequired: '请输入用户名',
    passwordRequired: '请输入密码',
    submit: '登录',
    captcha: '验证码',
    captchaRequired: '请输入验证码',
    captchaRefresh: '看不清? 换一张',
    sessionExpired: '登录已过期，请重新登录',
  },
  layout: {
    home: '首页',
    expand: '展开菜单',
    collapse: '收起菜单',
    language: '语言',
    logout: '退出登录',
    logoutConfirm: '确定退出系统?',
  },
  languages: {
    zh: '中文',
    en: 'English',
  },
  errors: {
    '403': '抱歉, 你无权访问该页面',
    '404': '抱歉, 你访问的页面不存在',
    '500': '抱歉, 服务器出错了',
    crashed: '页面出错了, 请刷新后重试',
    backHome: '返回首页',
    reload: '重新加载',
  },
  home: {
    morning: '早上好',
    noon: '中午好',
    afternoon: '下午好',
    evening: '晚上好',
    greeting: '{{greeting}}, {{name}}',
    welcome: '欢迎使用 IoT 管理控制台',
    tenant: '租户: {{tenantId}}',
    role: '角色: {{role}}',
    roles: '角色: {{roles}}',
    notices: '最新通知',
    noNotices: '暂无通知',
  },
  resource: {
    add: '新增',
    edit: '编辑',
    view: '查看',
    delete: '删除',
    actions: '操作',
    pageTotal: '第 {{from}}-{{to}} 条/总共 {{total}} 条',
    pageTotalApprox: '第 {{from}}-{{to}} 条/约 {{total}} 条',
    deleteConfirm: '确定将选择数据删除?',
    selectAtLeastOne: '请选择至少一条数据',
    added: '新增成功',
    updated: '更新成功',
    deleted: '删除成功',
    pleaseEnter: '请输入{{label}}',
    pleaseSelect: '请选择{{label}}',
    tooLong: '{{label}}长度不能超过 {{max}} 个字符',
    rangeStart: '开始日期',
    rangeEnd: '结束日期',
    discardConfirm: '当前表单有未保存的修改，确定关闭吗?',
  },
  chrome: chromeZh,
  richText: {
    bold: '加粗',
    italic: '斜体',
    underline: '下划线',
    orderedList: '有序列表',
    bulletList: '无序列表',
    link: '插入链接',
    unlink: '移除链接',
    clear: '清除格式',
    linkPlaceholder: 'https://',
    apply: '应用',
  },
  tools: toolsZh,
  tabs: tabsZh,
  pages: pagesZh,
  list: listPageZh,
};

export type Messages = typeof zh;
