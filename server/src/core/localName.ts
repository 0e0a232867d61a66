import type { Lang } from '@console/contract';

/**
 * A seeded or administered name in the caller's language: the English one (role_name_en, dept_name_en…)
 * for a caller in English, else, or while it has none, the Chinese one.
 */
export function localName(zh: string, en: string | null | undefined, lang: Lang): string {
  return lang === 'en' && en?.trim() ? en : zh;
}
