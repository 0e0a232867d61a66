import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { columnLetters, XlsxSheetWriter, type XlsxValue } from '../src/core/resource/io/xlsxWriter.js';

/** The export's own sheet writer: what it writes, exceljs (and so Excel's format) reads back exactly. */
async function written(name: string, headers: string[], rows: XlsxValue[][]): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const sheet = new XlsxSheetWriter(out, name, headers.map((header) => ({ header, width: 12 })));
  await sheet.addRows([headers]);
  await sheet.addRows(rows);
  await sheet.finish();
  out.end();
  return Buffer.concat(chunks);
}

async function readBack(file: Buffer): Promise<{ name: string; rows: unknown[][] }> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(file as unknown as ArrayBuffer);
  const sheet = book.worksheets[0]!;
  const rows: unknown[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row) => rows.push((row.values as unknown[]).slice(1)));
  return { name: sheet.name, rows };
}

describe('the export\'s sheet writer', () => {
  it('writes text, numbers, flags and gaps that read back exactly, escaping what XML cannot hold', async () => {
    const file = await written('设备 [批次]/1', ['SN', '数量', '合格', '备注'], [
      ['YMA00000001', 42, true, '<b>"锁" & 钥匙</b>'],
      ['YMA00000002', -1.5, false, null],
      ['Emoji 🔒 and a tab\there', 0, null, 'bell\u0007 and NUL\u0000 dropped'],
    ]);
    expect(file.subarray(0, 4).toString('hex')).toBe('504b0304');
    const { name, rows } = await readBack(file);
    expect(name).toBe('设备  批次  1');
    expect(rows[0]).toEqual(['SN', '数量', '合格', '备注']);
    expect(rows[1]).toEqual(['YMA00000001', 42, true, '<b>"锁" & 钥匙</b>']);
    expect(rows[2]!.slice(0, 3)).toEqual(['YMA00000002', -1.5, false]);
    expect(rows[3]![0]).toBe('Emoji 🔒 and a tab\there');
    expect(rows[3]![3]).toBe('bell and NUL dropped');
  });

  it('streams many rows as one valid zip whose sheet holds every row', async () => {
    const rows = Array.from({ length: 30_000 }, (_, i) => [`SN${String(i).padStart(8, '0')}`, i, `第 ${i} 台`] as XlsxValue[]);
    const file = await written('devices', ['SN', 'n', 'note'], rows);
    const zip = await JSZip.loadAsync(file);
    expect(Object.keys(zip.files).sort()).toEqual(['[Content_Types].xml', '_rels/.rels', 'xl/_rels/workbook.xml.rels', 'xl/workbook.xml', 'xl/worksheets/sheet1.xml']);
    const { rows: read } = await readBack(file);
    expect(read).toHaveLength(30_001);
    expect(read[30_000]).toEqual(['SN00029999', 29_999, '第 29999 台']);
  });

  it('names columns as Excel does', () => {
    expect([0, 25, 26, 27, 51, 52, 701, 702].map(columnLetters)).toEqual(['A', 'Z', 'AA', 'AB', 'AZ', 'BA', 'ZZ', 'AAA']);
  });
});
