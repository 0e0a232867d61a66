import { isIdText, type Lang, type MenuButton, type MenuRoute, type TopMenu } from '@console/contract';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../../core/access.js';
import { IDLE_BUTTONS } from '../../core/area.js';
import type { AppContext, AuthUser } from '../../core/context.js';
import { type Executor, inTenant, schema } from '../../core/db/index.js';
import { rowColumns } from '../../core/db/columns.js';
import { envelopeOf, ok } from '../../core/envelope.js';

/** A menu as read (without its search grams). */
type MenuRow = Awaited<ReturnType<typeof liveMenus>>[number];

/** Ids of the menus (and buttons) granted to the caller's roles, within the tenant's package. */
async function grantedMenuIds(ctx: AppContext, tx: Executor, user: AuthUser): Promise<Set<string>> {
  if (user.roleIds.length === 0) return new Set();
  const pkg = await ctx.permissions.packageMenus(user.tenantId, tx);
  const rows = await tx
    .select({ menuId: schema.roleMenu.menuId })
    .from(schema.roleMenu)
    .innerJoin(schema.role, eq(schema.role.id, schema.roleMenu.roleId))
    .where(and(inArray(schema.roleMenu.roleId, user.roleIds), eq(schema.role.tenantId, user.tenantId), eq(schema.role.isDeleted, 0)));
  return new Set(rows.map((r) => r.menuId).filter((id) => !pkg || pkg.has(id)));
}

async function liveMenus(tx: Executor) {
  return tx.select(rowColumns(schema.menu)).from(schema.menu).where(eq(schema.menu.isDeleted, 0)).orderBy(asc(schema.menu.sort), asc(schema.menu.id));
}

/** Adds every ancestor of the given ids. */
function withAncestors(ids: Set<string>, byId: Map<string, MenuRow>): Set<string> {
  const out = new Set<string>();
  for (const id of ids) {
    let cur = byId.get(id);
    while (cur && !out.has(cur.id)) {
      out.add(cur.id);
      cur = byId.get(cur.parentId);
    }
  }
  return out;
}

/** The menus under `ids` (a top menu naming a root brings its whole subtree, menus added later included). */
function withDescendants(ids: Set<string>, menus: MenuRow[]): Set<string> {
  const out = new Set(ids);
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

/** Menu ids a top menu shows: the ones it names, their subtrees and their ancestors. */
function topMenuScope(named: Iterable<string>, menus: MenuRow[], byId: Map<string, MenuRow>): Set<string> {
  return withAncestors(withDescendants(new Set(named), menus), byId);
}

function nameOf(m: { name: string; nameEn: string | null }, lang: Lang): string {
  return lang === 'en' && m.nameEn ? m.nameEn : m.name;
}

/** Builds a forest from rows already sorted; a node whose parent is absent becomes a root. */
function forest<T extends { id: string; parentId: string; children?: T[] }>(nodes: T[]): T[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const roots: T[] = [];
  for (const n of nodes) {
    const parent = byId.get(n.parentId);
    if (parent) (parent.children ??= []).push(n);
    else roots.push(n);
  }
  return roots;
}

function toRoute(m: MenuRow, lang: Lang): MenuRoute {
  return {
    id: m.id, parentId: m.parentId, code: m.code, name: nameOf(m, lang), i18n: { zh: m.name, en: m.nameEn ?? m.name },
    alias: m.alias, path: m.path ?? '', source: m.source ?? '', sort: m.sort, category: m.category, action: m.action,
    isOpen: m.isOpen, component: m.component ?? '', remark: m.remark ?? '',
  };
}

/** Menu answers depend on the caller's tenant and role set only (menus are global, grants per role). */
function roleSetKey(user: AuthUser): string {
  return `${user.tenantId}:${[...user.roleIds].sort().join(',')}`;
}

export function registerMenuRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/blade-system/menu/routes', {
    config: { access: { permission: null } },
    schema: {
      tags: ['blade-system'],
      summary: 'The menu tree of the caller\'s roles (ancestors included), optionally limited to a top menu',
      querystring: z.object({ topMenuId: z.string().trim().refine((v) => v === '' || isIdText(v)).optional() }).passthrough(),
      docsOnly: {
        response: {
          200: envelopeOf(z.array(z.object({
            id: z.string(), parentId: z.string(), code: z.string(), name: z.string(), i18n: z.object({ zh: z.string(), en: z.string() }),
            alias: z.string(), path: z.string(), source: z.string(), sort: z.number(), category: z.number(), action: z.number(),
            isOpen: z.number(), component: z.string(), remark: z.string(),
            children: z.array(z.record(z.string(), z.unknown())).optional().describe('the child menus, of this same shape'),
          }))),
        },
      },
    },
  }, async (req) => {
    const user = requireUser(req);
    const { topMenuId } = req.query as { topMenuId?: string };
    const tree = await ctx.permissions.memo(`routes:${roleSetKey(user)}:${topMenuId ?? ''}:${req.lang}`, () => inTenant(ctx.db, { tenantId: user.tenantId }, async (tx) => {
      const menus = await liveMenus(tx);
      const byId = new Map(menus.map((m) => [m.id, m]));
      let ids = withAncestors(await grantedMenuIds(ctx, tx, user), byId);
      if (topMenuId) {
        const named = await tx.select({ menuId: schema.topMenuSetting.menuId }).from(schema.topMenuSetting)
          .where(eq(schema.topMenuSetting.topMenuId, topMenuId));
        const topIds = topMenuScope(named.map((r) => r.menuId), menus, byId);
        ids = new Set([...ids].filter((id) => topIds.has(id)));
      }
      return forest(menus.filter((m) => ids.has(m.id) && m.category === 1).map((m) => toRoute(m, req.lang)));
    }));
    return ok(tree, req.lang);
  });

  app.get('/api/blade-system/menu/buttons', {
    config: { access: { permission: null } },
    schema: {
      tags: ['blade-system'], summary: 'The caller\'s granted buttons under their menus; button codes are the permission codes',
      docsOnly: {
        noInput: true,
        response: {
          200: envelopeOf(z.array(z.object({
            id: z.string(), parentId: z.string(), code: z.string(), name: z.string(), alias: z.string(), path: z.string(), source: z.string(),
            action: z.number(), sort: z.number(), category: z.number(),
            children: z.array(z.record(z.string(), z.unknown())).optional().describe('the child menus and buttons, of this same shape'),
          }))),
        },
      },
    },
  }, async (req) => {
    const user = requireUser(req);
    const tree = await ctx.permissions.memo(`buttons:${roleSetKey(user)}:${req.lang}`, () => inTenant(ctx.db, { tenantId: user.tenantId }, async (tx) => {
      const menus = await liveMenus(tx);
      const byId = new Map(menus.map((m) => [m.id, m]));
      const granted = await grantedMenuIds(ctx, tx, user);
      const idle = ctx.services.find(IDLE_BUTTONS);
      const buttons = menus.filter((m) => m.category === 2 && granted.has(m.id) && !idle?.has(m.code));
      const ids = withAncestors(new Set(buttons.map((b) => b.id)), byId);
      const nodes: MenuButton[] = menus.filter((m) => ids.has(m.id)).map((m) => ({
        id: m.id, parentId: m.parentId, code: m.code, name: nameOf(m, req.lang), alias: m.alias, path: m.path ?? '',
        source: m.source ?? '', action: m.action, sort: m.sort, category: m.category,
      }));
      return forest(nodes);
    }));
    return ok(tree, req.lang);
  });

  app.get('/api/blade-system/menu/top-menu', {
    config: { access: { permission: null } },
    schema: {
      tags: ['blade-system'], summary: 'Top menus that hold at least one of the caller\'s menus, in order',
      docsOnly: {
        noInput: true,
        response: {
          200: envelopeOf(z.array(z.object({ id: z.string(), code: z.string(), name: z.string(), source: z.string(), path: z.string(), sort: z.number() }))),
        },
      },
    },
  }, async (req) => {
    const user = requireUser(req);
    const rows = await ctx.permissions.memo(`top-menu:${roleSetKey(user)}`, () => inTenant(ctx.db, { tenantId: user.tenantId }, async (tx) => {
      const menus = await liveMenus(tx);
      const byId = new Map(menus.map((m) => [m.id, m]));
      const granted = await grantedMenuIds(ctx, tx, user);
      const tops = await tx.select().from(schema.topMenu).where(eq(schema.topMenu.isDeleted, 0)).orderBy(asc(schema.topMenu.sort), asc(schema.topMenu.id));
      const settings = await tx.select().from(schema.topMenuSetting);
      return tops.filter((top) => {
        const scope = topMenuScope(settings.filter((r) => r.topMenuId === top.id).map((r) => r.menuId), menus, byId);
        return [...scope].some((id) => granted.has(id) && byId.get(id)?.category === 1);
      });
    }));
    const data: TopMenu[] = rows.map((r) => ({
      id: r.id, code: r.code, name: nameOf(r, req.lang), source: r.source ?? '', path: r.path ?? '', sort: r.sort,
    }));
    return ok(data, req.lang);
  });
}
