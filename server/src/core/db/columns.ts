import type { FieldDef, ResourceDef } from '@console/contract';
import { getTableColumns, getTableName, sql } from 'drizzle-orm';
import { type AnyPgColumn, customType, type PgColumnBuilderBase, type PgTable, index, integer, smallint, text, timestamp, varchar } from 'drizzle-orm/pg-core';

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
 * (`app_grams`, migration 0012) into `<column>_grams`. With its GIN index, a substring search
 * of any length has an index: a 1–2 character term is exactly `<column>_grams @> ARRAY[term]`, a longer
 * one has all its pairs among the grams (then ILIKE checks the order). The resource engine refuses to
 * mount a definition whose searchable field has no grams column, and test/short-search.test.ts checks
 * the database has the column and its GIN index.
 *
 * A table bound to a definition gets them from it: `withSearchGrams(def, { ...columns })` and
 * `...searchGramsIndexes(t)`. Declare one by hand (`titleGrams: searchGrams('title')`) only for a column
 * no definition searches with `like` (one filtered through the API, or a table without a definition).
 */
export const searchGrams = (column: string) =>
  text(`${column}_grams`).array().generatedAlwaysAs(sql`app_grams(${sql.identifier(column)})`);

/** The GIN index (built-in array_ops, no extension) that serves `<column>_grams @> …`. */
export const searchGramsIndex = (name: string, grams: AnyPgColumn) => index(name).using('gin', grams);

type SearchableFields<D> = D extends { fields: infer F } ? { [K in keyof F]: F[K] extends { search: 'like' } ? K : never }[keyof F] : never;
/** `<field>Grams` for each `search: 'like'` field of the definitions (as far as their types tell). */
type SearchGramsColumns<D, C> = { [K in SearchableFields<D> & keyof C & string as `${K}Grams`]: ReturnType<typeof searchGrams> };

/** The database name of a column as declared (`varchar('post_code')` → post_code). */
function declaredName(builder: PgColumnBuilderBase): string {
  const name = (builder as unknown as { config?: { name?: string } }).config?.name;
  if (!name) throw new Error('a searchable column must be declared with its database name');
  return name;
}

/**
 * A table's columns with the grams of every field its definitions search with `like` (several definitions
 * when the table serves several resources): `<field>Grams`, the grams of the field's column (the engine
 * reads field `x` from the column keyed `x`). Their indexes: `searchGramsIndexes` in the table's extra config.
 */
export function withSearchGrams<D extends Pick<ResourceDef, 'code' | 'fields'>, C extends Record<string, PgColumnBuilderBase>>(
  defs: D | readonly D[],
  columns: C,
): C & SearchGramsColumns<D, C> {
  const grams: Record<string, ReturnType<typeof searchGrams>> = {};
  const list: readonly D[] = Array.isArray(defs) ? defs : [defs as D];
  for (const def of list) {
    for (const [field, f] of Object.entries<FieldDef>(def.fields)) {
      if (f.search !== 'like') continue;
      const column = columns[field];
      if (!column) throw new Error(`resource ${def.code}: the searchable field ${field} has no column`);
      grams[`${field}Grams`] ??= searchGrams(declaredName(column));
    }
  }
  return { ...columns, ...grams } as C & SearchGramsColumns<D, C>;
}

/**
 * The GIN index of every grams column of a table (the `*Grams` keys), named `ix_<table>_<column>_grams`
 * where `<table>` is the table's name without its `blade_`/`ymy_` prefix; `names` keeps an older name
 * (by key) that does not follow this rule.
 */
export function searchGramsIndexes<T extends Record<string, AnyPgColumn>>(
  table: T,
  names: Partial<Record<keyof T & `${string}Grams`, string>> = {},
) {
  return Object.entries(table)
    .filter(([key]) => key.endsWith('Grams'))
    .map(([key, grams]) => {
      const name = (names as Record<string, string | undefined>)[key] ?? `ix_${getTableName(grams.table).replace(/^(blade|ymy)_/, '')}_${grams.name}`;
      return searchGramsIndex(name, grams);
    });
}

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
