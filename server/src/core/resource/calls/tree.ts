import { type FieldDef, type Lang, msg, permissionCodes, REGION_TREE, type ResourceDef, resources, TREE_NODE, type TreeNode } from '@console/contract';
import { and } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../../access.js';
import type { AuthUser } from '../../context.js';
import type { Executor } from '../../db/index.js';
import { rowColumns } from '../../db/columns.js';
import { envelopeOf, ok } from '../../envelope.js';
import { badRequest } from '../../errors.js';
import { isId } from '../../ids.js';
import { buildFilters, buildOrder } from '../filters.js';
import { readTenant, runAs, scopeFor, visible } from '../mount/access.js';
import type { ListQuery } from '../mount/listRouteParts.js';
import type { ResourceMount } from '../mount/resourceMount.js';
import { TREE_ROOT } from '../refs.js';
import { MAX_TREE_ROWS, TreeRules } from '../tree.js';
import { listPage, RESERVED_TREE_KEYS } from './list.js';
import { markParents, treeOrder } from './treeReads.js';

type Row = Record<string, unknown>;

/** Whether a field's value is picked from the tree of `code`: a reference to it, or a region path of the region tree. */
const picksFrom = (f: FieldDef, code: string) => f.ref === code || (f.regionPath === true && code === REGION_TREE);

/**
 * The permission codes that may read a resource's tree: its list's, and those of the resources whose fields
 * pick from it (the user screen's form picks departments and roles from their trees, the dispatch screen regions).
 */
export function treeReaders(def: ResourceDef): string[] {
  const pickers = Object.values(resources as Record<string, ResourceDef>)
    .filter((other) => other.code !== def.code && Object.values(other.fields).some((f) => picksFrom(f, def.code)))
    .map((other) => permissionCodes(other).menu);
  return [...new Set([permissionCodes(def).menu, ...pickers])];
}

/** the `parentId` asked for (the roots when absent) */
function parentOf(req: FastifyRequest, lang: Lang): string {
  const raw = (req.query as Record<string, unknown>).parentId;
  const given = typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : TREE_ROOT;
  // BladeX's regions name the root '00'
  const v = /^0+$/.test(given) ? TREE_ROOT : given;
  if (!isId(v)) throw badRequest('badId', { field: 'parentId' }, { parentId: msg('badId', lang, { field: 'parentId' }) });
  return v;
}

async function nodesOf(m: ResourceMount, tx: Executor, user: AuthUser, rows: Row[]): Promise<TreeNode[]> {
  const parents = await m.tree!.withChildren(tx, visible(m, user), rows.map((r) => String(r.id)));
  return rows.map((r) => m.tree!.node(r, parents.has(String(r.id))));
}

/** `tree`: the whole tree the caller sees, as nested nodes */
async function wholeTree(m: ResourceMount, req: FastifyRequest) {
  const user = readTenant(m, req, requireUser(req));
  const visibleTo = await scopeFor(m, user);
  const nodes = await runAs(m, user, async (tx) => {
    const rows = await tx.select(rowColumns(m.table)).from(m.table).where(and(...(await visibleTo(tx)), m.hooks.treeFilter?.())).orderBy(...treeOrder(m)).limit(MAX_TREE_ROWS + 1) as Row[];
    if (rows.length > MAX_TREE_ROWS) throw badRequest('treeTooLarge');
    return nodesOf(m, tx, user, rows);
  });
  return ok(TreeRules.nest(nodes), req.lang);
}

/** `lazy-tree`: the children of parentId, as nodes */
async function lazyTree(m: ResourceMount, req: FastifyRequest) {
  const user = readTenant(m, req, requireUser(req));
  const visibleTo = await scopeFor(m, user);
  const parentId = parentOf(req, req.lang);
  const nodes = await runAs(m, user, async (tx) => {
    const rows = await tx.select(rowColumns(m.table)).from(m.table).where(and(...(await visibleTo(tx)), m.tree!.childrenOf(parentId), m.hooks.treeFilter?.()))
      .orderBy(...treeOrder(m)).limit(MAX_TREE_ROWS) as Row[];
    return nodesOf(m, tx, user, rows);
  });
  return ok(nodes, req.lang);
}

/** `lazy-list`: the children of parentId as records (a search looks through every level) */
async function lazyList(m: ResourceMount, req: FastifyRequest) {
  const user = readTenant(m, req, requireUser(req));
  const visibleTo = await scopeFor(m, user);
  const parentId = parentOf(req, req.lang);
  const { current: _c, size: _s, ascs, descs, ...rawFilters } = req.query as z.output<ListQuery>;
  const filters = Object.fromEntries(Object.entries(rawFilters).filter(([k]) => !RESERVED_TREE_KEYS.includes(k)));
  const built = buildFilters(m.def, m.columns, filters, req.lang);
  const searching = built.conditions.length > 0;
  const order = ascs || descs ? buildOrder(m.def, m.columns, ascs, descs, req.lang) : treeOrder(m);
  const rows = await runAs(m, user, async (tx) => {
    // a search looks through every level (BladeX), browsing shows one level
    const conds = [...(await visibleTo(tx)), ...built.conditions, ...(searching ? [] : [m.tree!.childrenOf(parentId)])];
    const found = await tx.select(rowColumns(m.table)).from(m.table).where(and(...conds)).orderBy(...order).limit(MAX_TREE_ROWS) as Row[];
    await markParents(m, tx, user, found);
    await m.hooks.shown?.(tx, found, user, req.lang);
    return found;
  });
  return ok(await m.present(rows, req.lang, user), req.lang);
}

/** the tree calls of a tree resource: tree, lazy-tree, lazy-list, parent-list, child-list */
export function mountTree(app: FastifyInstance, m: ResourceMount): void {
  const { def, tag } = m;
  const tree = m.tree!;
  const { config: listConfig, query: listQuery, pageSchema } = m.routes.list;
  // a tree is read by the resource's own screen and by the screens whose forms pick from it (a ref field)
  const treeConfig = { access: { permission: treeReaders(def), ...m.routes.adminOnly } };
  const treeQuery = z.object({ tenantId: z.string().max(12).optional(), parentId: z.string().max(20).optional() }).passthrough();

  app.get(`${def.path}/tree`, { ...m.routes.withAliases,
    config: treeConfig,
    schema: { tags: [tag], summary: `${def.title.en}: the whole tree (nodes)`, querystring: treeQuery, docsOnly: { response: { 200: envelopeOf(z.array(TREE_NODE)) } } },
  }, (req) => wholeTree(m, req));

  app.get(`${def.path}/lazy-tree`, { ...m.routes.withAliases,
    config: treeConfig,
    schema: { tags: [tag], summary: `${def.title.en}: the children of parentId (nodes, 0 for the roots)`, querystring: treeQuery, docsOnly: { response: { 200: envelopeOf(z.array(TREE_NODE)) } } },
  }, (req) => lazyTree(m, req));

  app.get(`${def.path}/lazy-list`, { ...m.routes.withAliases,
    config: listConfig,
    schema: {
      tags: [tag], summary: `${def.title.en}: the children of parentId as records, with hasChildren (unpaged)`, querystring: listQuery,
      docsOnly: { response: { 200: envelopeOf(z.array(m.schemas.record.extend({ hasChildren: z.boolean() }))) } },
    },
  }, (req) => lazyList(m, req));

  app.get(`${def.path}/parent-list`, { ...m.routes.withListAliases, config: listConfig, schema: { ...pageSchema, summary: `${def.title.en}: the roots (paged, filtered)` } },
    (req) => listPage(m, req, () => [tree.childrenOf(TREE_ROOT)], RESERVED_TREE_KEYS));
  app.get(`${def.path}/child-list`, { ...m.routes.withListAliases, config: listConfig, schema: { ...pageSchema, summary: `${def.title.en}: the children of parentId (paged, filtered)` } },
    (req) => {
      const parentId = parentOf(req, req.lang);
      return listPage(m, req, () => [tree.childrenOf(parentId)], RESERVED_TREE_KEYS);
    });
}
