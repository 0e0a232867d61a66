import { type Currency, type FieldDef, formatMoney, minorDigits, moneyCurrency, parseMoney } from '@console/contract';

/**
 * A `money` field in the console: the wire and the server hold an integer of minor units; the form holds the text
 * people type in major units ('19.90'), converted digit by digit both ways (`formatMoney` / `parseMoney`), so no
 * float ever holds an amount (0.1 + 0.2 is typed as '0.1' and '0.2', sent as 10 and 20).
 */

type Values = Readonly<Record<string, unknown>>;

/** Minor units as the wire has them (a safe integer, or a text of its digits), else undefined. */
export function minorUnits(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string' || !/^\d{1,16}$/.test(value)) return undefined;
  const minor = Number(value);
  return Number.isSafeInteger(minor) ? minor : undefined;
}

/** A stored amount as the form shows it, in major units of `currency` (1990 → '19.90'); anything else as it is. */
export function amountFormText(value: unknown, currency: Currency): unknown {
  const minor = minorUnits(value);
  return minor === undefined ? value : formatMoney(minor, currency);
}

/**
 * A typed amount as the wire takes it: the minor units of `text` in `currency` ('19.90' → 1990), '' and null as
 * they are (no value), and a text that is not exactly an amount of the currency ('19.999' in CNY) as it is, for the
 * server to refuse naming the field (the form's rule refuses it first).
 */
export function amountFromForm(value: unknown, currency: Currency): unknown {
  if (typeof value !== 'string' || value.trim() === '') return value;
  return parseMoney(value, currency) ?? value;
}

/**
 * Whether a text may stand in the amount box while it is typed: digits, and at most one point followed by at most
 * the currency's digits (none for JPY). A text longer than that is not taken, so '19.999' cannot be typed in CNY.
 */
export function acceptsAmountTyping(text: string, currency: Currency): boolean {
  const digits = minorDigits(currency);
  const pattern = digits ? new RegExp(`^\\d{0,16}(\\.\\d{0,${digits}})?$`) : /^\d{0,16}$/;
  return pattern.test(text);
}

/**
 * The currency of a money field in a form: the form's value of its currency field when it has one, else the
 * record being edited (a currency the form does not offer), else CNY.
 */
export function formCurrency(f: Pick<FieldDef, 'type' | 'currency'>, values: Values | undefined, record?: Values): Currency {
  const own = f.currency === undefined ? undefined : values?.[f.currency];
  return moneyCurrency(f, own === undefined || own === null || own === '' ? record : values);
}
