import { removeImpactPath, type RemoveImpact, rowMeets } from '@console/contract';
import { and, inArray, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../../access.js';
import { logTitle } from '../../logs.js';
import type { AuthUser } from '../../context.js';
import type { Executor } from '../../db/index.js';
import { rowColumns } from '../../db/columns.js';
import { envelopeOf, ok } from '../../envelope.js';
import { AppError, notFound } from '../../errors.js';
import { idsParam } from '../../idList.js';
import type { RemoveContext } from '../hooks.js';
import { runAs, scopeFor, visible } from '../mount/access.js';
import type { ResourceMount } from '../mount/resourceMount.js';
import { describeImpact, refuseIfUsed, release, type Use, usesOf } from '../removeImpact.js';

type Row = Record<string, unknown>;

const idsBody = z.object({ ids: z.string().optional() }).passthrough().nullish();

/** the rows of `ids` the caller may remove: an id that is unknown, deleted, another tenant's or out of scope is a 404 */
async function removableRows(m: ResourceMount, tx: Executor, ids: string[], scopedConds: SQL[]): Promise<Row[]> {
  const rows = await tx.select(rowColumns(m.table)).from(m.table).where(and(inArray(m.col('id'), ids), ...scopedConds)) as Row[];
  if (rows.length !== ids.length) throw notFound();
  return rows;
}

/**
 * the resource's own rules: a tree node with children, or its `beforeRemove`, refuses; then a row outside the
 * states the definition offers 删除 on (`rowButtons.delete`) is refused all the same (the hook says why first)
 */
async function ownRules(m: ResourceMount, tx: Executor, user: AuthUser, rows: Row[], c: RemoveContext): Promise<void> {
  if (m.tree) await m.tree.beforeRemove(tx, visible(m, user), rows.map((r) => String(r.id)), c.lang);
  await m.hooks.beforeRemove?.(tx, rows, c);
  const when = m.def.rowButtons?.delete;
  const held = rows.find((r) => !rowMeets(when, r));
  if (when && held) throw new AppError(400, 'rowStateNotRemovable', { name: String(held[m.nameField] ?? held.id), state: String(held[when.field] ?? '') });
}

/**
 * The resource's own rules (first: they say more, a batch's burned device by its SN), then what uses the rows
 * (docs/decisions.md, "No delete orphans anything"): a live row using one of them refuses; else answers the uses
 * that cascade or detach
 */
async function checkRemove(m: ResourceMount, tx: Executor, user: AuthUser, rows: Row[], c: RemoveContext): Promise<Use[]> {
  await ownRules(m, tx, user, rows, c);
  return refuseIfUsed(tx, m.ctx.resources, m.def.code, rows, m.nameField, user);
}

/** soft-deletes the rows of `ids`, all or none, with what cascades from them */
async function softDelete(m: ResourceMount, tx: Executor, user: AuthUser, ids: string[], c: RemoveContext, scopedConds: SQL[]) {
  const rows = await removableRows(m, tx, ids, scopedConds);
  const uses = await checkRemove(m, tx, user, rows, c);
  await release(tx, uses, ids, user);
  const removed = await tx
    .update(m.table)
    .set({ isDeleted: 1, updateUser: user.userId, updateTime: new Date() } as never)
    .where(and(inArray(m.col('id'), ids), ...scopedConds))
    .returning({ id: m.col('id') });
  if (removed.length !== ids.length) throw notFound();
  await m.hooks.afterRemove?.(tx, removed.map((r) => String(r.id)), user);
}

function idsOf(req: FastifyRequest): string[] {
  // `ids` as BladeX sends it; a single `id` as its region screen does
  const q = req.query as { ids?: string; id?: string };
  return idsParam(q.ids ?? (req.body as { ids?: string } | undefined)?.ids ?? q.id, req.lang);
}

async function remove(m: ResourceMount, req: FastifyRequest) {
  const user = requireUser(req);
  const ids = idsOf(req);
  const pending: Array<() => Promise<void> | void> = [];
  const visibleTo = await scopeFor(m, user);
  await runAs(m, user, async (tx) => {
    const scopedConds = await visibleTo(tx);
    await softDelete(m, tx, user, ids, { user, lang: req.lang, afterCommit: (fn) => pending.push(fn) }, scopedConds);
  });
  for (const fn of pending) await fn();
  return ok(true, req.lang);
}

/** thrown to roll the preview's transaction back: its checks may write (a hook clearing a role's grants) */
class PreviewDone extends Error {
  constructor(readonly impact: RemoveImpact) {
    super('preview');
  }
}

/** what `remove` would do with `ids`, without doing it: the same checks in a transaction that is rolled back */
async function removeImpact(m: ResourceMount, req: FastifyRequest) {
  const user = requireUser(req);
  const ids = idsOf(req);
  const visibleTo = await scopeFor(m, user);
  try {
    await runAs(m, user, async (tx) => {
      const rows = await removableRows(m, tx, ids, await visibleTo(tx));
      let impact: RemoveImpact;
      try {
        await ownRules(m, tx, user, rows, { user, lang: req.lang, afterCommit: () => undefined });
        impact = describeImpact(await usesOf(tx, m.ctx.resources, m.def.code, ids, user), rows, m.nameField, req.lang);
      } catch (e) {
        if (!(e instanceof AppError) || e.code === 404) throw e;
        impact = { refused: true, message: e.message_(req.lang), uses: [] };
      }
      throw new PreviewDone(impact);
    });
  } catch (e) {
    if (e instanceof PreviewDone) return ok(e.impact, req.lang);
    throw e;
  }
  throw new Error('unreachable: the preview always rolls back');
}

const impactSchema = z.object({
  refused: z.boolean(),
  message: z.string(),
  uses: z.array(z.object({ resource: z.string(), policy: z.enum(['refuse', 'cascade', 'detach', 'keep']), count: z.number().int(), names: z.array(z.string()) })),
});

/** `remove` (logical delete by ids) and its preview `<remove>-impact`, for a resource whose records may be removed */
export function mountRemove(app: FastifyInstance, m: ResourceMount): void {
  const { def, codes } = m;
  const access = { permission: codes.delete, platformWrite: def.scope === 'platform', ...m.routes.adminOnly };
  const fieldLabels = { ids: { zh: '编号', en: 'ids' } };
  app.post(m.paths.remove, { ...m.routes.withAliases,
    config: { access, fieldLabels, title: logTitle('logTitleRemove', def.title) },
    schema: {
      tags: [m.tag], summary: `${def.title.en}: delete (logically) by ids; refused (409) while a live record uses one of them`,
      querystring: z.object({ ids: z.string().optional(), id: z.string().optional() }).passthrough(),
      body: idsBody,
      response: { 200: envelopeOf(z.boolean()) },
    },
  }, (req) => remove(m, req));
  app.get(removeImpactPath(def), { ...m.routes.withAliases,
    config: { access, fieldLabels, title: logTitle('logTitleRemoveImpact', def.title) },
    schema: {
      tags: [m.tag], summary: `${def.title.en}: what deleting these ids would do (refused, or what goes with them), changing nothing`,
      querystring: z.object({ ids: z.string().optional(), id: z.string().optional() }).passthrough(),
      response: { 200: envelopeOf(impactSchema) },
    },
  }, (req) => removeImpact(m, req));
}
