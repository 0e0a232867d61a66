import type { CrudCall } from '@console/contract';
import { and, eq, inArray } from 'drizzle-orm';
import { type Tx, schema } from '../core/db/index.js';
import { nextId } from '../core/ids.js';

/**
 * Icons are BladeX's, so that an unmodified Saber console shows them too: a menu's `source` is a class of
 * Saber's iconfont (`iconfont iconicon_setting`, `iconfont icon-caidan`, … as in Saber's icon list and
 * BladeX's blade_menu seed), which our console maps to an antd icon (web/src/shell/layout/menuIcons.tsx).
 * A button's `source` is BladeX's button icon name for its alias.
 */
export const BUTTON_ICONS: Readonly<Record<string, string>> = { add: 'plus', edit: 'form', delete: 'delete', view: 'file-text' };

export interface ButtonSeed {
  code: string;
  name: string;
  nameEn: string;
  alias: string;
  /** 1 toolbar, 2 row, 3 both */
  action: number;
  path?: string;
  /** icon name; default BUTTON_ICONS[alias], else none */
  source?: string;
}

export interface MenuSeed {
  code: string;
  name: string;
  nameEn: string;
  path: string;
  /** a class of Saber's iconfont, e.g. `iconfont iconicon_setting` (see BUTTON_ICONS) */
  source?: string;
  sort: number;
  /** 2 opens in a new window */
  isOpen?: number;
  children?: MenuSeed[];
  buttons?: ButtonSeed[];
}

/** The four standard buttons of a resource screen (menus.md), with the API each one calls. */
export function standardButtons(code: string, paths: Record<CrudCall, string>, except: Array<'add' | 'edit' | 'delete' | 'view'> = []): ButtonSeed[] {
  const all: ButtonSeed[] = [
    { code: `${code}_add`, name: '新增', nameEn: 'Add', alias: 'add', action: 1, path: paths.submit },
    { code: `${code}_edit`, name: '修改', nameEn: 'Edit', alias: 'edit', action: 2, path: paths.submit },
    { code: `${code}_delete`, name: '删除', nameEn: 'Delete', alias: 'delete', action: 3, path: paths.remove },
    { code: `${code}_view`, name: '查看', nameEn: 'View', alias: 'view', action: 2, path: paths.detail },
  ];
  return all.filter((b) => !except.includes(b.alias as 'add'));
}

/**
 * Inserts menus (and their buttons) that do not exist yet, found by code, under their parents.
 * Returns the ids by code of every menu and button in the tree, existing or new.
 */
export async function ensureMenus(tx: Tx, tree: readonly MenuSeed[], parentId = '0', ids = new Map<string, string>()): Promise<Map<string, string>> {
  for (const m of tree) {
    const [existing] = await tx.select({ id: schema.menu.id }).from(schema.menu)
      .where(and(eq(schema.menu.code, m.code), eq(schema.menu.isDeleted, 0)));
    const id = existing?.id ?? nextId();
    if (!existing) {
      await tx.insert(schema.menu).values({
        id, parentId, code: m.code, name: m.name, nameEn: m.nameEn, alias: 'menu', path: m.path, source: m.source ?? '',
        sort: m.sort, category: 1, action: 0, isOpen: m.isOpen ?? 1,
      });
    }
    ids.set(m.code, id);
    for (const [i, b] of (m.buttons ?? []).entries()) {
      const [bExisting] = await tx.select({ id: schema.menu.id }).from(schema.menu)
        .where(and(eq(schema.menu.code, b.code), eq(schema.menu.isDeleted, 0)));
      const bid = bExisting?.id ?? nextId();
      if (!bExisting) {
        await tx.insert(schema.menu).values({
          id: bid, parentId: id, code: b.code, name: b.name, nameEn: b.nameEn, alias: b.alias, path: b.path ?? '',
          source: b.source ?? BUTTON_ICONS[b.alias] ?? '', sort: i + 1, category: 2, action: b.action, isOpen: 1,
        });
      }
      ids.set(b.code, bid);
    }
    if (m.children) await ensureMenus(tx, m.children, id, ids);
  }
  return ids;
}

/** Grants menu ids to every live role with one of the aliases (in the given tenants, or all). */
export async function grantToRoles(tx: Tx, menuIds: Iterable<string>, aliases: string[], tenantIds?: string[]): Promise<void> {
  const conds = [inArray(schema.role.roleAlias, aliases), eq(schema.role.isDeleted, 0)];
  if (tenantIds) conds.push(inArray(schema.role.tenantId, tenantIds));
  const roles = await tx.select({ id: schema.role.id }).from(schema.role).where(and(...conds));
  // read the ids once: an iterator (a Map's values()) is spent after the first role
  const ids = [...menuIds];
  const rows = roles.flatMap((r) => ids.map((menuId) => ({ roleId: r.id, menuId })));
  if (rows.length) await tx.insert(schema.roleMenu).values(rows).onConflictDoNothing();
}
