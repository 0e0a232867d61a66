import type { Lang } from '@console/contract/i18n';
import { i18n } from './index';
import type { actionsZh } from './actions';
import type { dashboardPageZh } from './dashboardPage';
import type { iframePageZh } from './iframePage';
import type { infoPageZh } from './infoPage';
import type { listPageZh } from './listPage';
import type { passwordResetZh } from './passwordReset';
import type { policyPageZh } from './policyPage';
import type { testPageZh } from './testPage';
import type { Messages } from './zh';

/**
 * Strings of screens that load on first use: each chunk registers its own (`addMessages`) when it loads,
 * so the first page after sign-in does not carry them. Their shape is typed here (type imports only): the
 * shell's below, the business areas' from their manifests (areas/index.ts adds them to this interface).
 */
export interface LazyMessages {
  actions: typeof actionsZh;
  dashboardPage: typeof dashboardPageZh;
  iframePage: typeof iframePageZh;
  infoPage: typeof infoPageZh;
  list: typeof listPageZh;
  passwordReset: typeof passwordResetZh;
  policyPage: typeof policyPageZh;
  testPage: typeof testPageZh;
}

// the keys `t` accepts: the first page's strings and every lazy bundle's
declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: Messages & LazyMessages };
  }
}

/** Adds a lazy chunk's strings under `key`, in both languages (again: a no-op). */
export function addMessages<K extends keyof LazyMessages>(key: K, byLang: Record<Lang, LazyMessages[K]>): void {
  for (const [lang, messages] of Object.entries(byLang)) {
    if (!i18n.hasResourceBundle(lang, 'translation') || i18n.getResource(lang, 'translation', key) === undefined) {
      i18n.addResourceBundle(lang, 'translation', { [key]: messages }, true, false);
    }
  }
}
