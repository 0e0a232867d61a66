import { type Lang, PLATFORM_TENANT } from '@console/contract';
import { type GrantNode } from '@console/contract/areas/system/index';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { isPlatformAdmin, PLATFORM_ADMIN_ROLE } from '../../core/access.js';
import type { AppContext, AuthUser } from '../../core/context.js';
import { type Executor, schema } from '../../core/db/index.js';
import { fieldError } from '../../core/errors.js';
import { TENANT_ADMIN_ROLE } from '../../seed/resourceMenus.js';

type MenuRow = typeof schema.menu.$inferSelect;

export async function liveMenus(tx: Executor): Promise<MenuRow[]> {
  return tx.select().from(schema.menu).where(eq(schema.menu.isDeleted, 0)).orderBy(asc(schema.menu.sort), asc(schema.menu.id));
}

/** The menu ids the caller's roles hold (codes granted → ids). */
function heldMenuIds(menus: MenuRow[], granted: ReadonlySet<string>): Set<string> {
  return new Set(menus.filter((m) => granted.has(m.code)).map((m) => m.id));
}

/**
 * The menus a caller may grant to roles: the platform's administrators every menu; a tenant's
 * administrators the menus of their tenant's package (the menus they hold when it has none); anyone else
 * only the menus they hold themselves. Null means every menu.
 */
export async function grantableMenuIds(ctx: AppContext, tx: Executor, user: AuthUser, granted: ReadonlySet<string>, menus: MenuRow[]): Promise<Set<string> | null> {
  if (isPlatformAdmin(user)) return null;
  const held = heldMenuIds(menus, granted);
  const isTenantAdmin = user.tenantId !== PLATFORM_TENANT && user.roleAliases.includes(TENANT_ADMIN_ROLE);
  if (!isTenantAdmin) return held;
  const pkg = await ctx.permissions.packageMenus(user.tenantId, tx);
  return pkg ? new Set(pkg) : held;
}

/** Nests menus as grant-tree nodes (buttons included, in order); a node whose parent is absent is a root. */
export function grantForest(menus: MenuRow[], lang: Lang): GrantNode[] {
  const nodes = menus.map((m): GrantNode => ({
    id: m.id, parentId: m.parentId, title: lang === 'en' && m.nameEn ? m.nameEn : m.name, key: m.id, value: m.id, category: m.category,
  }));
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const roots: GrantNode[] = [];
  for (const n of nodes) {
    const parent = byId.get(n.parentId);
    if (parent) (parent.children ??= []).push(n);
    else roots.push(n);
  }
  return roots;
}

/** Adds every ancestor of the given menus. */
export function withAncestors(ids: Iterable<string>, menus: MenuRow[]): Set<string> {
  const parent = new Map(menus.map((m) => [m.id, m.parentId]));
  const out = new Set<string>();
  for (const id of ids) for (let cur: string | undefined = id; cur && parent.has(cur) && !out.has(cur); cur = parent.get(cur)) out.add(cur);
  return out;
}

/** Refuses menu ids that are unknown or that the caller may not grant, naming the field. */
export function checkGrantable(menuIds: string[], menus: MenuRow[], grantable: Set<string> | null, lang: Lang, field = 'menuIds'): void {
  const live = new Set(menus.map((m) => m.id));
  const unknown = menuIds.filter((id) => !live.has(id));
  if (unknown.length) throw fieldError('grantUnknownMenu', lang, field, { ids: unknown.slice(0, 5).join(',') });
  if (grantable) {
    const outside = menuIds.filter((id) => !grantable.has(id));
    if (outside.length) {
      const names = outside.slice(0, 5).map((id) => menus.find((m) => m.id === id)?.name ?? id).join('、');
      throw fieldError('grantOutside', lang, field, { names });
    }
  }
}

/** The platform administrator role is the way back in: it keeps the power to grant roles and manage menus. */
export async function guardPlatformAdminRole(tx: Executor, roleIds: string[], menuIds: string[], menus: MenuRow[], lang: Lang): Promise<void> {
  const admins = await tx.select({ id: schema.role.id }).from(schema.role)
    .where(and(inArray(schema.role.id, roleIds), eq(schema.role.tenantId, PLATFORM_TENANT), eq(schema.role.roleAlias, PLATFORM_ADMIN_ROLE), eq(schema.role.isDeleted, 0)));
  if (!admins.length) return;
  const kept = new Set(menuIds);
  const needed = menus.filter((m) => m.code === 'role' || m.code === 'role_grant');
  if (needed.some((m) => !kept.has(m.id))) throw fieldError('grantAdminLockout', lang, 'menuIds');
}
