import type { FastifyRequest } from 'fastify';

export type AliasRenaming = { preValidation?: (req: FastifyRequest) => Promise<void> };

/** Route options renaming a query's alias keys (alias → key) before validation; none without aliases. */
export function aliasRenaming(aliases: Array<[string, string]>): AliasRenaming {
  return aliases.length
    ? {
      preValidation: async (req: FastifyRequest) => {
        const q = req.query as Record<string, unknown>;
        for (const [alias, key] of aliases) if (q[alias] !== undefined && q[key] === undefined) q[key] = q[alias];
        for (const [alias] of aliases) delete q[alias];
      },
    }
    : {};
}
