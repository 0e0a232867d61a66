import { t as text, type I18nText } from '@console/contract/i18n';
import type { DataRouter } from 'react-router';
import { i18n } from '../i18n';
import { useSession } from '../store/session';
import { useSettings } from '../store/settings';
import { embeddedMenuEntry, menuLabel, menuTrail } from './layout/menuTree';
import { IFRAME_ROUTE } from './pages/iframe/embedUrl';
import { HOME_PATH } from './paths';

/** Labels of the routes outside the server's menu. */
const FIXED_LABELS: Record<string, () => string> = {
  '/login': () => i18n.t('login.title'),
  '/lock': () => i18n.t('chrome.lock.screenTitle'),
  [HOME_PATH]: () => i18n.t('layout.home'),
  '/403': () => '403',
  '/404': () => '404',
  '/500': () => '500',
  '/wel/dashboard': () => i18n.t('pages.titles.dashboard'),
  '/info/index': () => i18n.t('pages.titles.info'),
  '/test': () => i18n.t('pages.titles.test'),
};

const IFRAME_PREFIX = `${IFRAME_ROUTE}/`;

/** Labels of the routes with a parameter, by their first segment. */
const PREFIX_LABELS: Record<string, () => string> = {
  '/policy/': () => i18n.t('pages.titles.policy'),
  [IFRAME_PREFIX]: () => i18n.t('pages.titles.iframe'),
};

/**
 * The business areas' pages at fixed paths (their manifests' `routes`, given by the router): a path
 * without parameters by itself, one with parameters by the segments before them.
 */
export function addRouteLabels(routes: readonly { path: string; title: I18nText }[]): void {
  for (const { path, title } of routes) {
    const label = () => text(title, useSettings.getState().lang);
    const param = path.indexOf('/:');
    if (param < 0) FIXED_LABELS[path] = label;
    else PREFIX_LABELS[`${path.slice(0, param)}/`] = label;
  }
}

/** An embedded page from the menu (/myiframe/<menu code>) is named after its menu entry. */
function iframeMenuLabel(pathname: string): string | undefined {
  const node = embeddedMenuEntry(useSession.getState().menu, pathname);
  return node ? menuLabel(node, useSettings.getState().lang) : undefined;
}

/** A page's label in the UI language: fixed routes by path, the others by their menu entry. */
export function pageLabel(pathname: string): string | undefined {
  const fixed = FIXED_LABELS[pathname];
  if (fixed) return fixed();
  const embedded = iframeMenuLabel(pathname);
  if (embedded) return embedded;
  const prefix = Object.keys(PREFIX_LABELS).find((p) => pathname.startsWith(p));
  if (prefix) return PREFIX_LABELS[prefix]!();
  const node = menuTrail(useSession.getState().menu, pathname).at(-1);
  return node ? menuLabel(node, useSettings.getState().lang) : undefined;
}

/**
 * Keeps the document title on the current page's label (spec 2: the title comes from the tab label).
 * It follows the router itself, so the title changes together with the URL, before the page renders.
 */
export function syncDocumentTitle(router: DataRouter): () => void {
  const apply = () => {
    const label = pageLabel(router.state.location.pathname);
    if (label) document.title = label;
  };
  apply();
  const stops = [router.subscribe(apply), useSettings.subscribe(apply), useSession.subscribe(apply)];
  return () => stops.forEach((stop) => stop());
}
