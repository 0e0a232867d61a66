import { defineResource } from '@console/contract';
import { noticeResource } from '@console/contract/areas/desk/index';
import { inArray } from 'drizzle-orm';
import { schema } from '../src/core/db/index.js';
import { nextId } from '../src/core/ids.js';
import { bind } from '../src/areas/index.js';
import type { Server } from '../src/server.js';
import { notice } from '../src/areas/desk/tables.js';

/**
 * A test-only resource over the notice table that declares xlsx export and import (`io`), with a unique
 * title so that import's uniqueness rules can be exercised. It has no menu: nothing is seeded for it, and
 * the tests grant its codes themselves (`grantCodes`).
 */
export const ioNoticeResource = defineResource({
  ...noticeResource,
  code: 'notice_io',
  path: '/api/blade-desk/notice-io',
  menu: undefined,
  fields: { ...noticeResource.fields, title: { ...noticeResource.fields.title, unique: true } },
  io: { export: {}, import: {} },
});

export const ioNoticeBinding = bind(ioNoticeResource, notice);

/** Adds menu/button rows with these codes (when missing) and grants them to the roles with these aliases. */
export async function grantCodes(server: Server, codes: string[], roleAliases: string[]): Promise<void> {
  const db = server.ctx.db;
  const known = await db.select({ id: schema.menu.id, code: schema.menu.code }).from(schema.menu).where(inArray(schema.menu.code, codes));
  const ids = new Map(known.map((m) => [m.code, m.id]));
  for (const code of codes) {
    if (ids.has(code)) continue;
    const id = nextId();
    await db.insert(schema.menu).values({ id, code, name: code, alias: code.split('_').at(-1) ?? 'menu', category: 2 });
    ids.set(code, id);
  }
  const roles = await db.select({ id: schema.role.id }).from(schema.role).where(inArray(schema.role.roleAlias, roleAliases));
  const rows = roles.flatMap((r) => [...ids.values()].map((menuId) => ({ roleId: r.id, menuId })));
  if (rows.length) await db.insert(schema.roleMenu).values(rows).onConflictDoNothing();
  await server.ctx.permissions.invalidate();
}
