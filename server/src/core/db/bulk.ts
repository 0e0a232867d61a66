import { type Column, getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from './index.js';

type Row = Record<string, unknown>;

/** rows per statement: one JSON parameter of a few MB */
export const BULK_CHUNK = 5000;

/** a value as json_populate_recordset reads it into the column (its text form; json columns keep their structure) */
function jsonValue(column: Column, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (column.columnType === 'PgJsonb' || column.columnType === 'PgJson') return value;
  const driver = column.mapToDriverValue(value);
  if (driver instanceof Date) return driver.toISOString();
  if (typeof driver === 'bigint') return driver.toString();
  if (Buffer.isBuffer(driver)) return `\\x${driver.toString('hex')}`;
  return driver;
}

/**
 * Inserts many rows (keyed by the table's property names, as `tx.insert(table).values` takes them) in a few
 * statements of one JSON parameter each, `insert … select … from json_populate_recordset(null::table, $1)`.
 * Building a multi-row VALUES statement costs drizzle about 30 µs a row, ten times what PostgreSQL needs to
 * write it; this form leaves the server one parameter to parse. Rows naming different columns go in separate
 * statements, so a column a row leaves out takes its default as with `values`.
 */
export async function insertRows(tx: Executor, table: PgTable, rows: Row[], chunk = BULK_CHUNK): Promise<void> {
  const columns = getTableColumns(table) as Record<string, Column>;
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const keys = Object.keys(row).filter((k) => Object.hasOwn(columns, k) && row[k] !== undefined).sort().join(',');
    let group = groups.get(keys);
    if (!group) groups.set(keys, (group = []));
    group.push(row);
  }
  for (const [signature, group] of groups) {
    const keys = signature ? signature.split(',') : [];
    if (keys.length === 0) throw new Error('insertRows: a row with no column');
    const names = sql.join(keys.map((k) => sql.identifier(columns[k]!.name)), sql`, `);
    for (let at = 0; at < group.length; at += chunk) {
      const records = group.slice(at, at + chunk).map((row) => {
        const out: Row = {};
        for (const k of keys) out[columns[k]!.name] = jsonValue(columns[k]!, row[k]);
        return out;
      });
      await tx.execute(sql`insert into ${table} (${names}) select ${names} from json_populate_recordset(null::${table}, ${JSON.stringify(records)}::json)`);
    }
  }
}

/** a PostgreSQL array literal of text values: `{"a","b\"c"}` */
function arrayLiteral(values: readonly unknown[]): string {
  return `{${values.map((v) => `"${String(v).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;
}

/**
 * `column = any($1::type[])`: a membership test with one parameter, however many values. drizzle's `inArray`
 * builds a parameter a value, which costs more than the query itself for the thousand SNs of an import chunk.
 */
export function inList(column: Column, values: readonly unknown[]): SQL {
  const type = column.getSQLType().replace(/\(.*\)$/, '');
  return sql`${column} = any(${arrayLiteral(values)}::${sql.raw(type)}[])`;
}
