import { dictNameKey, type Lang, type ResourceDef } from '@console/contract';
import { and, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PreparedQueryConfig } from 'drizzle-orm/pg-core';
import type { PassThrough } from 'node:stream';
import type { AuthUser } from '../../context.js';
import { inList } from '../../db/bulk.js';
import type { Executor } from '../../db/index.js';
import { badRequest } from '../../errors.js';
import { planOf } from '../count.js';
import { type Filters, orderBy, type SortKeys, unindexed } from '../filters.js';
import { runAs, scopeIn } from '../mount/access.js';
import type { ResourceMount } from '../mount/resourceMount.js';
import { dictLabel, presentValue } from '../mount/present.js';
import { loadReferenceNames, type ReferenceNames, referenceName, unnamedReferences } from '../refs.js';
import { exportColumns } from './cells.js';
import { type CopiedExport, type CopyFormat, type ExportCopyPlan, startCopyExport } from './exportCopy.js';
import type { SheetWriter, XlsxValue } from './xlsxWriter.js';

type Row = Record<string, unknown>;

/** An Excel sheet holds 1,048,576 rows; an export stops well before. */
export const EXPORT_MAX_ROWS = 1_000_000;
/** rows read (and written) per chunk: one short statement each, so other requests run between them */
export const EXPORT_CHUNK = 5000;

type ExportColumn = ReturnType<typeof exportColumns>[number];

/** A presented value as a cell: text, numbers and flags as they are, anything else as its text. */
function cellOf(v: unknown): XlsxValue {
  if (v === null || v === undefined || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** The dynamic columns (`def.dynamicColumns`) the list's filters name, as export columns of the json field's values. */
async function dynamicExportColumns(spec: NonNullable<ResourceDef['dynamicColumns']>, m: ResourceMount, user: AuthUser, filters: Record<string, unknown>, lang: Lang): Promise<ExportColumn[]> {
  const by = Object.fromEntries(spec.by.filter((k) => typeof filters[k] === 'string' && filters[k] !== '').map((k) => [k, String(filters[k])]));
  if (Object.keys(by).length === 0) return [];
  const found = await runAs(m, user, (tx) => m.hooks.dynamicColumns!(tx, user, by, lang));
  return found.map((c) => ({
    name: `${spec.field}.${c.key}`,
    header: c.label,
    width: Math.max(10, Math.min(40, c.label.length * 2 + 4)),
    value: (rec: Record<string, unknown>) => {
      const v = (rec[spec.field] as Record<string, unknown> | null | undefined)?.[c.key];
      return v === undefined || v === null ? null : typeof v === 'object' ? JSON.stringify(v) : v;
    },
  }));
}

/** The ids of a comma-joined text, `size` at a time, without splitting the whole text at once. */
export function* idChunks(text: string, size: number): Generator<string[], undefined> {
  let at = 0;
  while (at < text.length) {
    const chunk: string[] = [];
    while (chunk.length < size && at < text.length) {
      const comma = text.indexOf(',', at);
      const end = comma === -1 ? text.length : comma;
      chunk.push(text.slice(at, end));
      at = end + 1;
    }
    yield chunk;
  }
  return undefined;
}

/** `attachment; filename*=UTF-8''<title>-<yyyy-MM-dd>.xlsx` (RFC 5987; the title may be Chinese). */
export function attachment(name: string): string {
  return `attachment; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The ids of the rows to export, in the list's order, as one comma-joined text: 20 MB for a million rows, where
 * as many row objects would take five times that. The aggregate reads the sorted, limited subquery in its order (a
 * Limit over the sort: PostgreSQL feeds an aggregate its input as it comes); a second sort by a row
 * number costs half a second more for a million rows. test/production.test.ts checks the order.
 */
export async function exportIds(m: ResourceMount, user: AuthUser, built: Filters, order: SQL[]): Promise<{ text: string; count: number }> {
  const { table } = m;
  const id = m.columns.id!;
  const select = () => runAs(m, user, async (tx) => {
    await tx.execute(sql`select set_config('work_mem', '64MB', true)`); // the sort of a million keys stays in memory
    const sorted = tx.select({ id }).from(table)
      .where(and(...(await scopeIn(m, tx, user)), ...built.conditions)).orderBy(...order).limit(EXPORT_MAX_ROWS + 1).as('sorted');
    const [row] = await tx.select({ ids: sql<string | null>`string_agg(${sorted.id}::text, ',')`, count: sql<number>`count(*)::int` }).from(sorted);
    return { text: row?.ids ?? '', count: Number(row?.count ?? 0) };
  });
  return unindexed(built) ? await m.ctx.heavyQueries.run(select) : await select();
}

/** The sheet's columns (the fields, then the dynamic ones the filters name) and the table columns read for them. */
export async function exportSheetColumns(m: ResourceMount, user: AuthUser, filters: Record<string, unknown>, lang: Lang) {
  const { def, columns } = m;
  const cols = exportColumns(def, lang);
  // only the columns written (and the id): a third of the work of reading whole rows
  // a virtual field (its `shown` hook derives it) has no column: the hook's own reads are `shownReads`
  // a `money` field's amount is written in its row's currency: that column is read, written or not
  const currencies = Object.values(def.fields).flatMap((f) => (f.type === 'money' && f.currency ? [f.currency] : []));
  const wanted: Record<string, PgColumn> = Object.fromEntries(['id', ...cols.map((c) => c.name), ...currencies, ...(m.hooks.shownReads ?? [])]
    .flatMap((name) => (columns[name] ? [[name, columns[name]]] : [])));
  const dynamic = def.dynamicColumns && m.hooks.dynamicColumns ? await dynamicExportColumns(def.dynamicColumns, m, user, filters, lang) : [];
  if (dynamic.length) {
    wanted[def.dynamicColumns!.field] = columns[def.dynamicColumns!.field]!;
    cols.push(...dynamic);
  }
  return { cols, wanted, dynamic: dynamic.length > 0 };
}


/** What an export reads: the list's filters and sort keys (id last), the columns it writes, the caller's language. */
export interface ExportRead {
  built: Filters;
  keys: SortKeys;
  wanted: Record<string, PgColumn>;
  lang: Lang;
}

/** The rows of an export in the list's order, a chunk at a time; the next chunk is read while this one is written. */
export interface RowSource {
  /** how the rows are read: walking the list's order from the last row read, or the ids first */
  readonly strategy: 'keyset' | 'ids';
  /** the next chunk; undefined after the last */
  next(): Promise<Row[] | undefined>;
}

/**
 * An export read by COPY (`exportCopy.ts`): the CSV's rows, or the .xlsx's sheet XML, as PostgreSQL presented and
 * wrote them.
 */
export interface CopySource { readonly strategy: 'copy'; readonly copied: CopiedExport }

/**
 * `chunk`: rows per statement; `strategy`: how to read (by default the planner's order decides, `openExport`);
 * `copy`: read by COPY when the keyset walk applies (the plan, and which of its formats)
 */
export interface ExportOptions { chunk?: number; strategy?: 'keyset' | 'ids'; copy?: { plan: ExportCopyPlan; format: CopyFormat } }

/**
 * A keyset read whose order the planner would sort in full (no index walks it) over more rows than this reads the
 * ids first instead: each chunk would sort every remaining row again.
 */
export const KEYSET_SORT_MAX = 20_000;

/**
 * The rows after `last` (the sort keys of the last row read, as the driver gave them: text) in the order of `keys`, as PostgreSQL orders
 * them: ascending with nulls last, descending with nulls first. The first key is also bounded on its own, so an
 * index on it starts at the last row read.
 */
export function keysetAfter(keys: SortKeys, last: ReadonlyArray<string | null>): SQL {
  const ties: SQL[] = [];
  const later: SQL[] = [];
  let lead: SQL | undefined;
  keys.forEach((k, i) => {
    const c = k.column;
    const v = last[i] ?? null;
    const typed = v === null ? undefined : sql`cast(${v} as ${sql.raw(c.getSQLType())})`;
    let after: SQL | undefined;
    if (k.dir === 'asc') after = typed === undefined ? undefined : c.notNull ? sql`${c} > ${typed}` : sql`(${c} > ${typed} or ${c} is null)`;
    else after = typed === undefined ? sql`${c} is not null` : sql`${c} < ${typed}`;
    if (i === 0 && typed !== undefined) lead = k.dir === 'desc' ? sql`${c} <= ${typed}` : c.notNull ? sql`${c} >= ${typed}` : undefined;
    if (after) later.push(ties.length ? sql`(${and(...ties, after)})` : after);
    ties.push(typed === undefined ? sql`${c} is null` : sql`${c} = ${typed}`);
  });
  const any = later.length ? sql`(${sql.join(later, sql` or `)})` : sql`false`;
  return lead ? sql`${lead} and ${any}` : any;
}

/** the rows the planner expects of an `explain (format json)` */
const planRows = (result: unknown): number => planOf(result)?.['Plan Rows'] ?? Number.POSITIVE_INFINITY;

/** Whether the planner walks the order from an index (or sorts few rows): `explain` of the first chunk's statement. */
function keysetFits(result: unknown): boolean {
  let node = planOf(result);
  while (node && (node['Node Type'] === 'Limit' || node['Node Type'] === 'Gather Merge')) node = node.Plans?.[0];
  return node?.['Node Type'] !== 'Sort' || (node['Plan Rows'] ?? 0) <= KEYSET_SORT_MAX;
}

type Chunk = { rows: Row[]; last: Array<string | null> };

/**
 * Runs a select of `fields` (columns) and decodes its rows as drizzle does (each column's `mapFromDriverValue`, null
 * as null) without its per-value type checks, the chunk's largest cost after the driver's; `last` is the last row as
 * the driver gave it (a timestamp's text with its microseconds, an id's digits).
 */
async function readRows(tx: Executor, m: ResourceMount, fields: Record<string, PgColumn>, where: SQL | undefined, order?: SQL[], limit?: number) {
  let q = tx.select(fields).from(m.table).where(where).$dynamic();
  if (order) q = q.orderBy(...order);
  if (limit !== undefined) q = q.limit(limit);
  const names = Object.keys(fields);
  const columns = names.map((n) => fields[n]!);
  let last: unknown[] | undefined;
  const decode = (raws: unknown[][]): Row[] => {
    last = raws.at(-1);
    return raws.map((raw) => {
      const row: Row = {};
      for (let i = 0; i < names.length; i++) {
        const v = raw[i];
        row[names[i]!] = v === null || v === undefined ? null : columns[i]!.mapFromDriverValue(v);
      }
      return row;
    });
  };
  const rows = await tx._.session.prepareQuery<PreparedQueryConfig & { execute: Row[] }>(q.toSQL(), undefined, undefined, true, decode).execute();
  return { rows, last, names };
}

/** Reads a chunk of the keyset walk: live rows the caller sees, matching the filters, after `last`. */
async function keysetChunk(m: ResourceMount, tx: Executor, user: AuthUser, read: ExportRead, chunk: number, last: Chunk['last'] | undefined, conds?: SQL[]): Promise<Chunk> {
  // the sort keys are read too (under a name of their own unless written)
  const fields: Record<string, PgColumn> = { ...read.wanted };
  const keyNames = read.keys.map((k, i) => {
    const named = Object.keys(fields).find((n) => fields[n] === k.column);
    if (named) return named;
    fields[`__exportKey${i}`] = k.column;
    return `__exportKey${i}`;
  });
  const where = and(...(conds ?? await scopeIn(m, tx, user)), ...read.built.conditions, last ? keysetAfter(read.keys, last) : undefined);
  const got = await readRows(tx, m, fields, where, orderBy(read.keys), chunk);
  const end = got.last;
  const lastKeys = end ? keyNames.map((n) => {
    const v = end[got.names.indexOf(n)];
    return v === null || v === undefined ? null : String(v);
  }) : [];
  await m.hooks.shown?.(tx, got.rows, user, read.lang);
  return { rows: got.rows, last: lastKeys };
}

/** The keyset walk from its first chunk: each chunk is read as soon as the one before it is (while that one is written). */
function keysetSource(m: ResourceMount, user: AuthUser, read: ExportRead, chunk: number, first: Chunk): RowSource {
  let pending: Promise<Chunk> | undefined = Promise.resolve(first);
  return {
    strategy: 'keyset',
    async next() {
      if (!pending) return undefined;
      const got = await pending;
      pending = got.rows.length === chunk ? runAs(m, user, (tx) => keysetChunk(m, tx, user, read, chunk, got.last)) : undefined;
      pending?.catch(() => undefined); // awaited by the next call; a failure while this chunk is written is not unhandled
      return got.rows.length ? got.rows : undefined;
    },
  };
}

/** The ids first (a snapshot, `exportIds`), then the rows `chunk` ids at a time, in the ids' order. */
async function idsSource(m: ResourceMount, user: AuthUser, read: ExportRead, chunk: number): Promise<RowSource> {
  const found = await exportIds(m, user, read.built, orderBy(read.keys));
  if (found.count > EXPORT_MAX_ROWS) throw badRequest('exportTooManyRows', { max: EXPORT_MAX_ROWS });
  const ids = idChunks(found.text, chunk);
  const fetch = (part: string[] | undefined) => {
    if (!part) return undefined;
    const rows = runAs(m, user, async (tx) => {
      const { rows: got } = await readRows(tx, m, read.wanted, and(inList(m.columns.id!, part), ...(await scopeIn(m, tx, user))));
      await m.hooks.shown?.(tx, got, user, read.lang);
      const byId = new Map(got.map((r) => [String(r.id), r]));
      return part.map((k) => byId.get(k)).filter((r): r is Row => r !== undefined); // deleted meanwhile: left out
    });
    rows.catch(() => undefined); // awaited by the next call; a failure while this chunk is written is not unhandled
    return rows;
  };
  let pending = fetch(ids.next().value);
  return {
    strategy: 'ids',
    async next() {
      if (!pending) return undefined;
      const rows = await pending;
      pending = fetch(ids.next().value);
      return rows;
    },
  };
}

/**
 * Opens the read of an export, before anything is answered (a refusal is still a 400): the rows the list would show
 * for the same filters, sort, tenant and data scope, in its order. A keyset walk when the planner walks that order
 * from an index (or sorts few rows): one short statement per chunk, each starting after the last row read, the first
 * read here; the bound on the rows is counted only when that chunk is full. Otherwise (and for a substring search no
 * index serves, which the snapshot scans once, in a heavy-query lane) the ids are taken first (`idsSource`).
 */
export async function openExport(m: ResourceMount, user: AuthUser, read: ExportRead, opts?: ExportOptions & { copy?: undefined }): Promise<RowSource>;
export async function openExport(m: ResourceMount, user: AuthUser, read: ExportRead, opts: ExportOptions): Promise<RowSource | CopySource>;
export async function openExport(m: ResourceMount, user: AuthUser, read: ExportRead, opts: ExportOptions = {}): Promise<RowSource | CopySource> {
  const chunk = opts.chunk ?? EXPORT_CHUNK;
  if (opts.copy) {
    // one statement in the list's order (the planner's choice of plan, in parallel where it can), its bound checked first
    const copied = await startCopyExport(m, user, opts.copy.plan, opts.copy.format, async (tx) => and(...await scopeIn(m, tx, user), ...read.built.conditions),
      read.keys, EXPORT_MAX_ROWS, async (tx, where) => {
        // counted only where the planner's estimate comes within a tenth of the bound (COPY stops past it anyway)
        const rows = planRows(await tx.execute(sql`explain (format json) select 1 from ${m.table} where ${where ?? sql`true`}`));
        if (rows * 10 < EXPORT_MAX_ROWS) return;
        const over = await tx.execute(sql`select 1 from ${m.table} where ${where ?? sql`true`} offset ${EXPORT_MAX_ROWS} limit 1`);
        if ((over as unknown as { rows: unknown[] }).rows.length) throw badRequest('exportTooManyRows', { max: EXPORT_MAX_ROWS });
      });
    if (copied) return { strategy: 'copy', copied };
  }
  if (opts.strategy === 'ids' || (opts.strategy === undefined && unindexed(read.built))) return idsSource(m, user, read, chunk);
  const first = await runAs(m, user, async (tx): Promise<Chunk | undefined> => {
    const conds = await scopeIn(m, tx, user);
    const where = and(...conds, ...read.built.conditions);
    if (opts.strategy === undefined) {
      const probe = tx.select({ id: m.columns.id! }).from(m.table).where(where).orderBy(...orderBy(read.keys)).limit(chunk);
      if (!keysetFits(await tx.execute(sql`explain (format json) ${probe}`))) return undefined;
    }
    const got = await keysetChunk(m, tx, user, read, chunk, undefined, conds);
    if (got.rows.length === chunk) {
      const bounded = await tx.execute(sql`select count(*) as n from (select 1 from ${m.table} where ${where ?? sql`true`} limit ${EXPORT_MAX_ROWS + 1}) s`);
      const n = Number((bounded as unknown as { rows: Array<{ n: string | number }> }).rows[0]?.n ?? 0);
      if (n > EXPORT_MAX_ROWS) throw badRequest('exportTooManyRows', { max: EXPORT_MAX_ROWS });
    }
    return got;
  });
  return first ? keysetSource(m, user, read, chunk, first) : idsSource(m, user, read, chunk);
}

/**
 * The records an export writes, as `present` answers them for the fields written (`only`): each field's value
 * (`presentValue`), the dictionary labels and reference names beside them (`dictLabel`, `referenceName`), a tree's
 * ancestors; built once per export, a row at a time (no other key of a record is read by an export's column).
 */
async function exportPresenter(m: ResourceMount, lang: Lang, only: ReadonlySet<string>): Promise<(row: Row, names: ReferenceNames) => Row> {
  const fields = m.answered.filter(([name]) => only.has(name));
  const dicts = m.dictFields.filter(([name]) => only.has(name)).map(([name, code]) => [name, dictNameKey(name), m.def.fields[name]!, code] as const);
  const labels = await Promise.all(dicts.map(([, , , code]) => m.ctx.dicts.labels(code, lang)));
  const refs = m.hasRefs ? Object.entries(m.def.fields).filter(([name, f]) => f.ref && !f.writeOnly && only.has(name)).map(([name]) => [name, dictNameKey(name)] as const) : [];
  const ancestors = m.def.tree?.ancestorsColumn;
  const withAncestors = ancestors !== undefined && only.has(ancestors);
  return (row, names) => {
    const one: Row = {};
    for (const [name, f] of fields) one[name] = presentValue(f, row[name]);
    for (let i = 0; i < dicts.length; i++) one[dicts[i]![1]] = dictLabel(dicts[i]![2], row[dicts[i]![0]], labels[i]!);
    for (const [name, key] of refs) one[key] = referenceName(m.def, name, row[name], names.get(name));
    if (withAncestors && typeof row[ancestors] === 'string') one[ancestors] = row[ancestors];
    return one;
  };
}

/** Writes what COPY wrote (the CSV's rows, or the sheet's XML) as it is; the spool goes at the end. */
async function writeCopied(sheet: SheetWriter, out: PassThrough, copied: CopiedExport): Promise<void> {
  try {
    const release = copied.release;
    for await (const bytes of copied.bytes()) {
      await sheet.bytes!(bytes, release && (() => release(bytes)));
      if (out.destroyed) return;
    }
    await sheet.finish();
    out.end();
  } finally {
    await copied.close();
  }
}

/**
 * Writes the rows of `source` to `sheet` (the .xlsx, or the CSV option) under a header row of the columns' labels,
 * presented as the API answers them (wire formats, display names of dictionary codes and references, read once per
 * export), then ends `out`. Returns early when the client went away.
 */
export async function writeExport(
  m: ResourceMount, sheet: SheetWriter, out: PassThrough, user: AuthUser, lang: Lang, source: RowSource | CopySource, cols: ExportColumn[], wanted: Record<string, PgColumn>,
): Promise<void> {
  sheet.row(cols.map((c) => c.header));
  if (source.strategy === 'copy') {
    await writeCopied(sheet, out, source.copied);
    return;
  }
  const names: ReferenceNames = new Map();
  // the columns read, and the virtual fields the `shown` hook derived from them
  const written = new Set([...Object.keys(wanted), ...cols.map((c) => c.name)]);
  const present = await exportPresenter(m, lang, written);
  const cells: XlsxValue[] = new Array<XlsxValue>(cols.length);
  for (let rows = await source.next(); rows; rows = await source.next()) {
    // the chunk's references named in one query per field, then each row presented and written in turn
    const missing = m.hasRefs ? unnamedReferences(m.def, rows, names, written) : undefined;
    if (missing?.size) await runAs(m, user, (tx) => loadReferenceNames(tx, m.ctx.resources, m.def, missing, user, names));
    for (const row of rows) {
      const rec = present(row, names);
      for (let i = 0; i < cols.length; i++) cells[i] = cellOf(cols[i]!.value(rec));
      sheet.row(cells);
      if (sheet.full) await sheet.flush();
    }
    if (out.destroyed) return;
  }
  await sheet.finish();
  out.end();
}
