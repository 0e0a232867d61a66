import type { Lang } from '@console/contract';

/**
 * The label column of the personal-info forms: wide enough for the longest label in the language
 * ("Confirm password" with its required mark and colon), and the forms wrap a label rather than cut it
 * should a font still make it longer.
 */
export function infoLabelCol(lang: Lang): { flex: string } {
  return { flex: lang === 'en' ? '160px' : '110px' };
}
