/**
 * Money is an integer count of a currency's minor units (fen for CNY) everywhere it is stored, sent, summed or
 * compared; a decimal text exists only where a person reads or types it, and where a payment provider asks for one
 * (Alipay's `total_amount`). No floating point touches an amount: texts are converted digit by digit.
 */
export const CURRENCIES = { CNY: 2, USD: 2, EUR: 2, HKD: 2, JPY: 0 } as const;
export type Currency = keyof typeof CURRENCIES;

/** the largest amount of minor units an amount may hold: exact as a JavaScript number and as a PostgreSQL bigint */
export const MAX_MINOR = Number.MAX_SAFE_INTEGER;

export function isCurrency(value: unknown): value is Currency {
  return typeof value === 'string' && Object.hasOwn(CURRENCIES, value);
}

/** digits after the decimal point of the currency's major unit */
export function minorDigits(currency: Currency): number {
  return CURRENCIES[currency];
}

/**
 * `'12.3'` in CNY → 1230. Undefined for anything that is not a plain non-negative decimal with at most the
 * currency's digits after the point (no sign, exponent, grouping or spaces inside), or that exceeds `MAX_MINOR`.
 */
export function parseMoney(text: string, currency: Currency): number | undefined {
  const digits = minorDigits(currency);
  const m = /^(\d{1,16})(?:\.(\d*))?$/.exec(text.trim());
  if (!m) return undefined;
  const fraction = m[2] ?? '';
  if (fraction.length > digits) return undefined;
  const minor = Number(`${m[1]}${fraction.padEnd(digits, '0')}`);
  return Number.isSafeInteger(minor) ? minor : undefined;
}

/** 1230 in CNY → `'12.30'`; -5 → `'-0.05'` (a refund's difference) */
export function formatMoney(minor: number, currency: Currency): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`not an amount of minor units: ${minor}`);
  const digits = minorDigits(currency);
  const sign = minor < 0 ? '-' : '';
  const text = String(Math.abs(minor)).padStart(digits + 1, '0');
  return digits === 0 ? `${sign}${text}` : `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/** a sign a person reads before an amount */
export const CURRENCY_SYMBOLS: Record<Currency, string> = { CNY: '¥', USD: '$', EUR: '€', HKD: 'HK$', JPY: '¥' };
