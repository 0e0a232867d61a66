import type JSZip from 'jszip';
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createInflateRaw } from 'node:zlib';
import { badRequest } from '../../errors.js';

/** One row of a sheet: its number as the spreadsheet shows it (1 is the header) and its cells from column A. */
export interface XlsxRow {
  row: number;
  /** text, number, boolean, Date (a number in a date format) or undefined (no cell) */
  cells: unknown[];
}

/** the most text one row (or the shared strings) may inflate to: a real import row is a few KB */
const MAX_PENDING_CHARS = 16 * 1024 * 1024;
const MAX_SHARED_CHARS = 64 * 1024 * 1024;

/** Excel's built-in number formats that show a date or a time */
const DATE_FORMAT_IDS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58]);

const ENTITY = /&(?:#(\d+)|#x([0-9a-fA-F]+)|(lt|gt|amp|quot|apos));/g;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
/** XML text as it reads, and OOXML's `_xHHHH_` escapes of characters XML cannot hold */
function unescape(text: string): string {
  const plain = text.includes('&')
    ? text.replace(ENTITY, (_, dec: string | undefined, hex: string | undefined, name: string | undefined) =>
      (name ? NAMED[name]! : String.fromCodePoint(dec ? Number(dec) : parseInt(hex!, 16))))
    : text;
  return plain.includes('_x') ? plain.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) : plain;
}

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;
const isWordChar = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

/** an attribute's value in a start tag's attributes (`name="value"` at the start or after white space) */
const attr = (attrs: string, name: string): string | undefined => {
  const key = `${name}="`;
  for (let at = attrs.indexOf(key); at >= 0; at = attrs.indexOf(key, at + 1)) {
    if (at > 0 && !isSpace(attrs.charCodeAt(at - 1))) continue;
    const start = at + key.length;
    const end = attrs.indexOf('"', start);
    return end < 0 ? undefined : attrs.slice(start, end);
  }
  return undefined;
};

/** where the next `<tag` starting an element named `tag` (not a longer name) is, from `from`; -1 when none */
function tagStart(text: string, tag: string, from: number): number {
  for (let at = text.indexOf(`<${tag}`, from); at >= 0; at = text.indexOf(`<${tag}`, at + 1)) {
    const next = text.charCodeAt(at + tag.length + 1);
    if (Number.isNaN(next) || !isWordChar(next)) return at;
  }
  return -1;
}

/** the text of the first `<v>` (or `<v …>`) element of a cell's content */
function valueOf(inner: string): string | undefined {
  for (let at = inner.indexOf('<v'); at >= 0; at = inner.indexOf('<v', at + 2)) {
    const c = inner.charCodeAt(at + 2);
    if (c !== 62 && !isSpace(c)) continue;
    const gt = inner.indexOf('>', at + 2);
    const close = gt < 0 ? -1 : inner.indexOf('</v>', gt + 1);
    return close < 0 ? undefined : inner.slice(gt + 1, close);
  }
  return undefined;
}

/** the text of an `<si>` or `<is>`: its `<t>` runs, without phonetic guides (`<rPh>`) */
function runsText(xml: string): string {
  const body = xml.includes('<rPh') ? xml.replace(/<rPh\b[\s\S]*?<\/rPh>/g, '') : xml;
  let out = '';
  for (let at = body.indexOf('<t'); at >= 0; at = body.indexOf('<t', at + 2)) {
    const c = body.charCodeAt(at + 2);
    if (c !== 62 && c !== 47 && !isSpace(c)) continue; // <tab…>, <text…>: another element
    const gt = body.indexOf('>', at + 2);
    if (gt < 0) break;
    if (body.charCodeAt(gt - 1) === 47) continue; // <t/>: an empty run
    const close = body.indexOf('</t>', gt + 1);
    if (close < 0) break;
    out += unescape(body.slice(gt + 1, close));
    at = close;
  }
  return out;
}

/** Whether a number format shows a date or time: d, m, y, h or s outside quoted text and [brackets] (as exceljs decides). */
export function isDateFormat(code: string): boolean {
  const bare = code.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, '').replace(/\\./g, '');
  return /[ymdhs]/i.test(bare) && !/^general$/i.test(bare.trim());
}

/** An Excel serial date (days since 1899-12-30, or 1904-01-01) as the calendar time it shows, its fields in UTC. */
export function serialDate(serial: number, date1904: boolean): Date {
  return new Date(Math.round((serial - 25569 + (date1904 ? 1462 : 0)) * 86_400_000));
}

/** A column's index from a cell reference: A1 → 0, AB7 → 27 (undefined without letters). */
function columnOf(ref: string | undefined): number | undefined {
  if (!ref) return undefined;
  let n = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c < 65 || c > 90) break;
    n = n * 26 + (c - 64);
  }
  return i === 0 ? undefined : n - 1;
}

/** a deflated part's bytes as the zip holds them (JSZip keeps them from loadAsync); undefined for anything else */
function deflatedBytes(file: JSZip.JSZipObject): Uint8Array | undefined {
  const data = (file as unknown as { _data?: { compression?: { magic?: string }; compressedContent?: unknown } })._data;
  return data?.compression?.magic === '\x08\x00' && data.compressedContent instanceof Uint8Array ? data.compressedContent : undefined;
}

/** a part's text as it inflates: node's zlib (native, off this thread) for a deflated part, JSZip's stream otherwise */
async function* textOf(file: JSZip.JSZipObject): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  const deflated = deflatedBytes(file);
  const stream = deflated
    ? Readable.from([deflated]).pipe(createInflateRaw({ chunkSize: 256 * 1024 }))
    : new Readable().wrap(file.nodeStream('nodebuffer'));
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) yield decoder.write(chunk);
  } catch {
    throw badRequest('importUnreadable');
  } finally {
    stream.destroy();
  }
  const rest = decoder.end();
  if (rest) yield rest;
}

/**
 * The complete elements `<tag …>…</tag>` (or `<tag …/>`) of `text` from `from`: the elements, and where the text
 * not cut yet starts (a partial element at the end waits for the rest).
 */
function cutElements(text: string, tag: string, from: number): { found: string[]; end: number } {
  const close = `</${tag}>`;
  const found: string[] = [];
  let end = from;
  for (let at = tagStart(text, tag, from); at >= 0; at = tagStart(text, tag, end)) {
    const gt = text.indexOf('>', at + tag.length + 1);
    if (gt < 0) break;
    if (text.charCodeAt(gt - 1) === 47) { // `/>`: an empty element
      end = gt + 1;
    } else {
      const closing = text.indexOf(close, gt + 1);
      if (closing < 0) break;
      end = closing + close.length;
    }
    found.push(text.slice(at, end));
  }
  return { found, end };
}

/**
 * The complete elements `<tag …>…</tag>` (or `<tag …/>`) of a part, as it inflates, a batch per inflated piece:
 * a partial element at the end of what has come waits for the rest; one that never ends within `maxPending`
 * characters is refused.
 */
async function* elements(file: JSZip.JSZipObject, tag: string, maxPending: number): AsyncGenerator<string[]> {
  const close = `</${tag}>`;
  const empty = new RegExp(`<${tag}\\b[^>]*/>`);
  // the text not yet cut into elements, as chunks: joined only when an element may have ended (a long
  // element costs one join, not one per chunk)
  let parts: string[] = [];
  let size = 0;
  let tail = '';
  for await (const text of textOf(file)) {
    parts.push(text);
    size += text.length;
    const probe = tail + text; // a start tag is shorter than 4 KB
    tail = probe.slice(-4096);
    if (probe.indexOf(close) < 0 && !empty.test(probe)) {
      if (size > maxPending) throw badRequest('importUnreadable');
      continue;
    }
    const pending = parts.join('');
    const { found, end } = cutElements(pending, tag, 0);
    if (found.length) yield found;
    const rest = pending.slice(end);
    parts = rest ? [rest] : [];
    size = rest.length;
    if (size > maxPending) throw badRequest('importUnreadable');
  }
}

/**
 * The first sheet of an .xlsx, in batches of rows (those of each inflated piece). A lean reader of what an import
 * needs: cell values (shared and inline strings, numbers, booleans, the cached result of a formula, error codes as
 * their text) and dates (numbers in a date format, by the cell's style). The zip is read into memory (an upload is
 * at most 20 MB); the sheet is inflated (node's zlib) and scanned as a stream, with indexOf rather than regular
 * expressions. About seven times faster than exceljs's streaming reader, whose SAX events and objects per cell
 * took most of an import's time; the scanning and the batches halved what was left.
 */
export async function* xlsxRowBatches(path: string): AsyncGenerator<XlsxRow[]> {
  // loaded at the first import, not at start (bench/RESULTS.md, "The embedded database's idle memory")
  const { default: JSZip } = await import('jszip');
  const zip = await JSZip.loadAsync(await readFile(path)).catch(() => {
    throw badRequest('importUnreadable');
  });
  const part = (name: string) => zip.file(name.replace(/^\//, ''));
  const small = async (name: string) => (await part(name)?.async('string')) ?? '';

  const workbook = await small('xl/workbook.xml');
  const date1904 = /<workbookPr\b[^>]*\bdate1904="(1|true)"/.test(workbook);
  const firstSheet = /<sheet\b([^>]*)\/?>/.exec(workbook)?.[1];
  const relId = firstSheet ? attr(firstSheet, 'r:id') : undefined;
  let sheetPath = 'xl/worksheets/sheet1.xml';
  if (relId) {
    const rels = await small('xl/_rels/workbook.xml.rels');
    for (const m of rels.matchAll(/<Relationship\b([^>]*)\/?>/g)) {
      if (attr(m[1]!, 'Id') !== relId) continue;
      const target = attr(m[1]!, 'Target') ?? '';
      sheetPath = target.startsWith('/') ? target.slice(1) : `xl/${target}`;
    }
  }
  const sheet = part(sheetPath);
  if (!sheet) throw badRequest('importUnreadable');

  const shared: string[] = [];
  const strings = part('xl/sharedStrings.xml');
  if (strings) {
    let chars = 0;
    for await (const batch of elements(strings, 'si', MAX_PENDING_CHARS)) {
      for (const si of batch) {
        const text = runsText(si);
        chars += text.length;
        if (chars > MAX_SHARED_CHARS) throw badRequest('importUnreadable');
        shared.push(text);
      }
    }
  }

  // styles: which cell formats (xf, by index) show dates
  const styles = await small('xl/styles.xml');
  const customDates = new Set<number>();
  for (const m of styles.matchAll(/<numFmt\b([^>]*)\/?>/g)) {
    const id = Number(attr(m[1]!, 'numFmtId'));
    if (isDateFormat(unescape(attr(m[1]!, 'formatCode') ?? ''))) customDates.add(id);
  }
  const dateStyles: boolean[] = [];
  const cellXfs = /<cellXfs\b[^>]*>([\s\S]*?)<\/cellXfs>/.exec(styles)?.[1] ?? '';
  for (const m of cellXfs.matchAll(/<xf\b([^>]*)\/?>/g)) {
    const id = Number(attr(m[1]!, 'numFmtId') ?? 0);
    dateStyles.push(DATE_FORMAT_IDS.has(id) || customDates.has(id));
  }

  const read: RowReading = { shared, dateStyles, date1904, rowNumber: 0 };
  for await (const batch of elements(sheet, 'row', MAX_PENDING_CHARS)) yield batch.map((row) => parseRow(row, read));
}

/** what reading a sheet's rows needs: its shared strings, which styles are dates, its date system, the last row's number */
interface RowReading {
  shared: string[];
  dateStyles: boolean[];
  date1904: boolean;
  rowNumber: number;
}

/** one `<row>` element: its number (`r`, else the one after the last) and its cells by column */
function parseRow(row: string, read: RowReading): XlsxRow {
  const open = row.indexOf('>');
  const rowAttrs = row.slice(4, open);
  read.rowNumber = Number(attr(rowAttrs, 'r') ?? read.rowNumber + 1);
  const cells: unknown[] = [];
  if (row[open - 1] === '/') return { row: read.rowNumber, cells };
  let column = -1;
  for (let at = tagStart(row, 'c', open + 1); at >= 0; at = tagStart(row, 'c', at + 2)) {
    const gt = row.indexOf('>', at + 2);
    if (gt < 0) break;
    const empty = row.charCodeAt(gt - 1) === 47;
    const attrs = row.slice(at + 2, empty ? gt - 1 : gt);
    column = columnOf(attr(attrs, 'r')) ?? column + 1;
    if (empty) continue;
    const close = row.indexOf('</c>', gt + 1);
    if (close < 0) break;
    const inner = row.slice(gt + 1, close);
    at = close;
    const type = attr(attrs, 't') ?? 'n';
    if (type === 'inlineStr') {
      const is = inner.indexOf('<is>');
      const isEnd = is < 0 ? -1 : inner.indexOf('</is>', is + 4);
      if (isEnd >= 0) cells[column] = runsText(inner.slice(is + 4, isEnd));
      continue;
    }
    const raw = valueOf(inner);
    if (raw === undefined) continue;
    switch (type) {
      case 's':
        cells[column] = read.shared[Number(raw)];
        break;
      case 'str':
      case 'e':
        cells[column] = unescape(raw);
        break;
      case 'b':
        cells[column] = raw === '1' || raw === 'true';
        break;
      case 'd': {
        // an ISO 8601 time; one without a zone is the calendar time it shows (read as UTC, as serial dates are)
        const text = unescape(raw);
        cells[column] = new Date(/(Z|[+-]\d\d:?\d\d)$/.test(text) || !text.includes('T') ? text : `${text}Z`);
        break;
      }
      default: {
        const n = Number(raw);
        const style = attr(attrs, 's');
        cells[column] = style !== undefined && read.dateStyles[Number(style)] && Number.isFinite(n) ? serialDate(n, read.date1904) : n;
      }
    }
  }
  return { row: read.rowNumber, cells };
}

/** The first sheet of an .xlsx, row by row (xlsxRowBatches, one row at a time). */
export async function* xlsxRows(path: string): AsyncGenerator<XlsxRow> {
  for await (const batch of xlsxRowBatches(path)) yield* batch;
}
