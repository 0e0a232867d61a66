import { type DictItem } from '@console/contract';
import { dictItemSchema } from '@console/contract/areas/system/index';
import { and, asc, eq, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../core/context.js';
import { schema } from '../../core/db/index.js';
import { envelopeOf, ok } from '../../core/envelope.js';

export function registerDictRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/blade-system/dict/dictionary', {
    config: { access: { permission: null }, fieldLabels: { code: { zh: '字典编码', en: 'code' } } },
    schema: {
      tags: ['blade-system'],
      summary: 'The items of one dictionary, in order (labels in the caller\'s language)',
      querystring: z.object({ code: z.string().trim().min(1).max(100) }).passthrough(),
      docsOnly: { response: { 200: envelopeOf(z.array(dictItemSchema)) } },
    },
  }, async (req) => {
    const { code } = req.query as { code: string };
    const rows = await ctx.db.select().from(schema.dict)
      .where(and(eq(schema.dict.code, code), ne(schema.dict.parentId, '0'), eq(schema.dict.isDeleted, 0)))
      .orderBy(asc(schema.dict.sort), asc(schema.dict.id));
    const data: DictItem[] = rows.map((r) => ({
      id: r.id, code: r.code, dictKey: r.dictKey,
      dictValue: req.lang === 'en' && r.dictValueEn ? r.dictValueEn : r.dictValue, sort: r.sort, remark: r.remark ?? '',
    }));
    return ok(data, req.lang);
  });
}
