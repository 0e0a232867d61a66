import { describe, expect, it } from 'vitest';
import {
  badAmountMessage, defineResource, MAX_MINOR, messages, moneyCurrency, moneyText, msg, recordSchema, submitSchema,
} from '../src/index.js';

/** A resource with an amount in its row's currency and one always in CNY (min/max in minor units). */
const def = defineResource({
  code: 'money_test',
  path: '/api/test/money',
  title: { zh: '金额', en: 'Amounts' },
  scope: 'tenant',
  fields: {
    currency: { type: 'string', label: { zh: '币种', en: 'Currency' }, dict: 'currency' },
    price: { type: 'money', currency: 'currency', label: { zh: '价格', en: 'Price' }, required: true },
    tip: { type: 'money', label: { zh: '小费', en: 'Tip' }, min: 100, max: 50_000 },
  },
});

const create = submitSchema(def, 'create');
const update = submitSchema(def, 'update');
type Issue = { path: PropertyKey[]; code: string; params?: { kind?: string }; minimum?: unknown; maximum?: unknown };
/** the issue of one field, or the parsed value */
function parsed(body: Record<string, unknown>, schema = create): { value?: unknown; issue?: Issue } {
  const r = schema.safeParse(body);
  if (r.success) return { value: (r.data as Record<string, unknown>).price };
  return { issue: r.error.issues.find((i) => i.path[0] === 'price') as Issue | undefined };
}

describe('a money field in the input schema: minor units, an integer', () => {
  it('takes an integer, or a text of digits from a form post, as that many minor units', () => {
    expect(parsed({ price: 1990 }).value).toBe(1990);
    expect(parsed({ price: '1990' }).value).toBe(1990);
    expect(parsed({ price: ' 0 ' }).value).toBe(0);
    expect(parsed({ price: MAX_MINOR }).value).toBe(MAX_MINOR);
    expect(parsed({ price: String(MAX_MINOR) }).value).toBe(MAX_MINOR);
  });

  it('refuses a decimal, a sign and an exponent as not minor units, never rounding them', () => {
    for (const bad of [19.5, 0.1 + 0.2, '19.5', '19.50', '1e3', '-1', '+1', '1 000', '0x10', '¥19']) {
      expect(parsed({ price: bad }).issue, JSON.stringify(bad)).toMatchObject({ code: 'custom', params: { kind: 'money' } });
    }
    // a flag or an object is not a number nor a text at all
    for (const bad of [true, {}, []]) expect(parsed({ price: bad }).issue?.code, JSON.stringify(bad)).toBe('invalid_union');
  });

  it('refuses below 0 and beyond MAX_MINOR (2^53 - 1), and the field\'s min/max in minor units', () => {
    expect(parsed({ price: -1 }).issue).toMatchObject({ code: 'too_small', minimum: 0 });
    expect(parsed({ price: 2 ** 53 }).issue).toMatchObject({ code: 'too_big', maximum: MAX_MINOR });
    expect(parsed({ price: '9007199254740993' }).issue).toMatchObject({ code: 'too_big', maximum: MAX_MINOR });
    const tip = (v: unknown) => create.safeParse({ price: 1, tip: v });
    expect(tip(99).error?.issues[0]).toMatchObject({ path: ['tip'], code: 'too_small', minimum: 100 });
    expect(tip(50_001).error?.issues[0]).toMatchObject({ path: ['tip'], code: 'too_big', maximum: 50_000 });
    expect(tip('50000').data).toMatchObject({ tip: 50_000 });
  });

  it('a blank is no value: required on create (and on an update that blanks it), cleared where optional', () => {
    expect(parsed({}).issue?.code).toBe('invalid_union');
    for (const blank of [null, '', '  ']) expect(parsed({ price: blank }).issue, JSON.stringify(blank)).toMatchObject({ params: { kind: 'required' } });
    expect(parsed({ price: '' }, update).issue).toMatchObject({ params: { kind: 'required' } });
    expect(update.safeParse({ id: '1', tip: '' }).data).toMatchObject({ tip: null });
    expect(update.safeParse({ id: '1', tip: null }).data).toMatchObject({ tip: null });
    expect(update.safeParse({ id: '1' }).success).toBe(true);
  });

  it('is answered as an integer', () => {
    const record = recordSchema(def);
    expect(record.shape.price.safeParse(1990).success).toBe(true);
    expect(record.shape.price.safeParse(null).success).toBe(true);
    expect(record.shape.price.safeParse(19.9).success).toBe(false);
    expect(record.shape.price.safeParse('1990').success).toBe(false);
  });
});

describe('a money field\'s currency and texts', () => {
  it('reads the row\'s currency field; no field, an empty or an unknown code is CNY', () => {
    expect(moneyCurrency(def.fields.price, { currency: 'JPY' })).toBe('JPY');
    expect(moneyCurrency(def.fields.price, { currency: 'USD' })).toBe('USD');
    for (const record of [{ currency: '' }, { currency: null }, { currency: 'XXX' }, {}, undefined]) expect(moneyCurrency(def.fields.price, record)).toBe('CNY');
    expect(moneyCurrency(def.fields.tip, { currency: 'JPY' })).toBe('CNY');
  });

  it('shows an amount with its currency\'s sign in major units', () => {
    expect(moneyText(1990, 'CNY')).toBe('¥19.90');
    expect(moneyText(5, 'USD')).toBe('$0.05');
    expect(moneyText(1990, 'JPY')).toBe('¥1990');
    expect(moneyText(0, 'HKD')).toBe('HK$0.00');
  });

  it('says what a typed amount must be, by the currency\'s digits, and the wire\'s message is a message of the engine', () => {
    expect(badAmountMessage('价格', 'CNY', 'zh')).toBe('价格须是非负金额, 最多 2 位小数 (CNY)');
    expect(badAmountMessage('Price', 'JPY', 'en')).toBe('Price must be a non-negative whole amount (JPY has no decimals)');
    expect(msg('notMinorUnits', 'en', { field: 'Price' })).toBe('Price must be an amount in minor units (a non-negative integer)');
    expect(Object.keys(messages)).toEqual(expect.arrayContaining(['notMinorUnits', 'badAmount', 'badAmountWhole']));
  });
});
