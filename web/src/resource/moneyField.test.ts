import { defineResource, type FieldDef } from '@console/contract';
import { isValidElement, type ReactElement } from 'react';
import { vi, describe, expect, it } from 'vitest';

// the reference select loads through the API client (browser-only set-up): not needed to build columns
vi.mock('./RefSelect', () => ({ RefSelect: () => null }));
import { buildColumns, COLUMN_WIDTHS } from './columns';
import { displayText } from './display';
import { createDefaults, formValuesOf, submitValues } from './fieldsOf';
import { MoneyInput } from './MoneyInput';
import { acceptsAmountTyping, amountFormText, amountFromForm, formCurrency } from './moneyValues';
import { fieldRules, moneyRule, type RuleMessages } from './rules';
import { gadgetResource as def } from './testing/engineFixture';

const price = def.fields.price;
const messages: RuleMessages = { pleaseEnter: (l) => `enter ${l}`, pleaseSelect: (l) => `select ${l}`, tooLong: (l, m) => `${l} > ${m}` };

/** The first error of a money field's rules for a typed value, the form holding `values` (null: none). */
async function moneyError(f: FieldDef, value: unknown, values: Record<string, unknown>, record?: Record<string, unknown>): Promise<string | null> {
  const rule = moneyRule(f, 'Price', 'en', record);
  const r = typeof rule === 'function' ? rule({ getFieldsValue: () => values } as never) : rule;
  try {
    await (r.validator as (rule: unknown, value: unknown) => Promise<void>)({}, value);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

describe('a money field in the list and the detail', () => {
  it('reads minor units in the row\'s currency, with its sign: ¥19.90, ¥1990 in yen, CNY without a currency', () => {
    expect(displayText(price, 1990, {}, { name: 'price', record: { currency: 'CNY', price: 1990 } })).toBe('¥19.90');
    expect(displayText(price, 1990, {}, { name: 'price', record: { currency: 'JPY', price: 1990 } })).toBe('¥1990');
    expect(displayText(price, 5, {}, { name: 'price', record: { currency: 'USD' } })).toBe('$0.05');
    expect(displayText(price, 123456789, {}, { name: 'price', record: { currency: 'HKD' } })).toBe('HK$1234567.89');
    expect(displayText(price, 30, {})).toBe('¥0.30');
    expect(displayText(price, 0, {}, { record: { currency: '' } })).toBe('¥0.00');
    expect(displayText(price, null, {})).toBe('-');
    // not an amount of minor units (a custom page's value): shown as it is, never rounded
    expect(displayText(price, 19.9, {})).toBe('19.9');
  });

  it('is a column showing that text, searched by an amount in major units sent as minor units', () => {
    const column = buildColumns<unknown>(def, { lang: 'en', dicts: {} }, { rangeStart: 's', rangeEnd: 'e', yes: 'Yes', no: 'No' }).find((c) => c.key === 'price')!;
    expect(column.width).toBe(COLUMN_WIDTHS.money);
    expect(column.sorter).toBe(true);
    const cell = (column.render as (dom: unknown, record: unknown) => ReactElement<{ text: string }>)(null, { price: 1990, currency: 'CNY' });
    expect(isValidElement(cell) && cell.props.text).toBe('¥19.90');
    const transform = (column.search as { transform: (value: unknown, path: string, all: unknown) => Record<string, unknown> }).transform;
    expect(transform('19.90', 'price', {})).toEqual({ price_equal: 1990 });
    expect(transform(' 0.1 ', 'price', { currency: 'CNY' })).toEqual({ price_equal: 10 });
    expect(transform('1990', 'price', { currency: 'JPY' })).toEqual({ price_equal: 1990 });
    // no amount of the currency: sent as typed, for the server to refuse naming the field
    expect(transform('19.9', 'price', { currency: 'JPY' })).toEqual({ price_equal: '19.9' });
    expect(transform('', 'price', {})).toEqual({});
  });
});

describe('a money field in the form: typed in major units, sent in minor units', () => {
  it('shows a stored amount in major units of the record\'s currency, and sends what is typed as an integer of minor units', () => {
    expect(formValuesOf(def, { id: '1', currency: 'CNY', price: 1990 })).toMatchObject({ currency: 'CNY', price: '19.90' });
    expect(formValuesOf(def, { id: '1', currency: 'JPY', price: 1990 })).toMatchObject({ price: '1990' });
    expect(formValuesOf(def, { id: '1', price: null })).toMatchObject({ price: null });
    expect(submitValues(def, { currency: 'CNY', price: '19.90' }, 'edit')).toEqual({ currency: 'CNY', price: 1990 });
    expect(submitValues(def, { currency: 'JPY', price: '100' }, 'create')).toEqual({ currency: 'JPY', price: 100 });
    expect(submitValues(def, { price: '19.9' }, 'create')).toEqual({ price: 1990 });
    expect(submitValues(def, { price: '' }, 'edit')).toEqual({ price: '' });
  });

  it('adds amounts as integers, never as floats: 0.1 and 0.2 are 10 and 20, 30 together (0.1 + 0.2 is not 0.3 in floats)', () => {
    const tenth = submitValues(def, { price: '0.1' }, 'create').price as number;
    const fifth = submitValues(def, { price: '0.2' }, 'create').price as number;
    expect([tenth, fifth]).toEqual([10, 20]);
    expect(tenth + fifth).toBe(submitValues(def, { price: '0.3' }, 'create').price);
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(submitValues(def, { price: '1.005' }, 'create').price).toBe('1.005');
    expect(amountFromForm('9007199254740.99', 'CNY')).toBe(900719925474099);
    expect(amountFormText(900719925474099, 'CNY')).toBe('9007199254740.99');
  });

  it('an edit whose form does not offer the currency converts in the record\'s', () => {
    expect(formCurrency(price, { price: '5' }, { currency: 'JPY' })).toBe('JPY');
    expect(formCurrency(price, { price: '5', currency: 'USD' }, { currency: 'JPY' })).toBe('USD');
    expect(submitValues(def, { price: '1990' }, 'edit', { currency: 'JPY' })).toEqual({ price: 1990 });
    expect(submitValues(def, { price: '19.90' }, 'edit', { currency: 'CNY' })).toEqual({ price: 1990 });
  });

  it('starts a new record with an amount\'s default (minor units) in major units', () => {
    const withDefault = defineResource({ ...def, fields: { ...def.fields, price: { ...price, defaultValue: 500 } } });
    expect(createDefaults(withDefault)).toMatchObject({ price: '5.00' });
    expect(createDefaults(withDefault, { currency: 'JPY' })).toMatchObject({ currency: 'JPY', price: '500' });
  });

  it('refuses an amount that is not exact in the form\'s currency (19.999 in CNY, 19.9 in JPY), a sign or an exponent, and one beyond max', async () => {
    expect(await moneyError(price, '19.99', { currency: 'CNY' })).toBeNull();
    expect(await moneyError(price, '100', { currency: 'JPY' })).toBeNull();
    expect(await moneyError(price, '', { currency: 'JPY' })).toBeNull();
    expect(await moneyError(price, '19.999', { currency: 'CNY' })).toBe('Price must be a non-negative amount in CNY with at most 2 decimals');
    expect(await moneyError(price, '19.9', { currency: 'JPY' })).toBe('Price must be a non-negative whole amount (JPY has no decimals)');
    expect(await moneyError(price, '19.9', {}, { currency: 'JPY' })).toBe('Price must be a non-negative whole amount (JPY has no decimals)');
    for (const bad of ['-1', '1e3', '¥5', '1,000']) expect(await moneyError(price, bad, {}), bad).toBe('Price must be a non-negative amount in CNY with at most 2 decimals');
    expect(await moneyError(price, '100000.00', {})).toBeNull();
    expect(await moneyError(price, '100000.01', {})).toBe('Price must be at most ¥100000.00');
    expect(await moneyError(price, '10000001', { currency: 'JPY' })).toBe('Price must be at most ¥10000000');
    expect(fieldRules(price, 'Price', 'en', messages).length).toBe(1);
  });

  it('takes no more digits after the point than the currency has, and no sign or letter, as they are typed', () => {
    for (const ok of ['', '0', '19', '19.', '19.9', '19.99', '.5']) expect(acceptsAmountTyping(ok, 'CNY'), ok).toBe(true);
    for (const bad of ['19.999', '-1', '1e3', '1,000', '¥1', '1.2.3', ' 1']) expect(acceptsAmountTyping(bad, 'CNY'), bad).toBe(false);
    expect(acceptsAmountTyping('1990', 'JPY')).toBe(true);
    expect(acceptsAmountTyping('19.', 'JPY')).toBe(false);
  });

  it('is a text box with the currency\'s sign and the numeric keypad, passing on only what may be typed', () => {
    const typed: string[] = [];
    const box = MoneyInput({ value: '19.9', onChange: (v) => typed.push(v), currency: 'CNY' }) as ReactElement<{
      value: string; prefix: string; inputMode: string; onChange: (e: { target: { value: string } }) => void;
    }>;
    expect(box.props).toMatchObject({ value: '19.9', prefix: '¥', inputMode: 'decimal' });
    box.props.onChange({ target: { value: '19.99' } });
    box.props.onChange({ target: { value: '19.999' } });
    box.props.onChange({ target: { value: '-19' } });
    expect(typed).toEqual(['19.99']);
    const yen = MoneyInput({ value: undefined, currency: 'JPY' }) as ReactElement<{ value: string; prefix: string; inputMode: string }>;
    expect(yen.props).toMatchObject({ value: '', prefix: '¥', inputMode: 'numeric' });
    const usd = MoneyInput({ value: '1', currency: 'USD' }) as ReactElement<{ prefix: string }>;
    expect(usd.props.prefix).toBe('$');
  });
});
