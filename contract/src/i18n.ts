/** The console's two languages; zh is the default everywhere. */
export type Lang = 'zh' | 'en';
export const LANGS: readonly Lang[] = ['zh', 'en'];
export const DEFAULT_LANG: Lang = 'zh';

/** A text in both languages, used for labels and messages that live next to their definition. */
export interface I18nText {
  zh: string;
  en: string;
}

export function t(text: I18nText, lang: Lang): string {
  return text[lang] ?? text.zh;
}

/** Picks the language from an Accept-Language header value: the first of zh/en it names, else zh. */
export function langFromHeader(header: string | undefined | null): Lang {
  if (!header) return DEFAULT_LANG;
  for (const part of header.split(',')) {
    const tag = part.split(';')[0]?.trim().toLowerCase() ?? '';
    if (tag.startsWith('en')) return 'en';
    if (tag.startsWith('zh')) return 'zh';
  }
  return DEFAULT_LANG;
}

/** Replaces {name} placeholders. */
export function format(template: string, params?: Record<string, string | number>): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in params ? String(params[k]) : m));
}
