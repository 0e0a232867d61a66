import type { DictItem, FieldDef } from '@console/contract';

/** Dictionary items by dictionary code. */
export type DictMap = Readonly<Record<string, readonly DictItem[]>>;

export interface DictOption {
  label: string;
  value: string | number;
}

/** Numeric fields store the dictKey as a number; the options carry the value in the field's own type. */
export function dictOptions(field: FieldDef, dicts: DictMap): DictOption[] {
  const items = field.dict ? (dicts[field.dict] ?? []) : [];
  const numeric = field.type === 'int' || field.type === 'number';
  return items.map((item) => ({ label: item.dictValue, value: numeric ? Number(item.dictKey) : item.dictKey }));
}

/** The dictionary label of a stored value, or the value itself when the dictionary lacks it. */
export function dictLabel(field: FieldDef, dicts: DictMap, value: unknown): string {
  const items = field.dict ? (dicts[field.dict] ?? []) : [];
  const key = String(value);
  return items.find((item) => item.dictKey === key)?.dictValue ?? key;
}
