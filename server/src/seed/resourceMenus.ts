import { type ButtonDef, crudPaths, menuDirectory, PLATFORM_TENANT, type ResourceDef } from '@console/contract';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../core/db/index.js';
import { schema } from '../core/db/index.js';
import { PLATFORM_ADMIN_ROLE } from '../core/access.js';
import { BUTTON_ICONS, type ButtonSeed, ensureMenus, grantToRoles, type MenuSeed, standardButtons } from './menus.js';

const PLACEMENT: Record<ButtonDef['placement'], number> = { toolbar: 1, row: 2, both: 3 };
const SYNC_LOCK = 72_707_003;
/** The administrator role of a tenant other than the platform (the demo tenant's, and each new tenant's). */
export const TENANT_ADMIN_ROLE = 'admin';

/** The menu seed of a resource's screen: its standard buttons (those the screen has) and its extra ones. */
export function resourceMenuSeed(def: ResourceDef): MenuSeed {
  const menu = def.menu!;
  const except = (['add', 'edit', 'delete', 'view'] as const).filter((b) => def.buttons?.[b] === false || (def.createOnly && (b === 'edit' || (b === 'delete' && !def.removable))));
  const extra: ButtonSeed[] = (menu.buttons ?? []).map((b) => ({
    code: b.code, name: b.name.zh, nameEn: b.name.en, alias: b.alias, action: PLACEMENT[b.placement],
    path: b.action ? def.actions?.[b.action]?.path ?? '' : '', source: BUTTON_ICONS[b.alias],
  }));
  return {
    code: def.code, name: menu.name.zh, nameEn: menu.name.en, path: menu.route, source: menu.icon, sort: menu.sort,
    buttons: [...standardButtons(def.code, crudPaths(def), except), ...extra],
  };
}

/** The menu tree of the given resources under their directories (menus.md), directories first. */
export function resourceMenuTree(defs: readonly ResourceDef[]): MenuSeed[] {
  const roots = new Map<string, MenuSeed>();
  const dirSeed = (code: string): MenuSeed => {
    const hit = roots.get(code);
    if (hit) return hit;
    const dir = menuDirectory(code);
    if (!dir) throw new Error(`menu directory ${code} is not declared in contract/src/menus.ts`);
    const seed: MenuSeed = { code: dir.code, name: dir.name.zh, nameEn: dir.name.en, path: dir.route, source: dir.icon, sort: dir.sort, children: [] };
    if (dir.parent) dirSeed(dir.parent).children!.push(seed);
    roots.set(code, seed);
    return seed;
  };
  for (const def of defs) if (def.menu) dirSeed(def.menu.parent).children!.push(resourceMenuSeed(def));
  return [...roots.entries()].filter(([code]) => !menuDirectory(code)?.parent).map(([, seed]) => seed);
}

function codesOf(tree: readonly MenuSeed[]): string[] {
  return tree.flatMap((m) => [m.code, ...(m.buttons ?? []).map((b) => b.code), ...codesOf(m.children ?? [])]);
}

/**
 * Brings the menu tree in line with the mounted resources at every start: a screen (or button) whose code
 * was never seeded is inserted under its directory and granted to the platform's administrators. Rows
 * that exist, or were deleted by an administrator, are left as they are.
 */
export async function syncResourceMenus(db: Db, defs: readonly ResourceDef[]): Promise<string[]> {
  const tree = resourceMenuTree(defs);
  const wanted = codesOf(tree);
  return db.transaction(async (tx: Tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SYNC_LOCK})`);
    const known = new Set((await tx.select({ code: schema.menu.code }).from(schema.menu)).map((r) => r.code));
    const missing = wanted.filter((c) => !known.has(c));
    if (missing.length === 0) return [];
    const ids = await ensureMenus(tx, prune(tree, missing));
    const fresh = missing.map((c) => ids.get(c)).filter((id): id is string => id !== undefined);
    await grantToRoles(tx, fresh, [PLATFORM_ADMIN_ROLE], [PLATFORM_TENANT]);
    // a tenant's own administrators get the screens of tenant data (never the platform's)
    const tenantCodes = new Set(codesOf(resourceMenuTree(defs.filter((d) => d.scope === 'tenant'))));
    const forTenants = missing.filter((c) => tenantCodes.has(c)).map((c) => ids.get(c)).filter((id): id is string => id !== undefined);
    const tenantAdmins = await tx.selectDistinct({ tenantId: schema.role.tenantId }).from(schema.role)
      .where(and(eq(schema.role.roleAlias, TENANT_ADMIN_ROLE), ne(schema.role.tenantId, PLATFORM_TENANT), eq(schema.role.isDeleted, 0)));
    if (tenantAdmins.length) await grantToRoles(tx, forTenants, [TENANT_ADMIN_ROLE], tenantAdmins.map((r) => r.tenantId));
    return missing;
  });
}

/** The seeds that lead to a missing code (ancestors that exist are found by code). */
function prune(tree: readonly MenuSeed[], missing: string[]): MenuSeed[] {
  const need = new Set(missing);
  const keep = (m: MenuSeed): MenuSeed | null => {
    const children = (m.children ?? []).map(keep).filter((c): c is MenuSeed => c !== null);
    const buttons = (m.buttons ?? []).filter((b) => need.has(b.code));
    if (!need.has(m.code) && children.length === 0 && buttons.length === 0) return null;
    return { ...m, children, buttons };
  };
  return tree.map(keep).filter((m): m is MenuSeed => m !== null);
}
