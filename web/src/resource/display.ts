import { dictNameKey, type FieldDef, moneyCurrency, moneyText, sizeText } from '@console/contract';
import { dictLabel, type DictMap } from './dictValues';
import { minorUnits } from './moneyValues';

/** The wire format of datetimes (api.md section 1), in dayjs notation. */
export const WIRE_DATETIME = 'YYYY-MM-DD HH:mm:ss';
/** The wire format of dates (`date` fields). */
export const WIRE_DATE = 'YYYY-MM-DD';

/** Shown for a missing value. */
export const EMPTY_TEXT = '-';

/** The words of a flag (是/否, Yes/No), from the UI strings (resource.yes / resource.no). */
export interface YesNo {
  yes: string;
  no: string;
}

export interface DisplayOptions {
  /** the field's name and its record: the server's `<field>Name` beside it names dictionary codes and references */
  name?: string;
  record?: Readonly<Record<string, unknown>>;
  /** how a boolean reads (else 1/0) */
  yesNo?: YesNo;
  /** the word for a reference whose row is gone (its `<field>Name` answered null): shown with the id, never the bare id */
  refDeleted?: string;
}

/** A flag as the wire has it (0/1; true/false and '0'/'1' accepted). */
export function isOn(value: unknown): boolean {
  return value === 1 || value === true || value === '1' || value === 'true';
}

/**
 * A field's value as text: the server's display name for dictionary codes and references (`<field>Name`,
 * in the caller's language), else the dictionary's label; flags as yes/no; amounts with their currency's sign in
 * major units (`¥19.90`, the record's currency field); dates and datetimes as the server sends them.
 */
export function displayText(field: FieldDef, value: unknown, dicts: DictMap, opts: DisplayOptions = {}): string {
  if (value === undefined || value === null || value === '') return EMPTY_TEXT;
  if (field.type === 'boolean') return opts.yesNo ? (isOn(value) ? opts.yesNo.yes : opts.yesNo.no) : String(value);
  const named = opts.name !== undefined && opts.record ? opts.record[dictNameKey(opts.name)] : undefined;
  if ((field.dict || field.type === 'ref' || field.type === 'ids') && typeof named === 'string' && named !== '') return named;
  // a tree's root ('0' in the parent field) names no row
  if (field.type === 'ref' && String(value) === '0') return EMPTY_TEXT;
  if ((field.type === 'ref' || field.type === 'ids') && named === null && opts.refDeleted) return `${opts.refDeleted} (${String(value)})`;
  if (field.dict) return dictLabel(field, dicts, value);
  if (field.bytes && typeof value === 'number') return sizeText(value);
  // minor units, read in the row's currency: ¥19.90
  const minor = field.type === 'money' ? minorUnits(value) : undefined;
  if (minor !== undefined) return moneyText(minor, moneyCurrency(field, opts.record));
  if (field.type === 'json' && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    return entries.length ? entries.map(([k, v]) => `${k}: ${v === null ? EMPTY_TEXT : String(v)}`).join('; ') : EMPTY_TEXT;
  }
  return String(value);
}
