import { and, getTableName, inArray, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../../access.js';
import type { AuthUser } from '../../context.js';
import type { Executor } from '../../db/index.js';
import { rowColumns } from '../../db/columns.js';
import { envelopeOf, ok } from '../../envelope.js';
import { badRequest } from '../../errors.js';
import { scopeList } from '../count.js';
import { buildFilters, buildOrder, orderBy, type SortKeys, sortKeys, unindexed } from '../filters.js';
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

/** from this offset on, a page's ids are found first (an index-only walk of the rows skipped), then its rows read */
const DEEP_OFFSET = 1000;

/**
 * a filter whose matches the planner estimates at most this many (past the exact count's bound) is read the
 * few-matches way too: sorting 25,000 rows' keys costs less than walking the sort's index past rows the filter
 * drops (a week of payments, 15,000 of 1,000,000 orders: 142,000 rows walked, 46 ms)
 */
const FEW_ESTIMATED = 25_000;

/** a limit that limits nothing: a subquery with a limit is planned apart from the query around it */
const FENCE = 2 ** 31 - 1;

interface PageQuery {
  where: SQL | undefined;
  sort: SortKeys;
  size: number;
  offset: number;
  /** the filters match few rows (counted exactly, or estimated at most FEW_ESTIMATED) */
  fewMatches: boolean;
}

/**
 * One page, in a plan whose cost is bounded:
 * - Few matches of a filter: their ids and sort columns are all read, in the filter's own plan (fenced: a
 *   subquery with a limit), and sorted. Left to itself, the planner walks the sort's index and filters each row
 *   when it believes the matches spread evenly over that order, which reads the whole table when they do not
 *   (the first 6 characters of an SN, 10,000 of 1,000,000 warnings: 36 ms walking, 9 ms sorting).
 * - A deep page: its ids first (an index-only walk of the rows skipped), then its rows, instead of reading every
 *   skipped row (page 10,000 of 1,000,000 warnings: 186 ms → 39 ms).
 * Either way the page's rows are read by id. The subqueries are named as the table, so the columns the page
 * selects and sorts by name theirs.
 */
async function pageRows(tx: Executor, m: ResourceMount, q: PageQuery): Promise<Row[]> {
  const columns = rowColumns(m.table);
  const id = m.col('id');
  const order = orderBy(q.sort);
  const name = getTableName(m.table);
  let ids;
  if (q.fewMatches) {
    const keys = Object.fromEntries([id, ...q.sort.map((k) => k.column)].map((c) => [c.name, c]));
    const matches = tx.select(keys).from(m.table).where(q.where).limit(FENCE).as(name);
    ids = tx.select({ id }).from(matches).orderBy(...order).limit(q.size).offset(q.offset);
  } else if (q.offset >= DEEP_OFFSET) {
    ids = tx.select({ id }).from(m.table).where(q.where).orderBy(...order).limit(q.size).offset(q.offset);
  } else {
    return await tx.select(columns).from(m.table).where(q.where).orderBy(...order).limit(q.size).offset(q.offset) as Row[];
  }
  return await tx.select(columns).from(m.table).where(and(q.where, inArray(id, ids))).orderBy(...order) as Row[];
}

/** one page of the caller's rows matching the query's filters, plus `extra` conditions */
export async function listPage(m: ResourceMount, req: FastifyRequest, extra: (user: AuthUser) => SQL[] = () => [], reserved: string[] = []) {
  const caller = requireUser(req);
  const user = readTenant(m, req, caller);
  const visibleTo = await scopeFor(m, user);
  const { current, size, ascs, descs, filters, paramValues } = listFilters(m, req.query as z.output<ListQuery>, reserved);
  const built = buildFilters(m.def, m.columns, filters, req.lang);
  const sort = sortKeys(m.def, m.columns, ascs, descs, req.lang);
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
      ? await pageRows(tx, m, { where: scope.where, sort, size, offset, fewMatches: built.conditions.length > 0 && (scope.exact || scope.total <= FEW_ESTIMATED) })
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
