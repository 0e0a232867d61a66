import { type Lang, PLATFORM_TENANT, resources } from '@console/contract';
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

const menuNode = (m: MenuRow, lang: Lang): GrantNode => ({
  id: m.id, parentId: m.parentId, title: lang === 'en' && m.nameEn ? m.nameEn : m.name, key: m.id, value: m.id, category: m.category,
});

/** Nests menus as grant-tree nodes (buttons included, in order); a node whose parent is absent is a root. */
export function grantForest(menus: MenuRow[], lang: Lang): GrantNode[] {
  const platformOnly = platformOnlyMenuIds(menus);
  return nest(menus.map((m) => ({ ...menuNode(m, lang), ...(platformOnly.has(m.id) ? { platformOnly: true as const } : {}) })));
}

export interface ScopeRow { id: string; menuId: string; scopeName: string }

/**
 * A scope tree of `grant-tree` as BladeX builds it: the menus that own scopes (nested where one is below another)
 * and each scope under its menu (`parentId` = the menu); only the scopes of the `shown` menus (null: all).
 */
export function scopeForest(scopes: readonly ScopeRow[], menus: MenuRow[], shown: ReadonlySet<string> | null, lang: Lang): GrantNode[] {
  const kept = scopes.filter((s) => !shown || shown.has(s.menuId));
  const owners = new Set(kept.map((s) => s.menuId));
  return nest([
    ...menus.filter((m) => owners.has(m.id)).map((m) => menuNode(m, lang)),
    ...kept.map((s): GrantNode => ({ id: s.id, parentId: s.menuId, title: s.scopeName, key: s.id, value: s.id })),
  ]);
}

function nest(nodes: GrantNode[]): GrantNode[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const roots: GrantNode[] = [];
  for (const n of nodes) {
    const parent = byId.get(n.parentId);
    if (parent) (parent.children ??= []).push(n);
    else roots.push(n);
  }
  return roots;
}

/** the screens only the platform's administrators open (`platformAdminOnly`: tenants, packages, product authorisation) */
const PLATFORM_ONLY_CODES: ReadonlySet<string> = new Set(Object.values(resources).filter((d) => d.platformAdminOnly).map((d) => d.code));

/** The menus of the platform-only screens and everything under them (their buttons): never part of a tenant's package. */
export function platformOnlyMenuIds(menus: MenuRow[]): Set<string> {
  const out = new Set(menus.filter((m) => PLATFORM_ONLY_CODES.has(m.code)).map((m) => m.id));
  for (let grew = true; grew;) {
    grew = false;
    for (const m of menus) {
      if (!out.has(m.id) && out.has(m.parentId)) {
        out.add(m.id);
        grew = true;
      }
    }
  }
  return out;
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
