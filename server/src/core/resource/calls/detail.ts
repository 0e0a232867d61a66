import { isIdText } from '@console/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../../access.js';
import { envelopeOf, ok } from '../../envelope.js';
import { readTenant, runAs, scopeFor } from '../mount/access.js';
import type { ResourceMount } from '../mount/resourceMount.js';
import { fetchOne } from '../mount/rows.js';

/** one record the caller may see, by id */
async function detail(m: ResourceMount, req: FastifyRequest) {
  const user = readTenant(m, req, requireUser(req));
  const { id } = req.query as { id: string };
  const visibleTo = await scopeFor(m, user);
  const row = await runAs(m, user, async (tx) => {
    const found = await fetchOne(m, tx, visibleTo, id);
    await m.hooks.shown?.(tx, [found], user, req.lang);
    return found;
  });
  const [one] = await m.present([row], req.lang, user);
  return ok(one, req.lang);
}

export function mountDetail(app: FastifyInstance, m: ResourceMount): void {
  app.get(m.paths.detail, { ...m.routes.withAliases,
    config: { access: { permission: m.codes.menu, ...m.routes.adminOnly }, fieldLabels: m.labels },
    schema: {
      tags: [m.tag], summary: `${m.def.title.en}: one record`,
      querystring: z.object({ id: z.string().trim().refine(isIdText) }).passthrough(),
      response: { 200: envelopeOf(m.schemas.record) },
    },
  }, (req) => detail(m, req));
}
