import {
  crudPaths, dictNameKey, type DynamicColumn, type FieldDef, isIdText, isRequired, type Lang, msg, nameFieldOf, permissionCodes,
  recordSchema, type ResourceDef, resources, SECRET_MASK, submitSchema, SYSTEM_FIELDS, t, TREE_NODE, type TreeNode,
} from '@console/contract';
import type { UploadedFile } from '@console/contract';
import { and, asc, eq, getTableColumns, inArray, ne, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { isPlatformAdmin, requireUser } from '../access.js';
import type { AppContext, AuthUser } from '../context.js';
import { type Executor, inTenant } from '../db/index.js';
import { rowColumns } from '../db/columns.js';
import { isUniqueViolation } from '../dbErrors.js';
import { envelopeOf, ok, pageOf } from '../envelope.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../errors.js';
import { sanitizeHtml } from '../html.js';
import { idsParam } from '../idList.js';
import { isId, nextId } from '../ids.js';
import { secretBox } from '../secrets.js';
import { formatDateTime, parseDateTime } from '../time.js';
import { describeIssues, type FieldLabels, isSafeLink } from '../validation.js';
import { scopeList } from './count.js';
import { buildFilters, buildOrder, checkSearchGrams, type ColumnMap, unindexed } from './filters.js';
import { dataScopeCondition } from './dataScope.js';
import { fieldRange } from './ranges.js';
import { checkReferences, loadReferenceNames, type ReferenceNames, TREE_ROOT, unnamedReferences, writeReferenceNames } from './refs.js';
import type { MountedResource, PresentOptions } from './registry.js';
import { MAX_TREE_ROWS, TreeRules } from './tree.js';
import { mountImportExport } from './io/index.js';
import { multipartSubmit } from './uploads.js';
import { afterCommitQueue } from './afterCommit.js';

export type { MountedResource } from './registry.js';

type Row = Record<string, unknown>;

export interface SaveContext {
  mode: 'create' | 'update';
  user: AuthUser;
  lang: Lang;
  /** the row as stored before an update (absent on create) */
  stored?: Row;
  /** work to do once the transaction committed */
  afterCommit(fn: () => Promise<void> | void): void;
  /**
   * work to do once the transaction committed, run once over every item collected under `key` in this call: an
   * import's rows get one pass (one lookup, one write) instead of one per row
   */
  afterCommitWith<T>(key: string, item: T, fn: (items: T[]) => Promise<void> | void): void;
  /** the record already passed `checkRows` (an import checks its rows by chunks): lookups made there may be skipped */
  checked?: boolean;
  /** what `prepare` answered */
  prepared?: unknown;
  /** values answered beside the saved record in this call's answer only (a generated secret); keys from `hooks.revealed` */
  reveal(values: Row): void;
}

export interface RemoveContext {
  user: AuthUser;
  lang: Lang;
  afterCommit(fn: () => Promise<void> | void): void;
}

export interface ResourceHooks {
  /**
   * runs after validation, before the write transaction opens: slow work that needs no row (hashing a
   * password) stays out of the transaction
   */
  prepare?: (values: Row, c: { mode: 'create' | 'update'; user: AuthUser; lang: Lang }) => Promise<unknown>;
  /**
   * runs inside the write transaction before insert/update, after validation and reference checks; may
   * change `values` (hash a password, derive a column) or throw an AppError
   */
  beforeSave?: (tx: Executor, values: Row, c: SaveContext) => Promise<void>;
  /** runs inside the write transaction after the row was written */
  afterSave?: (tx: Executor, saved: Row, c: SaveContext) => Promise<void>;
  /** runs inside the transaction before the rows are soft-deleted; may refuse */
  beforeRemove?: (tx: Executor, rows: Row[], c: RemoveContext) => Promise<void>;
  /** runs inside the transaction after the rows were soft-deleted */
  afterRemove?: (tx: Executor, ids: string[], user: AuthUser) => Promise<void>;
  /**
   * a data scope: a condition added to every read and write of the caller (lists, detail, update,
   * remove), e.g. "rows of my department"; undefined for no restriction
   */
  scope?: (tx: Executor, user: AuthUser) => Promise<SQL | undefined>;
  /**
   * rewrites, in place, the rows a list, detail or export read for the caller, before they are answered (inside
   * the read's transaction, once per page or chunk): what a tenant may see of a platform row (an OTA task's counts
   * of its own devices); rows may carry only some columns (an export reads those it writes)
   */
  shown?: (tx: Executor, rows: Row[], user: AuthUser) => Promise<void>;
  /** rows the `tree` and `lazy-tree` calls show (the menu tree shows menus, not buttons) */
  treeFilter?: () => SQL;
  /** other paths that answer as `list` (BladeX's `user/page`), with query parameters of their own */
  listAliases?: string[];
  /** list parameters beyond the fields' filters: each turns its value into a condition (`page?deptId=`) */
  listParams?: Record<string, (tx: Executor, user: AuthUser, value: string, lang: Lang) => Promise<SQL>>;
  /**
   * the resource's own rules over one submitted record, on its input as parsed (secrets still in clear, before
   * they are sealed): field → message for what is wrong (submit answers 400, an import reports the row), and
   * values derived from it (a certificate's fingerprint and expiry) written with the record
   */
  inspect?: (input: Row, c: { mode: 'create' | 'update'; lang: Lang }) => { errors?: Record<string, string>; values?: Row };
  /**
   * the resource's own rules against the database, for a chunk of records an import is about to write (one
   * statement for many rows): per record, field → message, or undefined when it is fine
   */
  checkRows?: (tx: Executor, rows: Row[], lang: Lang, user: AuthUser) => Promise<Array<Record<string, string> | undefined>>;
  /**
   * the resource's dynamic columns (`def.dynamicColumns`) for the list's filters named in its `by`, e.g. the
   * attributes of a batch's product type: the export adds them after the fields
   */
  dynamicColumns?: (tx: Executor, user: AuthUser, filters: Record<string, string>, lang: Lang) => Promise<DynamicColumn[]>;
  /** keys a submit may answer beside the record, once (`SaveContext.reveal`): documented, absent otherwise */
  revealed?: Record<string, z.ZodType>;
}

const idsBody = z.object({ ids: z.string().optional() }).passthrough().nullish();

type Lane = <T>(fn: () => Promise<T>) => Promise<T>;

/**
 * Mounts list / detail / submit / remove (and the tree calls of a tree resource) for a resource definition
 * over its table, with the query conventions of api.md, tenant scope (data layer + row-level security),
 * audit columns, soft delete, uniqueness, references, permission checks and OpenAPI descriptions.
 */
export function mountResource(app: FastifyInstance, ctx: AppContext, def: ResourceDef, table: PgTable, hooks: ResourceHooks = {}): MountedResource {
  const columns = getTableColumns(table) as ColumnMap;
  const codes = permissionCodes(def);
  const paths = crudPaths(def);
  const tenantScoped = def.scope === 'tenant';
  const allFields: Record<string, FieldDef> = { ...SYSTEM_FIELDS, ...def.fields };
  const labels: FieldLabels = allFields;
  const createSchema = submitSchema(def, 'create');
  const updateSchema = submitSchema(def, 'update');
  const record = recordSchema(def);
  const submitAnswer = hooks.revealed
    ? record.extend(Object.fromEntries(Object.entries(hooks.revealed).map(([k, v]) => [k, v.optional()])))
    : record;
  const col = (name: string): PgColumn => {
    const c = columns[name];
    if (!c) throw new Error(`resource ${def.code}: table has no column for field ${name}`);
    return c;
  };
  for (const [name, f] of Object.entries(def.fields)) if (!f.writeOnly) col(name);
  // a read-only resource (an append-only log) may lack the update and soft-delete columns
  const writable = !def.readOnly || def.removable === true;
  for (const name of ['id', 'createTime', ...(writable ? ['updateTime', 'isDeleted'] : [])]) col(name);
  // records written once (an audit): created by submit, never updated nor removed
  const removable = writable && (!def.createOnly || def.removable === true);
  if (tenantScoped) col('tenantId');
  checkSearchGrams(def, columns);
  const softDeleted = Object.hasOwn(columns, 'isDeleted');
  const secrets = secretBox(ctx.config.encryptionKey);
  const nameField = nameFieldOf(def);
  const tag = def.path.split('/')[2] ?? 'resource';
  const hasRefs = Object.values(def.fields).some((f) => f.ref && !f.writeOnly);

  const dictFields = Object.entries(def.fields).filter(([, f]) => f.dict).map(([name, f]) => [name, f.dict!] as const);
  /**
   * A dictionary-coded field takes only its dictionary's keys. Read before the request's transaction opens:
   * the labels are loaded on their own connection (PGlite has one), and cached.
   */
  const checkDictValues = async (values: Row, lang: Lang): Promise<void> => {
    const fields: Record<string, string> = {};
    for (const [name, code] of dictFields) {
      const v = values[name];
      if (v === undefined || v === null || v === '') continue;
      if (!(await ctx.dicts.labels(code, lang)).has(String(v))) fields[name] = msg('notInDict', lang, { field: t(def.fields[name]!.label, lang), value: String(v) });
    }
    if (Object.keys(fields).length) throw new AppError(400, 'validationFailed', { detail: Object.values(fields).join('; ') }, fields);
  };

  /**
   * Rows as answered: wire formats, `<field>Name` beside dictionary codes and references. Called outside
   * the request's transaction: dictionary labels and reference names are read on their own (PGlite has
   * one connection, so a read beside an open transaction would wait for it forever).
   */
  // the fields a record answers (tenantId only where it belongs; never a write-only one)
  const answered = Object.entries(allFields).filter(([name, f]) => !((name === 'tenantId' && !tenantScoped && !Object.hasOwn(def.fields, name)) || f.writeOnly));
  const present = async (rows: Row[], lang: Lang, user?: AuthUser, opts: PresentOptions = {}): Promise<Row[]> => {
    const { only } = opts;
    const fields = only ? answered.filter(([name]) => only.has(name)) : answered;
    const dicts = only ? dictFields.filter(([name]) => only.has(name)) : dictFields;
    const dictLabels = await Promise.all(dicts.map(([, code]) => ctx.dicts.labels(code, lang)));
    const out = rows.map((row) => {
      const one: Row = {};
      for (const [name, f] of fields) {
        const v = row[name];
        if (f.secret) one[name] = v === undefined || v === null || v === '' ? null : SECRET_MASK;
        else one[name] = v === undefined || v === null ? null : f.type === 'datetime' ? formatDateTime(v as Date) : v;
      }
      dicts.forEach(([name], i) => {
        const v = row[name];
        one[dictNameKey(name)] = v === undefined || v === null ? null : dictLabels[i]!.get(String(v)) ?? null;
      });
      if (typeof row.hasChildren === 'boolean') one.hasChildren = row.hasChildren;
      return one;
    });
    if (hasRefs && rows.length) {
      if (!user) throw new Error(`resource ${def.code}: references are named for a caller`);
      // one query per reference field, none for the ids an export's earlier chunks named
      const known: ReferenceNames = opts.names ?? new Map();
      const missing = unnamedReferences(def, rows, known, only);
      if (missing.size) await run(user, (tx) => loadReferenceNames(tx, ctx.resources, def, missing, user, known));
      writeReferenceNames(def, rows, out, known, only);
    }
    return out;
  };

  /** live rows of the caller's tenant (data layer; row-level security adds its own) */
  const visible = (user: AuthUser): SQL[] => {
    const conds: SQL[] = softDeleted ? [eq(col('isDeleted'), 0)] : [];
    if (tenantScoped) conds.push(eq(col('tenantId'), user.tenantId));
    return conds;
  };
  /**
   * Live rows the caller may see: the tenant's, narrowed by the data scopes granted to their roles on this
   * menu and by the resource's own scope hook. The rules are read before the request's transaction opens
   * (PGlite has one connection): `scoped(user)` loads them, its result builds the conditions in the transaction.
   */
  const scoped = async (user: AuthUser) => {
    const rules = tenantScoped ? await ctx.permissions.dataScopes(user.tenantId, user.roleIds, def.code) : [];
    const dataScope = dataScopeCondition(rules, table, columns, user);
    return async (tx: Executor): Promise<SQL[]> => {
      const own = await hooks.scope?.(tx, user);
      return [...visible(user), ...(dataScope ? [dataScope] : []), ...(own ? [own] : [])];
    };
  };

  /** the same conditions, with the data scopes read through an open transaction (import and export) */
  const visibleIn = async (tx: Executor, user: AuthUser): Promise<SQL[]> => {
    const rules = tenantScoped ? await ctx.permissions.dataScopes(user.tenantId, user.roleIds, def.code, tx) : [];
    const dataScope = dataScopeCondition(rules, table, columns, user);
    const own = await hooks.scope?.(tx, user);
    return [...visible(user), ...(dataScope ? [dataScope] : []), ...(own ? [own] : [])];
  };

  const tree = def.tree ? new TreeRules(def, table, columns) : undefined;

  const run = <T>(user: AuthUser, fn: (tx: Executor) => Promise<T>, tenantId = user.tenantId) => inTenant(ctx.db, { tenantId }, fn);

  const requireCode = async (user: AuthUser, code: string) => {
    const granted = await ctx.permissions.codes(user.tenantId, user.roleIds);
    if (!granted.has(code)) throw forbidden('forbidden', { code });
  };

  /** the tenant a read is for: the caller's, or (platform administrators only) the one named by `tenantId` */
  const readTenant = (req: FastifyRequest, user: AuthUser): AuthUser => {
    const asked = (req.query as Record<string, unknown>).tenantId;
    if (typeof asked !== 'string' || asked === '' || asked === user.tenantId || !tenantScoped) return user;
    if (!isPlatformAdmin(user)) throw forbidden('platformAdminOnly');
    if (!/^\d{6}$/.test(asked)) throw badRequest('tenantUnknown');
    return { ...user, tenantId: asked };
  };

  /** BladeX's other names of id/parentId (`detail?code=`), renamed before validation */
  const aliases = Object.entries(def.keyAliases ?? {});
  const withAliases = aliases.length
    ? {
      preValidation: async (req: FastifyRequest) => {
        const q = req.query as Record<string, unknown>;
        for (const [alias, key] of aliases) if (q[alias] !== undefined && q[key] === undefined) q[key] = q[alias];
        for (const [alias] of aliases) delete q[alias];
      },
    }
    : {};
  /**
   * the paged lists keep a field's own filter: an alias that is also a field's name (region's `code`) filters
   * that field there (`list?code=11` is the search form's substring match, not an id)
   */
  const listKeyAliases = aliases.filter(([alias]) => !Object.hasOwn(def.fields, alias));
  const withListAliases = listKeyAliases.length
    ? {
      preValidation: async (req: FastifyRequest) => {
        const q = req.query as Record<string, unknown>;
        for (const [alias, key] of listKeyAliases) if (q[alias] !== undefined && q[key] === undefined) q[key] = q[alias];
        for (const [alias] of listKeyAliases) delete q[alias];
      },
    }
    : {};

  // ---- list ----
  const listQuery = z
    .object({
      current: z.coerce.number().int().min(1).max(10_000_000).default(1),
      size: z.coerce.number().int().min(1).max(500).default(10),
      ascs: z.string().max(500).optional(),
      descs: z.string().max(500).optional(),
    })
    .catchall(z.union([z.string().max(1000), z.array(z.string())]));
  const adminOnly = def.platformAdminOnly ? { platformAdmin: true } : {};
  const listConfig = {
    access: { permission: codes.menu, ...adminOnly },
    fieldLabels: { current: { zh: '页码', en: 'current' }, size: { zh: '每页条数', en: 'size' }, ...labels },
  };
  // a tree is read by the resource's own screen and by the screens whose forms pick from it (a ref field)
  const treeConfig = { access: { permission: treeReaders(def), ...adminOnly } };
  const RESERVED_TREE_KEYS = ['tenantId', 'parentId'];
  const tenantIdIsField = !tenantScoped && Object.hasOwn(def.fields, 'tenantId');

  /** one page of the caller's rows matching the query's filters, plus `extra` conditions */
  const listPage = async (req: FastifyRequest, extra: (user: AuthUser) => SQL[] = () => [], reserved: string[] = []) => {
    const caller = requireUser(req);
    const user = readTenant(req, caller);
    const visibleTo = await scoped(user);
    const q = req.query as z.output<typeof listQuery>;
    const { current, size, ascs, descs, ...rawFilters } = q;
    const params = hooks.listParams ?? {};
    // `tenantId` chose the tenant read (readTenant), it is no filter, unless it is a field of platform data (the tenants' own codes)
    const filters = Object.fromEntries(Object.entries(rawFilters).filter(([k]) => (k !== 'tenantId' || tenantIdIsField) && !reserved.includes(k) && !Object.hasOwn(params, k)));
    const paramValues = Object.entries(params).flatMap(([k, fn]) => {
      const v = rawFilters[k];
      return typeof v === 'string' && v.trim() !== '' ? [[fn, v.trim()] as const] : [];
    });
    const built = buildFilters(def, columns, filters, req.lang);
    const order = buildOrder(def, columns, ascs, descs, req.lang);
    const offset = (current - 1) * size;
    // a substring filter on a column without grams (not searchable in the console) has no index: it waits
    // for one of few places, so such searches never hold every connection
    const lane: Lane = unindexed(built) ? (fn) => ctx.heavyQueries.run(fn) : (fn) => fn();
    const { rows, total, exact } = await lane(() => run(user, async (tx) => {
      const base = [...(await visibleTo(tx)), ...extra(user)];
      for (const [fn, v] of paramValues) base.push(await fn(tx, user, v, req.lang));
      // the text match (app_text_match) reads live rows by is_deleted: tables without it filter plainly
      const scope = await scopeList(tx, table, col('id'), base, built, ctx.config.listCount, tenantScoped && softDeleted);
      const rows = !scope.exact || scope.total > offset
        ? await tx.select(rowColumns(table)).from(table).where(scope.where).orderBy(...order).limit(size).offset(offset) as Row[]
        : [];
      if (tree) {
        const parents = await tree.withChildren(tx, visible(user), rows.map((r) => String(r.id)));
        for (const r of rows) r.hasChildren = parents.has(String(r.id));
      }
      await hooks.shown?.(tx, rows, user);
      return { rows, total: scope.total, exact: scope.exact };
    }));
    const records = await present(rows, req.lang, user);
    return ok({ records, total, size, current, pages: Math.ceil(total / size), totalExact: exact }, req.lang);
  };

  const pageSchema = { tags: [tag], querystring: listQuery, response: { 200: envelopeOf(pageOf(record)) } };

  if (def.tree?.unpagedList) {
    // BladeX answers the list of a tree resource as the whole matching tree, unpaged
    app.get(paths.list, { ...withListAliases,
      config: listConfig,
      schema: { tags: [tag], summary: `${def.title.en}: the matching rows as a tree (unpaged)`, querystring: listQuery, response: { 200: envelopeOf(z.array(z.unknown())) } },
    }, async (req) => {
      const user = readTenant(req, requireUser(req));
      const visibleTo = await scoped(user);
      const { current: _c, size: _s, ascs, descs, ...rawFilters } = req.query as z.output<typeof listQuery>;
      const filters = Object.fromEntries(Object.entries(rawFilters).filter(([k]) => !RESERVED_TREE_KEYS.includes(k)));
      const built = buildFilters(def, columns, filters, req.lang);
      const order = ascs || descs ? buildOrder(def, columns, ascs, descs, req.lang) : treeOrder();
      const rows = await run(user, async (tx) => {
        const found = await tx.select(rowColumns(table)).from(table).where(and(...(await visibleTo(tx)), ...built.conditions)).orderBy(...order).limit(MAX_TREE_ROWS + 1) as Row[];
        if (found.length > MAX_TREE_ROWS) throw badRequest('treeTooLarge');
        const parents = await tree!.withChildren(tx, visible(user), found.map((r) => String(r.id)));
        for (const r of found) r.hasChildren = parents.has(String(r.id));
        await hooks.shown?.(tx, found, user);
        return found;
      });
      const records = await present(rows, req.lang, user);
      const field = def.tree!.parentField;
      return ok(TreeRules.nest(records.map((r) => ({ ...r, id: String(r.id), parentId: String(r[field] ?? TREE_ROOT) }))), req.lang);
    });
  } else {
    for (const path of [paths.list, ...(hooks.listAliases ?? []).map((alias) => `${def.path}/${alias}`)]) {
      app.get(path, { ...withListAliases, config: listConfig, schema: { ...pageSchema, summary: `${def.title.en}: ${path.slice(def.path.length + 1)} (paged, filtered)` } }, (req) => listPage(req));
    }
  }

  // ---- tree calls ----
  function treeOrder(): SQL[] {
    const sort = columns.sort;
    return sort ? [asc(sort), asc(col('id'))] : [asc(col('id'))];
  }
  if (tree) {
    const parentField = def.tree!.parentField;
    const parentOf = (req: FastifyRequest, lang: Lang): string => {
      const raw = (req.query as Record<string, unknown>).parentId;
      const given = typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : TREE_ROOT;
      // BladeX's regions name the root '00'
      const v = /^0+$/.test(given) ? TREE_ROOT : given;
      if (!isId(v)) throw badRequest('badId', { field: 'parentId' }, { parentId: msg('badId', lang, { field: 'parentId' }) });
      return v;
    };
    const nodesOf = async (tx: Executor, user: AuthUser, rows: Row[]): Promise<TreeNode[]> => {
      const parents = await tree!.withChildren(tx, visible(user), rows.map((r) => String(r.id)));
      return rows.map((r) => tree.node(r, parents.has(String(r.id))));
    };
    const treeQuery = z.object({ tenantId: z.string().max(12).optional(), parentId: z.string().max(20).optional() }).passthrough();

    app.get(`${def.path}/tree`, { ...withAliases,
      config: treeConfig,
      schema: { tags: [tag], summary: `${def.title.en}: the whole tree (nodes)`, querystring: treeQuery, docsOnly: { response: { 200: envelopeOf(z.array(TREE_NODE)) } } },
    }, async (req) => {
      const user = readTenant(req, requireUser(req));
      const visibleTo = await scoped(user);
      const nodes = await run(user, async (tx) => {
        const rows = await tx.select(rowColumns(table)).from(table).where(and(...(await visibleTo(tx)), hooks.treeFilter?.())).orderBy(...treeOrder()).limit(MAX_TREE_ROWS + 1) as Row[];
        if (rows.length > MAX_TREE_ROWS) throw badRequest('treeTooLarge');
        return nodesOf(tx, user, rows);
      });
      return ok(TreeRules.nest(nodes), req.lang);
    });

    app.get(`${def.path}/lazy-tree`, { ...withAliases,
      config: treeConfig,
      schema: { tags: [tag], summary: `${def.title.en}: the children of parentId (nodes, 0 for the roots)`, querystring: treeQuery, docsOnly: { response: { 200: envelopeOf(z.array(TREE_NODE)) } } },
    }, async (req) => {
      const user = readTenant(req, requireUser(req));
      const visibleTo = await scoped(user);
      const parentId = parentOf(req, req.lang);
      const nodes = await run(user, async (tx) => {
        const rows = await tx.select(rowColumns(table)).from(table).where(and(...(await visibleTo(tx)), tree.childrenOf(parentId), hooks.treeFilter?.()))
          .orderBy(...treeOrder()).limit(MAX_TREE_ROWS) as Row[];
        return nodesOf(tx, user, rows);
      });
      return ok(nodes, req.lang);
    });

    app.get(`${def.path}/lazy-list`, { ...withAliases,
      config: listConfig,
      schema: {
        tags: [tag], summary: `${def.title.en}: the children of parentId as records, with hasChildren (unpaged)`, querystring: listQuery,
        docsOnly: { response: { 200: envelopeOf(z.array(record.extend({ hasChildren: z.boolean() }))) } },
      },
    }, async (req) => {
      const user = readTenant(req, requireUser(req));
      const visibleTo = await scoped(user);
      const parentId = parentOf(req, req.lang);
      const { current: _c, size: _s, ascs, descs, ...rawFilters } = req.query as z.output<typeof listQuery>;
      const filters = Object.fromEntries(Object.entries(rawFilters).filter(([k]) => !RESERVED_TREE_KEYS.includes(k)));
      const built = buildFilters(def, columns, filters, req.lang);
      const searching = built.conditions.length > 0;
      const order = ascs || descs ? buildOrder(def, columns, ascs, descs, req.lang) : treeOrder();
      const rows = await run(user, async (tx) => {
        // a search looks through every level (BladeX), browsing shows one level
        const conds = [...(await visibleTo(tx)), ...built.conditions, ...(searching ? [] : [tree.childrenOf(parentId)])];
        const found = await tx.select(rowColumns(table)).from(table).where(and(...conds)).orderBy(...order).limit(MAX_TREE_ROWS) as Row[];
        const parents = await tree!.withChildren(tx, visible(user), found.map((r) => String(r.id)));
        for (const r of found) r.hasChildren = parents.has(String(r.id));
        await hooks.shown?.(tx, found, user);
        return found;
      });
      return ok(await present(rows, req.lang, user), req.lang);
    });

    app.get(`${def.path}/parent-list`, { ...withListAliases, config: listConfig, schema: { ...pageSchema, summary: `${def.title.en}: the roots (paged, filtered)` } },
      (req) => listPage(req, () => [tree.childrenOf(TREE_ROOT)], RESERVED_TREE_KEYS));
    app.get(`${def.path}/child-list`, { ...withListAliases, config: listConfig, schema: { ...pageSchema, summary: `${def.title.en}: the children of parentId (paged, filtered)` } },
      (req) => {
        const parentId = parentOf(req, req.lang);
        return listPage(req, () => [tree.childrenOf(parentId)], RESERVED_TREE_KEYS);
      });
    void parentField;
  }

  // ---- detail ----
  const fetchOne = async (tx: Executor, visibleTo: (tx: Executor) => Promise<SQL[]>, id: string): Promise<Row> => {
    const [row] = await tx.select(rowColumns(table)).from(table).where(and(eq(col('id'), id), ...(await visibleTo(tx))));
    if (!row) throw notFound();
    return row as Row;
  };
  app.get(paths.detail, { ...withAliases,
    config: { access: { permission: codes.menu, ...adminOnly }, fieldLabels: labels },
    schema: {
      tags: [tag], summary: `${def.title.en}: one record`,
      querystring: z.object({ id: z.string().trim().refine(isIdText) }).passthrough(),
      response: { 200: envelopeOf(record) },
    },
  }, async (req) => {
    const user = readTenant(req, requireUser(req));
    const { id } = req.query as { id: string };
    const visibleTo = await scoped(user);
    const row = await run(user, async (tx) => {
      const found = await fetchOne(tx, visibleTo, id);
      await hooks.shown?.(tx, [found], user);
      return found;
    });
    const [one] = await present([row], req.lang, user);
    return ok(one, req.lang);
  });

  // ---- submit ----
  const uploads = multipartSubmit(ctx, def, async (user, body) => {
    // a file is stored only for a caller who may save a record (the id may come after the file in the body)
    if (body.id !== undefined && body.id !== '') return requireCode(user, codes.edit);
    await requireCode(user, codes.add).catch(() => requireCode(user, codes.edit));
  });
  const fieldError = (name: string, text: string) => new AppError(400, 'validationFailed', { detail: text }, { [name]: text });
  const fromInput = (input: Row, mode: 'create' | 'update', lang: Lang): Row => {
    const values: Row = {};
    for (const [name, f] of Object.entries(def.fields)) {
      if (!(name in input)) continue;
      let v = input[name];
      if (v === undefined) continue;
      if (f.secret && (v === null || v === '' || v === SECRET_MASK)) {
        // the mask (or a blank) sent back by an edit form keeps the stored secret
        if (mode === 'create' && isRequired(f)) throw fieldError(name, typeof f.required === 'object' ? t(f.required, lang) : msg('required', lang, { field: t(f.label, lang) }));
        continue;
      }
      if (f.secret) {
        values[name] = secrets.seal(String(v));
        continue;
      }
      if (v === null || v === '') {
        if (mode === 'update' && isRequired(f)) {
          throw fieldError(name, typeof f.required === 'object' ? t(f.required, lang) : msg('required', lang, { field: t(f.label, lang) }));
        }
        if (f.writeOnly) continue; // an empty password on an edit keeps the stored one
        values[name] = def.tree?.parentField === name ? TREE_ROOT : null;
        continue;
      }
      if (f.type === 'datetime') v = parseDateTime(String(v));
      if (f.type === 'datetime' && v === null) throw fieldError(name, msg('badDate', lang, { field: t(f.label, lang) }));
      if (f.type === 'richtext' && typeof v === 'string') v = sanitizeHtml(v);
      if ((f.type === 'file' || f.type === 'image') && !isSafeLink(String(v))) throw fieldError(name, msg('linkUnsafe', lang, { field: t(f.label, lang) }));
      const range = (f.type === 'int' || f.type === 'number') ? fieldRange(columns[name], f) : undefined;
      if (range && typeof v === 'number' && (v < range.min || v > range.max)) {
        throw fieldError(name, msg('outOfRange', lang, { field: t(f.label, lang), min: range.min, max: range.max }));
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

  const checkImmutable = (stored: Row, values: Row, lang: Lang) => {
    for (const [name, f] of Object.entries(def.fields)) {
      if (!f.immutable || !(name in values)) continue;
      if (String(values[name] ?? '') !== String(stored[name] ?? '')) throw fieldError(name, msg('immutableField', lang, { field: t(f.label, lang) }));
      delete values[name];
    }
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

  /** a submit body checked against the definition (zod schema, then the field conversions); a 400 naming every bad field */
  const validateSubmit = (body: Row, mode: 'create' | 'update', lang: Lang): { input: Row; values: Row } => {
    const parsed = (mode === 'create' ? createSchema : updateSchema).safeParse(body);
    if (!parsed.success) {
      const fields = describeIssues(parsed.error.issues, lang, labels, body);
      throw new AppError(400, 'validationFailed', { detail: Object.values(fields).join('; ') }, fields);
    }
    const input = parsed.data as Row;
    const values = fromInput(input, mode, lang);
    const inspected = hooks.inspect?.(input, { mode, lang });
    if (inspected?.errors && Object.keys(inspected.errors).length) {
      throw new AppError(400, 'validationFailed', { detail: Object.values(inspected.errors).join('; ') }, inspected.errors);
    }
    return { input, values: { ...values, ...inspected?.values } };
  };

  /** a new row: the values, a fresh id, audit columns and (tenant data) the caller's tenant */
  const newRow = (values: Row, user: AuthUser, now: Date): Row => {
    const fresh: Row = {
      ...values,
      id: nextId(),
      createUser: user.userId,
      createDept: isId(user.deptId) ? user.deptId : null,
      createTime: now,
      updateUser: user.userId,
      updateTime: now,
      status: values.status ?? 1,
      isDeleted: 0,
    };
    if (tenantScoped) fresh.tenantId = user.tenantId;
    return fresh;
  };

  /** only the keys that are columns of the table reach the database (write-only fields are the hooks' to use) */
  const columnValues = (values: Row): Row => Object.fromEntries(Object.entries(values).filter(([k]) => Object.hasOwn(columns, k)));

  const submitOptions = { ...withAliases,
    config: { access: { permission: codes.menu, platformWrite: def.scope === 'platform', ...adminOnly }, fieldLabels: labels, title: `${def.title.zh}: submit` },
    schema: {
      tags: [tag],
      summary: `${def.title.en}: create (no id) or update (with id)${uploads.fields.length ? '; JSON, or multipart/form-data with the files beside the fields' : ''}`,
      description: `Needs ${codes.add} to create and ${codes.edit} to update.${uploads.fields.length
        ? ` A multipart body carries the fields as text parts and a file for ${uploads.fields.map(([n]) => n).join(', ')} (or as "file"/"image"); an update without a file keeps the stored one.`
        : ''}`,
      // a multipart body is read by the handler (the parser leaves none)
      body: uploads.fields.length ? z.record(z.string(), z.unknown()).optional() : z.record(z.string(), z.unknown()),
      response: { 200: envelopeOf(submitAnswer) },
    },
  };
  const submit = async (req: FastifyRequest, uploaded: UploadedFile[]) => {
    const user = requireUser(req);
    const body = uploads.fields.length && req.isMultipart() ? await uploads.read(req, user, uploaded) : (req.body ?? {}) as Row;
    const mode = body.id === undefined || body.id === null || body.id === '' ? 'create' : 'update';
    if (mode === 'update' && def.createOnly) throw new AppError(400, 'recordNotEditable');
    await requireCode(user, mode === 'create' ? codes.add : codes.edit);
    const { input, values } = validateSubmit(body, mode, req.lang);
    await checkDictValues(values, req.lang);
    const now = new Date();
    const pending: Array<() => Promise<void> | void> = [];
    const visibleTo = await scoped(user);
    const prepared = await hooks.prepare?.(values, { mode, user, lang: req.lang });
    const revealed: Row = {};
    const reveal = (values: Row) => {
      for (const [k, v] of Object.entries(values)) {
        if (!hooks.revealed?.[k]) throw new Error(`resource ${def.code}: ${k} is not declared in hooks.revealed`);
        revealed[k] = v;
      }
    };
    try {
      const saved = await run(user, async (tx) => {
        const base = { mode, user, lang: req.lang, prepared, ...afterCommitQueue(pending), reveal } as const;
        let row: Row;
        if (mode === 'create') {
          await checkUnique(tx, user, values, null, req.lang);
          await checkReferences(tx, ctx.resources, def, values, user, req.lang);
          const fresh = newRow(values, user, now);
          if (tree) await tree.onCreate(tx, visible(user), fresh, req.lang);
          const c: SaveContext = { ...base };
          await hooks.beforeSave?.(tx, fresh, c);
          const [inserted] = await tx.insert(table).values(columnValues(fresh) as never).returning();
          row = inserted as Row;
          await hooks.afterSave?.(tx, row, c);
        } else {
          const id = String(input.id);
          const stored = await fetchOne(tx, visibleTo, id);
          checkImmutable(stored, values, req.lang);
          await checkUnique(tx, user, values, id, req.lang);
          await checkReferences(tx, ctx.resources, def, values, user, req.lang);
          const changes: Row = { ...values, updateUser: user.userId, updateTime: now };
          const moveSubtree = tree ? await tree.onUpdate(tx, visible(user), stored, changes, req.lang) : undefined;
          const c: SaveContext = { ...base, stored };
          await hooks.beforeSave?.(tx, changes, c);
          const [updated] = await tx.update(table).set(columnValues(changes) as never).where(and(eq(col('id'), id), ...visible(user))).returning();
          if (!updated) throw notFound();
          await moveSubtree?.();
          row = updated as Row;
          await hooks.afterSave?.(tx, row, c);
        }
        return row;
      });
      for (const fn of pending) await fn();
      const [answer] = await present([saved], req.lang, user);
      return ok({ ...answer, ...revealed }, req.lang);
    } catch (e) {
      if (isUniqueViolation(e)) {
        const label = t(def.fields[nameField]?.label ?? { zh: nameField, en: nameField }, req.lang);
        const value = String(values[nameField] ?? '');
        throw conflict({ field: label, value }, { [nameField]: msg('duplicate', req.lang, { field: label, value }) });
      }
      throw e;
    }
  };
  if (!def.readOnly && uploads.fields.length) {
    void app.register(async (scoped) => {
      await scoped.register(multipart, { limits: uploads.limits });
      scoped.post(paths.submit, submitOptions, async (req) => {
        const uploaded: UploadedFile[] = [];
        try {
          return await submit(req, uploaded);
        } catch (e) {
          // a refused record keeps none of the files sent with it
          for (const file of uploaded) await ctx.uploads?.discard(requireUser(req), file).catch(() => undefined);
          throw e;
        }
      });
    });
  } else if (!def.readOnly) {
    app.post(paths.submit, submitOptions, (req) => submit(req, []));
  }

  // ---- remove ----
  if (removable) app.post(paths.remove, { ...withAliases,
    config: {
      access: { permission: codes.delete, platformWrite: def.scope === 'platform', ...adminOnly },
      fieldLabels: { ids: { zh: '编号', en: 'ids' } },
      title: `${def.title.zh}: remove`,
    },
    schema: {
      tags: [tag], summary: `${def.title.en}: delete (logically) by ids`,
      querystring: z.object({ ids: z.string().optional(), id: z.string().optional() }).passthrough(),
      body: idsBody,
      response: { 200: envelopeOf(z.boolean()) },
    },
  }, async (req) => {
    const user = requireUser(req);
    // `ids` as BladeX sends it; a single `id` as its region screen does
    const q = req.query as { ids?: string; id?: string };
    const ids = idsParam(q.ids ?? (req.body as { ids?: string } | undefined)?.ids ?? q.id, req.lang);
    const pending: Array<() => Promise<void> | void> = [];
    const visibleTo = await scoped(user);
    await run(user, async (tx) => {
      const scopedConds = await visibleTo(tx);
      const rows = await tx.select(rowColumns(table)).from(table).where(and(inArray(col('id'), ids), ...scopedConds)) as Row[];
      // all or nothing: an id that is unknown, deleted, another tenant's or out of scope aborts the whole call
      if (rows.length !== ids.length) throw notFound();
      if (tree) await tree.beforeRemove(tx, visible(user), ids, req.lang);
      await hooks.beforeRemove?.(tx, rows, { user, lang: req.lang, afterCommit: (fn) => pending.push(fn) });
      const removed = await tx
        .update(table)
        .set({ isDeleted: 1, updateUser: user.userId, updateTime: new Date() } as never)
        .where(and(inArray(col('id'), ids), ...scopedConds))
        .returning({ id: col('id') });
      if (removed.length !== ids.length) throw notFound();
      await hooks.afterRemove?.(tx, removed.map((r) => String(r.id)), user);
    });
    for (const fn of pending) await fn();
    return ok(true, req.lang);
  });

  const mounted: MountedResource = { def, table, columns, present };
  ctx.resources.add(mounted);

  // ---- xlsx export / import (io/), when the definition declares it: the engine's own rules, handed over ----
  if (def.io) {
    mountImportExport(app, ctx, mounted, {
      hooks, tree, labels, run, visible, visibleTo: visibleIn, readTenant, validateSubmit, newRow, columnValues,
      checkReferences: (tx, values, user, lang) => checkReferences(tx, ctx.resources, def, values, user, lang),
    });
  }
  return mounted;
}

/**
 * The permission codes that may read a resource's tree: its list's, and those of the resources whose fields
 * reference it (the user screen's form picks departments and roles from their trees).
 */
export function treeReaders(def: ResourceDef): string[] {
  const pickers = Object.values(resources as Record<string, ResourceDef>)
    .filter((other) => other.code !== def.code && Object.values(other.fields).some((f) => f.ref === def.code))
    .map((other) => permissionCodes(other).menu);
  return [...new Set([permissionCodes(def).menu, ...pickers])];
}
