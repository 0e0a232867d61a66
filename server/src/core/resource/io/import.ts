import multipart from '@fastify/multipart';
import { type FieldDef, type Lang, msg, t } from '@console/contract';
import { type ImportProgress, importProgressSchema, ioRoutes } from '@console/contract/io';
import { and, eq, getTableName } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { requireUser } from '../../access.js';
import { binary, fileAnswer, multipartBody } from '../../apiDocs.js';
import type { AppContext, AuthUser } from '../../context.js';
import { inList, insertRows } from '../../db/bulk.js';
import { brokenMultipart } from '../../uploads.js';
import { allowLongTransaction, type Executor } from '../../db/index.js';
import { rowColumns } from '../../db/columns.js';
import { envelopeOf, ok } from '../../envelope.js';
import { AppError, badRequest, notFound } from '../../errors.js';
import { nextId } from '../../ids.js';
import { afterCommitQueue } from '../afterCommit.js';
import type { SaveContext } from '../engine.js';
import type { MountedResource } from '../registry.js';
import { ImportBundle } from './bundle.js';
import { cellText, exampleValue, headerKey, headerMap, importFields } from './cells.js';
import { attachment, XLSX_TYPE } from './export.js';
import type { EngineRules, Row } from './index.js';
import { type SheetKind, sheetKind, type SheetRow, sheetRows } from './sheet.js';

export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 100_000;
/** the deadline of an import's all-or-nothing transaction (every row of the file): long, still a bound */
export const IMPORT_TRANSACTION_MS = 300_000;
/** the job's state is written to the kv store every this many rows */
export const PROGRESS_EVERY = 500;
/** rows checked against the table (uniqueness, references) per statement, and written together */
const CHECK_CHUNK = 2000;
/** rows per INSERT … RETURNING, for a hook that reads each saved row */
const INSERT_CHUNK = 500;
/** errors kept in the report (the count of failed rows is always exact) */
export const MAX_REPORTED_ERRORS = 1000;
/** how long a job's state can be read */
export const JOB_TTL_SECONDS = 6 * 3600;

interface JobState extends ImportProgress {
  tenantId: string;
  userId: string;
}

const jobKey = (id: string) => `io-job:${id}`;

/** Imports run one after another in a process: each holds its rows in memory and writes in one transaction. */
let queue: Promise<void> = Promise.resolve();


const isEmptyCell = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');

/** The per-field messages of a refusal as one line (the AppError of `submit`, or its message). */
function refusalText(e: unknown, lang: Lang, skip: Set<string> = new Set()): string {
  if (!(e instanceof AppError)) throw e;
  const fields = Object.entries(e.data ?? {}).filter(([k]) => !skip.has(k)).map(([, v]) => v);
  return e.data ? fields.join('; ') : e.message_(lang);
}

/**
 * `POST {path}/import` (multipart `file`: .xlsx or UTF-8 .csv; `isCovering=1` updates the rows matched by
 * the unique field instead of refusing them), `GET {path}/get-upload-progress?id=` and
 * `GET {path}/import-template`. The upload is stored in a temporary file and its header row read at once
 * (an unreadable file or a missing required column is a 400); the rows are then read and checked in the
 * background with `submit`'s own rules. Any bad row: nothing is written and the job lists every bad row.
 * No bad row: every row is written in one transaction. The job's state lives in the kv store (shared
 * through Redis), readable by the user who started it.
 */
export function mountImport(app: FastifyInstance, ctx: AppContext, mounted: MountedResource, rules: EngineRules): void {
  const { def, table, columns } = mounted;
  const route = ioRoutes(def).import!;
  const tag = def.path.split('/')[2] ?? 'resource';
  const fields = importFields(def);
  const byHeader = headerMap(def);
  const idCol = columns.id!;
  const uniqueFields = Object.entries(def.fields).filter(([, f]) => f.unique && !f.writeOnly).map(([name]) => name);
  const coverField = uniqueFields[0];
  const refFields = Object.entries(def.fields).filter(([, f]) => f.ref).map(([name]) => name);
  const bundles = def.io?.import?.bundle === true;

  const readJob = async (id: string): Promise<JobState | null> => {
    const raw = await ctx.kv.get(jobKey(id));
    return raw ? (JSON.parse(raw) as JobState) : null;
  };

  /** dictionary fields: display value (zh or en) or key, lower case → key */
  const dictValues = async (): Promise<Map<string, Map<string, string>>> => {
    const out = new Map<string, Map<string, string>>();
    for (const [name, f] of fields) {
      if (!f.dict) continue;
      const m = new Map<string, string>();
      for (const lang of ['en', 'zh'] as const) for (const [key, label] of await ctx.dicts.labels(f.dict, lang)) m.set(label.trim().toLowerCase(), key);
      for (const key of [...m.values()]) m.set(key.toLowerCase(), key);
      out.set(name, m);
    }
    return out;
  };

  // ---- the job ----
  interface Checked { row: number; values: Row; target?: string; prepared?: unknown }
  /** thrown out of the job's transaction to take back what it wrote once a row turned out bad */
  const ROLLBACK = Symbol('import rolled back');
  /** a write the database refused (a race on a unique value, a hook's refusal): reported as the row being written */
  class WriteFailure {
    constructor(readonly error: unknown) {}
  }

  const runJob = async (state: JobState, rows: AsyncGenerator<SheetRow>, header: Map<number, string>, user: AuthUser, lang: Lang, covering: boolean, bundle?: ImportBundle) => {
    const save = () => ctx.kv.set(jobKey(state.id), JSON.stringify(state), JOB_TTL_SECONDS);
    const addError = (row: number, message: string) => {
      state.failed++;
      if (state.errors.length < MAX_REPORTED_ERRORS) state.errors.push({ row, message });
    };
    const dicts = await dictValues();
    const seen = new Map(uniqueFields.map((n) => [n, new Map<string, number>()]));
    const now = new Date();
    const later: Array<() => Promise<void> | void> = [];
    const base = {
      user, lang, ...afterCommitQueue(later),
      // an import answers no record: nothing is revealed
      reveal: () => undefined,
    };
    /** the spreadsheet row being written (0: a statement of many rows) */
    let current = 0;

    /** uniqueness against the table and references, for a chunk of rows, one statement per field: answers the good rows */
    const checkChunk = async (tx: Executor, chunk: Checked[]): Promise<Checked[]> => {
      if (chunk.length === 0) return [];
      const bad = new Map<number, string[]>();
      const flag = (c: Checked, text: string) => bad.set(c.row, [...(bad.get(c.row) ?? []), text]);
      for (const name of uniqueFields) {
        const col = columns[name]!;
        const values = [...new Set(chunk.map((c) => c.values[name]).filter((v) => v !== undefined && v !== null))];
        if (values.length === 0) continue;
        const hits = await tx.select({ id: idCol, value: col }).from(table).where(and(...rules.visible(user), inList(col, values)));
        const owner = new Map(hits.map((h) => [String(h.value), String(h.id)]));
        const label = t(def.fields[name]!.label, lang);
        for (const c of chunk) {
          const v = c.values[name];
          const hit = v === undefined || v === null ? undefined : owner.get(String(v));
          if (!hit) continue;
          if (covering && name === coverField) c.target = hit;
          else if (hit !== c.target) flag(c, msg('duplicate', lang, { field: label, value: String(v) }));
        }
      }
      if (rules.hooks.checkRows) {
        const verdicts = await rules.hooks.checkRows(tx, chunk.map((c) => c.values), lang, user);
        chunk.forEach((c, i) => {
          const errors = verdicts[i];
          if (errors) for (const text of Object.values(errors)) flag(c, text);
        });
      }
      if (refFields.length) {
        const merged: Row = {};
        for (const name of refFields) {
          const ids = new Set(chunk.flatMap((c) => (c.values[name] === undefined || c.values[name] === null ? [] : String(c.values[name]).split(','))).filter(Boolean));
          if (ids.size) merged[name] = [...ids].join(',');
        }
        const allFound = await rules.checkReferences(tx, merged, user, lang).then(() => true, (e: unknown) => { refusalText(e, lang); return false; });
        if (!allFound) {
          for (const c of chunk) {
            const own = Object.fromEntries(refFields.filter((n) => n in c.values).map((n) => [n, c.values[n]]));
            await rules.checkReferences(tx, own, user, lang).catch((e: unknown) => flag(c, refusalText(e, lang)));
          }
        }
      }
      const good: Checked[] = [];
      for (const c of chunk) {
        const errors = bad.get(c.row);
        if (errors) addError(c.row, errors.join('; '));
        else good.push(c);
      }
      state.processed += chunk.length;
      return good;
    };

    /** writes checked rows: new ones in one statement (or, for a hook that reads each saved row, a multi-row insert), covered ones one by one */
    const writeChunk = async (tx: Executor, chunk: Checked[]) => {
      const fresh: Row[] = [];
      for (const c of chunk) {
        current = c.row;
        if (c.target) await coverRow(tx, c, base, now);
        else {
          const row = rules.newRow(c.values, user, now);
          if (rules.tree) await rules.tree.onCreate(tx, rules.visible(user), row, lang);
          await rules.hooks.beforeSave?.(tx, row, { ...base, mode: 'create', prepared: c.prepared, checked: !!rules.hooks.checkRows });
          fresh.push(row);
        }
      }
      current = 0;
      if (fresh.length && rules.hooks.afterSave) {
        for (let at = 0; at < fresh.length; at += INSERT_CHUNK) {
          const saved = await tx.insert(table).values(fresh.slice(at, at + INSERT_CHUNK).map((r) => rules.columnValues(r)) as never).returning() as Row[];
          for (const row of saved) await rules.hooks.afterSave(tx, row, { ...base, mode: 'create', checked: !!rules.hooks.checkRows });
        }
      } else if (fresh.length) {
        await insertRows(tx, table, fresh);
      }
      state.succeeded += chunk.length;
      app.log.debug({ job: state.id, resource: def.code, written: state.succeeded }, 'import writing');
      await save();
    };

    /** reads the file, each row checked on its own (submit's rules); every `CHECK_CHUNK` good rows go to `flush` */
    const readRows = async (flush: (chunk: Checked[]) => Promise<void>) => {
      let pending: Checked[] = [];
      for await (const { row, cells } of rows) {
        if (cells.every(isEmptyCell)) continue;
        state.total++;
        if (state.total > IMPORT_MAX_ROWS) {
          state.total--;
          state.failed = 1;
          state.errors = [{ row, message: msg('importTooManyRows', lang, { max: IMPORT_MAX_ROWS }) }];
          return;
        }
        const body: Row = {};
        const messages: string[] = [];
        const wrongDict = new Set<string>();
        for (const [index, name] of header) {
          const f = def.fields[name]!;
          let text = cellText(cells[index], f);
          if (text === undefined) continue;
          // a cell of a .zip's sheet may name a file of the zip: its text is the value
          if (bundle && (f.type === 'string' || f.type === 'text')) {
            try {
              text = (await bundle.resolve(text))?.trim() ?? text;
            } catch (e) {
              messages.push(refusalText(e, lang));
              continue;
            }
          }
          const dict = dicts.get(name);
          if (dict) {
            const key = dict.get(text.toLowerCase());
            if (key === undefined) {
              messages.push(msg('importUnknownValue', lang, { field: t(f.label, lang), value: text }));
              wrongDict.add(name);
              continue;
            }
            body[name] = key;
          } else {
            body[name] = text;
          }
        }
        let values: Row | undefined;
        try {
          values = rules.validateSubmit(body, 'create', lang).values;
        } catch (e) {
          const text = refusalText(e, lang, wrongDict);
          if (text) messages.push(text);
        }
        if (values) {
          for (const name of uniqueFields) {
            const v = values[name];
            if (v === undefined || v === null) continue;
            const first = seen.get(name)!.get(String(v));
            if (first !== undefined) messages.push(msg('importDuplicateInFile', lang, { field: t(def.fields[name]!.label, lang), value: String(v), row: first }));
            else seen.get(name)!.set(String(v), row);
          }
        }
        if (messages.length || !values) {
          addError(row, messages.join('; '));
          state.processed++;
        } else {
          pending.push({ row, values });
          if (pending.length >= CHECK_CHUNK) {
            await flush(pending);
            pending = [];
          }
        }
        if (state.total % PROGRESS_EVERY === 0) await save();
      }
      await flush(pending);
    };

    /** after reading: a file without rows or with bad ones is reported (true), nothing written */
    const reportFailures = async (): Promise<boolean> => {
      if (state.total === 0) addError(1, msg('importNoRows', lang));
      if (state.failed === 0) return false;
      state.errors.sort((a, b) => a.row - b.row);
      if (state.failed > state.errors.length) state.errors.push({ row: 0, message: msg('importTooManyErrors', lang, { max: MAX_REPORTED_ERRORS }) });
      state.status = 'failed';
      state.succeeded = 0;
      await save();
      return true;
    };

    try {
      if (rules.hooks.prepare) {
        // the hook's slow work (hashing a password) holds no transaction: every row is checked in short
        // transactions first, prepared outside any, then all are written in one
        const good: Checked[] = [];
        await readRows(async (chunk) => {
          good.push(...await rules.run(user, (tx) => checkChunk(tx, chunk)));
        });
        if (await reportFailures()) return;
        await save();
        for (const c of good) c.prepared = await rules.hooks.prepare(c.values, { mode: c.target ? 'update' : 'create', user, lang });
        await rules.run(user, async (tx) => {
          await allowLongTransaction(tx, IMPORT_TRANSACTION_MS);
          for (let at = 0; at < good.length; at += CHECK_CHUNK) await writeChunk(tx, good.slice(at, at + CHECK_CHUNK));
        }).catch((e: unknown) => {
          throw new WriteFailure(e);
        });
      } else {
        // one transaction: each chunk is checked, then written while the next one is read; a bad row stops
        // the writing (the rest is still checked, for the report) and everything written is taken back
        let failure: WriteFailure | undefined;
        await rules.run(user, async (tx) => {
          await allowLongTransaction(tx, IMPORT_TRANSACTION_MS);
          let writing: Promise<void> = Promise.resolve();
          await readRows(async (chunk) => {
            await writing; // the transaction runs one statement at a time
            const good = await checkChunk(tx, chunk);
            if (state.failed === 0 && !failure && good.length) {
              writing = writeChunk(tx, good).catch((e: unknown) => {
                failure = new WriteFailure(e);
              });
            }
          });
          await writing;
          if (failure) throw failure;
          if (state.failed > 0 || state.total === 0) throw ROLLBACK;
        }).catch((e: unknown) => {
          if (e !== ROLLBACK) throw e;
        });
        if (await reportFailures()) return;
      }
    } catch (thrown) {
      // anything but a refused write (an unreadable file) is the job's failure (runJob's caller)
      if (!(thrown instanceof WriteFailure)) throw thrown;
      const e = thrown.error;
      const detail = e instanceof AppError ? (Object.values(e.data ?? {}).join('; ') || e.message_(lang)) : msg('valueInvalid', lang);
      if (!(e instanceof AppError)) app.log.warn({ err: e }, `import into ${def.code} failed`);
      state.status = 'failed';
      state.succeeded = 0;
      state.failed = current ? 1 : state.total;
      state.errors = [{ row: current, message: msg('importWriteFailed', lang, { detail }) }];
      await save();
      return;
    }
    for (const fn of later) await fn();
    ctx.upkeep.changed(getTableName(table), state.total);
    state.status = 'done';
    state.succeeded = state.total;
    await save();
  };

  /** isCovering: the row named by the unique field takes the file's values, as an update by `submit` would */
  const coverRow = async (tx: Executor, c: Checked, base: Omit<SaveContext, 'mode' | 'stored'>, now: Date) => {
    const scoped = await rules.visibleTo(tx, base.user);
    const [stored] = await tx.select(rowColumns(table)).from(table).where(and(eq(idCol, c.target!), ...scoped)) as Row[];
    if (!stored) throw notFound();
    const changes: Row = { ...c.values, updateUser: base.user.userId, updateTime: now };
    const move = rules.tree ? await rules.tree.onUpdate(tx, rules.visible(base.user), stored, changes, base.lang) : undefined;
    const ctxOf: SaveContext = { ...base, mode: 'update', stored, prepared: c.prepared };
    await rules.hooks.beforeSave?.(tx, changes, ctxOf);
    const [updated] = await tx.update(table).set(rules.columnValues(changes) as never).where(and(eq(idCol, c.target!), ...scoped)).returning();
    if (!updated) throw notFound();
    await move?.();
    await rules.hooks.afterSave?.(tx, updated as Row, ctxOf);
  };

  // ---- routes ----
  const progressQuery = z.object({ id: z.string().trim().min(1).max(40) }).passthrough();
  const flag = (v: unknown) => v === '1' || v === 'true' || v === 1 || v === true;

  app.register(async (scoped) => {
    await scoped.register(multipart, { limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 5, parts: 6 } });

    scoped.post(route.path, {
      config: { access: { permission: route.permission, platformWrite: def.scope === 'platform' }, title: `${def.title.zh}: import` },
      schema: {
        tags: [tag],
        summary: `${def.title.en}: import an .xlsx or .csv (multipart field "file") in the background; answers the job id`,
        description: `Needs ${route.permission}. isCovering=1 updates the rows matched by the unique field. At most ${IMPORT_MAX_BYTES / 1024 / 1024} MB and ${IMPORT_MAX_ROWS} rows. Poll ${route.progress}?id=.`,
        querystring: z.object({ isCovering: z.string().max(5).optional() }).passthrough(),
        response: { 200: envelopeOf(z.object({ id: z.string() })) },
        docsOnly: multipartBody({ file: binary(), isCovering: z.string().max(5).optional() }),
      },
    }, async (req) => {
      const user = requireUser(req);
      const lang = req.lang;
      if (!req.isMultipart()) throw badRequest('fileNotMultipart');
      const part = await req.file({ limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 5 }, throwFileSizeLimit: false }).catch(brokenMultipart);
      if (!part || part.fieldname !== 'file') {
        part?.file.resume();
        throw badRequest('fileNotMultipart');
      }
      if (part.filename.includes('\u0000')) {
        part.file.resume();
        throw badRequest('nulByte', { field: 'file' }, { file: msg('nulByte', lang, { field: 'file' }) });
      }
      const fieldFlag = (part.fields.isCovering as { value?: unknown } | undefined)?.value;
      const covering = flag((req.query as { isCovering?: string }).isCovering) || flag(fieldFlag);
      const id = nextId();
      const path = join(tmpdir(), `console-import-${id}-${randomBytes(4).toString('hex')}`);
      const extra: string[] = [];
      let handedOver = false;
      try {
        await pipeline(part.file, createWriteStream(path, { flags: 'wx' })).catch(brokenMultipart);
        if (part.file.truncated) throw new AppError(413, 'importFileTooLarge', { max: `${IMPORT_MAX_BYTES / 1024 / 1024} MB` });
        let kind = await kindOf(path, part.filename, part.mimetype);
        let sheetPath = path;
        let bundle: ImportBundle | undefined;
        if (kind === 'zip') {
          sheetPath = `${path}.sheet`;
          extra.push(sheetPath);
          ({ bundle, kind } = await ImportBundle.open(path, sheetPath));
        }
        const { rows, header } = await openSheet(sheetPath, kind, lang);
        const state: JobState = {
          id, status: 'running', total: 0, processed: 0, succeeded: 0, failed: 0, errors: [], tenantId: user.tenantId, userId: user.userId,
        };
        await ctx.kv.set(jobKey(id), JSON.stringify(state), JOB_TTL_SECONDS);
        handedOver = true;
        const job = async () => {
          try {
            await runJob(state, rows, header, user, lang, covering, bundle);
          } catch (e) {
            app.log.error({ err: e }, `import job ${id} of ${def.code} failed`);
            state.status = 'failed';
            state.succeeded = 0;
            state.errors = [{ row: 0, message: e instanceof AppError ? e.message_(lang) : msg('importUnreadable', lang) }];
            await ctx.kv.set(jobKey(id), JSON.stringify(state), JOB_TTL_SECONDS).catch(() => undefined);
          } finally {
            await rows.return(undefined).catch(() => undefined);
            for (const file of [path, ...extra]) await rm(file, { force: true });
          }
        };
        queue = queue.then(job, job);
        return ok({ id }, lang);
      } finally {
        if (!handedOver) for (const file of [path, ...extra]) await rm(file, { force: true });
      }
    });
  });

  /** .xlsx by its bytes, .csv by its name and text, a .zip bundle (when the resource takes them); anything else is refused at once */
  const kindOf = async (path: string, filename: string, mimetype: string): Promise<SheetKind | 'zip'> => {
    const fh = await open(path, 'r');
    try {
      const head = Buffer.alloc(4096);
      const { bytesRead } = await fh.read(head, 0, head.length, 0);
      if (bytesRead === 0) throw badRequest('fileEmpty');
      const kind = sheetKind(head.subarray(0, bytesRead), filename, mimetype);
      if (!kind) throw badRequest(bundles ? 'importNotSheetOrZip' : 'importNotSpreadsheet');
      if (kind === 'xlsx' && bundles && !(await ImportBundle.isWorkbook(path))) return 'zip';
      return kind;
    } finally {
      await fh.close();
    }
  };

  /** reads up to the header row: an unreadable file or a missing required column is refused before any job */
  const openSheet = async (path: string, kind: SheetKind, lang: Lang) => {
    const rows = sheetRows(path, kind);
    try {
      let first: IteratorResult<SheetRow>;
      do first = await rows.next();
      while (!first.done && first.value.cells.every(isEmptyCell));
      if (first.done) throw badRequest('importNoRows');
      const header = new Map<number, string>();
      first.value.cells.forEach((cell, i) => {
        const text = typeof cell === 'string' || typeof cell === 'number' ? String(cell) : cellText(cell, { type: 'string' } as FieldDef);
        const name = text === undefined ? undefined : byHeader.get(headerKey(text));
        if (name && ![...header.values()].includes(name)) header.set(i, name);
      });
      const missing = fields.filter(([name, f]) => f.required && ![...header.values()].includes(name)).map(([, f]) => t(f.label, lang));
      if (missing.length) throw badRequest('importMissingColumns', { columns: missing.join(', ') });
      return { rows, header };
    } catch (e) {
      await rows.return(undefined).catch(() => undefined);
      if (e instanceof AppError) throw e;
      throw badRequest('importUnreadable');
    }
  };

  app.get(route.progress, {
    config: { access: { permission: route.permission } },
    schema: {
      tags: [tag],
      summary: `${def.title.en}: the state of an import (api.md section 5)`,
      querystring: progressQuery,
      response: { 200: envelopeOf(importProgressSchema) },
    },
  }, async (req: FastifyRequest) => {
    const user = requireUser(req);
    const state = await readJob((req.query as { id: string }).id);
    if (!state || state.tenantId !== user.tenantId || state.userId !== user.userId) throw notFound();
    const { tenantId: _t, userId: _u, ...progress } = state;
    return ok(progress, req.lang);
  });

  app.get(route.template, {
    config: { access: { permission: route.permission } },
    schema: {
      tags: [tag], summary: `${def.title.en}: the import template (.xlsx: the header row and one example row)`,
      docsOnly: { noInput: true, response: { 200: fileAnswer('the .xlsx template', XLSX_TYPE) } },
    },
  }, async (req, reply) => {
    const lang = req.lang;
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet(t(def.title, lang).slice(0, 31) || 'Sheet1');
    const examples: Array<string | number> = [];
    for (const [, f] of fields) {
      const first = f.dict ? [...(await ctx.dicts.labels(f.dict, lang)).values()][0] : undefined;
      examples.push(exampleValue(f, lang, first));
    }
    sheet.columns = fields.map(([name, f]) => ({ header: t(f.label, lang), key: name, width: Math.max(12, t(f.label, lang).length * 2 + 4) }));
    sheet.addRow(examples);
    const body = Buffer.from(await book.xlsx.writeBuffer());
    const name = `${t(def.title, lang)}-${lang === 'zh' ? '导入模板' : 'import-template'}.xlsx`;
    return reply.header('content-type', XLSX_TYPE).header('content-disposition', attachment(name)).header('cache-control', 'no-store').send(body);
  });
}
