import { type DictItem, dictKeyOf, type FieldDef, prefixedDictKey } from '@console/contract';

/** Dictionary items by dictionary code. */
export type DictMap = Readonly<Record<string, readonly DictItem[]>>;

export interface DictOption {
  label: string;
  value: string | number;
}

/**
 * Numeric fields store the dictKey as a number; the options carry the value in the field's own type (`flow_1` for a
 * `dictPrefixed` field, as it is stored).
 */
export function dictOptions(field: FieldDef, dicts: DictMap): DictOption[] {
  const items = field.dict ? (dicts[field.dict] ?? []) : [];
  const numeric = field.type === 'int' || field.type === 'number';
  const valueOf = (key: string) => (numeric ? Number(key) : field.dict && field.dictPrefixed ? prefixedDictKey(field.dict, key) : key);
  return items.map((item) => ({ label: item.dictValue, value: valueOf(item.dictKey) }));
}

/** The dictionary label of a stored value, or the value itself when the dictionary lacks it. */
export function dictLabel(field: FieldDef, dicts: DictMap, value: unknown): string {
  const items = field.dict ? (dicts[field.dict] ?? []) : [];
  const key = dictKeyOf(field, String(value));
  return items.find((item) => item.dictKey === key)?.dictValue ?? String(value);
}
