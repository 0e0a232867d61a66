import { type FieldDef, type Lang, type ResourceDef, t } from '@console/contract';
import { type ImportProgress } from '@console/contract/io';
import { open } from 'node:fs/promises';
import type { AppContext } from '../../context.js';
import { AppError, badRequest } from '../../errors.js';
import { ImportBundle } from './bundle.js';
import { cellText, headerKey, headerMap, importFields } from './cells.js';
import { type SheetKind, sheetKind, type SheetRow, sheetRowBatches } from './sheet.js';

export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 100_000;
/** the deadline of an import's all-or-nothing transaction (every row of the file): long, still a bound */
export const IMPORT_TRANSACTION_MS = 300_000;
/** the job's state is written to the kv store every this many rows */
export const PROGRESS_EVERY = 500;
/** errors kept in the report (the count of failed rows is always exact) */
export const MAX_REPORTED_ERRORS = 1000;
/** how long a job's state can be read */
export const JOB_TTL_SECONDS = 6 * 3600;

export interface JobState extends ImportProgress {
  tenantId: string;
  userId: string;
  /** the instance running it: a job whose instance died is reported failed (its one transaction rolled back) */
  instanceId?: string;
}

export const jobKey = (id: string) => `io-job:${id}`;

export async function readJob(ctx: AppContext, id: string): Promise<JobState | null> {
  const raw = await ctx.kv.get(jobKey(id));
  return raw ? (JSON.parse(raw) as JobState) : null;
}

/** Imports run one after another in a process: each holds its rows in memory and writes in one transaction. */
let queue: Promise<void> = Promise.resolve();
/** the imports of this process: running (0 or 1) and waiting behind it */
export const importQueue = { running: 0, queued: 0 };

/** runs `job` once the imports queued before it are over (whether they succeeded or not); resolves when it ended */
export function enqueueImport(job: () => Promise<void>): Promise<void> {
  importQueue.queued++;
  const run = async () => {
    importQueue.queued--;
    importQueue.running++;
    try {
      await job();
    } finally {
      importQueue.running--;
    }
  };
  queue = queue.then(run, run);
  return queue;
}

export const isEmptyCell = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');

/** The per-field messages of a refusal as one line (the AppError of `submit`, or its message). */
export function refusalText(e: unknown, lang: Lang, skip: Set<string> = new Set()): string {
  if (!(e instanceof AppError)) throw e;
  const fields = Object.entries(e.data ?? {}).filter(([k]) => !skip.has(k)).map(([, v]) => v);
  return e.data ? fields.join('; ') : e.message_(lang);
}

/** What an import of a resource needs of its definition, derived once at mount. */
export function importSpec(def: ResourceDef) {
  const uniqueFields = Object.entries(def.fields).filter(([, f]) => f.unique && !f.writeOnly).map(([name]) => name);
  const fields = importFields(def);
  return {
    fields,
    byHeader: headerMap(def),
    /** `money` fields: a cell holds major units, read in the row's currency */
    moneyFields: fields.filter(([, f]) => f.type === 'money'),
    uniqueFields,
    /** the unique field `isCovering` matches rows by */
    coverField: uniqueFields[0],
    refFields: Object.entries(def.fields).filter(([, f]) => f.ref).map(([name]) => name),
    /** sealed in a worker thread, a chunk at a time (validateSubmit leaves them in clear for it) */
    secretFields: fields.filter(([, f]) => f.secret).map(([name]) => name),
    /** a .zip of a sheet and the files its cells name */
    bundles: def.io?.import?.bundle === true,
  };
}

export type ImportSpec = ReturnType<typeof importSpec>;

/** dictionary fields: display value (zh or en) or key, lower case → key */
export async function dictValues(ctx: AppContext, fields: ImportSpec['fields']): Promise<Map<string, Map<string, string>>> {
  const out = new Map<string, Map<string, string>>();
  for (const [name, f] of fields) {
    if (!f.dict) continue;
    const m = new Map<string, string>();
    for (const lang of ['en', 'zh'] as const) for (const [key, label] of await ctx.dicts.labels(f.dict, lang)) m.set(label.trim().toLowerCase(), key);
    for (const key of [...m.values()]) m.set(key.toLowerCase(), key);
    out.set(name, m);
  }
  return out;
}

/** .xlsx by its bytes, .csv by its name and text, a .zip bundle (when the resource takes them); anything else is refused at once */
export async function kindOf(spec: ImportSpec, path: string, filename: string, mimetype: string): Promise<SheetKind | 'zip'> {
  const fh = await open(path, 'r');
  try {
    const head = Buffer.alloc(4096);
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    if (bytesRead === 0) throw badRequest('fileEmpty');
    const kind = sheetKind(head.subarray(0, bytesRead), filename, mimetype);
    if (!kind) throw badRequest(spec.bundles ? 'importNotSheetOrZip' : 'importNotSpreadsheet');
    if (kind === 'xlsx' && spec.bundles && !(await ImportBundle.isWorkbook(path))) return 'zip';
    return kind;
  } finally {
    await fh.close();
  }
}

/**
 * reads up to the header row: an unreadable file or a missing required column is refused before any job. Answers
 * the rows after the header: those read with it (`first`), then the rest of `rows`.
 */
export async function openSheet(spec: ImportSpec, path: string, kind: SheetKind, lang: Lang) {
  const rows = sheetRowBatches(path, kind);
  try {
    let headerRow: SheetRow | undefined;
    let first: SheetRow[] = [];
    while (!headerRow) {
      const next = await rows.next();
      if (next.done) throw badRequest('importNoRows');
      const at = next.value.findIndex((r) => !r.cells.every(isEmptyCell));
      if (at >= 0) {
        headerRow = next.value[at]!;
        first = next.value.slice(at + 1);
      }
    }
    const header = new Map<number, string>();
    headerRow.cells.forEach((cell, i) => {
      const text = typeof cell === 'string' || typeof cell === 'number' ? String(cell) : cellText(cell, { type: 'string' } as FieldDef);
      const name = text === undefined ? undefined : spec.byHeader.get(headerKey(text));
      if (name && ![...header.values()].includes(name)) header.set(i, name);
    });
    const missing = spec.fields.filter(([name, f]) => f.required && ![...header.values()].includes(name)).map(([, f]) => t(f.label, lang));
    if (missing.length) throw badRequest('importMissingColumns', { columns: missing.join(', ') });
    return { rows, first, header };
  } catch (e) {
    await rows.return(undefined).catch(() => undefined);
    if (e instanceof AppError) throw e;
    throw badRequest('importUnreadable');
  }
}
