import { LANGS, type Lang } from '@console/contract/i18n';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { useSettings } from '../store/settings';
import { en } from './en';
import { zh } from './zh';

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: { zh: { translation: zh }, en: { translation: en } },
  lng: useSettings.getState().lang,
  fallbackLng: 'zh',
  interpolation: { escapeValue: false },
  initAsync: false,
});

const DAYJS_LOCALE: Record<Lang, string> = { zh: 'zh-cn', en: 'en' };
const HTML_LANG: Record<Lang, string> = { zh: 'zh-CN', en: 'en' };

function applyLanguage(lang: Lang): void {
  void i18n.changeLanguage(lang);
  dayjs.locale(DAYJS_LOCALE[lang]);
  document.documentElement.lang = HTML_LANG[lang];
}

applyLanguage(useSettings.getState().lang);
useSettings.subscribe((state, prev) => {
  if (state.lang !== prev.lang) applyLanguage(state.lang);
});

/** The current UI language, for contract texts: `t(def.title, useLang())`. */
export function useLang(): Lang {
  return useSettings((s) => s.lang);
}

export function isLang(value: string): value is Lang {
  return (LANGS as readonly string[]).includes(value);
}
