import { getTableColumns, sql } from 'drizzle-orm';
import { type AnyPgColumn, customType, type PgTable, index, integer, smallint, text, timestamp, varchar } from 'drizzle-orm/pg-core';

/** A 64-bit id stored as bigint and handled as a decimal string (JSON cannot carry it as a number). */
export const id = customType<{ data: string; driverData: string | number | bigint }>({
  dataType: () => 'bigint',
  fromDriver: (v) => String(v),
  toDriver: (v) => v,
});

export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** The audit columns of domain.md: who and when created/updated, status and the soft-delete flag. */
export const auditColumns = () => ({
  createUser: id('create_user'),
  createDept: id('create_dept'),
  createTime: ts('create_time').notNull().defaultNow(),
  updateUser: id('update_user'),
  updateTime: ts('update_time').notNull().defaultNow(),
  status: integer('status').notNull().default(1),
  isDeleted: smallint('is_deleted').notNull().default(0),
});

export const tenantColumn = () => varchar('tenant_id', { length: 12 }).notNull();

export const live = sql`is_deleted = 0`;

/**
 * The grams of a searchable text column (`search: 'like'` in its resource definition): the distinct
 * lower-cased characters and pairs of characters of `<column>`, computed by the database
 * (`app_grams`, migration 0012) into `<column>_grams`. With `searchGramsIndex` on it, a substring search
 * of any length has an index: a 1–2 character term is exactly `<column>_grams @> ARRAY[term]`, a longer
 * one has all its pairs among the grams (then ILIKE checks the order). The resource engine refuses to
 * mount a definition whose searchable field has no grams column, and test/search-grams.test.ts checks
 * the database has the column and its GIN index. Declare it as `titleGrams: searchGrams('title')`.
 */
export const searchGrams = (column: string) =>
  text(`${column}_grams`).array().generatedAlwaysAs(sql`app_grams(${sql.identifier(column)})`);

/** The GIN index (built-in array_ops, no extension) that serves `<column>_grams @> …`. */
export const searchGramsIndex = (name: string, grams: AnyPgColumn) => index(name).using('gin', grams);

type WithoutGrams<C> = { [K in keyof C as K extends `${string}Grams` ? never : K]: C[K] };
const readable = new WeakMap<object, Record<string, AnyPgColumn>>();

/**
 * A table's columns without its search grams, for reading rows: the grams only serve the index and
 * would more than double what a list reads (1.3 MB for 2,500 menus).
 */
export function rowColumns<T extends PgTable>(table: T): WithoutGrams<T['_']['columns']> {
  let cols = readable.get(table);
  if (!cols) {
    cols = Object.fromEntries(Object.entries(getTableColumns(table)).filter(([key]) => !key.endsWith('Grams'))) as Record<string, AnyPgColumn>;
    readable.set(table, cols);
  }
  return cols as WithoutGrams<T['_']['columns']>;
}
