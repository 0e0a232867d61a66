import { and, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { inTenant, schema } from '../src/core/db/index.js';
import { flowDefinition } from '../src/areas/flow/tables.js';
import { useServer } from './harness.js';

/** Trees, pickers and grants read only what the caller's menus allow (issue 23, item 7). */
const h = useServer();
const SYS = '/api/blade-system';
const CIT_DICT_PATH = '/api/omc-device/cit-dict';
let admin: string;
let roleId: string;
let token: string;

async function menuIds(codes: string[]): Promise<string[]> {
  const rows = await inTenant(h.server.ctx.db, { tenantId: '000000' }, (tx) =>
    tx.select({ id: schema.menu.id, code: schema.menu.code }).from(schema.menu).where(and(inArray(schema.menu.code, codes), eq(schema.menu.isDeleted, 0))));
  return codes.map((c) => {
    const found = rows.find((r) => r.code === c);
    if (!found) throw new Error(`no menu ${c}`);
    return found.id;
  });
}

async function grant(codes: string[]): Promise<void> {
  const res = await h.call('POST', `${SYS}/role/grant`, { token: admin, body: { roleIds: roleId, menuIds: (await menuIds(codes)).join(',') } });
  expect(res.status).toBe(200);
}

const status = async (url: string, query: Record<string, string> = {}) => (await h.call('GET', url, { token, query })).status;

beforeAll(async () => {
  admin = (await h.login('000000', 'admin', 'admin')).access_token;
  const role = await h.call<{ id: string }>('POST', `${SYS}/role/submit`, { token: admin, body: { roleName: 'desk only', roleAlias: 'desk-only', sort: 9 } });
  expect(role.status).toBe(200);
  roleId = role.body.data.id;
  await h.createUser('000000', 'desk-reader', 'pw', ['desk-only']);
  token = (await h.login('000000', 'desk-reader', 'pw')).access_token;
});

/** each tree with the menu whose list it follows */
const TREES: Array<{ url: string; menu: string; query?: Record<string, string> }> = [
  { url: `${SYS}/dept/tree`, menu: 'dept' },
  { url: `${SYS}/dept/lazy-tree`, menu: 'dept' },
  { url: `${SYS}/role/tree`, menu: 'role' },
  { url: `${SYS}/role/lazy-tree`, menu: 'role' },
  { url: `${SYS}/role/tree-by-id`, menu: 'role' },
  { url: `${SYS}/menu/tree`, menu: 'menu' },
  { url: `${SYS}/menu/lazy-tree`, menu: 'menu' },
  { url: `${SYS}/dict/tree`, menu: 'dict' },
  { url: `${SYS}/dict/lazy-tree`, menu: 'dict' },
  { url: `${SYS}/dict-biz/tree`, menu: 'dictbiz' },
  { url: `${SYS}/region/tree`, menu: 'region', query: {} },
  { url: `${SYS}/region/lazy-tree`, menu: 'region', query: { parentCode: '00' } },
  { url: `${CIT_DICT_PATH}/tree`, menu: 'cit_dict' },
  { url: `${CIT_DICT_PATH}/lazy-tree`, menu: 'cit_dict' },
];

describe('trees follow the list permission of their resource', () => {
  it('refuses every tree to a user without the menus, and answers each with its menu granted', async () => {
    await grant(['desk', 'notice']);
    for (const t of TREES) expect(`${t.url} ${await status(t.url, t.query)}`).toBe(`${t.url} 403`);
    await grant(['desk', 'notice', ...new Set(TREES.map((t) => t.menu))]);
    for (const t of TREES) expect(`${t.url} ${await status(t.url, t.query)}`).toBe(`${t.url} 200`);
  });

  it('opens the department and role trees and the post options to the user screen, whose form picks from them', async () => {
    await grant(['desk', 'notice']);
    for (const url of [`${SYS}/dept/tree`, `${SYS}/role/tree`, `${SYS}/post/select`]) expect(`${url} ${await status(url)}`).toBe(`${url} 403`);
    await grant(['desk', 'notice', 'system', 'user']);
    for (const url of [`${SYS}/dept/tree`, `${SYS}/role/tree`, `${SYS}/post/select`]) expect(`${url} ${await status(url)}`).toBe(`${url} 200`);
    // the user screen does not open the other trees
    expect(await status(`${SYS}/menu/tree`)).toBe(403);
    expect(await status(`${SYS}/dict/tree`)).toBe(403);
  });

  it('opens the region tree to the screens whose region paths are picked from it (区域派发), and no other tree', async () => {
    const provinces = () => status(`${SYS}/region/lazy-tree`, { parentCode: '00' });
    await grant(['desk', 'notice']);
    expect(await provinces()).toBe(403);
    await grant(['desk', 'notice', 'area_dispatch']);
    expect(await provinces()).toBe(200);
    expect(await status(`${SYS}/dept/tree`)).toBe(403);
  });

  it('keeps what every signed-in console needs for itself: its own menus, buttons, dictionaries and switch dialogs', async () => {
    await grant(['desk', 'notice']);
    for (const url of [`${SYS}/menu/routes`, `${SYS}/menu/buttons`, `${SYS}/menu/top-menu`, `${SYS}/dept/select`, `${SYS}/role/select`]) {
      expect(`${url} ${await status(url)}`).toBe(`${url} 200`);
    }
    expect(await status(`${SYS}/dict/dictionary`, { code: 'sex' })).toBe(200);
  });
});

describe('grant trees follow the screens that grant', () => {
  it('menu/role-tree-keys and menu/grant-tree need the role menu; the top menu trees the top menu screen', async () => {
    await grant(['desk', 'notice']);
    const keys = `${SYS}/menu/role-tree-keys`;
    const calls: Array<[string, Record<string, string>]> = [
      [keys, { roleIds: roleId }], [`${SYS}/menu/grant-tree`, {}], [`${SYS}/menu/grant-top-tree`, {}], [`${SYS}/menu/top-tree-keys`, { topMenuIds: '1' }],
    ];
    for (const [url, query] of calls) expect(`${url} ${await status(url, query)}`).toBe(`${url} 403`);
    await grant(['desk', 'notice', 'authority', 'role']);
    expect(await status(keys, { roleIds: roleId })).toBe(200);
    expect(await status(`${SYS}/menu/grant-tree`)).toBe(200);
    expect(await status(`${SYS}/menu/top-tree-keys`, { topMenuIds: '1' })).toBe(403);
    await grant(['desk', 'notice', 'system', 'topmenu']);
    expect(await status(keys, { roleIds: roleId })).toBe(403);
    expect(await status(`${SYS}/menu/grant-tree`)).toBe(200);
    expect(await status(`${SYS}/menu/grant-top-tree`)).toBe(200);
    expect(await status(`${SYS}/menu/top-tree-keys`, { topMenuIds: '1' })).toBe(200);
  });
});

describe('other reads any signed-in user could make', () => {
  it('a process definition\'s diagram needs a screen that lists definitions', async () => {
    // the seed deployed the leave process in the demo tenant
    const demoAdmin = (await h.login('541742', 'admin', 'admin')).access_token;
    const [definition] = await inTenant(h.server.ctx.db, { tenantId: '541742' }, (tx) => tx.select({ id: flowDefinition.id }).from(flowDefinition).limit(1));
    expect(definition).toBeDefined();
    const role = await h.call<{ id: string }>('POST', `${SYS}/role/submit`, { token: demoAdmin, body: { roleName: 'desk only', roleAlias: 'desk-only', sort: 9 } });
    expect(role.status).toBe(200);
    const grantDemo = async (codes: string[]) => expect((await h.call('POST', `${SYS}/role/grant`, {
      token: demoAdmin, body: { roleIds: role.body.data.id, menuIds: (await menuIds(codes)).join(',') },
    })).status).toBe(200);
    await h.createUser('541742', 'demo-desk-reader', 'pw', ['desk-only']);
    const reader = (await h.login('541742', 'demo-desk-reader', 'pw')).access_token;
    const view = async () => (await h.call('GET', '/api/blade-flow/process/model-view', { token: reader, query: { processDefinitionId: definition!.id } })).status;
    await grantDemo(['desk', 'notice']);
    expect(await view()).toBe(403);
    await grantDemo(['desk', 'notice', 'work', 'work_start']);
    expect(await view()).toBe(200);
  });
});
