import { PLATFORM_TENANT } from '@console/contract';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { Permissions } from '../src/core/auth/permissions.js';
import { inTenant, schema } from '../src/core/db/index.js';
import { nextId } from '../src/core/ids.js';
import { memoryKv } from '../src/core/kv.js';
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

  it('the API scopes are read once and kept until a change (a query kept as such would be read again at every call)', async () => {
    const { ctx } = h.server;
    // an instance of its own, on an in-process channel: the test files running beside this one share Redis, and
    // their changes clear every instance's cache on it
    const permissions = new Permissions(ctx.db, memoryKv());
    await permissions.start();
    const path = '/api/permissions-cache-probe/call';
    expect(await permissions.apiAllowed('541742', ['1'], 'GET', path)).toBe(true);
    // a scope naming the call, granted to no one, written behind the cache's back: the kept answer stands
    const id = nextId();
    const [menu] = await inTenant(ctx.db, { tenantId: PLATFORM_TENANT, allTenants: true }, (tx) => tx.select({ id: schema.menu.id }).from(schema.menu).limit(1));
    await inTenant(ctx.db, { tenantId: PLATFORM_TENANT, allTenants: true }, (tx) => tx.insert(schema.scopeApi)
      .values({ id, menuId: menu!.id, resourceCode: `probe-${id}`, scopeName: 'probe', scopePath: path, scopeType: 2 }));
    try {
      expect(await permissions.apiAllowed('541742', ['1'], 'GET', path)).toBe(true);
      await permissions.invalidate();
      expect(await permissions.apiAllowed('541742', ['1'], 'GET', path)).toBe(false);
    } finally {
      await inTenant(ctx.db, { tenantId: PLATFORM_TENANT, allTenants: true }, (tx) => tx.delete(schema.scopeApi).where(eq(schema.scopeApi.id, id)));
      await ctx.permissions.invalidate();
    }
  });
});
