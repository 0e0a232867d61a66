import { type Column, getTableColumns, getTableName, sql } from 'drizzle-orm';
import { type PgTable, PgTransaction } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { insertRows } from './bulk.js';
import type { Executor } from './index.js';

type Row = Record<string, unknown>;

/** the part of node-postgres's connection a COPY FROM STDIN speaks through (pg/lib/connection.js) */
interface CopyConnection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
}

/**
 * `COPY … FROM STDIN` of one buffer of COPY's text format, as a node-postgres submittable (the interface pg-cursor
 * and pg-copy-streams use): the statement is sent, the data follows once the server asks for it, and the promise
 * settles when the server is ready for the next statement (or refused the COPY: a constraint, a bad value).
 */
class CopyIn {
  readonly done: Promise<void>;
  private resolve!: () => void;
  private reject!: (e: Error) => void;
  private failed = false;

  constructor(private readonly text: string, private readonly data: Buffer) {
    this.done = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  submit(connection: unknown): void {
    (connection as CopyConnection).query(this.text);
  }

  handleCopyInResponse(connection: unknown): void {
    const c = connection as CopyConnection;
    if (this.data.length) c.sendCopyFromChunk(this.data);
    c.endCopyFrom();
  }

  handleCommandComplete(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}

  handleError(e: Error): void {
    this.failed = true;
    this.reject(e);
  }

  handleReadyForQuery(): void {
    if (!this.failed) this.resolve();
  }
}

/** a value in COPY's text format: `\N` for null, backslash, newline, carriage return and tab escaped */
function copyText(column: Column, value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  const driver = column.mapToDriverValue(value);
  let text: string;
  if (driver === null || driver === undefined) return '\\N';
  if (driver instanceof Date) text = driver.toISOString();
  else if (Buffer.isBuffer(driver)) text = `\\x${driver.toString('hex')}`;
  else if (typeof driver === 'object') text = JSON.stringify(driver);
  else text = String(driver);
  return /[\\\n\r\t]/.test(text) ? text.replace(/[\\\n\r\t]/g, (c) => (c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t')) : text;
}

/** a PostgreSQL array literal of text values (null as NULL): `{"a","b\"c",NULL}` */
function arrayLiteral(values: readonly (string | null)[]): string {
  return `{${values.map((v) => (v === null ? 'NULL' : `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)).join(',')}}`;
}

/** what one transaction learnt of the tables it copies into: row-level security, and its staging tables */
interface TxState { secured: Map<string, boolean>; staging: Map<string, string> }
const txStates = new WeakMap<object, TxState>();
let stagingSeq = 0;

function stateOf(tx: Executor): TxState {
  let s = txStates.get(tx);
  if (!s) txStates.set(tx, (s = { secured: new Map(), staging: new Map() }));
  return s;
}

/** node-postgres's connection of an open transaction (`undefined` for the pool or for PGlite) */
function pgClientOf(tx: Executor): pg.Client | undefined {
  const client = (tx as unknown as { session?: { client?: unknown } }).session?.client;
  return client instanceof pg.Client ? client : undefined;
}

/** whether row-level security applies to `table` (PostgreSQL then refuses a COPY into it) */
async function secured(tx: Executor, table: PgTable): Promise<boolean> {
  const state = stateOf(tx);
  const name = getTableName(table);
  let on = state.secured.get(name);
  if (on === undefined) {
    const result = await tx.execute(sql`select coalesce((select relrowsecurity from pg_class where oid = to_regclass(${name})), false) as on`);
    on = (result as unknown as { rows: Array<{ on: boolean }> }).rows[0]?.on === true;
    state.secured.set(name, on);
  }
  return on;
}

async function copyInto(client: pg.Client, statement: string, data: Buffer): Promise<void> {
  const copy = new CopyIn(statement, data);
  // a client past its transaction's deadline refuses the statement with a rejected promise (db/index.ts)
  const sent = client.query(copy as unknown as pg.Submittable) as unknown;
  await Promise.all([copy.done, sent instanceof Promise ? sent : undefined]);
}

/**
 * Inserts many rows (keyed by the table's property names, as `tx.insert(table).values` takes them) as fast as the
 * database takes them, in the caller's transaction, under its role and row-level security:
 *
 * - PostgreSQL: `COPY … FROM STDIN` of the rows as text, straight into a table without row-level security;
 *   into a table with it (PostgreSQL refuses COPY there) through a staging table of the transaction's own
 *   (`on commit drop`), then one `insert … select`, which the table's policies check as any insert;
 * - PGlite: one `insert … select … from unnest($1::type[], …)` a chunk (an array parameter a column);
 * - outside a transaction: `insertRows`.
 *
 * Rows naming different columns go in separate statements, so a column a row leaves out takes its default.
 * A refused row (a unique index, a constraint, a policy) fails the statement, and the caller's transaction.
 */
export async function copyRows(tx: Executor, table: PgTable, rows: Row[], chunk = 10_000): Promise<void> {
  if (rows.length === 0) return;
  // outside a transaction there is no connection of one's own to COPY through, nor to stage on
  if (!(tx instanceof PgTransaction)) return insertRows(tx, table, rows);
  const client = pgClientOf(tx);
  const columns = getTableColumns(table) as Record<string, Column>;
  const columnKeys = Object.keys(columns);
  // a row's columns (those it gives a value, in the table's order) as a number when the table has few enough
  const small = columnKeys.length <= 30;
  const groups = new Map<number | string, { keys: string[]; rows: Row[] }>();
  for (const row of rows) {
    let signature: number | string = small ? 0 : '';
    for (let i = 0; i < columnKeys.length; i++) {
      const k = columnKeys[i]!;
      if (row[k] === undefined || !Object.hasOwn(row, k)) continue;
      if (typeof signature === 'number') signature |= 1 << i;
      else signature += `${i},`;
    }
    let group = groups.get(signature);
    if (!group) groups.set(signature, (group = { keys: columnKeys.filter((k) => row[k] !== undefined && Object.hasOwn(row, k)), rows: [] }));
    group.rows.push(row);
  }
  for (const { keys, rows: group } of groups.values()) {
    if (keys.length === 0) throw new Error('copyRows: a row with no column');
    const cols = keys.map((k) => columns[k]!);
    // arrays of arrays cannot be unnested: PGlite writes a table with an array column the other way
    if (!client && cols.some((c) => c.getSQLType().endsWith('[]'))) {
      await insertRows(tx, table, group);
      continue;
    }
    for (let at = 0; at < group.length; at += chunk) {
      const part = group.slice(at, at + chunk);
      if (client) await copyPostgres(tx, client, table, cols, keys, part);
      else await unnestInsert(tx, table, cols, keys, part);
    }
  }
}

async function copyPostgres(tx: Executor, client: pg.Client, table: PgTable, cols: Column[], keys: string[], rows: Row[]): Promise<void> {
  const names = cols.map((c) => `"${c.name.replace(/"/g, '""')}"`).join(', ');
  const lines: string[] = new Array<string>(rows.length);
  // a column's value repeated from the row before (the import's time, user, product) is converted once
  const lastValue: unknown[] = cols.map(() => undefined);
  const lastText: string[] = cols.map(() => '\\N');
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    let line = '';
    for (let j = 0; j < cols.length; j++) {
      const v = row[keys[j]!];
      if (v !== lastValue[j]) {
        lastValue[j] = v;
        lastText[j] = copyText(cols[j]!, v);
      }
      line += j ? `\t${lastText[j]}` : lastText[j];
    }
    lines[i] = line;
  }
  const data = Buffer.from(`${lines.join('\n')}\n`);
  const target = `"${getTableName(table).replace(/"/g, '""')}"`;
  // known after the first chunk: no statement, and no yielding before the COPY is sent
  if (!(stateOf(tx).secured.get(getTableName(table)) ?? await secured(tx, table))) {
    await copyInto(client, `copy ${target} (${names}) from stdin`, data);
    return;
  }
  const state = stateOf(tx);
  const key = `${target}(${names})`;
  let staging = state.staging.get(key);
  if (!staging) {
    staging = `copy_staging_${++stagingSeq}`;
    // the columns' own types, no constraint nor default: those are the table's, checked by the insert
    await tx.execute(sql.raw(`create temp table ${staging} on commit drop as select ${names} from ${target} with no data`));
    state.staging.set(key, staging);
  }
  await copyInto(client, `copy ${staging} (${names}) from stdin`, data);
  await tx.execute(sql.raw(`insert into ${target} (${names}) select ${names} from ${staging}`));
  await tx.execute(sql.raw(`truncate ${staging}`));
}

async function unnestInsert(tx: Executor, table: PgTable, cols: Column[], keys: string[], rows: Row[]): Promise<void> {
  const arrays = cols.map((col, j) => arrayLiteral(rows.map((row) => {
    const v = row[keys[j]!];
    if (v === null || v === undefined) return null;
    const driver = col.mapToDriverValue(v);
    if (driver === null || driver === undefined) return null;
    if (driver instanceof Date) return driver.toISOString();
    if (Buffer.isBuffer(driver)) return `\\x${driver.toString('hex')}`;
    return typeof driver === 'object' ? JSON.stringify(driver) : String(driver);
  })));
  const names = sql.join(cols.map((c) => sql.identifier(c.name)), sql`, `);
  const params = sql.join(cols.map((c, j) => sql`${arrays[j]}::${sql.raw(c.getSQLType())}[]`), sql`, `);
  await tx.execute(sql`insert into ${table} (${names}) select * from unnest(${params})`);
}

/**
 * `COPY (…) TO STDOUT` as a node-postgres submittable: PostgreSQL sends each row as a CopyData message of its own,
 * handed to `onRow` as it arrives (a view into the driver's buffer, valid only during the call); the promise settles
 * when the server is ready for the next statement, or refused the statement.
 */
class CopyOut {
  readonly done: Promise<void>;
  private resolve!: () => void;
  private reject!: (e: Error) => void;
  private failed = false;

  constructor(private readonly text: string, private readonly onRow: (row: Buffer) => void, private readonly valve?: CopyValve) {
    this.done = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  submit(connection: unknown): void {
    const c = connection as CopyConnection & { stream?: { pause(): void; resume(): void } };
    // while the rows' taker is behind, the connection is not read: PostgreSQL waits to send more
    const socket = c.stream;
    if (this.valve && socket) this.valve.attach(() => socket.pause(), () => socket.resume());
    c.query(this.text);
  }

  handleCopyData(msg: { chunk: Buffer }): void {
    if (this.failed) return;
    try {
      this.onRow(msg.chunk);
    } catch (e) {
      this.failed = true;
      this.reject(e instanceof Error ? e : new Error(String(e)));
    }
  }

  handleCommandComplete(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyInResponse(connection: unknown): void {
    // not a COPY TO after all: end the data at once, so the connection is not left waiting for it
    (connection as CopyConnection).endCopyFrom();
  }

  handleError(e: Error): void {
    if (this.failed) return;
    this.failed = true;
    this.reject(e);
  }

  handleReadyForQuery(): void {
    this.valve?.detach();
    if (!this.failed) this.resolve();
  }
}

/** How a COPY TO's taker holds it back: `attach` gives it the connection's pause and resume, `detach` ends them. */
export interface CopyValve {
  attach(pause: () => void, resume: () => void): void;
  detach(): void;
}

/**
 * Runs `statement` (a `COPY (select …) TO STDOUT …` whose values are written into it: COPY takes no parameters) on
 * the transaction's own connection, under its role and row-level security, each row to `onRow` as it arrives.
 * False when the transaction is not on node-postgres (the embedded database): nothing ran.
 */
export async function copyOut(tx: Executor, statement: string, onRow: (row: Buffer) => void, valve?: CopyValve): Promise<boolean> {
  const client = tx instanceof PgTransaction ? pgClientOf(tx) : undefined;
  if (!client) return false;
  const copy = new CopyOut(statement, onRow, valve);
  // a client past its transaction's deadline refuses the statement with a rejected promise (db/index.ts)
  const sent = client.query(copy as unknown as pg.Submittable) as unknown;
  await Promise.all([copy.done, sent instanceof Promise ? sent : undefined]);
  return true;
}
