import type { I18nText } from '../../i18n.js';

/** Messages of the base area (regions); merged into the contract's `messages` by the area registry. */
export const baseMessages = {
  regionCodeFormat: { zh: '区划编号应为 6、9 或 12 位数字', en: 'A region code has 6, 9 or 12 digits' },
} as const satisfies Record<string, I18nText>;
