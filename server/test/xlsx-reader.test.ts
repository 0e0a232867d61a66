import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isDateFormat, xlsxRows } from '../src/core/resource/io/xlsxReader.js';

/** The import's own .xlsx reader, against workbooks written by exceljs (Excel's format) and by hand. */
const dir = mkdtempSync(join(tmpdir(), 'xlsx-reader-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const file = (bytes: Buffer) => {
  const path = join(dir, `book-${++n}.xlsx`);
  writeFileSync(path, bytes);
  return path;
};
const read = async (path: string) => {
  const out: Array<{ row: number; cells: unknown[] }> = [];
  for await (const r of xlsxRows(path)) out.push(r);
  return out;
};

describe('the import\'s .xlsx reader', () => {
  it('reads shared and rich text, numbers, flags, formula results, dates and gaps as exceljs writes them', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('设备');
    book.addWorksheet('other').addRow(['not read']);
    sheet.addRow(['SN', '数量', '合格', '日期', '备注']);
    sheet.addRow(['YMA00000001', 42, true, new Date(Date.UTC(2026, 10, 28, 9, 30, 15)), '<b>"锁" & \'钥匙\'</b> 🔒']);
    sheet.getCell('D2').numFmt = 'yyyy-mm-dd hh:mm:ss';
    sheet.addRow(['YMA00000002', -1.5, false, null, { richText: [{ text: '红' , font: { bold: true } }, { text: '色' }] }]);
    sheet.addRow([]);
    sheet.addRow(['YMA00000004', { formula: 'B2*2', result: 84 }, null, new Date(Date.UTC(2026, 0, 2)), { formula: '"a"&"b"', result: 'ab' }]);
    sheet.getCell('D5').numFmt = 'yyyy-mm-dd';
    sheet.getCell('G5').value = 'far right';
    const rows = await read(file(Buffer.from(await book.xlsx.writeBuffer())));
    expect(rows.map((r) => r.row)).toEqual([1, 2, 3, 5]);
    expect(rows[0]!.cells).toEqual(['SN', '数量', '合格', '日期', '备注']);
    expect(rows[1]!.cells).toEqual(['YMA00000001', 42, true, new Date(Date.UTC(2026, 10, 28, 9, 30, 15)), '<b>"锁" & \'钥匙\'</b> 🔒']);
    expect(rows[2]!.cells).toEqual(['YMA00000002', -1.5, false, undefined, '红色']);
    expect(rows[3]!.cells[1]).toBe(84);
    expect(rows[3]!.cells[3]).toEqual(new Date(Date.UTC(2026, 0, 2)));
    expect(rows[3]!.cells[4]).toBe('ab');
    expect(rows[3]!.cells[6]).toBe('far right');
    expect(rows[3]!.cells[5]).toBeUndefined();
  });

  it('reads the inline strings of a streamed workbook', async () => {
    const path = join(dir, 'streamed.xlsx');
    const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useStyles: false, useSharedStrings: false });
    const sheet = book.addWorksheet('certs');
    sheet.addRow(['cloudVendor', 'deviceName']).commit();
    for (let i = 1; i <= 3000; i++) sheet.addRow([1, `C${String(i).padStart(9, '0')}`]).commit();
    await book.commit();
    const rows = await read(path);
    expect(rows).toHaveLength(3001);
    expect(rows[3000]).toEqual({ row: 3001, cells: [1, 'C000003000'] });
  });

  it('follows the workbook to its first sheet, reads inline rich text, errors, 1904 dates and escapes', async () => {
    const zip = new JSZip();
    zip.file('[Content_Types].xml', '<Types/>');
    zip.file('xl/workbook.xml', '<workbook><workbookPr date1904="1"/><sheets><sheet name="B" sheetId="2" r:id="rId7"/><sheet name="A" sheetId="1" r:id="rId1"/></sheets></workbook>');
    zip.file('xl/_rels/workbook.xml.rels', '<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/><Relationship Id="rId7" Target="/xl/worksheets/data.xml"/></Relationships>');
    zip.file('xl/styles.xml', '<styleSheet><numFmts count="1"><numFmt numFmtId="170" formatCode="&quot;Day&quot; d/m/yyyy"/></numFmts><cellXfs count="3"><xf numFmtId="0"/><xf numFmtId="170"/><xf numFmtId="2"/></cellXfs></styleSheet>');
    zip.file('xl/worksheets/sheet1.xml', '<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>wrong sheet</t></is></c></row></sheetData></worksheet>');
    zip.file('xl/worksheets/data.xml', [
      '<worksheet><sheetData>',
      '<row r="1"><c r="A1" t="inlineStr"><is><r><t xml:space="preserve">a </t></r><r><rPr><b/></rPr><t>b&amp;c</t></r><rPh><t>ignored</t></rPh></is></c>',
      '<c r="B1" t="e"><v>#N/A</v></c><c r="C1" s="1"><v>0</v></c><c r="D1" s="2"><v>3.5</v></c><c r="E1" t="str"><v>line_x000D_break</v></c></row>',
      '<row r="3"/>',
      '<row><c t="d"><v>2026-11-28T10:00:00</v></c><c t="b"><v>0</v></c></row>',
      '</sheetData></worksheet>',
    ].join(''));
    const rows = await read(file(await zip.generateAsync({ type: 'nodebuffer' })));
    expect(rows).toEqual([
      { row: 1, cells: ['a b&c', '#N/A', new Date(Date.UTC(1904, 0, 1)), 3.5, 'line\rbreak'] },
      { row: 3, cells: [] },
      { row: 4, cells: [new Date(Date.UTC(2026, 10, 28, 10)), false] },
    ]);
  });

  it('tells date formats from number formats', () => {
    for (const code of ['yyyy-mm-dd', 'd/m/yy h:mm', '[$-804]yyyy"年"m"月"d"日"', 'hh:mm:ss', 'mmm-yy']) expect(isDateFormat(code), code).toBe(true);
    for (const code of ['General', '0.00', '#,##0', '"Qty" 0', '[Red]0.00', '0%']) expect(isDateFormat(code), code).toBe(false);
  });

  it('refuses what is no workbook, and a row that never ends, without reading it all', async () => {
    await expect(read(file(Buffer.from('not a zip')))).rejects.toMatchObject({ key: 'importUnreadable' });
    const zip = new JSZip();
    zip.file('xl/workbook.xml', '<workbook><sheets/></workbook>');
    zip.file('xl/worksheets/sheet1.xml', `<worksheet><sheetData><row r="1"><c t="inlineStr"><is><t>${'x'.repeat(17 * 1024 * 1024)}`);
    await expect(read(file(await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' })))).rejects.toMatchObject({ key: 'importUnreadable' });
  });
});
