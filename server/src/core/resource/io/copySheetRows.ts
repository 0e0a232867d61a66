import { columnLetters } from './xlsxWriter.js';

/** what a cell's text is in the .xlsx: text, a number, a flag; `mixed`: a label or, without one, the raw value (`s`, `n` or `b` first) */
export type CellKind = 'text' | 'number' | 'boolean' | 'mixed';

const bytes = (text: string) => Buffer.from(text, 'latin1');
const ROW_OPEN = bytes('<row r="');
const ROW_OPENED = bytes('">');
const ROW_CLOSE = bytes('</row>');
const TEXT_OPEN = bytes('" t="inlineStr"><is><t>');
const TEXT_OPEN_KEEP = bytes('" t="inlineStr"><is><t xml:space="preserve">');
const TEXT_CLOSE = bytes('</t></is></c>');
const NUMBER_OPEN = bytes('"><v>');
const NUMBER_CLOSE = bytes('</v></c>');
const TRUE = bytes('" t="b"><v>1</v></c>');
const FALSE = bytes('" t="b"><v>0</v></c>');
const AMP = bytes('&amp;');
const LT = bytes('&lt;');
const GT = bytes('&gt;');
const QUOT = bytes('&quot;');
const CR = bytes('&#13;');

const TAB = 9;
const LF = 10;
const BACKSLASH = 92;
/** what XML writes for " & < > */
const ENTITY: Array<Buffer | undefined> = [];
ENTITY[34] = QUOT;
ENTITY[38] = AMP;
ENTITY[60] = LT;
ENTITY[62] = GT;
/** bytes a text cell cannot copy as they are: control characters, " & < > \ and the lead of U+FFFE/U+FFFF */
const SPECIAL = new Uint8Array(256);
for (let c = 0; c < 32; c++) SPECIAL[c] = 1;
for (const c of [34, 38, 60, 62, BACKSLASH, 0xef]) SPECIAL[c] = 1;
/** the most a text byte becomes (`"` as `&quot;`), and what a cell adds around its text */
const GROWTH = 6;
const CELL_MARKUP = 80;
/** the sheet XML is handed on in pieces of this much at most (a row that needs more gets a piece of its own) */
const PIECE = 1024 * 1024;
/** pieces given back (`release`) and kept for the next */
const POOLED = 8;

function put(out: Buffer, at: number, what: Buffer): number {
  for (let k = 0; k < what.length; k++) out[at++] = what[k]!;
  return at;
}

/**
 * Rows of COPY's text format (fields tab-separated, `\N` for null, backslash escapes, LF at the end) written as the
 * sheet's `<row>` elements byte by byte, no string between: for the same values, the cells `XlsxSheetWriter.row`
 * writes (inline strings, numbers, flags, each with its reference; an empty cell left out; what XML does not allow
 * dropped, a carriage return as `&#13;`, as `xmlText` writes it).
 */
export class CopySheetRows {
  /** each column's `<c r="A` */
  private readonly opens: Buffer[];
  private readonly digits = Buffer.allocUnsafe(16);
  private first = 16;
  /** the start of a row the last block cut */
  private carry: Buffer | undefined;
  /**
   * the memory of pieces given back once deflated, used again: 100,000 rows are about 50 MB of XML, which as new
   * buffers V8 counts as external memory, and collects the whole heap for
   */
  private readonly free: ArrayBuffer[] = [];

  /** `next`: the sheet row number of the first row given */
  constructor(private readonly kinds: readonly CellKind[], private next = 2) {
    this.opens = kinds.map((_, i) => bytes(`<c r="${columnLetters(i)}`));
  }

  /**
   * The sheet XML of the rows in `block`, a piece of COPY's output as it came (rows cut anywhere): the rows it ends,
   * numbered on from the last; a row it cuts is kept for the next block.
   */
  rows(block: Buffer): Buffer[] {
    const data = this.carry ? Buffer.concat([this.carry, block]) : block;
    this.carry = undefined;
    const pieces: Buffer[] = [];
    let out = this.piece(0);
    let at = 0;
    let from = 0;
    for (let end = data.indexOf(LF, from); end !== -1; end = data.indexOf(LF, from)) {
      const bound = this.bound(end + 1 - from);
      if (at + bound > out.length) {
        if (at > 0) pieces.push(out.subarray(0, at));
        else this.release(out);
        out = this.piece(bound);
        at = 0;
      }
      at = this.write(data, from, end, this.next++, out, at);
      from = end + 1;
    }
    if (at > 0) pieces.push(out.subarray(0, at));
    else this.release(out);
    if (from < data.length) this.carry = Buffer.from(data.subarray(from));
    return pieces;
  }

  /** a piece `rows` answered, no longer held: its memory serves the next */
  release(piece: Buffer): void {
    if (piece.buffer instanceof ArrayBuffer && piece.buffer.byteLength === PIECE && this.free.length < POOLED) this.free.push(piece.buffer);
  }

  private piece(min: number): Buffer {
    if (min > PIECE) return Buffer.allocUnsafeSlow(min);
    const free = this.free.pop();
    return free ? Buffer.from(free) : Buffer.allocUnsafeSlow(PIECE);
  }

  /** throws when the last block ended inside a row */
  end(): void {
    if (this.carry) throw new Error('an export\'s COPY ended inside a row');
  }

  /** what `write` may write at most for a row of `length` bytes */
  bound(length: number): number {
    return GROWTH * length + CELL_MARKUP * this.kinds.length + 64;
  }

  /**
   * writes the row of COPY's in `row` from `start` to its LF at `end` as sheet row `number` into `out` from `at`;
   * returns where it ended
   */
  write(row: Buffer, start: number, end: number, number: number, out: Buffer, at: number): number {
    const digits = this.digits;
    let first = digits.length;
    let n = number;
    do {
      digits[--first] = 48 + (n % 10);
      n = Math.floor(n / 10);
    } while (n > 0);
    this.first = first;
    at = put(out, at, ROW_OPEN);
    at = this.number(out, at);
    at = put(out, at, ROW_OPENED);
    let from = start;
    for (let column = 0; column < this.kinds.length && from <= end; column++) {
      // the field's end, and whether a byte in it is one to escape or drop
      let to = from;
      let special = 0;
      for (let c = row[to]; to < end && c !== TAB; c = row[++to]) special |= SPECIAL[c!]!;
      if (!(to - from === 2 && row[from] === BACKSLASH && row[from + 1] === 78)) at = this.cell(row, from, to, special !== 0, column, out, at);
      from = to + 1;
    }
    return put(out, at, ROW_CLOSE);
  }

  private number(out: Buffer, at: number): number {
    for (let k = this.first; k < this.digits.length; k++) out[at++] = this.digits[k]!;
    return at;
  }

  /** the cell of the field `row[from, to)` (not null); `special`: it holds a byte to escape or drop */
  private cell(row: Buffer, from: number, to: number, special: boolean, column: number, out: Buffer, at: number): number {
    let kind = this.kinds[column]!;
    if (kind === 'mixed') {
      const tag = row[from++];
      kind = tag === 115 ? 'text' : tag === 110 ? 'number' : 'boolean'; // s, n, b
    }
    if (from === to) return at; // an empty text: no cell
    at = put(out, at, this.opens[column]!);
    at = this.number(out, at);
    if (kind === 'number') {
      at = put(out, at, NUMBER_OPEN);
      for (let i = from; i < to; i++) out[at++] = row[i]!;
      return put(out, at, NUMBER_CLOSE);
    }
    if (kind === 'boolean') return put(out, at, row[from] === 116 ? TRUE : FALSE); // t(rue)
    if (!special) {
      // most texts: copied as they are (a byte at a time: short texts copy faster so than natively)
      at = put(out, at, row[from] === 32 || row[to - 1] === 32 ? TEXT_OPEN_KEEP : TEXT_OPEN);
      for (let i = from; i < to; i++) out[at++] = row[i]!;
      return put(out, at, TEXT_CLOSE);
    }
    at = put(out, at, keepsSpace(row, from, to) ? TEXT_OPEN_KEEP : TEXT_OPEN);
    at = escaped(row, from, to, out, at);
    return put(out, at, TEXT_CLOSE);
  }
}

/** a text with a space at either end, or a tab or line break anywhere (escaped in COPY's text), needs xml:space */
function keepsSpace(row: Buffer, from: number, to: number): boolean {
  if (row[from] === 32 || row[to - 1] === 32) return true;
  for (let i = from; i < to - 1; i++) {
    if (row[i] !== BACKSLASH) continue;
    const next = row[i + 1];
    if (next === 116 || next === 110 || next === 114) return true; // \t \n \r
    i++;
  }
  return false;
}

/** the text of `row[from, to)` unescaped from COPY's text format and escaped for XML */
function escaped(row: Buffer, from: number, to: number, out: Buffer, at: number): number {
  for (let i = from; i < to; i++) {
    const c = row[i]!;
    if (SPECIAL[c] === 0) {
      out[at++] = c;
      continue;
    }
    const entity = ENTITY[c];
    if (entity) {
      at = put(out, at, entity);
      continue;
    }
    switch (c) {
      case BACKSLASH: {
        const next = row[++i];
        if (next === 110) out[at++] = LF; // \n
        else if (next === 116) out[at++] = TAB; // \t
        else if (next === 114) at = put(out, at, CR); // \r: kept (a raw one would be read as a line feed)
        else if (next !== 98 && next !== 102 && next !== 118 && next !== undefined) out[at++] = next; // \\ (\b \f \v: not XML)
        break;
      }
      case 0xef:
        // U+FFFE and U+FFFF are not XML: dropped; any other character from this lead byte copied
        if (row[i + 1] === 0xbf && (row[i + 2] === 0xbe || row[i + 2] === 0xbf)) i += 2;
        else out[at++] = c;
        break;
      default:
      // another control character: not XML, dropped (a tab or line break comes escaped)
    }
  }
  return at;
}
