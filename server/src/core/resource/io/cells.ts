import {
  type Currency, dictNameKey, type FieldDef, formatMoney, hasDisplayName, type Lang, MAX_MINOR, MONEY_DEFAULT_CURRENCY, moneyCurrency, type ResourceDef,
  shownInForm, t,
} from '@console/contract';
import { formatDateTime } from '../../time.js';

/** Excel keeps at most this many characters in a cell. */
export const CELL_MAX = 32_767;

/** The columns of an export: the answered fields, headed by their labels in the caller's language. */
export function exportColumns(def: ResourceDef, lang: Lang): Array<{ name: string; header: string; width: number; value: (rec: Record<string, unknown>) => unknown }> {
  return Object.entries(def.fields).filter(([, f]) => !f.writeOnly && f.type !== 'json').map(([name, f]) => {
    // a dictionary code or a reference is written as its display value
    const shown = hasDisplayName(f) ? dictNameKey(name) : name;
    return {
      name,
      header: t(f.label, lang),
      width: Math.max(10, Math.min(60, Math.round((f.width ?? (f.type === 'datetime' ? 170 : 140)) / 7))),
      value: (rec: Record<string, unknown>) => {
        const v = rec[shown] ?? rec[name];
        if (v === null || v === undefined) return null;
        // an amount as people read it in the row's currency (a text: 19.90, never a float)
        if (f.type === 'money' && typeof v === 'number') return formatMoney(v, moneyCurrency(f, rec));
        if (typeof v === 'string' && v.length > CELL_MAX) return v.slice(0, CELL_MAX);
        return v;
      },
    };
  });
}

/** The fields an import reads: those a form offers, and every required one. */
export function importFields(def: ResourceDef): Array<[string, FieldDef]> {
  return Object.entries(def.fields).filter(([name, f]) => name !== def.tree?.ancestorsColumn && f.type !== 'json' && (shownInForm(f) || f.required));
}

/** A header cell as a lookup key: trimmed, without a required mark, lower case. */
export function headerKey(text: string): string {
  return text.replace(/^[*＊\s]+|[*＊\s]+$/g, '').toLowerCase();
}

/** Header text → field name: the zh and en labels and the field name itself all name a field. */
export function headerMap(def: ResourceDef): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, f] of importFields(def)) {
    for (const text of [name, f.label.zh, f.label.en]) out.set(headerKey(text), name);
  }
  return out;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A cell as the text `submit` would receive. A date typed in Excel is a calendar time without a zone
 * (the reader gives its fields as UTC), written in the wire format and read in the display zone as any
 * typed-in time would be.
 */
export function cellText(v: unknown, f: FieldDef): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) return undefined;
    const day = `${v.getUTCFullYear()}-${pad(v.getUTCMonth() + 1)}-${pad(v.getUTCDate())}`;
    return f.type === 'date' ? day : `${day} ${pad(v.getUTCHours())}:${pad(v.getUTCMinutes())}:${pad(v.getUTCSeconds())}`;
  }
  if (typeof v === 'object') {
    const o = v as { richText?: Array<{ text?: string }>; result?: unknown; text?: unknown; error?: unknown };
    if (Array.isArray(o.richText)) return cellText(o.richText.map((r) => r.text ?? '').join(''), f);
    if ('result' in o) return cellText(o.result, f);
    if ('text' in o) return cellText(o.text, f);
    return undefined;
  }
  if (typeof v === 'boolean') return v ? '1' : '0';
  const text = String(v).trim();
  return text === '' ? undefined : text;
}

/** An example value for the template's second row (`currency`: the example row's, for a `money` field). */
export function exampleValue(f: FieldDef, lang: Lang, dictFirst: string | undefined, currency: Currency = MONEY_DEFAULT_CURRENCY): string | number {
  if (f.dict) return dictFirst ?? '';
  switch (f.type) {
    case 'money':
      // major units, as a text (19.90 in CNY): the cell an import reads back digit by digit
      return formatMoney(Math.min(Math.max(1990, f.min ?? 0), f.max ?? MAX_MINOR), currency);
    case 'int':
    case 'number':
      return f.min ?? 1;
    case 'boolean':
      return 1;
    case 'datetime':
      return formatDateTime(new Date()) ?? '';
    case 'date':
      return (formatDateTime(new Date()) ?? '').slice(0, 10);
    case 'id':
    case 'ref':
    case 'ids':
      return '';
    case 'richtext':
      return `<p>${t(f.label, lang)}</p>`;
    case 'file':
    case 'image':
      return 'https://example.com/a.png';
    default:
      return lang === 'zh' ? `示例${t(f.label, lang)}` : `Example ${t(f.label, lang).toLowerCase()}`;
  }
}
