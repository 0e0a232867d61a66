import JSZip from 'jszip';
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
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

const attributes = new Map<string, RegExp>();
/** an attribute's value in a start tag's attributes */
const attr = (attrs: string, name: string): string | undefined => {
  let re = attributes.get(name);
  if (!re) attributes.set(name, (re = new RegExp(`(?:^|\\s)${name}="([^"]*)"`)));
  return re.exec(attrs)?.[1];
};

/** the text of an `<si>` or `<is>`: its `<t>` runs, without phonetic guides (`<rPh>`) */
function runsText(xml: string): string {
  const body = xml.includes('<rPh') ? xml.replace(/<rPh\b[\s\S]*?<\/rPh>/g, '') : xml;
  let out = '';
  for (const m of body.matchAll(/<t(?:\s[^>]*)?>([\s\S]*?)<\/t>|<t(?:\s[^>]*)?\/>/g)) out += m[1] ? unescape(m[1]) : '';
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

async function* textOf(file: JSZip.JSZipObject): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  for await (const chunk of new Readable().wrap(file.nodeStream('nodebuffer')) as AsyncIterable<Buffer>) yield decoder.write(chunk);
  const rest = decoder.end();
  if (rest) yield rest;
}

/**
 * The complete elements `<tag …>…</tag>` (or `<tag …/>`) of a part, as it inflates: a partial element at the
 * end of what has come waits for the rest; one that never ends within `maxPending` characters is refused.
 */
async function* elements(file: JSZip.JSZipObject, tag: string, maxPending: number): AsyncGenerator<string> {
  const whole = new RegExp(`<${tag}\\b(?:[^>]*?/>|[\\s\\S]*?</${tag}>)`, 'g');
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
    let end = 0;
    for (const m of pending.matchAll(whole)) {
      yield m[0];
      end = m.index + m[0].length;
    }
    const rest = pending.slice(end);
    parts = rest ? [rest] : [];
    size = rest.length;
    if (size > maxPending) throw badRequest('importUnreadable');
  }
}

/**
 * The first sheet of an .xlsx, row by row. A lean reader of what an import needs: cell values (shared and
 * inline strings, numbers, booleans, the cached result of a formula, error codes as their text) and dates
 * (numbers in a date format, by the cell's style). The zip is read into memory (an upload is at most 20 MB);
 * the sheet is inflated and scanned as a stream. About seven times faster than exceljs's streaming reader,
 * whose SAX events and objects per cell took most of an import's time.
 */
export async function* xlsxRows(path: string): AsyncGenerator<XlsxRow> {
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
    for await (const si of elements(strings, 'si', MAX_PENDING_CHARS)) {
      const text = runsText(si);
      chars += text.length;
      if (chars > MAX_SHARED_CHARS) throw badRequest('importUnreadable');
      shared.push(text);
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

  let rowNumber = 0;
  for await (const row of elements(sheet, 'row', MAX_PENDING_CHARS)) {
    const open = row.indexOf('>');
    const rowAttrs = row.slice(4, open);
    rowNumber = Number(attr(rowAttrs, 'r') ?? rowNumber + 1);
    const cells: unknown[] = [];
    if (row[open - 1] !== '/') {
      let column = -1;
      for (const c of row.slice(open + 1).matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
        const attrs = c[1]!;
        column = columnOf(attr(attrs, 'r')) ?? column + 1;
        const inner = c[2];
        if (inner === undefined) continue;
        const type = attr(attrs, 't') ?? 'n';
        if (type === 'inlineStr') {
          const is = /<is>([\s\S]*?)<\/is>/.exec(inner)?.[1];
          if (is !== undefined) cells[column] = runsText(is);
          continue;
        }
        const raw = /<v(?:\s[^>]*)?>([\s\S]*?)<\/v>/.exec(inner)?.[1];
        if (raw === undefined) continue;
        switch (type) {
          case 's':
            cells[column] = shared[Number(raw)];
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
            cells[column] = style !== undefined && dateStyles[Number(style)] && Number.isFinite(n) ? serialDate(n, date1904) : n;
          }
        }
      }
    }
    yield { row: rowNumber, cells };
  }
}
