import type { PgColumn } from 'drizzle-orm/pg-core';

export interface NumberRange {
  min: number;
  max: number;
}

const BY_COLUMN_TYPE: Record<string, NumberRange> = {
  PgSmallInt: { min: -32768, max: 32767 },
  PgInteger: { min: -2147483648, max: 2147483647 },
  PgSerial: { min: 1, max: 2147483647 },
  PgBigInt53: { min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER },
};

/** The values a numeric column can hold, so a number outside it is a 400 rather than a database error. */
export function columnRange(column: PgColumn | undefined): NumberRange | undefined {
  return column ? BY_COLUMN_TYPE[column.columnType] : undefined;
}

/** The narrower of the column's range and the field's own min/max. */
export function fieldRange(column: PgColumn | undefined, own: { min?: number; max?: number }): NumberRange | undefined {
  const base = columnRange(column);
  if (!base && own.min === undefined && own.max === undefined) return undefined;
  return {
    min: Math.max(base?.min ?? -Number.MAX_VALUE, own.min ?? -Number.MAX_VALUE),
    max: Math.min(base?.max ?? Number.MAX_VALUE, own.max ?? Number.MAX_VALUE),
  };
}
