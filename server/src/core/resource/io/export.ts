import type { Lang, ResourceDef } from '@console/contract';
import { and, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { PassThrough } from 'node:stream';
import type { AuthUser } from '../../context.js';
import { inList } from '../../db/bulk.js';
import { type Filters, unindexed } from '../filters.js';
import { runAs, scopeIn } from '../mount/access.js';
import type { ResourceMount } from '../mount/resourceMount.js';
import type { ReferenceNames } from '../refs.js';
import { exportColumns } from './cells.js';
import { type XlsxValue, XlsxSheetWriter } from './xlsxWriter.js';

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
  return { cols, wanted };
}

/**
 * Writes the sheet to `out`: the rows of `ids` read a chunk at a time, each chunk in a statement of its own
 * (the next one read while this one is written), presented as the API answers them. Returns early when the
 * client went away.
 */
export async function writeExport(
  m: ResourceMount, out: PassThrough, user: AuthUser, lang: Lang, title: string,
  ids: Generator<string[], undefined>, cols: ExportColumn[], wanted: Record<string, PgColumn>,
): Promise<void> {
  const { table } = m;
  const sheet = new XlsxSheetWriter(out, title, cols.map((c) => ({ header: c.header, width: c.width })));
  await sheet.addRows([cols.map((c) => c.header)]);
  const read = (chunk: string[]) => {
    const rows = runAs(m, user, async (tx) => {
      const found = await tx.select(wanted).from(table).where(and(inList(m.columns.id!, chunk), ...(await scopeIn(m, tx, user)))) as Row[];
      await m.hooks.shown?.(tx, found, user, lang);
      return found;
    });
    rows.catch(() => undefined); // awaited below; a failure while the previous chunk is written is not unhandled
    return rows;
  };
  const names: ReferenceNames = new Map();
  // the columns read, and the virtual fields the `shown` hook derived from them
  const written = new Set([...Object.keys(wanted), ...cols.map((c) => c.name)]);
  // the next chunk is read while this one is written; the writer waits whenever the client reads slower
  let chunk = ids.next().value;
  let next = chunk ? read(chunk) : undefined;
  while (chunk) {
    const rows = await next!;
    const following = ids.next().value;
    next = following ? read(following) : undefined;
    const byId = new Map(rows.map((r) => [String(r.id), r]));
    const ordered = chunk.map((k) => byId.get(k)).filter((r): r is Row => r !== undefined); // deleted meanwhile: left out
    const records = await m.present(ordered, lang, user, { names, only: written });
    await sheet.addRows(records.map((rec) => cols.map((c) => cellOf(c.value(rec)))));
    if (out.destroyed) return;
    chunk = following;
  }
  await sheet.finish();
  out.end();
}
