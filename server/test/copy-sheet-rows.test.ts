import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type CellKind, CopySheetRows } from '../src/core/resource/io/copySheetRows.js';
import { XlsxSheetWriter, type XlsxValue } from '../src/core/resource/io/xlsxWriter.js';

/**
 * The .xlsx of an export by COPY (`copySheetRows.ts`): rows of COPY's text format become the sheet XML the row-by-row
 * writer (`XlsxSheetWriter.row`) writes for the same values, byte for byte, with no string between.
 */

/** a value as PostgreSQL's COPY writes it in its text format (the plan's SQL gives each kind its text) */
function copyField(v: XlsxValue, kind: CellKind): string {
  if (v === null || v === undefined) return '\\N';
  const text = typeof v === 'string' ? v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t') : String(v);
  if (kind !== 'mixed') return text;
  return `${typeof v === 'string' ? 's' : typeof v === 'number' ? 'n' : 'b'}${text}`;
}

const copyRow = (values: XlsxValue[], kinds: CellKind[]) => Buffer.from(`${values.map((v, i) => copyField(v, kinds[i]!)).join('\t')}\n`, 'utf8');

async function sheetXml(headers: string[], fill: (sheet: XlsxSheetWriter) => Promise<void>): Promise<{ file: Buffer; xml: string }> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const sheet = new XlsxSheetWriter(out, 'rows', headers.map((header) => ({ header, width: 10 })));
  sheet.row(headers);
  await fill(sheet);
  await sheet.finish();
  const file = Buffer.concat(chunks);
  return { file, xml: await (await JSZip.loadAsync(file)).file('xl/worksheets/sheet1.xml')!.async('string') };
}

function copied(rows: XlsxValue[][], kinds: CellKind[]): Buffer {
  const framer = new CopySheetRows(kinds);
  const parts: Buffer[] = [];
  rows.forEach((values, i) => {
    const row = copyRow(values, kinds);
    const out = Buffer.alloc(framer.bound(row.length));
    parts.push(out.subarray(0, framer.write(row, 0, row.length - 1, i + 2, out, 0)));
  });
  return Buffer.concat(parts);
}

describe('an export\'s rows from COPY as sheet XML', () => {
  const kinds: CellKind[] = ['text', 'number', 'boolean', 'text', 'mixed', 'mixed', 'mixed', 'text', 'text', 'text', 'text', 'text', 'text', 'text',
    ...Array.from({ length: 16 }, (_, i): CellKind => (['text', 'number', 'boolean', 'mixed'] as const)[i % 4]!)];
  const headers = kinds.map((_, i) => `h${i}`);
  const rows: XlsxValue[][] = [
    ['YMA00000001', 42, true, '合格 ✓', '通过', 7, false, '<b>"锁" & 钥匙</b>', ' two ends ', '\t制表符开头', 'back\\slash \\N', '第一行\r\n第二行', 'Emoji 🔒 𠀀', '=1+1'],
    ['YMA00000002', -15, false, null, null, null, null, '', 'ctl\u0001x\u0008y\u001F\uFFFEz\uFFFF', 'ï\uFFFDï', '\\', ' ', 'a\tb', '\\t not a tab'],
    Array.from({ length: 14 }, () => null),
  ].map((r, i) => [...r, ...Array.from({ length: 16 }, (_, k): XlsxValue => [`col ${k}`, k * (i + 1), k % 2 === 0, i % 2 ? 'label' : k][k % 4])]);

  it('writes what the row-by-row writer writes for the same values, byte for byte', async () => {
    const byRows = await sheetXml(headers, async (sheet) => {
      for (const r of rows) sheet.row(r);
    });
    const byCopy = await sheetXml(headers, async (sheet) => sheet.bytes(copied(rows, kinds)));
    expect(byCopy.xml).toBe(byRows.xml);
    expect(byCopy.xml).toContain('<c r="AD2"');
    expect(byCopy.xml).toContain('<row r="4"><c r="O4" t="inlineStr"><is><t>col 0</t>');
    expect(byCopy.xml).toContain('<t xml:space="preserve"> two ends </t>');
    expect(byCopy.xml).toContain('<t>ctlxyz</t>');
    // what another reader makes of it
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(byCopy.file as unknown as ArrayBuffer);
    const read: unknown[][] = [];
    book.worksheets[0]!.eachRow({ includeEmpty: true }, (row) => read.push((row.values as unknown[]).slice(1)));
    expect(read[1]!.slice(0, 14)).toEqual(rows[0]!.slice(0, 14));
    expect(read[2]!.slice(0, 4)).toEqual(['YMA00000002', -15, false, undefined]);
    expect(read[2]![8]).toBe('ctlxyz');
    expect(read[2]![10]).toBe('\\');
  });

  it('reads COPY\'s output cut anywhere: each row whole once, numbered on; a cut row at the end refused', () => {
    const text = Buffer.concat(rows.map((r) => copyRow(r, kinds)));
    const whole = Buffer.concat(new CopySheetRows(kinds).rows(text)).toString('utf8');
    expect(whole).toBe(copied(rows, kinds).toString('utf8'));
    for (const cut of [1, 2, 7, 64, text.length - 1]) {
      const reader = new CopySheetRows(kinds);
      const pieces: Buffer[] = [];
      for (let at = 0; at < text.length; at += cut) pieces.push(...reader.rows(text.subarray(at, at + cut)));
      reader.end();
      expect(Buffer.concat(pieces).toString('utf8'), `cut every ${cut} bytes`).toBe(whole);
    }
    const cutShort = new CopySheetRows(kinds);
    cutShort.rows(text.subarray(0, text.length - 3));
    expect(() => cutShort.end()).toThrow(/inside a row/);
  });

  it('keeps a carriage return as a character reference (a raw one reads as a line feed)', async () => {
    const xml = copied([['a\r\nb\rc', 1]], ['text', 'number']).toString('utf8');
    expect(xml).toBe('<row r="2"><c r="A2" t="inlineStr"><is><t xml:space="preserve">a&#13;\nb&#13;c</t></is></c><c r="B2"><v>1</v></c></row>');
  });

  it('numbers rows past a million and columns past Z', () => {
    const kinds28 = Array.from({ length: 28 }, (): CellKind => 'number');
    const framer = new CopySheetRows(kinds28);
    const row = copyRow(Array.from({ length: 28 }, (_, i) => i), kinds28);
    const out = Buffer.alloc(framer.bound(row.length));
    const xml = out.subarray(0, framer.write(row, 0, row.length - 1, 1_000_001, out, 0)).toString('latin1');
    expect(xml.startsWith('<row r="1000001"><c r="A1000001"><v>0</v></c>')).toBe(true);
    expect(xml.endsWith('<c r="AB1000001"><v>27</v></c></row>')).toBe(true);
  });
});
