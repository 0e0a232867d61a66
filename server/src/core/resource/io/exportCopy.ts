/// <reference path="../../db/pgUtils.d.ts" />
import { CURRENCIES, type Lang, MONEY_DEFAULT_CURRENCY, nameFieldOf, SECRET_MASK } from '@console/contract';
import { type SQL, sql } from 'drizzle-orm';
import { type PgColumn, PgDialect } from 'drizzle-orm/pg-core';
import pgUtils from 'pg/lib/utils.js';
import { randomUUID } from 'node:crypto';
import { type FileHandle, open, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuthUser } from '../../context.js';
import { copyOut, type CopyValve } from '../../db/copy.js';
import { allowLongStatements, type Executor } from '../../db/index.js';
import { badRequest } from '../../errors.js';
import { currentZone } from '../../time.js';
import type { SortKeys } from '../filters.js';
import { orderBy } from '../filters.js';
import { runAs } from '../mount/access.js';
import type { ResourceMount } from '../mount/resourceMount.js';
import { TREE_ROOT } from '../refs.js';
import { CELL_MAX, type exportColumns } from './cells.js';
import { type CellKind, CopySheetRows } from './copySheetRows.js';

/**
 * An export written by PostgreSQL: one `COPY (select <the cells as the API presents them> …) TO STDOUT` in the list's
 * order, the CSV option's rows as they are, the .xlsx's rows in COPY's text format made sheet XML (`copySheetRows.ts`).
 * The
 * dictionary labels, reference names, the display zone's datetimes, secret masks and amounts are SQL expressions
 * here, each the same text `writeExport`'s presenting gives (test/export-copy.test.ts compares both for every
 * resource); a resource whose cells are not all expressible (a `shown` hook without `shownSql`, a virtual field, a
 * type without an expression here) is exported row by row as before (`exportCopyPlan` answers undefined).
 */

type ExportColumn = ReturnType<typeof exportColumns>[number];


interface CellSql {
  /** the CSV's cell: text as `csvCell` writes it before quoting (COPY quotes as RFC 4180 does); null for an empty cell */
  csv: SQL;
  /** the .xlsx's cell as text (COPY's text format), read back by `kind` */
  text: SQL;
  kind: CellKind;
}

/** A column's value as the driver gives it (its JS type decides the cell: text, number, flag). */
type Natural = { value: SQL; kind: 'text' | 'number' | 'boolean'; /** never longer than a cell holds: no cut */ short?: boolean };

const TEXT_TYPES = new Set(['PgVarchar', 'PgText', 'PgChar', 'PgEnumColumn']);
const NUMBER_TYPES = new Set(['PgInteger', 'PgSmallInt', 'PgBigInt53', 'PgSerial', 'PgSmallSerial', 'PgBigSerial53']);
/** bigint as a JS bigint, numeric as a string, a date as its ISO text: written as text */
const TEXT_OF_TYPES = new Set(['PgBigInt64', 'PgBigSerial64', 'PgNumeric', 'PgDateString']);
const ID_TYPES = new Set(['PgBigInt64', 'PgBigInt53', 'PgBigSerial64', 'PgBigSerial53']);
/** the schema's 64-bit ids (`db/columns.ts` `id`): bigint in the database, a decimal string in code */
const isIdColumn = (column: PgColumn) => column.columnType === 'PgCustomColumn' && column.getSQLType() === 'bigint';
const isBigint = (column: PgColumn) => ID_TYPES.has(column.columnType) || isIdColumn(column);

/** a text a spreadsheet would take as a formula (= + - @, a tab, a carriage return first) behind a single quote, as `csvCell` */
const defused = (v: SQL): SQL => sql`(case when ascii(${v}) in (61, 43, 45, 64, 9, 13) then '''' || ${v} else ${v} end)`;

/** `plain`: a text never empty and never starting as a formula (a datetime): written as it is, computed once */
function textCell(v: SQL, cut = true, plain = false): CellSql {
  const value = cut ? sql`left(${v}, ${sql.raw(String(CELL_MAX))})` : v;
  return { csv: plain ? value : sql`nullif(${defused(value)}, '')`, text: value, kind: 'text' };
}

function naturalCell(n: Natural): CellSql {
  if (n.kind === 'text') return textCell(n.value, !n.short);
  if (n.kind === 'number') return { csv: sql`(${n.value})::text`, text: sql`(${n.value})::text`, kind: 'number' };
  return { csv: sql`(case when ${n.value} then 'TRUE' when not ${n.value} then 'FALSE' end)`, text: sql`(${n.value})::text`, kind: 'boolean' };
}

/**
 * the display name (`label`, text; `short`: never longer than a cell holds) and, where it is null, the raw value,
 * as `rec[shown] ?? rec[name]`
 */
function labelled(label: SQL, short: boolean, raw: Natural | undefined): CellSql {
  if (!raw) return textCell(label, !short);
  if (raw.kind === 'text') return textCell(sql`coalesce(${label}, ${raw.value})`, !(short && raw.short));
  const rawCell = naturalCell(raw);
  const shown = textCell(label, !short);
  return {
    csv: sql`(case when ${label} is not null then ${shown.csv} else ${rawCell.csv} end)`,
    text: sql`(case when ${label} is not null then 's' || ${shown.text} else ${raw.kind === 'number' ? sql`'n'` : sql`'b'`} || ${rawCell.text} end)`,
    kind: 'mixed',
  };
}

/** a text column whose values a cell holds whole (a varchar or char of at most CELL_MAX characters) */
function shortText(column: PgColumn): boolean {
  const length = (column as PgColumn & { length?: number }).length;
  return (column.columnType === 'PgVarchar' || column.columnType === 'PgChar') && typeof length === 'number' && length <= CELL_MAX;
}

/** the column's value as the driver gives it, or undefined for a type the export's presenting would not write as it is */
function natural(column: PgColumn): Natural | undefined {
  const type = column.columnType;
  if (TEXT_TYPES.has(type)) return { value: sql`${column}`, kind: 'text', short: shortText(column) };
  if (TEXT_OF_TYPES.has(type) || isIdColumn(column)) return { value: sql`${column}::text`, kind: 'text', short: true };
  if (NUMBER_TYPES.has(type)) return { value: sql`${column}`, kind: 'number' };
  if (type === 'PgBoolean') return { value: sql`${column}`, kind: 'boolean' };
  return undefined;
}

/** `formatMoney` of an amount of minor units with `digits` decimals */
function moneyText(v: SQL, digits: number): SQL {
  if (digits === 0) return sql`(${v})::text`;
  const scale = sql.raw(String(10 ** digits));
  return sql`(case when ${v} < 0 then '-' else '' end || (abs(${v}) / ${scale})::text || '.' || lpad((abs(${v}) % ${scale})::text, ${sql.raw(String(digits))}, '0'))`;
}

/** A join a reference's names need, by its alias. */
interface Join { alias: string; on: SQL }

/** Builds each export column's cells; undefined when one cannot be built (the export then goes row by row). */
class CellPlanner {
  readonly joins: Join[] = [];
  private readonly answered: Set<string>;

  constructor(private readonly m: ResourceMount, private readonly user: AuthUser, private readonly labels: ReadonlyMap<string, ReadonlyMap<string, string>>) {
    this.answered = new Set(m.answered.map(([name]) => name));
  }

  cell(col: ExportColumn): CellSql | undefined {
    const { def, columns } = this.m;
    const derived = this.m.hooks.shownSql?.[col.name];
    if (derived) return this.answered.has(col.name) ? textCell(derived) : { csv: sql`null`, text: sql`null`, kind: 'text' };
    const f = def.fields[col.name];
    const column = columns[col.name];
    if (!f || !column) return undefined;
    const raw = natural(column);
    const shownRaw = this.answered.has(col.name) ? raw : undefined;
    if (f.secret) return textCell(sql`(case when ${column} is null or ${column}::text = '' then null else ${SECRET_MASK} end)`, false);
    if (f.dict) {
      const labels = this.labels.get(col.name);
      if (!labels || !raw || raw.kind === 'boolean') return undefined;
      const text = sql`${column}::text`;
      const prefix = f.dictPrefixed ? `${f.dict}_` : undefined;
      const key = prefix ? sql`(case when starts_with(${text}, ${prefix}) then substr(${text}, ${prefix.length + 1}) end)` : text;
      const label = sql`(${JSON.stringify(Object.fromEntries(labels))}::jsonb ->> ${prefix ? sql`coalesce(${key}, ${text})` : key})`;
      return labelled(label, [...labels.values()].every((l) => l.length <= CELL_MAX), shownRaw);
    }
    if (f.ref && (f.type === 'ref' || f.type === 'ids')) {
      const name = this.referenceName(col.name, f.ref, column, raw);
      return name ? labelled(name.value, name.short, shownRaw) : undefined;
    }
    if (f.type === 'datetime' && column.columnType === 'PgTimestamp') {
      if (!this.answered.has(col.name)) return { csv: sql`null`, text: sql`null`, kind: 'text' };
      const zone = currentZone();
      const at = (column as PgColumn & { withTimezone?: boolean }).withTimezone ? sql`${column}` : sql`(${column} at time zone 'UTC')`;
      return textCell(sql`to_char(${at} at time zone ${zone}, 'YYYY-MM-DD HH24:MI:SS')`, false, true);
    }
    if (!shownRaw) return raw ? { csv: sql`null`, text: sql`null`, kind: 'text' } : undefined;
    if (f.type === 'money' && shownRaw.kind === 'number') {
      const currencyColumn = f.currency ? columns[f.currency] : undefined;
      if (f.currency && !currencyColumn) return undefined;
      const fallback = moneyText(shownRaw.value, CURRENCIES[MONEY_DEFAULT_CURRENCY]);
      if (!currencyColumn) return textCell(fallback, false);
      const cases = Object.entries(CURRENCIES).map(([code, digits]) => sql`when ${code} then ${moneyText(shownRaw.value, digits)}`);
      return textCell(sql`(case ${currencyColumn}::text ${sql.join(cases, sql` `)} else ${fallback} end)`, false);
    }
    return naturalCell(shownRaw);
  }

  /**
   * The names of the rows a reference names, as `loadReferenceNames` reads them (live, the caller's tenant's where
   * the resource is a tenant's, under row-level security), comma-joined in the ids' order for a list of ids.
   */
  private referenceName(field: string, code: string, column: PgColumn, raw: Natural | undefined): { value: SQL; short: boolean } | undefined {
    if (!raw) return undefined;
    const target = this.m.ctx.resources.get(code);
    const c = target.columns;
    const nameColumn = c[nameFieldOf(target.def)] ?? c.id;
    const name = nameColumn ? natural(nameColumn) : undefined;
    if (!c.id || !c.isDeleted || !isBigint(c.id) || !name || name.kind !== 'text') return undefined;
    const alias = `ref_${this.joins.length}`;
    const a = (col: PgColumn) => sql`${sql.identifier(alias)}.${sql.identifier(col.name)}`;
    const nameText = TEXT_OF_TYPES.has(nameColumn!.columnType) || isIdColumn(nameColumn!) ? sql`${a(nameColumn!)}::text` : a(nameColumn!);
    const tenant = target.def.scope === 'tenant' ? sql` and ${a(c.tenantId!)} = ${this.user.tenantId}` : sql``;
    const table = sql`${target.table}`;
    if (isBigint(column) || NUMBER_TYPES.has(column.columnType)) {
      this.joins.push({ alias, on: sql`left join ${table} ${sql.identifier(alias)} on ${a(c.id)} = ${column} and ${a(c.isDeleted)} = 0${tenant}` });
      return { value: nameText, short: name.short === true };
    }
    if (!TEXT_TYPES.has(column.columnType)) return undefined;
    const root = this.m.def.tree?.parentField === field ? sql` and u.id <> ${TREE_ROOT}` : sql``;
    this.joins.push({
      alias,
      on: sql`left join lateral (select string_agg(${nameText}, ',' order by u.ord) as name
        from unnest(string_to_array(${column}, ',')) with ordinality u(id, ord)
        join ${table} ${sql.identifier(alias)} on ${a(c.id)} = (case when u.id ~ '^[0-9]{1,18}$' then u.id::bigint end) and ${a(c.isDeleted)} = 0${tenant}
        where u.id <> ''${root}) ${sql.identifier(`${alias}_names`)} on true`,
    });
    return { value: sql`${sql.identifier(`${alias}_names`)}.name`, short: false };
  }
}

/** What an export's COPY writes: `csv`, the CSV option's rows; `xml`, the .xlsx's (`<row>` elements). */
export type CopyFormat = 'csv' | 'xml';

/** How an export is read by COPY: its cells (the CSV's, or the .xlsx's as text and what each is), the joins they need. */
export interface ExportCopyPlan {
  kinds: CellKind[];
  cells(format: CopyFormat): SQL[];
  joins: SQL[];
}

/**
 * The plan of an export by COPY, or undefined: the database is the embedded one (no COPY TO a client), the resource
 * presents its rows in code (`shown`), the export adds columns of a json field, or a column has no expression here.
 */
export async function exportCopyPlan(m: ResourceMount, user: AuthUser, cols: ExportColumn[], lang: Lang, dynamic: boolean): Promise<ExportCopyPlan | undefined> {
  if (m.ctx.dbKind !== 'postgres' || (m.hooks.shown && !m.hooks.shownSql) || dynamic) return undefined;
  const dictCodes = new Map(m.dictFields);
  const labels = new Map<string, ReadonlyMap<string, string>>();
  for (const col of cols) {
    const code = dictCodes.get(col.name);
    if (code) labels.set(col.name, await m.ctx.dicts.labels(code, lang));
  }
  const planner = new CellPlanner(m, user, labels);
  const cells: CellSql[] = [];
  for (const col of cols) {
    const cell = planner.cell(col);
    if (!cell) return undefined;
    cells.push(cell);
  }
  return {
    kinds: cells.map((c) => c.kind),
    cells: (format) => cells.map((c) => (format === 'csv' ? c.csv : c.text)),
    joins: planner.joins.map((j) => j.on),
  };
}

const dialect = new PgDialect();

/**
 * The statement's text with its values written in as quoted literals, as node-postgres would send them (an untyped
 * parameter's text: PostgreSQL infers its type alike); undefined when a value holds a NUL, which a statement's text
 * cannot carry. Sent with standard_conforming_strings on: a quote doubled is the only escape.
 */
export function inlined(statement: SQL): string | undefined {
  const { sql: text, params } = dialect.sqlToQuery(statement);
  let bad = false;
  const out = text.replace(/\$(\d+)/g, (_, n: string) => {
    const v = pgUtils.prepareValue(params[Number(n) - 1]) as unknown;
    if (v === null || v === undefined) return 'NULL';
    const literal = Buffer.isBuffer(v) ? `\\x${v.toString('hex')}` : String(v);
    if (literal.includes('\0')) bad = true;
    return `'${literal.replace(/'/g, "''")}'`;
  });
  return bad ? undefined : out;
}

/**
 * What COPY wrote, kept in a file of its own (unlinked at once: it goes with its descriptor) and read back while it
 * grows: the statement runs at PostgreSQL's pace and its transaction ends with it, whatever the client's pace;
 * memory holds a block or two whatever the row count.
 */
class Spool implements CopyValve {
  private written = 0;
  /** bytes handed to the file and not yet written: past SPOOL_BEHIND the statement is held back */
  private pending = 0;
  private valve: { pause(): void; resume(): void } | undefined;
  private held = false;
  private appended = 0;
  private done = false;
  private failure: Error | undefined;
  private tail: Promise<unknown> = Promise.resolve();
  private wake: (() => void) | undefined;
  /** blocks written out or read and given back (`release`), used again: tens of MB of new buffers an export otherwise */
  private readonly free: ArrayBuffer[] = [];
  private block = this.take();
  private used = 0;
  /** a block is written once it holds this much: 16 KB first, doubling up to a whole block */
  private due = 16 * 1024;
  private closed = false;

  private constructor(private readonly file: FileHandle) {}

  static async open(): Promise<Spool> {
    const path = join(tmpdir(), `console-export-${process.pid}-${randomUUID()}`);
    const file = await open(path, 'w+', 0o600);
    await unlink(path);
    return new Spool(file);
  }

  attach(pause: () => void, resume: () => void): void {
    this.valve = { pause, resume };
  }

  detach(): void {
    if (this.held) this.valve?.resume();
    this.held = false;
    this.valve = undefined;
  }

  /** adds the first `length` bytes of `row` (valid only during the call), then CRLF if `crlf` */
  add(row: Buffer, length: number, crlf: boolean): void {
    if (this.closed) return;
    const total = crlf ? length + 2 : length;
    // the first blocks go out small, so the response starts before the statement has written much
    if (this.used + total > this.block.length || this.used >= this.due) this.push();
    if (total > this.block.length) this.block = Buffer.allocUnsafe(total);
    this.used += row.copy(this.block, this.used, 0, length);
    if (crlf) {
      this.block[this.used++] = 13;
      this.block[this.used++] = 10;
    }
  }

  private push(): void {
    if (this.used === 0 || this.closed) return;
    const data = this.block.subarray(0, this.used);
    const at = this.appended;
    this.appended += data.length;
    this.block = this.take();
    this.used = 0;
    this.due = Math.min(this.due * 2, SPOOL_BLOCK);
    this.pending += data.length;
    if (this.pending > SPOOL_BEHIND && !this.held && this.valve) {
      this.held = true;
      this.valve.pause();
    }
    // never a rejected promise: a failed write is the reader's failure
    this.tail = this.tail.then(async () => {
      if (!this.closed) {
        try {
          await this.file.write(data, 0, data.length, at);
          this.written = at + data.length;
          this.release(data);
        } catch (e) {
          this.failure ??= e instanceof Error ? e : new Error(String(e));
          this.done = true;
        }
      }
      this.pending -= data.length;
      if (this.held && this.pending <= SPOOL_BEHIND / 2) {
        this.held = false;
        this.valve?.resume();
      }
      this.wake?.();
    });
  }

  /** the statement ended (with `failure`, or not): what is left goes to the file */
  end(failure?: Error): void {
    this.push();
    this.tail = this.tail.then(() => {
      this.failure ??= failure;
      this.done = true;
      this.wake?.();
    });
  }

  /** the file's bytes in order as they are written, until the statement ended; its failure thrown at the end */
  async *read(): AsyncGenerator<Buffer> {
    let at = 0;
    for (;;) {
      if (at < this.written) {
        const buf = this.take().subarray(0, Math.min(SPOOL_BLOCK, this.written - at));
        const { bytesRead } = await this.file.read(buf, 0, buf.length, at);
        at += bytesRead;
        yield bytesRead === buf.length ? buf : buf.subarray(0, bytesRead);
      } else if (this.done || this.closed) {
        if (this.failure) throw this.failure;
        return;
      } else {
        await new Promise<void>((resolve) => { this.wake = resolve; });
        this.wake = undefined;
      }
    }
  }

  private take(): Buffer {
    const free = this.free.pop();
    return free ? Buffer.from(free) : Buffer.allocUnsafeSlow(SPOOL_BLOCK);
  }

  /** a block `read` gave, no longer held */
  release(block: Buffer): void {
    if (block.buffer instanceof ArrayBuffer && block.buffer.byteLength === SPOOL_BLOCK && this.free.length < 4) this.free.push(block.buffer);
  }

  /** the file goes (the export is written, or its client went away): what the statement still sends is dropped */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.tail;
    this.wake?.();
    await this.file.close().catch(() => undefined);
  }
}

const SPOOL_BLOCK = 256 * 1024;
/** what the file may be behind the statement before the statement waits */
const SPOOL_BEHIND = 8 * 1024 * 1024;
/** a COPY of an export may take this long (a million rows take seconds; a busy machine, more) */
export const EXPORT_COPY_MS = 600_000;

/** the COPY statement of a whole export, or undefined when the filters' values cannot be written into it (a NUL) */
function exportStatement(m: ResourceMount, plan: ExportCopyPlan, format: CopyFormat, where: SQL | undefined, keys: SortKeys, max: number): string | undefined {
  const select = sql`select ${sql.join(plan.cells(format), sql`, `)} from ${m.table} ${sql.join(plan.joins, sql` `)}
    where ${where ?? sql`true`} order by ${sql.join(orderBy(keys), sql`, `)} limit ${sql.raw(String(max + 1))}`;
  const text = inlined(select);
  return text && `copy (${text}) to stdout with (format ${format === 'csv' ? 'csv' : 'text'})`;
}

/**
 * The rows of an export by COPY as its file holds them: the CSV's (CRLF line ends), or the .xlsx's `<row>` elements,
 * numbered from 2 (the header is row 1).
 */
export interface CopiedExport {
  bytes(): AsyncGenerator<Buffer>;
  /** a buffer `bytes` gave, no longer held (its memory may serve again) */
  release?(bytes: Buffer): void;
  /** the file is closed (the export is written, or the client went away) */
  close(): Promise<void>;
}

/**
 * Starts the COPY of an export in a transaction of the caller's tenant (row-level security, the data scope and
 * filters in `where`), once `check` (the bound on the rows, answering its refusal before anything is sent) passed;
 * resolves when it started. Undefined when the statement cannot carry the filters' values: the caller reads row by row.
 */
export async function startCopyExport(
  m: ResourceMount, user: AuthUser, plan: ExportCopyPlan, format: CopyFormat, conds: (tx: Executor) => Promise<SQL | undefined>, keys: SortKeys, max: number,
  check: (tx: Executor, where: SQL | undefined) => Promise<void>,
): Promise<CopiedExport | undefined> {
  const spool = await Spool.open();
  let started!: (ok: boolean) => void;
  const starting = new Promise<boolean>((resolve) => { started = resolve; });
  const run = runAs(m, user, async (tx) => {
    const where = await conds(tx);
    const statement = exportStatement(m, plan, format, where, keys, max);
    if (!statement) return started(false);
    await check(tx, where);
    await allowLongStatements(tx, EXPORT_COPY_MS);
    await tx.execute(sql`select set_config('standard_conforming_strings', 'on', true), set_config('DateStyle', 'ISO, MDY', true)`);
    started(true);
    // the statement reads one row past the bound: an estimate far off (the check counts only near it) stops here
    let rows = 0;
    await copyOut(tx, statement, format === 'csv'
      // a CSV row ends with LF: RFC 4180's CRLF instead (a line break inside a quoted cell is the cell's own)
      ? (row) => {
        if (++rows > max) throw badRequest('exportTooManyRows', { max });
        spool.add(row, row.length - 1, true);
      }
      // a row of COPY's text format, made sheet XML as it is read back (the file holds a fifth of the XML)
      : (row) => {
        if (++rows > max) throw badRequest('exportTooManyRows', { max });
        spool.add(row, row.length, false);
      }, spool);
  });
  run.then(() => spool.end(), (e: unknown) => spool.end(e instanceof Error ? e : new Error(String(e))));
  const ended = run.then(() => false);
  ended.catch(() => undefined); // a failure after the start is the reader's (Spool.end)
  let ok: boolean;
  try {
    // a refusal (the bound) is thrown here, before anything is answered
    ok = await Promise.race([starting, ended]);
  } catch (e) {
    await spool.close();
    throw e;
  }
  if (!ok) {
    await spool.close();
    return undefined;
  }
  if (format === 'csv') return { bytes: () => spool.read(), close: () => spool.close() };
  const rows = new CopySheetRows(plan.kinds);
  return { bytes: () => sheetXml(spool, rows), release: (piece) => rows.release(piece), close: () => spool.close() };
}

/** the sheet's `<row>` elements of the rows of COPY's text format in the spool, numbered from 2 (the header is row 1) */
async function* sheetXml(spool: Spool, rows: CopySheetRows): AsyncGenerator<Buffer> {
  for await (const block of spool.read()) {
    const pieces = rows.rows(block);
    spool.release(block);
    yield* pieces;
  }
  rows.end();
}
