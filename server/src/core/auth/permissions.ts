import { PLATFORM_TENANT } from '@console/contract';
import { and, eq, inArray } from 'drizzle-orm';
import { splitList } from '../ids.js';
import { type Db, type Executor, inTenant, schema } from '../db/index.js';
import type { Kv } from '../kv.js';

const CHANNEL = 'permissions-changed';

/** A data scope rule: 1 all, 2 own rows, 3 own department, 4 own department and below, 5 the departments listed. */
export interface DataScopeRule {
  column: string;
  type: number;
  value: string;
}

const API_METHODS: Record<number, string | null> = { 1: null, 2: 'GET', 3: 'POST', 4: 'PUT', 5: 'DELETE' };

/** An API scope's path names a call exactly, or every call under a prefix ending in `*`. */
export function apiScopeMatches(scope: { path: string; type: number }, method: string, path: string): boolean {
  const wanted = API_METHODS[scope.type] ?? null;
  if (wanted && wanted !== method.toUpperCase()) return false;
  const bare = path.split('?')[0]!;
  return scope.path.endsWith('*') ? bare.startsWith(scope.path.slice(0, -1)) : bare === scope.path;
}

/**
 * The menu and button codes granted to a set of roles. Cached per role set; any change to grants or
 * menus calls invalidate(), which clears the cache on every instance (after the change committed).
 */
export class Permissions {
  private readonly cache = new Map<string, Promise<ReadonlySet<string>>>();
  /** answers derived from menus and grants (a role set's menu tree, buttons, top menus) */
  private readonly derived = new Map<string, { promise: Promise<unknown>; done: boolean }>();
  private readonly signedInRoutes: Array<{ method: string; url: string }> = [];

  constructor(private readonly db: Db, private readonly kv: Kv) {}

  async start(): Promise<void> {
    await this.kv.subscribe(CHANNEL, () => this.clearLocal(), () => this.clearLocal());
  }

  private clearLocal(): void {
    this.cache.clear();
    this.derived.clear();
  }

  /**
   * An answer computed from menus, top menus and grants only, cached until the next invalidate() (on
   * every instance). `key` must name everything the answer depends on besides those tables.
   */
  memo<T>(key: string, load: () => Promise<T>, within?: Executor): Promise<T> {
    const hit = this.derived.get(key);
    if (hit && (hit.done || !within)) return hit.promise as Promise<T>;
    // A caller inside a transaction never waits for a load running elsewhere: on PGlite (one connection)
    // that load may be queued behind this very transaction, and both would wait forever. It loads
    // through its own transaction instead.
    if (hit) return load();
    if (this.derived.size > 10_000) this.derived.clear();
    // a promise of the answer, not the loader's thenable: a drizzle query runs again at each `then`
    const entry = { promise: Promise.resolve(load()) as Promise<unknown>, done: false };
    entry.promise.then(() => { entry.done = true; }, () => { if (this.derived.get(key) === entry) this.derived.delete(key); });
    this.derived.set(key, entry);
    return entry.promise as Promise<T>;
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
    const allowed = await this.packageMenus(tenantId);
    const rows = await inTenant(this.db, { tenantId }, (tx) =>
      tx
        .selectDistinct({ id: schema.menu.id, code: schema.menu.code })
        .from(schema.roleMenu)
        .innerJoin(schema.role, eq(schema.role.id, schema.roleMenu.roleId))
        .innerJoin(schema.menu, eq(schema.menu.id, schema.roleMenu.menuId))
        .where(and(eq(schema.role.tenantId, tenantId), inArray(schema.roleMenu.roleId, [...roleIds]), eq(schema.role.isDeleted, 0), eq(schema.menu.isDeleted, 0))),
    );
    return new Set(rows.filter((r) => !allowed || allowed.has(r.id)).map((r) => r.code));
  }

  /**
   * The menus a tenant's package allows, with their ancestors, or null when nothing limits the tenant (the
   * platform, or a tenant without a package). A tenant's roles never hold, nor see, a menu outside it.
   */
  packageMenus(tenantId: string, db: Executor = this.db): Promise<ReadonlySet<string> | null> {
    if (tenantId === PLATFORM_TENANT) return Promise.resolve(null);
    return this.memo(`package:${tenantId}`, async () => {
      const [row] = await db.select({ menuId: schema.tenantPackage.menuId })
        .from(schema.tenant)
        .innerJoin(schema.tenantPackage, and(eq(schema.tenantPackage.id, schema.tenant.packageId), eq(schema.tenantPackage.isDeleted, 0)))
        .where(and(eq(schema.tenant.tenantId, tenantId), eq(schema.tenant.isDeleted, 0)));
      if (!row) return null;
      const menus = await db.select({ id: schema.menu.id, parentId: schema.menu.parentId }).from(schema.menu).where(eq(schema.menu.isDeleted, 0));
      const parent = new Map(menus.map((m) => [m.id, m.parentId]));
      const out = new Set<string>();
      for (const id of splitList(row.menuId)) {
        for (let cur: string | undefined = id; cur && parent.has(cur) && !out.has(cur); cur = parent.get(cur)) out.add(cur);
      }
      return out;
    }, db === this.db ? undefined : db);
  }

  /** The data scopes granted to a role set on a menu (by code): the server applies them to that menu's lists. */
  dataScopes(tenantId: string, roleIds: readonly string[], menuCode: string, within?: Executor): Promise<DataScopeRule[]> {
    if (roleIds.length === 0) return Promise.resolve([]);
    return this.memo(`data-scope:${tenantId}:${[...roleIds].sort().join(',')}:${menuCode}`, async () => {
      // read through a transaction already open (PGlite has one connection), or in one of its own
      const read = <T>(fn: (tx: Executor) => Promise<T>) => (within ? fn(within) : inTenant(this.db, { tenantId }, fn));
      const rows = await read((tx) => tx
        .selectDistinct({ id: schema.scopeData.id, column: schema.scopeData.scopeColumn, type: schema.scopeData.scopeType, value: schema.scopeData.scopeValue })
        .from(schema.roleScope)
        .innerJoin(schema.scopeData, and(eq(schema.scopeData.id, schema.roleScope.scopeId), eq(schema.scopeData.isDeleted, 0)))
        .innerJoin(schema.menu, and(eq(schema.menu.id, schema.scopeData.menuId), eq(schema.menu.isDeleted, 0)))
        .innerJoin(schema.role, and(eq(schema.role.id, schema.roleScope.roleId), eq(schema.role.isDeleted, 0)))
        .where(and(eq(schema.role.tenantId, tenantId), inArray(schema.roleScope.roleId, [...roleIds]), eq(schema.roleScope.scopeCategory, 1), eq(schema.menu.code, menuCode))));
      return rows.map((r) => ({ column: r.column, type: r.type, value: r.value ?? '' }));
    }, within);
  }

  /**
   * Whether a role set may call an API: a call named by API scopes (method and path) is allowed only to roles
   * granted one of those scopes; a call no scope names is not limited by them.
   */
  async apiAllowed(tenantId: string, roleIds: readonly string[], method: string, path: string): Promise<boolean> {
    const matching = (await this.apiScopes()).filter((s) => apiScopeMatches(s, method, path));
    if (matching.length === 0) return true;
    if (roleIds.length === 0) return false;
    const granted = await this.apiGranted(tenantId, roleIds);
    return matching.some((s) => granted.has(s.id));
  }

  /** the live API scopes; `within` reads through a transaction already open (PGlite has one connection) */
  private apiScopes(within?: Executor): Promise<Array<{ id: string; path: string; type: number }>> {
    const read = (db: Executor) => db
      .select({ id: schema.scopeApi.id, path: schema.scopeApi.scopePath, type: schema.scopeApi.scopeType })
      .from(schema.scopeApi).where(eq(schema.scopeApi.isDeleted, 0));
    return within ? read(within) : this.memo('api-scopes', () => read(this.db));
  }

  private apiGranted(tenantId: string, roleIds: readonly string[], within?: Executor): Promise<ReadonlySet<string>> {
    if (roleIds.length === 0) return Promise.resolve(new Set());
    const read = async (tx: Executor) => new Set((await tx
      .select({ scopeId: schema.roleScope.scopeId }).from(schema.roleScope)
      .innerJoin(schema.role, and(eq(schema.role.id, schema.roleScope.roleId), eq(schema.role.isDeleted, 0)))
      .where(and(eq(schema.role.tenantId, tenantId), inArray(schema.roleScope.roleId, [...roleIds]), eq(schema.roleScope.scopeCategory, 2)))).map((r) => r.scopeId));
    return within ? read(within) : this.memo(`api-granted:${tenantId}:${[...roleIds].sort().join(',')}`, () => inTenant(this.db, { tenantId }, read));
  }

  /** a signed-in call the server answers (method and route), for `callsClosedBy` */
  noteSignedInRoute(method: string, url: string): void {
    if (method !== 'HEAD') this.signedInRoutes.push({ method, url });
  }

  /**
   * The signed-in calls ("POST /api/…") a role set may make today that an API scope, created or changed as
   * given, would close to it (read through the writing transaction `tx`, which sees the role set's rows): a scope not granted to the set (a new one is granted to no one) closes the calls it
   * names that no other scope names yet.
   */
  async callsClosedBy(tx: Executor, tenantId: string, roleIds: readonly string[], scope: { id?: string; path: string; type: number }): Promise<string[]> {
    const others = (await this.apiScopes(tx)).filter((s) => s.id !== scope.id);
    const granted = await this.apiGranted(tenantId, roleIds, tx);
    if (scope.id && granted.has(scope.id)) return [];
    const closed: string[] = [];
    for (const route of this.signedInRoutes) {
      if (!apiScopeMatches(scope, route.method, route.url)) continue;
      // named by another scope: granted to the set it stays open, and otherwise it is closed already
      if (!others.some((s) => apiScopeMatches(s, route.method, route.url))) closed.push(`${route.method} ${route.url}`);
    }
    return closed;
  }

  async invalidate(): Promise<void> {
    this.clearLocal();
    await this.kv.publish(CHANNEL, String(Date.now()));
  }
}
