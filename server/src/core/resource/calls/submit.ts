import { type Lang, msg, rowMeets, t } from '@console/contract';
import type { UploadedFile } from '@console/contract';
import multipart from '@fastify/multipart';
import { and, eq, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../../access.js';
import { logTitle } from '../../logs.js';
import type { AuthUser } from '../../context.js';
import type { Executor } from '../../db/index.js';
import { isUniqueViolation } from '../../dbErrors.js';
import { envelopeOf, ok } from '../../envelope.js';
import { AppError, conflict, notFound } from '../../errors.js';
import { afterCommitQueue } from '../afterCommit.js';
import type { SaveContext } from '../hooks.js';
import { requireCode, runAs, scopeFor, visible } from '../mount/access.js';
import type { ResourceMount } from '../mount/resourceMount.js';
import { checkImmutable, checkUnique, columnValues, fetchOne, newRow } from '../mount/rows.js';
import { checkDictValues, validateSubmit } from '../mount/validate.js';
import { checkReferences } from '../refs.js';
import { multipartSubmit } from '../uploads.js';
import { UPLOADS } from '../../uploads.js';

type Row = Record<string, unknown>;
type Uploads = ReturnType<typeof multipartSubmit>;
/** what a write's hooks are told, but the stored row of an update */
type SaveBase = Omit<SaveContext, 'stored'>;

/** the multipart side of submit: a file is stored only for a caller who may save a record */
function submitUploads(m: ResourceMount): Uploads {
  return multipartSubmit(m.ctx, m.def, async (user, body) => {
    // the id may come after the file in the body
    if (body.id !== undefined && body.id !== '') return requireCode(m, user, m.codes.edit);
    await requireCode(m, user, m.codes.add).catch(() => requireCode(m, user, m.codes.edit));
  });
}

function submitOptions(m: ResourceMount, uploads: Uploads) {
  const { def, codes } = m;
  return { ...m.routes.withAliases,
    config: { access: { permission: codes.menu, platformWrite: def.scope === 'platform', ...m.routes.adminOnly }, fieldLabels: m.labels, title: logTitle('logTitleSubmit', def.title) },
    schema: {
      tags: [m.tag],
      summary: `${def.title.en}: create (no id) or update (with id)${uploads.fields.length ? '; JSON, or multipart/form-data with the files beside the fields' : ''}`,
      description: `Needs ${codes.add} to create and ${codes.edit} to update. A write the server warns about first answers 409 with \`data.confirm\` naming the warning; sent again with \`?confirm=<that code>\`, it is done.${uploads.fields.length
        ? ` A multipart body carries the fields as text parts and a file for ${uploads.fields.map(([n]) => n).join(', ')} (or as "file"/"image"); an update without a file keeps the stored one.`
        : ''}`,
      // a multipart body is read by the handler (the parser leaves none)
      body: uploads.fields.length ? z.record(z.string(), z.unknown()).optional() : z.record(z.string(), z.unknown()),
      response: { 200: envelopeOf(m.schemas.submitAnswer) },
    },
  };
}

/** the values `hooks.revealed` declares, collected for this call's answer */
function revealing(m: ResourceMount) {
  const revealed: Row = {};
  const reveal = (values: Row) => {
    for (const [k, v] of Object.entries(values)) {
      if (!m.hooks.revealed?.[k]) throw new Error(`resource ${m.def.code}: ${k} is not declared in hooks.revealed`);
      revealed[k] = v;
    }
  };
  return { revealed, reveal };
}

async function insertRecord(m: ResourceMount, tx: Executor, values: Row, base: SaveBase, now: Date): Promise<Row> {
  const { user, lang } = base;
  await checkUnique(m, tx, user, values, null, lang);
  await checkReferences(tx, m.ctx.resources, m.def, values, user, lang);
  const fresh = newRow(m, values, user, now);
  if (m.tree) await m.tree.onCreate(tx, visible(m, user), fresh, lang);
  const c: SaveContext = { ...base };
  await m.hooks.beforeSave?.(tx, fresh, c);
  const [inserted] = await tx.insert(m.table).values(columnValues(m, fresh) as never).returning();
  const row = inserted as Row;
  await m.hooks.afterSave?.(tx, row, c);
  return row;
}

async function updateRecord(m: ResourceMount, tx: Executor, id: string, values: Row, visibleTo: (tx: Executor) => Promise<SQL[]>, base: SaveBase, now: Date): Promise<Row> {
  const { user, lang } = base;
  const stored = await fetchOne(m, tx, visibleTo, id);
  checkImmutable(m, stored, values, lang);
  await checkUnique(m, tx, user, values, id, lang);
  await checkReferences(tx, m.ctx.resources, m.def, values, user, lang);
  const changes: Row = { ...values, updateUser: user.userId, updateTime: now };
  const moveSubtree = m.tree ? await m.tree.onUpdate(tx, visible(m, user), stored, changes, lang) : undefined;
  const c: SaveContext = { ...base, stored };
  await m.hooks.beforeSave?.(tx, changes, c);
  // a row outside the states the definition offers 编辑 on (`rowButtons.edit`): the hook says why first, if it can
  const editable = m.def.rowButtons?.edit;
  if (editable && !rowMeets(editable, stored)) {
    throw new AppError(400, 'rowStateNotEditable', { name: String(stored[m.nameField] ?? stored.id), state: String(stored[editable.field] ?? '') });
  }
  const [updated] = await tx.update(m.table).set(columnValues(m, changes) as never).where(and(eq(m.col('id'), id), ...visible(m, user))).returning();
  if (!updated) throw notFound();
  await moveSubtree?.();
  const row = updated as Row;
  await m.hooks.afterSave?.(tx, row, c);
  return row;
}

/** a unique index refused the write (a race past checkUnique): 409 naming the resource's name field */
function duplicateName(m: ResourceMount, values: Row, lang: Lang): AppError {
  const { nameField } = m;
  const label = t(m.def.fields[nameField]?.label ?? { zh: nameField, en: nameField }, lang);
  const value = String(values[nameField] ?? '');
  return conflict({ field: label, value }, { [nameField]: msg('duplicate', lang, { field: label, value }) });
}

/** the warnings a submit was sent after (`?confirm=a,b`) */
function confirmedOf(req: FastifyRequest): ReadonlySet<string> {
  const raw = (req.query as Record<string, unknown> | undefined)?.confirm;
  return new Set(typeof raw === 'string' ? raw.split(',').map((c) => c.trim()).filter(Boolean) : []);
}

/** creates (no id) or updates (with id) one record; files stored on the way are pushed to `uploaded` */
async function submit(m: ResourceMount, uploads: Uploads, req: FastifyRequest, uploaded: UploadedFile[]) {
  const user: AuthUser = requireUser(req);
  const body = uploads.fields.length && req.isMultipart() ? await uploads.read(req, user, uploaded) : (req.body ?? {}) as Row;
  const mode = body.id === undefined || body.id === null || body.id === '' ? 'create' : 'update';
  if (mode === 'update' && m.def.createOnly) throw new AppError(400, 'recordNotEditable');
  await requireCode(m, user, mode === 'create' ? m.codes.add : m.codes.edit);
  const { input, values } = validateSubmit(m, body, mode, req.lang);
  await checkDictValues(m, values, req.lang);
  const now = new Date();
  const pending: Array<() => Promise<void> | void> = [];
  const visibleTo = await scopeFor(m, user);
  const prepared = await m.hooks.prepare?.(values, { mode, user, lang: req.lang });
  const { revealed, reveal } = revealing(m);
  try {
    const saved = await runAs(m, user, async (tx) => {
      const base = { mode, user, lang: req.lang, prepared, ...afterCommitQueue(pending), reveal, confirmed: confirmedOf(req) } as const;
      return mode === 'create' ? insertRecord(m, tx, values, base, now) : updateRecord(m, tx, String(input.id), values, visibleTo, base, now);
    });
    for (const fn of pending) await fn();
    const [answer] = await m.present([saved], req.lang, user);
    return ok({ ...answer, ...revealed }, req.lang);
  } catch (e) {
    if (isUniqueViolation(e)) throw duplicateName(m, values, req.lang);
    throw e;
  }
}

/** `submit`: JSON, or (a resource with file fields) multipart with the files beside the fields */
export function mountSubmit(app: FastifyInstance, m: ResourceMount): void {
  const { ctx, def, paths } = m;
  const uploads = submitUploads(m);
  const options = submitOptions(m, uploads);
  if (!def.readOnly && uploads.fields.length) {
    void app.register(async (scoped) => {
      await scoped.register(multipart, { limits: uploads.limits });
      scoped.post(paths.submit, options, async (req) => {
        const uploaded: UploadedFile[] = [];
        try {
          return await submit(m, uploads, req, uploaded);
        } catch (e) {
          // a refused record keeps none of the files sent with it
          for (const file of uploaded) await ctx.services.find(UPLOADS)?.discard(requireUser(req), file).catch(() => undefined);
          throw e;
        }
      });
    });
  } else if (!def.readOnly) {
    app.post(paths.submit, options, (req) => submit(m, uploads, req, []));
  }
}
