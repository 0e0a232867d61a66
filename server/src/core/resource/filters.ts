import {
  camelToSnake, dictKeyOf, type FieldDef, filterableFields, prefixedDictKey, isDateText, type Lang, MAX_IDS_PER_CALL, msg, parseFilterKey,
  RESERVED_QUERY_KEYS, type ResourceDef, snakeToCamel, sortableFields, t,
} from '@console/contract';
import { asc, desc, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { badRequest } from '../errors.js';
import { isId } from '../ids.js';
import { parseDateTime } from '../time.js';
import { columnRange } from './ranges.js';
import type { ResourceHooks } from './hooks.js';

export type ColumnMap = Record<string, PgColumn>;

const TEXT_TYPES = new Set(['string', 'text', 'richtext']);
const LIKE_OPS = new Set(['like', 'likeleft', 'likeright', 'notlike']);
const DATE_OPS = new Set(['datege', 'datele', 'dategt', 'datelt', 'dateequal']);

function escapeLike(v: string): string {
  return v.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Resolves a client-given field name (camelCase, snake_case, or one of the field's BladeX aliases) to a definition field name. */
function resolveField(name: string, fields: Record<string, FieldDef>): string | undefined {
  if (Object.hasOwn(fields, name)) return name;
  const camel = snakeToCamel(name);
  if (Object.hasOwn(fields, camel)) return camel;
  return Object.entries(fields).find(([, f]) => f.aliases?.includes(name))?.[0];
}

function parseValue(f: FieldDef, col: PgColumn, name: string, raw: string, lang: Lang): unknown {
  const label = t(f.label, lang);
  switch (f.type) {
    case 'int':
    case 'number': {
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n)) throw badRequest('notNumber', { field: label }, { [name]: msg('notNumber', lang, { field: label }) });
      if (f.type === 'int' && !Number.isInteger(n)) throw badRequest('notInteger', { field: label }, { [name]: msg('notInteger', lang, { field: label }) });
      const range = columnRange(col);
      if (range && (n < range.min || n > range.max)) {
        const params = { field: label, min: range.min, max: range.max };
        throw badRequest('outOfRange', params, { [name]: msg('outOfRange', lang, params) });
      }
      return n;
    }
    case 'money': {
      // minor units, as the wire has them: digits only (no decimal, sign or exponent to round)
      const text = raw.trim();
      if (!/^\d{1,16}$/.test(text) || !Number.isSafeInteger(Number(text))) {
        throw badRequest('notMinorUnits', { field: label }, { [name]: msg('notMinorUnits', lang, { field: label }) });
      }
      return Number(text);
    }
    case 'id':
      if (!isId(raw.trim())) throw badRequest('badId', { field: label }, { [name]: msg('badId', lang, { field: label }) });
      return raw.trim();
    case 'date':
      if (!isDateText(raw.trim())) throw badRequest('badDate', { field: label }, { [name]: msg('badDate', lang, { field: label }) });
      return raw.trim();
    case 'datetime': {
      const d = parseDateTime(raw);
      if (!d) throw badRequest('badDate', { field: label }, { [name]: msg('badDate', lang, { field: label }) });
      return d;
    }
    default:
      // a field stored as `flow_1` is found by its bare dictKey too
      return f.dict && f.dictPrefixed ? prefixedDictKey(f.dict, dictKeyOf(f, raw.trim())) : raw;
  }
}

/**
 * Avue's date-range search sends its picker's own value (`releaseTimeRange[]=a&releaseTimeRange[]=b`)
 * beside the `_datege` / `_datelt` keys that do the filtering: a range key of a datetime field is ignored.
 */
function isRangeKey(key: string, fields: Record<string, FieldDef>): boolean {
  const m = /^(.+)Range(\[\])?$/.exec(key);
  const name = m?.[1] ? resolveField(m[1], fields) : undefined;
  return name !== undefined && fields[name]?.type === 'datetime';
}

/** A day given without a time (`2024-05-01`) means the whole day. */
function isDayOnly(raw: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(raw.trim());
}

/** A substring condition that the text-match function can answer from an index. */
export interface TextMatch {
  /** position of the condition in `conditions` */
  index: number;
  column: PgColumn;
  /** the column's grams (`<column>_grams`, see searchGrams in core/db/columns.ts), when it has them */
  grams?: PgColumn;
  /** the ILIKE pattern, wildcards escaped */
  pattern: string;
}

export interface Filters {
  conditions: SQL[];
  textMatches: TextMatch[];
}

/** The grams column of a text column (`<column>_grams`), if the table has one. */
export function gramsColumn(columns: ColumnMap, column: PgColumn): PgColumn | undefined {
  const name = `${column.name}_grams`;
  return Object.values(columns).find((c) => c.name === name);
}

/**
 * A resource's searchable text fields (`search: 'like'`) must have their grams column, so that a search
 * of any length, one Chinese character included, has an index: thrown when the engine mounts it.
 */
export function checkSearchGrams(def: ResourceDef, columns: ColumnMap): void {
  for (const [name, f] of Object.entries(def.fields)) {
    if (f.search === 'prefix' && !f.upperCase) {
      throw new Error(`resource ${def.code}: the prefix search of ${name} needs upperCase (a case-sensitive prefix the column's btree, COLLATE "C", answers)`);
    }
    if (f.search !== 'like') continue;
    const column = columns[name];
    if (!column || !gramsColumn(columns, column)) {
      throw new Error(`resource ${def.code}: the searchable field ${name} needs its grams column (${column?.name ?? name}_grams: declare the table with withSearchGrams() and searchGramsIndexes(), core/db/columns.ts)`);
    }
  }
}

/**
 * `col` starts with `prefix`, as a range of a btree in COLLATE "C" (of the column, or of the expression `col COLLATE
 * "C"`; the database's own collation may not be C): `>= prefix and < prefix'`, the last character one code point up
 * (every string in that range starts with the prefix, in code point order). Not `like 'prefix%'`: under row-level
 * security a condition that is not leakproof (LIKE's textlike) never becomes an index condition, so a tenant's SN
 * prefix walked the tenant's whole index (212 ms on 1,000,000 warnings); the comparisons are leakproof.
 */
export function prefixRange(col: PgColumn, prefix: string): SQL {
  const chars = [...prefix];
  const last = chars.pop()?.codePointAt(0);
  if (last === undefined) return sql`true`;
  let next = last + 1;
  if (next === 0xd800) next = 0xe000; // no character is a lone surrogate
  if (next > 0x10ffff) return sql`${col} COLLATE "C" like ${`${escapeLike(prefix)}%`}`;
  return sql`(${col} COLLATE "C" >= ${prefix} and ${col} COLLATE "C" < ${chars.join('') + String.fromCodePoint(next)})`;
}

/**
 * A region search (`search: 'region'`) sends `<field>_likeright` with a region's code, which finds the rows of that
 * region and of the regions under it only through the resource's own parameter (the stored value is a path, not a
 * prefix of the code): thrown when the engine mounts a resource without it.
 */
export function checkRegionSearch(def: ResourceDef, hooks: Pick<ResourceHooks, 'listParams'>): void {
  for (const [name, f] of Object.entries(def.fields)) {
    if (f.search !== 'region') continue;
    if (!f.regionPath) throw new Error(`resource ${def.code}: the region search of ${name} is for a regionPath field`);
    if (!hooks.listParams?.[`${name}_likeright`]) {
      throw new Error(`resource ${def.code}: the region search of ${name} needs its listParams hook ${name}_likeright (the region and every region under it)`);
    }
  }
}

/**
 * Whether a list's filters include a substring match no index serves: one on a text column without a
 * grams column (a field that is not searchable in the console but can be filtered through the API).
 * Such a search may read every row of the tenant, so the engine runs it in the heavy lane.
 */
export function unindexed(filters: Filters): boolean {
  return filters.textMatches.some((m) => !m.grams);
}

/**
 * The condition of a comparing operator (equal, notequal, ge, gt, le, lt and their date forms): a day given to a
 * datetime field stands for the whole day. Undefined for an operator that compares nothing.
 */
function comparison(f: FieldDef, col: PgColumn, key: string, op: string, value: string, lang: Lang): SQL | undefined {
  const v = parseValue(f, col, key, value, lang);
  const dayRange = f.type === 'datetime' && isDayOnly(value);
  const nextDay = dayRange ? new Date((v as Date).getTime() + 86_400_000) : null;
  switch (op) {
    case 'default':
    case 'equal':
    case 'dateequal':
      return nextDay ? sql`${col} >= ${v} and ${col} < ${nextDay}` : sql`${col} = ${v}`;
    case 'notequal':
      return sql`${col} <> ${v}`;
    case 'ge':
    case 'datege':
      return sql`${col} >= ${v}`;
    case 'gt':
    case 'dategt':
      return sql`${col} ${nextDay ? sql`>=` : sql`>`} ${nextDay ?? v}`;
    case 'le':
    case 'datele':
      return nextDay ? sql`${col} < ${nextDay}` : sql`${col} <= ${v}`;
    case 'lt':
    case 'datelt':
      return sql`${col} < ${v}`;
  }
  return undefined;
}

/**
 * Builds the WHERE conditions of a list from its query (api.md section 2). Unknown fields, wrong
 * operators and unparsable values are 400s naming the key; values are always bound parameters.
 */
export function buildFilters(def: ResourceDef, columns: ColumnMap, query: Record<string, unknown>, lang: Lang): Filters {
  const fields = filterableFields(def);
  const out: SQL[] = [];
  const textMatches: TextMatch[] = [];
  // Tenant tables are under row-level security, where no index serves a substring condition: the engine
  // finds their matches with app_text_match, and a list with more matches walks its ordered index, for
  // which a plain ILIKE gives the planner the better estimate. On other tables the grams condition lets
  // the planner use the grams index itself; ILIKE decides.
  const gramsInWhere = def.scope !== 'tenant';
  const ilike = (col: PgColumn, pattern: string) => {
    const grams = gramsColumn(columns, col);
    textMatches.push({ index: out.length, column: col, grams, pattern });
    out.push(grams && gramsInWhere ? sql`(${grams} @> app_like_grams(${pattern}) and ${col} ilike ${pattern})` : sql`${col} ilike ${pattern}`);
  };
  for (const [key, rawValue] of Object.entries(query)) {
    if ((RESERVED_QUERY_KEYS as readonly string[]).includes(key)) continue;
    if (key.endsWith('_ignore') || key.startsWith('$')) continue;
    if (isRangeKey(key, fields)) continue;
    if (Array.isArray(rawValue)) throw badRequest('badType', { field: key }, { [key]: msg('badType', lang, { field: key }) });
    const value = typeof rawValue === 'string' ? rawValue : rawValue == null ? '' : String(rawValue);
    const { field: fieldKey, op } = parseFilterKey(key);
    const name = resolveField(fieldKey, fields);
    const f = name ? fields[name] : undefined;
    const col = name ? columns[name] : undefined;
    if (!name || !f || !col) throw badRequest('unknownFilter', { field: key }, { [key]: msg('unknownFilter', lang, { field: key }) });
    if (op !== 'null' && op !== 'notnull' && value.trim() === '') continue; // blank values are dropped
    const isText = TEXT_TYPES.has(f.type);
    if ((LIKE_OPS.has(op) || (op === 'default' && isText)) && !isText) {
      throw badRequest('unknownFilter', { field: key }, { [key]: msg('unknownFilter', lang, { field: key }) });
    }
    if (DATE_OPS.has(op) && f.type !== 'datetime' && f.type !== 'date') {
      throw badRequest('unknownFilter', { field: key }, { [key]: msg('unknownFilter', lang, { field: key }) });
    }
    switch (op) {
      case 'null':
        out.push(sql`${col} is null`);
        break;
      case 'notnull':
        out.push(sql`${col} is not null`);
        break;
      case 'like':
        ilike(col, `%${escapeLike(value)}%`);
        break;
      case 'likeleft':
        ilike(col, `%${escapeLike(value)}`);
        break;
      case 'likeright':
        // a field kept in capitals: a case-sensitive prefix, a range of its btree in COLLATE "C"
        if (f.upperCase) out.push(prefixRange(col, value.trim().toUpperCase()));
        else ilike(col, `${escapeLike(value)}%`);
        break;
      case 'notlike':
        out.push(sql`${col} not ilike ${`%${escapeLike(value)}%`}`);
        break;
      case 'in': {
        const parts = value.split(',').map((s) => s.trim()).filter(Boolean);
        if (parts.length === 0) break; // `_in=,,,` names nothing: dropped like a blank value
        if (parts.length > MAX_IDS_PER_CALL) throw badRequest('tooManyIds', { max: MAX_IDS_PER_CALL });
        const values = parts.map((p) => parseValue(f, col, key, p, lang));
        out.push(sql`${col} in (${sql.join(values.map((v) => sql`${v}`), sql`, `)})`);
        break;
      }
      default: {
        // a dictionary's code is one item (`refunded`, `flow_1`), picked, never typed: no substring of it names another
        if (op === 'default' && isText && !f.dict) {
          ilike(col, `%${escapeLike(value)}%`);
          break;
        }
        const compared = comparison(f, col, key, op, value, lang);
        if (compared) out.push(compared);
      }
    }
  }
  return { conditions: out, textMatches };
}

/** a list's sort: the columns and their directions, id last */
export type SortKeys = Array<{ column: PgColumn; dir: 'asc' | 'desc' }>;

/** the sort from ascs/descs, restricted to the resource's sortable fields; id breaks ties */
export function sortKeys(def: ResourceDef, columns: ColumnMap, ascs: string | undefined, descs: string | undefined, lang: Lang): SortKeys {
  const allowed = new Set(sortableFields(def));
  const keys: SortKeys = [];
  const used = new Set<string>();
  const add = (list: string | undefined, dir: 'asc' | 'desc') => {
    for (const raw of (list ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
      const name = allowed.has(raw) ? raw : allowed.has(snakeToCamel(raw)) ? snakeToCamel(raw) : undefined;
      const col = name ? columns[name] : undefined;
      if (!name || !col) throw badRequest('unknownSort', { field: raw }, { [raw]: msg('unknownSort', lang, { field: raw }) });
      if (used.has(name)) continue;
      used.add(name);
      keys.push({ column: col, dir });
    }
  };
  add(ascs, 'asc');
  add(descs, 'desc');
  if (keys.length === 0) {
    const d = def.defaultSort ?? { field: 'createTime', order: 'desc' as const };
    const col = columns[d.field];
    if (col) {
      keys.push({ column: col, dir: d.order });
      used.add(d.field);
    }
  }
  const idCol = columns.id;
  if (idCol && !used.has('id')) keys.push({ column: idCol, dir: 'desc' });
  return keys;
}

export const orderBy = (keys: SortKeys): SQL[] => keys.map((k) => (k.dir === 'asc' ? asc(k.column) : desc(k.column)));

/** ORDER BY from ascs/descs, restricted to the resource's sortable fields; id breaks ties. */
export function buildOrder(def: ResourceDef, columns: ColumnMap, ascs: string | undefined, descs: string | undefined, lang: Lang): SQL[] {
  return orderBy(sortKeys(def, columns, ascs, descs, lang));
}

export { camelToSnake };
