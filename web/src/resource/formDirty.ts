import dayjs from 'dayjs';
import { WIRE_DATETIME } from './display';

type Values = Record<string, unknown>;

/** A form value as compared for "changed": empty values alike, picked times as wire text. */
function normalise(value: unknown): unknown {
  if (value === undefined || value === null || value === '') return null;
  if (Array.isArray(value)) return value.length === 0 ? null : value.map(normalise);
  if (dayjs.isDayjs(value)) return value.format(WIRE_DATETIME);
  if (typeof value === 'object') {
    const out: Values = {};
    for (const key of Object.keys(value as Values).sort()) out[key] = normalise((value as Values)[key]);
    return out;
  }
  return value;
}

/** Whether the form's values differ from those it opened with (a field emptied again is unchanged). */
export function formChanged(initial: Values, current: Values): boolean {
  const keys = new Set([...Object.keys(initial), ...Object.keys(current)]);
  for (const key of keys) {
    if (JSON.stringify(normalise(initial[key])) !== JSON.stringify(normalise(current[key]))) return true;
  }
  return false;
}
