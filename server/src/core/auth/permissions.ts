import { and, eq, inArray } from 'drizzle-orm';
import { type Db, inTenant, schema } from '../db/index.js';
import type { Kv } from '../kv.js';

const CHANNEL = 'permissions-changed';

/**
 * The menu and button codes granted to a set of roles. Cached per role set; any change to grants or
 * menus calls invalidate(), which clears the cache on every instance (after the change committed).
 */
export class Permissions {
  private readonly cache = new Map<string, Promise<ReadonlySet<string>>>();
  /** answers derived from menus and grants (a role set's menu tree, buttons, top menus) */
  private readonly derived = new Map<string, Promise<unknown>>();

  constructor(private readonly db: Db, private readonly kv: Kv) {}

  async start(): Promise<void> {
    await this.kv.subscribe(CHANNEL, () => this.clearLocal());
  }

  private clearLocal(): void {
    this.cache.clear();
    this.derived.clear();
  }

  /**
   * An answer computed from menus, top menus and grants only, cached until the next invalidate() (on
   * every instance). `key` must name everything the answer depends on besides those tables.
   */
  memo<T>(key: string, load: () => Promise<T>): Promise<T> {
    let hit = this.derived.get(key) as Promise<T> | undefined;
    if (!hit) {
      if (this.derived.size > 10_000) this.derived.clear();
      hit = load();
      hit.catch(() => this.derived.delete(key));
      this.derived.set(key, hit);
    }
    return hit;
  }

  codes(tenantId: string, roleIds: readonly string[]): Promise<ReadonlySet<string>> {
    const key = `${tenantId}:${[...roleIds].sort().join(',')}`;
    let hit = this.cache.get(key);
    if (!hit) {
      hit = this.load(tenantId, roleIds);
      hit.catch(() => this.cache.delete(key));
      this.cache.set(key, hit);
    }
    return hit;
  }

  private async load(tenantId: string, roleIds: readonly string[]): Promise<ReadonlySet<string>> {
    if (roleIds.length === 0) return new Set();
    const rows = await inTenant(this.db, { tenantId }, (tx) =>
      tx
        .selectDistinct({ code: schema.menu.code })
        .from(schema.roleMenu)
        .innerJoin(schema.role, eq(schema.role.id, schema.roleMenu.roleId))
        .innerJoin(schema.menu, eq(schema.menu.id, schema.roleMenu.menuId))
        .where(and(inArray(schema.roleMenu.roleId, [...roleIds]), eq(schema.role.isDeleted, 0), eq(schema.menu.isDeleted, 0))),
    );
    return new Set(rows.map((r) => r.code));
  }

  async invalidate(): Promise<void> {
    this.clearLocal();
    await this.kv.publish(CHANNEL, String(Date.now()));
  }
}
