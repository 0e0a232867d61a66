import { areasMenus, areasMessages, areasResources } from '../area.js';
import { format, type I18nText, type Lang, t } from '../i18n.js';
import type { MenuDirectory } from '../menus.js';
import { coreMessages } from '../messages.js';
import auth from './auth/index.js';
import authority from './authority/index.js';
import base from './base/index.js';
import desk from './desk/index.js';
import device from './device/index.js';
import flow from './flow/index.js';
import monitor from './monitor/index.js';
import postsale from './postsale/index.js';
import product from './product/index.js';
import production from './production/index.js';
import resource from './resource/index.js';
import setting from './setting/index.js';
import storage from './storage/index.js';
import supplier from './supplier/index.js';
import system from './system/index.js';

/**
 * The registry: every business area of the contract, one line each (docs/architecture.md, "Areas"). Their
 * order is the order of `resources`: the engine lists the readers of a tree in it (the menu tree's are
 * data_scope, api_scope, then tenant_package, and a 403 names them), so a new area goes last.
 */
const AREAS = [
  flow,
  authority,
  system,
  desk,
  base,
  monitor,
  resource,
  product,
  production,
  device,
  auth,
  postsale,
  supplier,
  storage,
  setting,
] as const;

/** Every resource mounted by the engine, keyed by menu code. */
export const resources = /* @__PURE__ */ areasResources(AREAS);

/**
 * Messages the server sends back in `msg` (and that the console shows itself): the core's and every area's.
 * Keys are stable; the server picks the language from Accept-Language.
 */
export const messages = /* @__PURE__ */ areasMessages(coreMessages, AREAS);

export type MessageKey = keyof typeof messages;

export function msg(key: MessageKey, lang: Lang, params?: Record<string, string | number>): string {
  return format(messages[key][lang], params);
}

/**
 * A message kept to be shown later in the reader's language (a log's event): its key and parameters, a parameter
 * possibly a message itself (the reason a sign-in failed).
 */
export interface MessageRef {
  key: MessageKey;
  params?: Record<string, string | number | I18nText | MessageRef>;
}

/** A kept message in `lang`; a key this build no longer knows is shown as it is. */
export function msgOf(ref: MessageRef, lang: Lang): string {
  if (!Object.hasOwn(messages, ref.key)) return ref.key;
  const params = Object.fromEntries(Object.entries(ref.params ?? {}).map(([k, v]) => [k, typeof v !== 'object' ? v : 'key' in v ? msgOf(v, lang) : t(v, lang)]));
  return msg(ref.key, lang, params);
}

/** The directories of the menu tree (menus.md), each declared by its area. */
export const MENU_DIRECTORIES: readonly MenuDirectory[] = /* @__PURE__ */ areasMenus(AREAS);

export function menuDirectory(code: string): MenuDirectory | undefined {
  return MENU_DIRECTORIES.find((d) => d.code === code);
}
