import type { I18nText } from './i18n.js';

/**
 * A directory of the menu tree (menus.md): a resource's `menu.parent` names one. A directory is seeded
 * with the first screen placed in it, never before. Each area declares its own (`defineArea({ menus })`);
 * `MENU_DIRECTORIES` (areas/index.ts) lists them all.
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
