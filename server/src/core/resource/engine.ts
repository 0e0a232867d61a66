import {
  dictNameKey, type FieldDef, isIdText, isRequired, type Lang, msg, permissionCodes, recordSchema,
  type ResourceDef, submitSchema, SYSTEM_FIELDS, t,
} from '@console/contract';
import { and, eq, getTableColumns, inArray, ne, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../access.js';
import type { AppContext, AuthUser } from '../context.js';
import { type Executor, inTenant } from '../db/index.js';
import { envelopeOf, ok, pageOf } from '../envelope.js';
import { AppError, conflict, forbidden, notFound } from '../errors.js';
import { isUniqueViolation } from '../dbErrors.js';
import { idsParam } from '../idList.js';
import { sanitizeHtml } from '../html.js';
import { isId, nextId } from '../ids.js';
import { formatDateTime, parseDateTime } from '../time.js';
import { describeIssues, type FieldLabels } from '../validation.js';
import { scopeList } from './count.js';
import { buildFilters, buildOrder, checkSearchGrams, type ColumnMap, unindexed } from './filters.js';
import { fieldRange } from './ranges.js';

type Row = Record<string, unknown>;

export interface ResourceHooks {
  /** runs inside the write transaction before insert/update, after validation; may throw AppError */
  beforeSave?: (tx: Executor, values: Row, mode: 'create' | 'update', user: AuthUser) => Promise<void>;
  /** runs inside the transaction after the rows were soft-deleted */
  afterRemove?: (tx: Executor, ids: string[], user: AuthUser) => Promise<void>;
}

export interface MountedResource {
  def: ResourceDef;
  table: PgTable;
  /** rows as the API answers them: wire formats, and `<field>Name` beside dictionary-coded fields */
  present(rows: Row[], lang: Lang): Promise<Row[]>;
}

const idsBody = z.object({ ids: z.string().optional() }).passthrough().nullish();


/**
 * Mounts list / detail / submit / remove for a resource definition over its table, with the query
 * conventions of api.md, tenant scope (data layer + row-level security), audit columns, soft delete,
 * uniqueness, permission checks and OpenAPI descriptions.
 */
export function mountResource(app: FastifyInstance, ctx: AppContext, def: ResourceDef, table: PgTable, hooks: ResourceHooks = {}): MountedResource {
  const columns = getTableColumns(table) as ColumnMap;
  const codes = permissionCodes(def);
  const tenantScoped = def.scope === 'tenant';
  const allFields: Record<string, FieldDef> = { ...SYSTEM_FIELDS, ...def.fields };
  const labels: FieldLabels = allFields;
  const createSchema = submitSchema(def, 'create');
  const updateSchema = submitSchema(def, 'update');
  const record = recordSchema(def);
  const col = (name: string): PgColumn => {
    const c = columns[name];
    if (!c) throw new Error(`resource ${def.code}: table has no column for field ${name}`);
    return c;
  };
  for (const name of [...Object.keys(def.fields), 'id', 'createTime', 'updateTime', 'isDeleted']) col(name);
  if (tenantScoped) col('tenantId');
  checkSearchGrams(def, columns);
  const nameField = def.nameField ?? Object.keys(def.fields).find((k) => isRequired(def.fields[k]!)) ?? 'id';
  const tag = def.path.split('/')[2] ?? 'resource';

  const dictFields = Object.entries(def.fields).filter(([, f]) => f.dict).map(([name, f]) => [name, f.dict!] as const);
  const present = async (rows: Row[], lang: Lang): Promise<Row[]> => {
    const labels = await Promise.all(dictFields.map(([, code]) => ctx.dicts.labels(code, lang)));
    return rows.map((row) => {
      const out: Row = {};
      for (const [name, f] of Object.entries(allFields)) {
        if (name === 'tenantId' && !tenantScoped) continue;
        const v = row[name];
        out[name] = v === undefined || v === null ? null : f.type === 'datetime' ? formatDateTime(v as Date) : v;
      }
      dictFields.forEach(([name], i) => {
        const v = row[name];
        out[dictNameKey(name)] = v === undefined || v === null ? null : labels[i]!.get(String(v)) ?? null;
      });
      return out;
    });
  };

  /** live rows the caller may see */
  const visible = (user: AuthUser): SQL[] => {
    const conds: SQL[] = [eq(col('isDeleted'), 0)];
    if (tenantScoped) conds.push(eq(col('tenantId'), user.tenantId));
    return conds;
  };

  const run = <T>(user: AuthUser, fn: (tx: Executor) => Promise<T>) => inTenant(ctx.db, { tenantId: user.tenantId }, fn);

  const requireCode = async (user: AuthUser, code: string) => {
    const granted = await ctx.permissions.codes(user.tenantId, user.roleIds);
    if (!granted.has(code)) throw forbidden('forbidden', { code });
  };

  // ---- list ----
  const listQuery = z
    .object({
      current: z.coerce.number().int().min(1).max(10_000_000).default(1),
      size: z.coerce.number().int().min(1).max(500).default(10),
      ascs: z.string().max(500).optional(),
      descs: z.string().max(500).optional(),
    })
    .catchall(z.union([z.string().max(1000), z.array(z.string())]));
  app.get(`${def.path}/list`, {
    config: {
      access: { permission: codes.menu },
      fieldLabels: { current: { zh: '页码', en: 'current' }, size: { zh: '每页条数', en: 'size' }, ...labels },
    },
    schema: { tags: [tag], summary: `${def.title.en}: list (paged, filtered)`, querystring: listQuery, response: { 200: envelopeOf(pageOf(record)) } },
  }, async (req) => {
    const user = requireUser(req);
    const q = req.query as z.output<typeof listQuery>;
    const { current, size, ascs, descs, ...filters } = q;
    const built = buildFilters(def, columns, filters, req.lang);
    const order = buildOrder(def, columns, ascs, descs, req.lang);
    const offset = (current - 1) * size;
    // a substring filter on a column without grams (not searchable in the console) has no index: it waits
    // for one of few places, so such searches never hold every connection
    const lane = unindexed(built) ? <T>(fn: () => Promise<T>) => ctx.heavyQueries.run(fn) : <T>(fn: () => Promise<T>) => fn();
    const { rows, total, exact } = await lane(() => run(user, async (tx) => {
      const scope = await scopeList(tx, table, col('id'), visible(user), built, ctx.config.listCount, tenantScoped);
      const rows = !scope.exact || scope.total > offset
        ? await tx.select().from(table).where(scope.where).orderBy(...order).limit(size).offset(offset)
        : [];
      return { rows: rows as Row[], total: scope.total, exact: scope.exact };
    }));
    const records = await present(rows, req.lang);
    return ok({ records, total, size, current, pages: Math.ceil(total / size), totalExact: exact }, req.lang);
  });

  // ---- detail ----
  const fetchOne = async (tx: Executor, user: AuthUser, id: string): Promise<Row> => {
    const [row] = await tx.select().from(table).where(and(eq(col('id'), id), ...visible(user)));
    if (!row) throw notFound();
    return row as Row;
  };
  app.get(`${def.path}/detail`, {
    config: { access: { permission: codes.menu }, fieldLabels: labels },
    schema: {
      tags: [tag], summary: `${def.title.en}: one record`,
      querystring: z.object({ id: z.string().trim().refine(isIdText) }).passthrough(),
      response: { 200: envelopeOf(record) },
    },
  }, async (req) => {
    const user = requireUser(req);
    const { id } = req.query as { id: string };
    const row = await run(user, (tx) => fetchOne(tx, user, id));
    const [record] = await present([row], req.lang);
    return ok(record, req.lang);
  });

  // ---- submit ----
  const fromInput = (input: Row, mode: 'create' | 'update', lang: Lang): Row => {
    const values: Row = {};
    for (const [name, f] of Object.entries(def.fields)) {
      if (!(name in input)) continue;
      let v = input[name];
      if (v === undefined) continue;
      if (v === null || v === '') {
        if (mode === 'update' && isRequired(f)) {
          const text = typeof f.required === 'object' ? t(f.required, lang) : msg('required', lang, { field: t(f.label, lang) });
          throw new AppError(400, 'validationFailed', { detail: text }, { [name]: text });
        }
        values[name] = null;
        continue;
      }
      if (f.type === 'datetime') v = parseDateTime(String(v));
      if (f.type === 'datetime' && v === null) {
        const text = msg('badDate', lang, { field: t(f.label, lang) });
        throw new AppError(400, 'validationFailed', { detail: text }, { [name]: text });
      }
      if (f.type === 'richtext' && typeof v === 'string') v = sanitizeHtml(v);
      const range = (f.type === 'int' || f.type === 'number') ? fieldRange(columns[name], f) : undefined;
      if (range && typeof v === 'number' && (v < range.min || v > range.max)) {
        const text = msg('outOfRange', lang, { field: t(f.label, lang), min: range.min, max: range.max });
        throw new AppError(400, 'validationFailed', { detail: text }, { [name]: text });
      }
      values[name] = v;
    }
    if (mode === 'create') {
      for (const [name, f] of Object.entries(def.fields)) {
        if (values[name] === undefined && f.defaultValue !== undefined) values[name] = f.defaultValue;
      }
    }
    return values;
  };

  const checkUnique = async (tx: Executor, user: AuthUser, values: Row, selfId: string | null, lang: Lang) => {
    for (const [name, f] of Object.entries(def.fields)) {
      if (!f.unique || values[name] === undefined || values[name] === null) continue;
      const conds = [...visible(user), eq(col(name), values[name])];
      if (selfId) conds.push(ne(col('id'), selfId));
      const [hit] = await tx.select({ id: col('id') }).from(table).where(and(...conds)).limit(1);
      if (hit) {
        const label = t(f.label, lang);
        throw conflict({ field: label, value: String(values[name]) }, { [name]: msg('duplicate', lang, { field: label, value: String(values[name]) }) });
      }
    }
  };

  app.post(`${def.path}/submit`, {
    config: { access: { permission: codes.menu, platformWrite: def.scope === 'platform' }, fieldLabels: labels, title: `${def.title.zh}: submit` },
    schema: {
      tags: [tag],
      summary: `${def.title.en}: create (no id) or update (with id)`,
      description: `Needs ${codes.add} to create and ${codes.edit} to update.`,
      body: z.record(z.string(), z.unknown()),
      response: { 200: envelopeOf(record) },
    },
  }, async (req) => {
    const user = requireUser(req);
    const body = req.body as Row;
    const mode = body.id === undefined || body.id === null || body.id === '' ? 'create' : 'update';
    await requireCode(user, mode === 'create' ? codes.add : codes.edit);
    const parsed = (mode === 'create' ? createSchema : updateSchema).safeParse(body);
    if (!parsed.success) {
      const fields = describeIssues(parsed.error.issues, req.lang, labels, body);
      throw new AppError(400, 'validationFailed', { detail: Object.values(fields).join('; ') }, fields);
    }
    const input = parsed.data as Row;
    const values = fromInput(input, mode, req.lang);
    const now = new Date();
    try {
      const saved = await run(user, async (tx) => {
        if (mode === 'create') {
          await checkUnique(tx, user, values, null, req.lang);
          const row: Row = {
            ...values,
            id: nextId(),
            createUser: user.userId,
            createDept: isId(user.deptId) ? user.deptId : null,
            createTime: now,
            updateUser: user.userId,
            updateTime: now,
            status: 1,
            isDeleted: 0,
          };
          if (tenantScoped) row.tenantId = user.tenantId;
          await hooks.beforeSave?.(tx, row, mode, user);
          const [inserted] = await tx.insert(table).values(row as never).returning();
          return inserted as Row;
        }
        const id = String(input.id);
        await fetchOne(tx, user, id);
        await checkUnique(tx, user, values, id, req.lang);
        const changes: Row = { ...values, updateUser: user.userId, updateTime: now };
        await hooks.beforeSave?.(tx, changes, mode, user);
        const [updated] = await tx.update(table).set(changes as never).where(and(eq(col('id'), id), ...visible(user))).returning();
        if (!updated) throw notFound();
        return updated as Row;
      });
      const [record] = await present([saved], req.lang);
      return ok(record, req.lang);
    } catch (e) {
      if (isUniqueViolation(e)) {
        const label = t(def.fields[nameField]?.label ?? { zh: nameField, en: nameField }, req.lang);
        const value = String(values[nameField] ?? '');
        throw conflict({ field: label, value }, { [nameField]: msg('duplicate', req.lang, { field: label, value }) });
      }
      throw e;
    }
  });

  // ---- remove ----
  app.post(`${def.path}/remove`, {
    config: {
      access: { permission: codes.delete, platformWrite: def.scope === 'platform' },
      fieldLabels: { ids: { zh: '编号', en: 'ids' } },
      title: `${def.title.zh}: remove`,
    },
    schema: {
      tags: [tag], summary: `${def.title.en}: delete (logically) by ids`,
      querystring: z.object({ ids: z.string().optional() }).passthrough(),
      body: idsBody,
      response: { 200: envelopeOf(z.boolean()) },
    },
  }, async (req) => {
    const user = requireUser(req);
    const ids = idsParam((req.query as { ids?: string }).ids ?? (req.body as { ids?: string } | undefined)?.ids, req.lang);
    await run(user, async (tx) => {
      const removed = await tx
        .update(table)
        .set({ isDeleted: 1, updateUser: user.userId, updateTime: new Date() } as never)
        .where(and(inArray(col('id'), ids), ...visible(user)))
        .returning({ id: col('id') });
      // all or nothing: an id that is unknown, deleted or another tenant's aborts the whole call
      if (removed.length !== ids.length) throw notFound();
      await hooks.afterRemove?.(tx, removed.map((r) => String(r.id)), user);
    });
    return ok(true, req.lang);
  });

  return { def, table, present };
}
