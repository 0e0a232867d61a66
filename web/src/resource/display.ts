import type { FieldDef } from '@console/contract';
import { dictLabel, type DictMap } from './dictValues';

/** The wire format of datetimes (api.md section 1), in dayjs notation. */
export const WIRE_DATETIME = 'YYYY-MM-DD HH:mm:ss';

/** Shown for a missing value. */
export const EMPTY_TEXT = '-';

/** A field's value as text: dictionary labels resolved, datetimes as the server sends them. */
export function displayText(field: FieldDef, value: unknown, dicts: DictMap): string {
  if (value === undefined || value === null || value === '') return EMPTY_TEXT;
  if (field.dict) return dictLabel(field, dicts, value);
  return String(value);
}
