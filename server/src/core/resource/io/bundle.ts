import type JSZip from 'jszip';
import { readFile, writeFile } from 'node:fs/promises';
import { badRequest } from '../../errors.js';
import type { SheetKind } from './sheet.js';

/** A file a cell names is read as text up to this size (a PEM certificate is 1–4 KB). */
export const BUNDLE_FILE_MAX = 64 * 1024;

const SHEET = /\.(xlsx|csv)$/i;
const skipped = (name: string) => name.startsWith('__MACOSX/') || name.split('/').some((part) => part.startsWith('.'));

/**
 * A .zip upload of an import that allows bundles (`io.import.bundle`): one sheet (.xlsx or .csv) and the
 * files its cells name (a device's certificate and key, as the IoT clouds hand them out). A cell of a
 * text field whose value is the path of a file in the zip (or its name, when one file has it) takes the
 * file's text. The zip is at most the upload limit (20 MB); files are inflated one at a time, when named.
 */
export class ImportBundle {
  private constructor(private readonly zip: JSZip, private readonly byName: Map<string, string | null>) {}

  /** an .xlsx is a zip too: it holds [Content_Types].xml */
  static async isWorkbook(path: string): Promise<boolean> {
    const { default: JSZip } = await import('jszip');
    const zip = await JSZip.loadAsync(await readFile(path)).catch(() => undefined);
    return zip !== undefined && zip.file('[Content_Types].xml') !== null;
  }

  /** opens the zip at `path` and writes its sheet to `sheetPath`; a zip without exactly one sheet is refused */
  static async open(path: string, sheetPath: string): Promise<{ bundle: ImportBundle; kind: SheetKind }> {
    const { default: JSZip } = await import('jszip');
    const zip = await JSZip.loadAsync(await readFile(path)).catch(() => {
      throw badRequest('importUnreadable');
    });
    const files = Object.values(zip.files).filter((f) => !f.dir && !skipped(f.name));
    const sheets = files.filter((f) => SHEET.test(f.name));
    if (sheets.length !== 1) throw badRequest('importBundleSheet', { count: sheets.length });
    const sheet = sheets[0]!;
    await writeFile(sheetPath, await sheet.async('nodebuffer'), { flag: 'wx' });
    const byName = new Map<string, string | null>();
    for (const f of files) {
      if (f === sheet) continue;
      byName.set(f.name, f.name);
      const base = f.name.split('/').pop()!;
      // a bare name finds its file when no other file has that name
      if (base !== f.name) byName.set(base, byName.has(base) ? null : f.name);
    }
    return { bundle: new ImportBundle(zip, byName), kind: /\.csv$/i.test(sheet.name) ? 'csv' : 'xlsx' };
  }

  /** the text of the file a cell names, or undefined when it names none (the cell is its own value) */
  async resolve(cell: string): Promise<string | undefined> {
    const name = this.byName.get(cell.replace(/^\.?\//, ''));
    if (!name) return undefined;
    const file = this.zip.file(name)!;
    const body = await file.async('nodebuffer');
    if (body.length > BUNDLE_FILE_MAX) throw badRequest('importBundleFileTooLarge', { name, max: `${BUNDLE_FILE_MAX / 1024} KB` });
    return body.toString('utf8');
  }
}
