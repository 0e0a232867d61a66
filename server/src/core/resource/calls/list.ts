import { and, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../../access.js';
import type { AuthUser } from '../../context.js';
import type { Executor } from '../../db/index.js';
import { rowColumns } from '../../db/columns.js';
import { envelopeOf, ok } from '../../envelope.js';
import { badRequest } from '../../errors.js';
import { scopeList } from '../count.js';
import { buildFilters, buildOrder, unindexed } from '../filters.js';
import { readTenant, runAs, scopeFor } from '../mount/access.js';
import type { ListQuery } from '../mount/listRouteParts.js';
import type { ResourceMount } from '../mount/resourceMount.js';
import { TREE_ROOT } from '../refs.js';
import { MAX_TREE_ROWS, TreeRules } from '../tree.js';
import { markParents, treeOrder } from './treeReads.js';

type Row = Record<string, unknown>;
type Lane = <T>(fn: () => Promise<T>) => Promise<T>;

/** query keys of the tree calls that are no filters */
export const RESERVED_TREE_KEYS = ['tenantId', 'parentId'];

/** the list's query split into paging, sort, the fields' filters and the resource's own parameters (`listParams`) */
function listFilters(m: ResourceMount, q: z.output<ListQuery>, reserved: string[]) {
  const { current, size, ascs, descs, ...rawFilters } = q;
  const params = m.hooks.listParams ?? {};
  const tenantIdIsField = !m.tenantScoped && Object.hasOwn(m.def.fields, 'tenantId');
  // `tenantId` chose the tenant read (readTenant), it is no filter, unless it is a field of platform data (the tenants' own codes)
  const filters = Object.fromEntries(Object.entries(rawFilters).filter(([k]) => (k !== 'tenantId' || tenantIdIsField) && !reserved.includes(k) && !Object.hasOwn(params, k)));
  const paramValues = Object.entries(params).flatMap(([k, fn]) => {
    const v = rawFilters[k];
    return typeof v === 'string' && v.trim() !== '' ? [[fn, v.trim()] as const] : [];
  });
  return { current, size, ascs, descs, filters, paramValues };
}

/** one page of the caller's rows matching the query's filters, plus `extra` conditions */
export async function listPage(m: ResourceMount, req: FastifyRequest, extra: (user: AuthUser) => SQL[] = () => [], reserved: string[] = []) {
  const caller = requireUser(req);
  const user = readTenant(m, req, caller);
  const visibleTo = await scopeFor(m, user);
  const { current, size, ascs, descs, filters, paramValues } = listFilters(m, req.query as z.output<ListQuery>, reserved);
  const built = buildFilters(m.def, m.columns, filters, req.lang);
  const order = buildOrder(m.def, m.columns, ascs, descs, req.lang);
  const offset = (current - 1) * size;
  // a substring filter on a column without grams (not searchable in the console) has no index: it waits
  // for one of few places, so such searches never hold every connection
  const lane: Lane = unindexed(built) ? (fn) => m.ctx.heavyQueries.run(fn) : (fn) => fn();
  const { rows, total, exact } = await lane(() => runAs(m, user, async (tx) => {
    const base = [...(await visibleTo(tx)), ...extra(user)];
    for (const [fn, v] of paramValues) base.push(await fn(tx, user, v, req.lang));
    // the text match (app_text_match) reads live rows by is_deleted: tables without it filter plainly
    const scope = await scopeList(tx, m.table, m.col('id'), base, built, m.ctx.config.listCount, m.tenantScoped && m.softDeleted);
    const rows = !scope.exact || scope.total > offset
      ? await tx.select(rowColumns(m.table)).from(m.table).where(scope.where).orderBy(...order).limit(size).offset(offset) as Row[]
      : [];
    if (m.tree) await markParents(m, tx, user, rows);
    await m.hooks.shown?.(tx, rows, user, req.lang);
    return { rows, total: scope.total, exact: scope.exact };
  }));
  const records = await m.present(rows, req.lang, user);
  return ok({ records, total, size, current, pages: Math.ceil(total / size), totalExact: exact }, req.lang);
}

/** the rows of a tree resource's list matching the query's filters, at most MAX_TREE_ROWS */
async function matchingTreeRows(m: ResourceMount, req: FastifyRequest, user: AuthUser, visibleTo: (tx: Executor) => Promise<SQL[]>): Promise<Row[]> {
  const { current: _c, size: _s, ascs, descs, ...rawFilters } = req.query as z.output<ListQuery>;
  const filters = Object.fromEntries(Object.entries(rawFilters).filter(([k]) => !RESERVED_TREE_KEYS.includes(k)));
  const built = buildFilters(m.def, m.columns, filters, req.lang);
  const order = ascs || descs ? buildOrder(m.def, m.columns, ascs, descs, req.lang) : treeOrder(m);
  return runAs(m, user, async (tx) => {
    const found = await tx.select(rowColumns(m.table)).from(m.table).where(and(...(await visibleTo(tx)), ...built.conditions)).orderBy(...order).limit(MAX_TREE_ROWS + 1) as Row[];
    if (found.length > MAX_TREE_ROWS) throw badRequest('treeTooLarge');
    await markParents(m, tx, user, found);
    await m.hooks.shown?.(tx, found, user, req.lang);
    return found;
  });
}

/** BladeX answers the list of a tree resource as the whole matching tree, unpaged */
async function unpagedTree(m: ResourceMount, req: FastifyRequest) {
  const user = readTenant(m, req, requireUser(req));
  const visibleTo = await scopeFor(m, user);
  const rows = await matchingTreeRows(m, req, user, visibleTo);
  const records = await m.present(rows, req.lang, user);
  const field = m.def.tree!.parentField;
  return ok(TreeRules.nest(records.map((r) => ({ ...r, id: String(r.id), parentId: String(r[field] ?? TREE_ROOT) }))), req.lang);
}

/** `list` (and the hooks' `listAliases`): a page of records, or for some trees the whole matching tree */
export function mountList(app: FastifyInstance, m: ResourceMount): void {
  const { def, paths, tag } = m;
  const { query, config, pageSchema } = m.routes.list;
  if (def.tree?.unpagedList) {
    app.get(paths.list, { ...m.routes.withListAliases,
      config,
      schema: { tags: [tag], summary: `${def.title.en}: the matching rows as a tree (unpaged)`, querystring: query, response: { 200: envelopeOf(z.array(z.unknown())) } },
    }, (req) => unpagedTree(m, req));
  } else {
    for (const path of [paths.list, ...(m.hooks.listAliases ?? []).map((alias) => `${def.path}/${alias}`)]) {
      app.get(path, { ...m.routes.withListAliases, config, schema: { ...pageSchema, summary: `${def.title.en}: ${path.slice(def.path.length + 1)} (paged, filtered)` } }, (req) => listPage(m, req));
    }
  }
}
