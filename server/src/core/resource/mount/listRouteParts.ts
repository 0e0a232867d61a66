import { z } from 'zod';
import { envelopeOf, pageOf } from '../../envelope.js';
import type { FieldLabels } from '../../validation.js';

/** The list calls' query: paging, sort, and any field filter. */
function listQuerySchema() {
  return z
    .object({
      current: z.coerce.number().int().min(1).max(10_000_000).default(1),
      size: z.coerce.number().int().min(1).max(500).default(10),
      ascs: z.string().max(500).optional(),
      descs: z.string().max(500).optional(),
    })
    .catchall(z.union([z.string().max(1000), z.array(z.string())]));
}

export type ListQuery = ReturnType<typeof listQuerySchema>;

/** The route options the list calls (and the tree's record lists) share. */
export function listRouteParts(menu: string, tag: string, labels: FieldLabels, adminOnly: { platformAdmin?: true }, record: z.ZodObject) {
  const query = listQuerySchema();
  const config = {
    access: { permission: menu, ...adminOnly },
    fieldLabels: { current: { zh: '页码', en: 'current' }, size: { zh: '每页条数', en: 'size' }, ...labels },
  };
  const pageSchema = { tags: [tag], querystring: query, response: { 200: envelopeOf(pageOf(record)) } };
  return { query, config, pageSchema };
}

export type ListRouteParts = ReturnType<typeof listRouteParts>;
