import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { inTenant } from '../src/core/db/index.js';
import { useServer } from './harness.js';

/**
 * The permission caches under concurrency. On PGlite one connection serves every transaction: a load
 * started outside a transaction is queued behind the open one, so a caller inside that transaction must
 * never wait for it (the fuzz test stalled on exactly this, now and then, for minutes).
 */
const h = useServer();

describe('permission caches and open transactions', () => {
  it('a caller inside a transaction loads the package through it instead of waiting for a load queued behind it', async () => {
    const { ctx } = h.server;
    await ctx.permissions.invalidate();
    const { inside, outside } = await inTenant(ctx.db, { tenantId: '541742' }, async (tx) => {
      await tx.execute(sql`select 1`);
      const queued = ctx.permissions.packageMenus('541742');
      return { inside: await ctx.permissions.packageMenus('541742', tx), outside: queued };
    });
    expect(await outside).toEqual(inside);
  });

  it('the same for data scopes', async () => {
    const { ctx } = h.server;
    await ctx.permissions.invalidate();
    const { inside, outside } = await inTenant(ctx.db, { tenantId: '541742' }, async (tx) => {
      await tx.execute(sql`select 1`);
      const queued = ctx.permissions.dataScopes('541742', ['1'], 'notice');
      return { inside: await ctx.permissions.dataScopes('541742', ['1'], 'notice', tx), outside: queued };
    });
    expect(await outside).toEqual(inside);
  });
});
