import { and, inArray, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../../access.js';
import type { AuthUser } from '../../context.js';
import type { Executor } from '../../db/index.js';
import { rowColumns } from '../../db/columns.js';
import { envelopeOf, ok } from '../../envelope.js';
import { notFound } from '../../errors.js';
import { idsParam } from '../../idList.js';
import type { RemoveContext } from '../hooks.js';
import { runAs, scopeFor, visible } from '../mount/access.js';
import type { ResourceMount } from '../mount/resourceMount.js';

type Row = Record<string, unknown>;

const idsBody = z.object({ ids: z.string().optional() }).passthrough().nullish();

/** soft-deletes the rows of `ids`, all or none: an id that is unknown, deleted, another tenant's or out of scope aborts the whole call */
async function softDelete(m: ResourceMount, tx: Executor, user: AuthUser, ids: string[], c: RemoveContext, scopedConds: SQL[]) {
  const rows = await tx.select(rowColumns(m.table)).from(m.table).where(and(inArray(m.col('id'), ids), ...scopedConds)) as Row[];
  if (rows.length !== ids.length) throw notFound();
  if (m.tree) await m.tree.beforeRemove(tx, visible(m, user), ids, c.lang);
  await m.hooks.beforeRemove?.(tx, rows, c);
  const removed = await tx
    .update(m.table)
    .set({ isDeleted: 1, updateUser: user.userId, updateTime: new Date() } as never)
    .where(and(inArray(m.col('id'), ids), ...scopedConds))
    .returning({ id: m.col('id') });
  if (removed.length !== ids.length) throw notFound();
  await m.hooks.afterRemove?.(tx, removed.map((r) => String(r.id)), user);
}

async function remove(m: ResourceMount, req: FastifyRequest) {
  const user = requireUser(req);
  // `ids` as BladeX sends it; a single `id` as its region screen does
  const q = req.query as { ids?: string; id?: string };
  const ids = idsParam(q.ids ?? (req.body as { ids?: string } | undefined)?.ids ?? q.id, req.lang);
  const pending: Array<() => Promise<void> | void> = [];
  const visibleTo = await scopeFor(m, user);
  await runAs(m, user, async (tx) => {
    const scopedConds = await visibleTo(tx);
    await softDelete(m, tx, user, ids, { user, lang: req.lang, afterCommit: (fn) => pending.push(fn) }, scopedConds);
  });
  for (const fn of pending) await fn();
  return ok(true, req.lang);
}

/** `remove` (logical delete by ids), for a resource whose records may be removed */
export function mountRemove(app: FastifyInstance, m: ResourceMount): void {
  const { def, codes } = m;
  app.post(m.paths.remove, { ...m.routes.withAliases,
    config: {
      access: { permission: codes.delete, platformWrite: def.scope === 'platform', ...m.routes.adminOnly },
      fieldLabels: { ids: { zh: '编号', en: 'ids' } },
      title: `${def.title.zh}: remove`,
    },
    schema: {
      tags: [m.tag], summary: `${def.title.en}: delete (logically) by ids`,
      querystring: z.object({ ids: z.string().optional(), id: z.string().optional() }).passthrough(),
      body: idsBody,
      response: { 200: envelopeOf(z.boolean()) },
    },
  }, (req) => remove(m, req));
}
