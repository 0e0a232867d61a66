import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { SheetWriter, XlsxValue } from './xlsxWriter.js';

/** a cell that must be quoted (RFC 4180): it holds a comma, a quote or a line break */
const NEEDS_QUOTES = /[",\r\n]/;
const QUOTE = /"/g;

/**
 * A cell as CSV text: RFC 4180 quoting (only where needed, quotes doubled); a text that a spreadsheet would take as
 * a formula (starting with = + - @, a tab or a carriage return) is defused with a leading single quote, as the
 * import report's CSV does. Numbers are written as they are (a negative number is a number, not a formula); flags
 * as TRUE/FALSE, which is what the .xlsx's boolean cells show.
 */
export function csvCell(v: XlsxValue): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  let text = v;
  const first = text.charCodeAt(0);
  // = + - @ \t \r
  if (first === 61 || first === 43 || first === 45 || first === 64 || first === 9 || first === 13) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(QUOTE, '""')}"` : text;
}

/**
 * A CSV export streamed to `out`: UTF-8 with a byte order mark (Excel then reads Chinese right), rows ended by CRLF
 * (RFC 4180). Rows are gathered into ~64 KB pieces; each piece waits while the destination is full.
 */
export class CsvSheetWriter implements SheetWriter {
  private text = '\uFEFF';
  /** resolves when the destination closes (the client went away): nothing waits for it after that */
  private readonly closed: Promise<unknown>;

  constructor(private readonly out: Writable) {
    this.closed = once(out, 'close').catch(() => undefined);
  }

  row(values: readonly XlsxValue[]): void {
    let line = '';
    for (let i = 0; i < values.length; i++) line += i === 0 ? csvCell(values[i]) : `,${csvCell(values[i])}`;
    this.text += `${line}\r\n`;
  }

  get full(): boolean {
    return this.text.length >= 64 * 1024;
  }

  async addRows(rows: ReadonlyArray<readonly XlsxValue[]>): Promise<void> {
    for (const values of rows) {
      this.row(values);
      if (this.full) await this.flush();
    }
  }

  async bytes(data: Buffer, taken?: () => void): Promise<void> {
    await this.flush();
    if (!this.out.write(data, taken && (() => taken()))) await Promise.race([once(this.out, 'drain'), this.closed]);
  }

  async flush(): Promise<void> {
    if (this.text === '') return;
    const buf = Buffer.from(this.text, 'utf8');
    this.text = '';
    if (!this.out.write(buf)) await Promise.race([once(this.out, 'drain'), this.closed]);
  }

  async finish(): Promise<void> {
    await this.flush();
  }
}
