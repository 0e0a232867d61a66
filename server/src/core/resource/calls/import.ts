import multipart from '@fastify/multipart';
import { type Lang, moneyCurrency, msg, t } from '@console/contract';
import { importProgressSchema, ioRoutes } from '@console/contract/io';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { requireUser } from '../../access.js';
import { logTitle } from '../../logs.js';
import { binary, fileAnswer, multipartBody } from '../../apiDocs.js';
import { envelopeOf, ok } from '../../envelope.js';
import { AppError, badRequest, notFound } from '../../errors.js';
import { nextId } from '../../ids.js';
import { brokenMultipart } from '../../uploads.js';
import type { ResourceMount } from '../mount/resourceMount.js';
import { ImportBundle } from '../io/bundle.js';
import { exampleValue } from '../io/cells.js';
import { attachment, XLSX_TYPE } from '../io/export.js';
import {
  enqueueImport, IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, type ImportSpec, importSpec, JOB_TTL_SECONDS, type JobState, jobKey, kindOf, openSheet, readJob,
} from '../io/import.js';
import { type ImportInput, ImportJob } from '../io/importJob.js';

const flag = (v: unknown) => v === '1' || v === 'true' || v === 1 || v === true;

/** the request's `file` part (refused when absent or misnamed) and whether it covers existing rows */
async function filePart(req: FastifyRequest, lang: Lang) {
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
  return { part, covering };
}

/** the queued job: its failure is the job's state; the file and its extracted sheet are removed after it either way */
function queuedJob(m: ResourceMount, spec: ImportSpec, log: FastifyBaseLogger, input: ImportInput, files: string[]) {
  const { state, lang, rows } = input;
  return async () => {
    try {
      await new ImportJob(m, spec, log, input).run();
    } catch (e) {
      log.error({ err: e }, `import job ${state.id} of ${m.def.code} failed`);
      state.status = 'failed';
      state.succeeded = 0;
      state.errors = [{ row: 0, message: e instanceof AppError ? e.message_(lang) : msg('importUnreadable', lang) }];
      await m.ctx.kv.set(jobKey(state.id), JSON.stringify(state), JOB_TTL_SECONDS).catch(() => undefined);
    } finally {
      await rows.return(undefined).catch(() => undefined);
      for (const file of files) await rm(file, { force: true });
    }
  };
}

/**
 * The upload is stored in a temporary file and its header row read at once (an unreadable file or a missing
 * required column is a 400); the rows are then read and checked in the background (ImportJob). Answers the job id.
 */
async function startImport(m: ResourceMount, spec: ImportSpec, log: FastifyBaseLogger, req: FastifyRequest) {
  const user = requireUser(req);
  const lang = req.lang;
  const { part, covering } = await filePart(req, lang);
  const id = nextId();
  const path = join(tmpdir(), `console-import-${id}-${randomBytes(4).toString('hex')}`);
  const extra: string[] = [];
  let handedOver = false;
  try {
    await pipeline(part.file, createWriteStream(path, { flags: 'wx' })).catch(brokenMultipart);
    if (part.file.truncated) throw new AppError(413, 'importFileTooLarge', { max: `${IMPORT_MAX_BYTES / 1024 / 1024} MB` });
    let kind = await kindOf(spec, path, part.filename, part.mimetype);
    let sheetPath = path;
    let bundle: ImportBundle | undefined;
    if (kind === 'zip') {
      sheetPath = `${path}.sheet`;
      extra.push(sheetPath);
      ({ bundle, kind } = await ImportBundle.open(path, sheetPath));
    }
    const { rows, first, header } = await openSheet(spec, sheetPath, kind, lang);
    const state: JobState = {
      id, status: 'running', total: 0, processed: 0, succeeded: 0, failed: 0, errors: [], tenantId: user.tenantId, userId: user.userId,
      instanceId: m.ctx.instance.instanceId,
    };
    await m.ctx.kv.set(jobKey(id), JSON.stringify(state), JOB_TTL_SECONDS);
    handedOver = true;
    void m.ctx.background.track(enqueueImport(queuedJob(m, spec, log, { state, first, rows, header, user, lang, covering, bundle }, [path, ...extra])));
    return ok({ id }, lang);
  } finally {
    if (!handedOver) for (const file of [path, ...extra]) await rm(file, { force: true });
  }
}

/** an import's state, for the user who started it */
async function importProgress(m: ResourceMount, req: FastifyRequest) {
  const user = requireUser(req);
  const state = await readJob(m.ctx, (req.query as { id: string }).id);
  if (!state || state.tenantId !== user.tenantId || state.userId !== user.userId) throw notFound();
  if (state.status === 'running' && state.instanceId && !(await m.ctx.instance.isAlive(state.instanceId))) {
    Object.assign(state, { status: 'failed', succeeded: 0, errors: [{ row: 0, message: msg('importInstanceStopped', req.lang) }] });
  }
  const { tenantId: _t, userId: _u, instanceId: _i, ...progress } = state;
  return ok(progress, req.lang);
}

/** the import template: the header row and one example row */
async function importTemplate(m: ResourceMount, spec: ImportSpec, req: FastifyRequest, reply: FastifyReply) {
  const { def, ctx } = m;
  const lang = req.lang;
  // loaded at the first template asked for, not at start (bench/RESULTS.md, "The embedded database's idle memory")
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet(t(def.title, lang).slice(0, 31) || 'Sheet1');
  // the example row's dictionary values: the first item of each (its label in the sheet, its key in the row)
  const firstItems = new Map<string, [string, string] | undefined>();
  for (const [name, f] of spec.fields) if (f.dict) firstItems.set(name, [...(await ctx.dicts.labels(f.dict, lang)).entries()][0]);
  const firstKeys = Object.fromEntries([...firstItems].map(([name, item]) => [name, item?.[0]]));
  // an amount is given in major units of the example row's currency (19.90 in CNY, 1990 in JPY)
  const examples = spec.fields.map(([name, f]) => exampleValue(f, lang, firstItems.get(name)?.[1], moneyCurrency(f, firstKeys)));
  sheet.columns = spec.fields.map(([name, f]) => ({ header: t(f.label, lang), key: name, width: Math.max(12, t(f.label, lang).length * 2 + 4) }));
  sheet.addRow(examples);
  const body = Buffer.from(await book.xlsx.writeBuffer());
  const name = `${t(def.title, lang)}-${lang === 'zh' ? '导入模板' : 'import-template'}.xlsx`;
  return reply.header('content-type', XLSX_TYPE).header('content-disposition', attachment(name)).header('cache-control', 'no-store').send(body);
}

/**
 * `POST {path}/import` (multipart `file`: .xlsx or UTF-8 .csv; `isCovering=1` updates the rows matched by
 * the unique field instead of refusing them), `GET {path}/get-upload-progress?id=` and
 * `GET {path}/import-template`. The job's state lives in the kv store (shared through Redis), readable by
 * the user who started it.
 */
export function mountImport(app: FastifyInstance, m: ResourceMount): void {
  const { def } = m;
  const route = ioRoutes(def).import!;
  const spec = importSpec(def);
  const progressQuery = z.object({ id: z.string().trim().min(1).max(40) }).passthrough();

  app.register(async (scoped) => {
    await scoped.register(multipart, { limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 5, parts: 6 } });

    scoped.post(route.path, {
      config: { access: { permission: route.permission, platformWrite: def.scope === 'platform' }, title: logTitle('logTitleImport', def.title) },
      schema: {
        tags: [m.tag],
        summary: `${def.title.en}: import an .xlsx or .csv (multipart field "file") in the background; answers the job id`,
        description: `Needs ${route.permission}. isCovering=1 updates the rows matched by the unique field. At most ${IMPORT_MAX_BYTES / 1024 / 1024} MB and ${IMPORT_MAX_ROWS} rows. Poll ${route.progress}?id=.`,
        querystring: z.object({ isCovering: z.string().max(5).optional() }).passthrough(),
        response: { 200: envelopeOf(z.object({ id: z.string() })) },
        docsOnly: multipartBody({ file: binary(), isCovering: z.string().max(5).optional() }),
      },
    }, (req) => startImport(m, spec, app.log, req));
  });

  app.get(route.progress, {
    config: { access: { permission: route.permission } },
    schema: {
      tags: [m.tag],
      summary: `${def.title.en}: the state of an import (api.md section 5)`,
      querystring: progressQuery,
      response: { 200: envelopeOf(importProgressSchema) },
    },
  }, (req: FastifyRequest) => importProgress(m, req));

  app.get(route.template, {
    config: { access: { permission: route.permission } },
    schema: {
      tags: [m.tag], summary: `${def.title.en}: the import template (.xlsx: the header row and one example row)`,
      docsOnly: { noInput: true, response: { 200: fileAnswer('the .xlsx template', XLSX_TYPE) } },
    },
  }, (req, reply) => importTemplate(m, spec, req, reply));
}
