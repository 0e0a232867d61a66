import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { crc32, createDeflateRaw, type DeflateRaw } from 'node:zlib';

/**
 * A streaming .xlsx of one sheet, written as rows come: the sheet's XML is deflated into a zip entry while it
 * is produced, so memory holds about a chunk whatever the row count. Cells are inline strings and numbers (no
 * shared strings, no styles): what an export needs, at several times exceljs's pace (its writer was the export's
 * bottleneck, bench/RESULTS.md "Production at size").
 */

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

// characters XML 1.0 does not allow (a stray control character in a remark would make the file unreadable)
// eslint-disable-next-line no-control-regex
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** text that needs xml:space="preserve" to keep its spaces: at either end, or a line break or tab anywhere */
const EDGE_SPACE = /^\s|\s$|[\t\n\r]/;
/** a carriage return as a reference: XML readers turn a raw one into a line feed */
const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\r': '&#13;' };

// anything xmlText changes: most cells hold none of it, and are written as they are
// eslint-disable-next-line no-control-regex
/** a text that needs escaping, dropping or xml:space: what `XML_SPECIAL` or `EDGE_SPACE` finds, in one test */
const PLAIN_TEXT = /[&<>"\u0000-\u001F\uD800-\uDFFF\uFFFE\uFFFF]|^\s|\s$/;
const XML_SPECIAL = /[&<>"\u0000-\u0008\u000B-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

export function xmlText(value: string): string {
  if (!XML_SPECIAL.test(value)) return value;
  return value.replace(INVALID_XML, '').replace(/[&<>"\r]/g, (c) => XML_ESCAPES[c]!);
}

/** A..Z, AA.. for column indexes from 0. */
export function columnLetters(index: number): string {
  let n = index + 1;
  let out = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

/** A sheet name Excel takes: at most 31 characters, none of []:*?/\ */
function sheetName(name: string): string {
  return name.replace(/[[\]:*?/\\]/g, ' ').trim().slice(0, 31) || 'Sheet1';
}

interface ZipEntryRecord { name: Buffer; crc: number; compressed: number; size: number; offset: number }

/** A zip written front to back: deflated entries with data descriptors (sizes after the data), no zip64. */
class ZipStream {
  private offset = 0;
  private readonly entries: ZipEntryRecord[] = [];
  private readonly stamp: { time: number; date: number };
  /** resolves when the destination closes (the client went away): nothing waits for it after that */
  readonly closed: Promise<unknown>;

  constructor(private readonly out: Writable) {
    this.closed = once(out, 'close').catch(() => undefined);
    const d = new Date();
    this.stamp = {
      time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
      date: ((d.getFullYear() - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
    };
  }

  private async raw(buf: Buffer): Promise<void> {
    this.offset += buf.length;
    if (!this.out.write(buf)) await Promise.race([once(this.out, 'drain'), this.closed]);
  }

  /** Starts an entry: its writer deflates what it is given; `end()` closes the entry. */
  async open(name: string): Promise<EntryWriter> {
    const nameBytes = Buffer.from(name, 'utf8');
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4); // version needed
    header.writeUInt16LE(0x0808, 6); // sizes in a data descriptor; UTF-8 names
    header.writeUInt16LE(8, 8); // deflate
    header.writeUInt16LE(this.stamp.time, 10);
    header.writeUInt16LE(this.stamp.date, 12);
    header.writeUInt16LE(nameBytes.length, 26);
    const record: ZipEntryRecord = { name: nameBytes, crc: 0, compressed: 0, size: 0, offset: this.offset };
    await this.raw(Buffer.concat([header, nameBytes]));
    // output in pieces of 64 KB: a sheet of a million rows deflates to tens of MB, and each piece is a callback
    const deflate = createDeflateRaw({ level: 1, chunkSize: 64 * 1024 });
    // the compressed bytes go out as they come; the deflater waits while the destination is full
    deflate.on('data', (chunk: Buffer) => {
      record.compressed += chunk.length;
      this.offset += chunk.length;
      if (!this.out.write(chunk)) {
        deflate.pause();
        this.out.once('drain', () => deflate.resume());
      }
    });
    const ended = once(deflate, 'end');
    return new EntryWriter(deflate, record, this.closed, async () => {
      await Promise.race([ended, this.closed]);
      const descriptor = Buffer.alloc(16);
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(record.crc >>> 0, 4);
      descriptor.writeUInt32LE(record.compressed, 8);
      descriptor.writeUInt32LE(record.size, 12);
      await this.raw(descriptor);
      this.entries.push(record);
    });
  }

  async file(name: string, text: string): Promise<void> {
    const entry = await this.open(name);
    await entry.write(text);
    await entry.end();
  }

  /** The central directory and its end record. */
  async finish(): Promise<void> {
    const start = this.offset;
    const parts: Buffer[] = [];
    for (const e of this.entries) {
      const h = Buffer.alloc(46);
      h.writeUInt32LE(0x02014b50, 0);
      h.writeUInt16LE(20, 4);
      h.writeUInt16LE(20, 6);
      h.writeUInt16LE(0x0808, 8);
      h.writeUInt16LE(8, 10);
      h.writeUInt16LE(this.stamp.time, 12);
      h.writeUInt16LE(this.stamp.date, 14);
      h.writeUInt32LE(e.crc >>> 0, 16);
      h.writeUInt32LE(e.compressed, 20);
      h.writeUInt32LE(e.size, 24);
      h.writeUInt16LE(e.name.length, 28);
      h.writeUInt32LE(e.offset, 42);
      parts.push(h, e.name);
    }
    const directory = Buffer.concat(parts);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(start, 16);
    await this.raw(Buffer.concat([directory, end]));
  }
}

class EntryWriter {
  constructor(private readonly deflate: DeflateRaw, private readonly record: ZipEntryRecord, private readonly closed: Promise<unknown>, private readonly close: () => Promise<void>) {}

  /** `taken`: called once the bytes are deflated (no longer held) */
  async write(text: string | Buffer, taken?: () => void): Promise<void> {
    const buf = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
    this.record.crc = crc32(buf, this.record.crc);
    this.record.size += buf.length;
    if (this.record.size > 0xffffffff) throw new Error('an xlsx sheet over 4 GB needs zip64');
    if (!this.deflate.write(buf, taken && (() => taken()))) await Promise.race([once(this.deflate, 'drain'), this.closed]);
  }

  async end(): Promise<void> {
    this.deflate.end();
    await this.close();
  }
}

export interface XlsxColumn {
  header: string;
  /** in characters, as Excel counts them */
  width: number;
}

/** One cell of a row: text, a number, a flag, or nothing. */
export type XlsxValue = string | number | boolean | null | undefined;

/**
 * What an export writes its rows to (the .xlsx, or the CSV option): `row` as they are read (the values are taken at
 * once: the array may be reused), `flush` whenever `full`, then `finish()`.
 */
export interface SheetWriter {
  row(values: readonly XlsxValue[]): void;
  /** ~64 KB of rows are gathered: `flush` them */
  readonly full: boolean;
  /** resolves when the gathered rows are taken (waiting while the destination is behind) */
  flush(): Promise<void>;
  /** resolves when the rows are taken: `row` for each, flushing whenever full */
  addRows(rows: ReadonlyArray<readonly XlsxValue[]>): Promise<void>;
  /**
   * rows already written in the sheet's own format, after those gathered (by COPY: the CSV's rows; the .xlsx's
   * `<row>` elements, numbered after those given to `row`); `taken`, if given, is called once `data` is no longer held
   */
  bytes?(data: Buffer, taken?: () => void): Promise<void>;
  finish(): Promise<void>;
}

/**
 * Writes an .xlsx of one sheet to `out`: rows as they are read, then `finish()`. Rows are gathered into ~64 KB
 * pieces of XML before they are deflated.
 */
export class XlsxSheetWriter implements SheetWriter {
  private readonly zip: ZipStream;
  private sheet: EntryWriter | undefined;
  private rowNumber = 0;
  /** the rows' XML not yet deflated */
  private pending = '';
  private readonly letters: string[];

  constructor(out: Writable, private readonly name: string, private readonly columns: XlsxColumn[]) {
    this.zip = new ZipStream(out);
    this.letters = columns.map((_, i) => columnLetters(i));
  }

  private async start(): Promise<EntryWriter> {
    if (this.sheet) return this.sheet;
    const title = xmlText(sheetName(this.name));
    await this.zip.file('[Content_Types].xml', `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">`
      + '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
      + '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
      + '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>');
    await this.zip.file('_rels/.rels', `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`);
    await this.zip.file('xl/workbook.xml', `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets><sheet name="${title}" sheetId="1" r:id="rId1"/></sheets></workbook>`);
    await this.zip.file('xl/_rels/workbook.xml.rels', `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`);
    this.sheet = await this.zip.open('xl/worksheets/sheet1.xml');
    const cols = this.columns.map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${Math.max(1, Math.min(255, c.width))}" customWidth="1"/>`).join('');
    await this.sheet.write(`${XML_HEAD}<worksheet xmlns="${MAIN_NS}">${cols ? `<cols>${cols}</cols>` : ''}<sheetData>`);
    return this.sheet;
  }

  /**
   * Adds a row's XML. Text is an inline string, never a formula: a cell starting with = + - @ is shown as typed, so
   * the .xlsx needs no defusing (the CSV option does, `csvCell`). Spaces at either end are kept (xml:space).
   */
  row(values: readonly XlsxValue[]): void {
    const r = ++this.rowNumber;
    let xml = `<row r="${r}">`;
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (v === null || v === undefined || v === '') continue;
      const ref = `${this.letters[i] ?? columnLetters(i)}${r}`;
      if (typeof v === 'string') {
        // most cells: nothing to escape and no space to keep, one test
        if (!PLAIN_TEXT.test(v)) {
          xml += `<c r="${ref}" t="inlineStr"><is><t>${v}</t></is></c>`;
          continue;
        }
        const keep = EDGE_SPACE.test(v) ? ' xml:space="preserve"' : '';
        xml += `<c r="${ref}" t="inlineStr"><is><t${keep}>${xmlText(v)}</t></is></c>`;
      } else if (typeof v === 'number') xml += Number.isFinite(v) ? `<c r="${ref}"><v>${v}</v></c>` : '';
      else xml += `<c r="${ref}" t="b"><v>${v ? 1 : 0}</v></c>`;
    }
    this.pending += `${xml}</row>`;
  }

  get full(): boolean {
    return this.pending.length >= 64 * 1024;
  }

  async addRows(rows: ReadonlyArray<readonly XlsxValue[]>): Promise<void> {
    for (const values of rows) {
      this.row(values);
      if (this.full) await this.flush();
    }
  }

  async flush(): Promise<void> {
    const sheet = await this.start();
    if (this.pending === '') return;
    const text = this.pending;
    this.pending = '';
    await sheet.write(text);
  }

  async bytes(data: Buffer, taken?: () => void): Promise<void> {
    await this.flush();
    await this.sheet!.write(data, taken);
  }

  async finish(): Promise<void> {
    await this.flush();
    const sheet = await this.start();
    await sheet.write('</sheetData></worksheet>');
    await sheet.end();
    await this.zip.finish();
  }
}
