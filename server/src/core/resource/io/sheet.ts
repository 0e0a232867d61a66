import { parse } from 'csv-parse';
import { createReadStream } from 'node:fs';
import { xlsxRowBatches } from './xlsxReader.js';

/** One row of a sheet: its number as the spreadsheet shows it (1 is the header) and its cells from column A. */
export interface SheetRow {
  row: number;
  cells: unknown[];
}

export type SheetKind = 'xlsx' | 'csv';

/** rows of a .csv handed on together */
const CSV_BATCH = 1000;

/** A UTF-8 .csv (a BOM is dropped), in batches of records; the row number counts records (1 is the header). */
async function* csvRowBatches(path: string): AsyncGenerator<SheetRow[]> {
  const parser = createReadStream(path).pipe(parse({ bom: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: false, max_record_size: 1_000_000 }));
  let row = 0;
  let batch: SheetRow[] = [];
  for await (const record of parser as AsyncIterable<string[]>) {
    row++;
    batch.push({ row, cells: record });
    if (batch.length >= CSV_BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/** a sheet's rows in batches (an import checks each row on its own, without a promise per row) */
export function sheetRowBatches(path: string, kind: SheetKind): AsyncGenerator<SheetRow[]> {
  return kind === 'xlsx' ? xlsxRowBatches(path) : csvRowBatches(path);
}

/** a sheet's rows one at a time */
export async function* sheetRows(path: string, kind: SheetKind): AsyncGenerator<SheetRow> {
  for await (const batch of sheetRowBatches(path, kind)) yield* batch;
}

/** What a file is, by its first bytes (an .xlsx is a zip) and, for text, by its name: null for anything else. */
export function sheetKind(head: Buffer, filename: string, mimetype: string): SheetKind | null {
  if (head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) return 'xlsx';
  const named = /\.csv$/i.test(filename) || /^(text\/csv|application\/csv|text\/comma-separated-values)/i.test(mimetype);
  if (!named || head.includes(0)) return null;
  // text: valid UTF-8 in the first bytes (a cut-off multi-byte character at the end is allowed)
  const text = new TextDecoder('utf-8', { fatal: false }).decode(head);
  const bad = (text.match(/\uFFFD/g) ?? []).length;
  return bad <= 1 ? 'csv' : null;
}
