import { type FieldDef, nameFieldOf, type RemovePolicy, type ResourceDef } from '@console/contract';
import { and, asc, eq, inArray, ne, notInArray, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { AuthUser } from '../callers.js';
import { acrossTenants, type Executor } from '../db/index.js';
import { type Dependent, type DependentUse, type MountedResource, NAMED_USES, type ResourceRegistry } from './registry.js';

/** the rows of `using` whose field `name` names one of `ids` (an `ids` field: one of its comma-joined ids) */
function namesAny(col: PgColumn, f: FieldDef, ids: string[]): SQL {
  if (f.type !== 'ids') return inArray(col, ids);
  return sql`string_to_array(${col}, ',') && array[${sql.join(ids.map((id) => sql`${id}`), sql`, `)}]::text[]`;
}

/**
 * A field of `using` that refers to `target`, as a dependent. Rows of a tenant resource that use a platform row
 * are every tenant's (counted as console_platform, in the same transaction); rows of other tenants than the
 * caller's (a tenant's product authorisations) are counted, never named.
 */
function fieldDependent(using: MountedResource, name: string, f: FieldDef, target: ResourceDef): Dependent {
  const c = using.columns;
  const col = c[name]!;
  const tenantCol = c.tenantId;
  const secured = using.def.scope === 'tenant' && tenantCol !== undefined;
  const crossTenant = secured && target.scope === 'platform';
  const self = using.def.code === target.code;
  const nameCol = c[nameFieldOf(using.def)];
  const using_ = (ids: string[], user: AuthUser): SQL[] => [
    namesAny(col, f, ids),
    ...(using.softDeleted ? [eq(c.isDeleted!, 0)] : []),
    ...(secured && !crossTenant ? [eq(tenantCol, user.tenantId)] : []),
    // rows removed in the same call do not hold their own kind back
    ...(self ? [notInArray(c.id!, ids)] : []),
  ];
  const inScope = <T>(tx: Executor, fn: () => Promise<T>) => (crossTenant ? acrossTenants(tx, fn) : fn());
  return {
    target: target.code,
    label: using.def.title,
    policy: f.onRemove ?? 'refuse',
    async uses(tx, ids, user): Promise<DependentUse> {
      const conds = using_(ids, user);
      const others = tenantCol ? sql<number>`(count(*) filter (where ${ne(tenantCol, user.tenantId)}))::int` : sql<number>`0`;
      const [counted] = await inScope(tx, () => tx.select({ total: sql<number>`count(*)::int`, others }).from(using.table).where(and(...conds)));
      const total = Number(counted?.total ?? 0);
      const use = { total, others: Number(counted?.others ?? 0), names: [] as string[] };
      if (total === use.others || !nameCol || nameCol === c.id) return use;
      const mine = tenantCol ? [eq(tenantCol, user.tenantId)] : [];
      const named = await tx.select({ name: nameCol }).from(using.table).where(and(...conds, ...mine)).orderBy(asc(c.id!)).limit(NAMED_USES);
      return { ...use, names: named.map((r) => String(r.name)) };
    },
    release: f.onRemove === 'cascade' || f.onRemove === 'detach'
      ? (tx, ids, user) => inScope(tx, () => (using.releases?.[name] ?? defaultRelease(using, name, f, f.onRemove!, secured && !crossTenant))(tx, ids, user))
      : undefined,
  };
}

/**
 * cascade: the using rows are removed (soft-deleted where they are); detach: the reference is cleared. `ownTenant`:
 * the using rows are the caller's tenant's alone (a tenant's row used by its tenant's rows), named by its key.
 */
function defaultRelease(using: MountedResource, name: string, f: FieldDef, policy: RemovePolicy, ownTenant: boolean) {
  const c = using.columns;
  const col = c[name]!;
  const stamp = (user: AuthUser) => ({ ...(c.updateTime ? { updateTime: new Date() } : {}), ...(c.updateUser ? { updateUser: user.userId } : {}) });
  return async (tx: Executor, ids: string[], user: AuthUser): Promise<void> => {
    const live = [...(using.softDeleted ? [eq(c.isDeleted!, 0)] : []), ...(ownTenant ? [eq(c.tenantId!, user.tenantId)] : [])];
    const where = and(namesAny(col, f, ids), ...live);
    if (policy === 'cascade') {
      if (using.softDeleted) await tx.update(using.table).set({ isDeleted: 1, ...stamp(user) } as never).where(where);
      else await tx.delete(using.table).where(where);
    } else if (f.type === 'ids') {
      for (const id of ids) {
        await tx.update(using.table).set({ [name]: sql`array_to_string(array_remove(string_to_array(${col}, ','), ${id}::text), ',')`, ...stamp(user) } as never)
          .where(and(namesAny(col, f, [id]), ...live));
      }
    } else {
      await tx.update(using.table).set({ [name]: null, ...stamp(user) } as never).where(where);
    }
  };
}

/**
 * Every field of every mounted resource that refers to another (`ref`), as a dependent of its target. A tree's
 * own parent field is left to the tree's rules (a node with children is refused, naming it).
 */
export function deriveDependents(registry: ResourceRegistry): Dependent[] {
  const out: Dependent[] = [];
  for (const using of registry.all()) {
    for (const [name, f] of Object.entries(using.def.fields)) {
      if (!f.ref || f.writeOnly || f.virtual || !using.columns[name]) continue;
      if (f.ref === using.def.code && using.def.tree?.parentField === name) continue;
      out.push(fieldDependent(using, name, f, registry.get(f.ref).def));
    }
  }
  return out;
}
