import type { MenuRoute } from '@console/contract';
import { menuTrail, opensNewWindow } from '../layout/menuTree';

/** The query option that opens a page in a new window instead of a tab: `/system/param?target=_blank`. */
export const NEW_WINDOW_PARAM = 'target';
export const NEW_WINDOW_VALUE = '_blank';

interface Target {
  pathname: string;
  search: string;
  hash: string;
}

/** The query without the new-window option, or null when it does not carry the option. */
export function withoutNewWindowOption(search: string): string | null {
  const params = new URLSearchParams(search);
  if (!params.getAll(NEW_WINDOW_PARAM).includes(NEW_WINDOW_VALUE)) return null;
  params.delete(NEW_WINDOW_PARAM);
  const query = params.toString();
  return query ? `?${query}` : '';
}

/** A tab's key (path and query) with the new-window option added. */
export function withNewWindowOption(key: string): string {
  return `${key}${key.includes('?') ? '&' : '?'}${NEW_WINDOW_PARAM}=${NEW_WINDOW_VALUE}`;
}

/**
 * The URL to open in a new window instead of navigating to `next` in this one, or null. The option is
 * dropped from the URL opened (the new window shows the page normally); a menu entry the server marks
 * to open in a new window (isOpen 2) opens there too, wherever the link to it comes from.
 */
export function newWindowUrl(next: Target, menu: readonly MenuRoute[]): string | null {
  const search = withoutNewWindowOption(next.search);
  if (search !== null) return `${next.pathname}${search}${next.hash}`;
  const node = menuTrail(menu, next.pathname).at(-1);
  return node && opensNewWindow(node) ? `${next.pathname}${next.search}${next.hash}` : null;
}
