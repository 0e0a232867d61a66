import { format as fill, type I18nText, type Lang, t } from './i18n.js';
import { type Currency, CURRENCY_SYMBOLS, formatMoney, isCurrency, minorDigits } from './money.js';
import type { FieldDef } from './resourceDef.js';

/**
 * The resource engine's `money` fields (zod-free: the console's lists and forms use it without the input schemas).
 * The value is an integer of the currency's minor units wherever it is stored, sent or compared; people read and
 * type it in major units, converted digit by digit (`formatMoney`, `parseMoney`), never through a float.
 */

/** The currency of a `money` field whose definition names no currency field, or whose row holds no known code. */
export const MONEY_DEFAULT_CURRENCY: Currency = 'CNY';

/** The currency of a `money` field's value in a record: the code its `currency` field holds there, else CNY. */
export function moneyCurrency(f: Pick<FieldDef, 'type' | 'currency'>, record: Readonly<Record<string, unknown>> | undefined): Currency {
  const code = f.currency === undefined ? undefined : record?.[f.currency];
  return isCurrency(code) ? code : MONEY_DEFAULT_CURRENCY;
}

/** An amount of minor units as people read it: `¥19.90` (1990 in CNY), `¥100` (100 in JPY). */
export function moneyText(minor: number, currency: Currency): string {
  return `${CURRENCY_SYMBOLS[currency]}${formatMoney(minor, currency)}`;
}

/** What is said of an amount that is not one: on the wire (`notMinorUnits`), or typed in major units (`badAmount…`). */
export const MONEY_MESSAGES = {
  notMinorUnits: { zh: '{field}须为以最小货币单位 (如分) 计的非负整数', en: '{field} must be an amount in minor units (a non-negative integer)' },
  badAmount: { zh: '{field}须是非负金额, 最多 {digits} 位小数 ({currency})', en: '{field} must be a non-negative amount in {currency} with at most {digits} decimals' },
  badAmountWhole: { zh: '{field}须是非负整数金额 ({currency} 没有小数)', en: '{field} must be a non-negative whole amount ({currency} has no decimals)' },
} as const satisfies Record<string, I18nText>;

/** The message of a typed amount that is not one in `currency` (too many decimals, a sign, an exponent, a letter). */
export function badAmountMessage(label: string, currency: Currency, lang: Lang): string {
  const digits = minorDigits(currency);
  return fill(t(digits ? MONEY_MESSAGES.badAmount : MONEY_MESSAGES.badAmountWhole, lang), { field: label, digits, currency });
}
