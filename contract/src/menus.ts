import type { I18nText } from './i18n.js';

/**
 * The directories of the menu tree (menus.md): a resource's `menu.parent` names one. A directory is seeded
 * with the first screen placed in it, never before.
 */
export interface MenuDirectory {
  code: string;
  name: I18nText;
  route: string;
  sort: number;
  icon: string;
  /** a directory inside another (supplier › region) */
  parent?: string;
}

export const MENU_DIRECTORIES: readonly MenuDirectory[] = [
  { code: 'desk', name: { zh: '工作台', en: 'Workbench' }, route: '/desk', sort: 1, icon: 'iconfont iconicon_airplay' },
  // first: the sidebar shows /production only as its first entry (spec section 2), and production is the business
  { code: 'production', name: { zh: '生产管理', en: 'Production' }, route: '/production', sort: 0, icon: 'iconfont iconicon_work' },
  { code: 'product', name: { zh: '产品管理', en: 'Products' }, route: '/product', sort: 20, icon: 'iconfont iconicon_mobilephone' },
  { code: 'device', name: { zh: '设备运维', en: 'Device operations' }, route: '/device', sort: 30, icon: 'iconfont iconicon_setting' },
  { code: 'work', name: { zh: '我的事务', en: 'My work' }, route: '/work', sort: 2, icon: 'iconfont iconicon_doc' },
  { code: 'flow', name: { zh: '流程管理', en: 'Processes' }, route: '/flow', sort: 40, icon: 'iconfont iconicon_exchange' },
  { code: 'authority', name: { zh: '权限管理', en: 'Authority' }, route: '/authority', sort: 96, icon: 'iconfont icon-quanxian' },
  { code: 'base', name: { zh: '基础配置', en: 'Basics' }, route: '/base', sort: 95, icon: 'iconfont iconicon_compile' },
  { code: 'resource', name: { zh: '资源管理', en: 'Resources' }, route: '/resource', sort: 97, icon: 'iconfont iconicon_folder' },
  { code: 'monitor', name: { zh: '系统监控', en: 'Monitoring' }, route: '/monitor', sort: 98, icon: 'iconfont icon-jiankong' },
  { code: 'system', name: { zh: '系统管理', en: 'System' }, route: '/system', sort: 99, icon: 'iconfont iconicon_setting' },
];

export function menuDirectory(code: string): MenuDirectory | undefined {
  return MENU_DIRECTORIES.find((d) => d.code === code);
}

/**
 * A menu entry that is a link rather than a resource's screen (monitor › api_doc opens /api/docs in a new
 * window): seeded under its directory by the module that owns it, and granted to the platform's administrators.
 */
export interface MenuLink {
  code: string;
  /** code of the directory */
  parent: string;
  /** a console route, or a server path such as /api/docs */
  route: string;
  name: I18nText;
  sort: number;
  icon?: string;
  /** opens in a new window (blade_menu.is_open = 2) */
  newWindow?: boolean;
}
