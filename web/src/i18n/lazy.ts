import type { Lang } from '@console/contract/i18n';
import { i18n } from './index';
import type { actionsZh } from './actions';
import type { authorityZh } from './authority';
import type { dashboardPageZh } from './dashboardPage';
import type { deviceZh } from './device';
import type { flowZh } from './flow';
import type { iframePageZh } from './iframePage';
import type { infoPageZh } from './infoPage';
import type { listPageZh } from './listPage';
import type { passwordResetZh } from './passwordReset';
import type { policyPageZh } from './policyPage';
import type { productionZh } from './production';
import type { testPageZh } from './testPage';

/**
 * Strings of screens that load on first use: each chunk registers its own (`addMessages`) when it loads,
 * so the first page after sign-in does not carry them. Their shape is typed here (type imports only).
 */
export interface LazyMessages {
  actions: typeof actionsZh;
  authority: typeof authorityZh;
  dashboardPage: typeof dashboardPageZh;
  device: typeof deviceZh;
  flow: typeof flowZh;
  iframePage: typeof iframePageZh;
  infoPage: typeof infoPageZh;
  list: typeof listPageZh;
  passwordReset: typeof passwordResetZh;
  policyPage: typeof policyPageZh;
  production: typeof productionZh;
  testPage: typeof testPageZh;
}

/** Adds a lazy chunk's strings under `key`, in both languages (again: a no-op). */
export function addMessages<K extends keyof LazyMessages>(key: K, byLang: Record<Lang, LazyMessages[K]>): void {
  for (const [lang, messages] of Object.entries(byLang)) {
    if (!i18n.hasResourceBundle(lang, 'translation') || i18n.getResource(lang, 'translation', key) === undefined) {
      i18n.addResourceBundle(lang, 'translation', { [key]: messages }, true, false);
    }
  }
}
