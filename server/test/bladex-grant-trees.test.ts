import { PLATFORM_TENANT } from '@console/contract';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { inTenant, schema } from '../src/core/db/index.js';
import { useServer } from './harness.js';

/**
 * The grant dialogs of an unmodified Saber console (issue 26): `menu/grant-tree` answers BladeX's GrantTreeVO
 * `{ menu, dataScope, apiScope }`, `menu/role-tree-keys` its CheckedTreeVO `{ menu, dataScope, apiScope }`, and the
 * top-menu calls `{ menu }` (blade-contract.md §3.2); Saber reads `res.data.data.menu` and the two scope lists.
 */
const h = useServer();
const SYS = '/api/blade-system';
type Node = { id: string; parentId: string; title: string; key: string; value: string; category?: number; children?: Node[] };
const flat = (nodes: Node[]): Node[] => nodes.flatMap((n) => [n, ...flat(n.children ?? [])]);
let admin: string;
let menuId: string;
let dataScopeId: string;
let apiScopeId: string;

beforeAll(async () => {
  admin = (await h.login('000000', 'admin', 'admin')).access_token;
  const [noticeMenu] = await inTenant(h.server.ctx.db, { tenantId: PLATFORM_TENANT }, (tx) => tx.select({ id: schema.menu.id }).from(schema.menu)
    .where(and(eq(schema.menu.code, 'notice'), eq(schema.menu.isDeleted, 0))));
  menuId = noticeMenu!.id;
  const data = await h.call<{ id: string }>('POST', `${SYS}/data-scope/submit`, {
    token: admin, body: { menuId, resourceCode: 'grant-shape-data', scopeName: '本人通知', scopeColumn: 'create_user', scopeType: 2 },
  });
  expect(data.status, data.body.msg).toBe(200);
  dataScopeId = data.body.data.id;
  const api = await h.call<{ id: string }>('POST', `${SYS}/api-scope/submit`, {
    token: admin, query: { confirm: 'apiScopeLockout' }, body: { menuId, resourceCode: 'grant-shape-api', scopeName: '通知列表', scopePath: '/api/blade-desk/notice/list', scopeType: 2 },
  });
  expect(api.status, api.body.msg).toBe(200);
  apiScopeId = api.body.data.id;
});

describe('the grant trees, BladeX-shaped', () => {
  it('grant-tree answers { menu, dataScope, apiScope }: TreeNodes, each scope under its menu', async () => {
    const res = await h.call<Record<string, Node[]>>('GET', `${SYS}/menu/grant-tree`, { token: admin });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(['apiScope', 'dataScope', 'menu']);
    const menus = flat(res.body.data.menu!);
    expect(menus.find((n) => n.id === menuId)).toMatchObject({ id: menuId, key: menuId, value: menuId, title: '通知公告', category: 1 });
    for (const [kind, scopeId, name] of [['dataScope', dataScopeId, '本人通知'], ['apiScope', apiScopeId, '通知列表']] as const) {
      const nodes = flat(res.body.data[kind]!);
      const owner = nodes.find((n) => n.id === menuId)!;
      expect(owner, kind).toMatchObject({ title: '通知公告', key: menuId, value: menuId });
      expect(owner.children?.find((c) => c.id === scopeId)).toEqual({ id: scopeId, parentId: menuId, title: name, key: scopeId, value: scopeId });
      // only the menus that own scopes, and their scopes
      expect(nodes.every((n) => n.category === 1 || n.category === undefined)).toBe(true);
    }
  });

  it('role-tree-keys answers { menu, dataScope, apiScope } of the roles, as granted by role/grant', async () => {
    const role = await h.call<{ id: string }>('POST', `${SYS}/role/submit`, { token: admin, body: { roleName: '授权形状', roleAlias: 'grant_shape', sort: 9 } });
    expect(role.status, role.body.msg).toBe(200);
    const granted = await h.call('POST', `${SYS}/role/grant`, { token: admin, body: { roleIds: [role.body.data.id], menuIds: [menuId], dataScopeIds: [dataScopeId], apiScopeIds: [apiScopeId] } });
    expect(granted.status, granted.body.msg).toBe(200);
    const keys = await h.call<Record<string, string[]>>('GET', `${SYS}/menu/role-tree-keys`, { token: admin, query: { roleIds: role.body.data.id } });
    expect(keys.body.data).toEqual({ menu: [menuId], dataScope: [dataScopeId], apiScope: [apiScopeId] });
    const none = await h.call<Record<string, string[]>>('GET', `${SYS}/menu/role-tree-keys`, { token: admin, query: { roleIds: '' } });
    expect(none.status).toBe(200);
    expect(none.body.data).toEqual({ menu: [], dataScope: [], apiScope: [] });
    // another tenant's admin sees nothing of the platform's role
    const other = (await h.login('541742', 'admin', 'admin')).access_token;
    const foreign = await h.call<Record<string, string[]>>('GET', `${SYS}/menu/role-tree-keys`, { token: other, query: { roleIds: role.body.data.id } });
    if (foreign.status === 200) expect(foreign.body.data).toEqual({ menu: [], dataScope: [], apiScope: [] });
    else expect(foreign.status).toBe(403);
  });

  it('the top-menu calls answer { menu }', async () => {
    const tops = await h.call<Record<string, Node[]>>('GET', `${SYS}/menu/grant-top-tree`, { token: admin });
    expect(Object.keys(tops.body.data)).toEqual(['menu']);
    const top = tops.body.data.menu![0]!;
    expect(Object.keys(top).sort()).toEqual(['id', 'key', 'parentId', 'title', 'value']);
    const granted = await h.call('POST', `${SYS}/topmenu/grant`, { token: admin, body: { topMenuIds: [top.id], menuIds: [menuId] } });
    expect(granted.status, granted.body.msg).toBe(200);
    const keys = await h.call<Record<string, string[]>>('GET', `${SYS}/menu/top-tree-keys`, { token: admin, query: { topMenuIds: top.id } });
    expect(keys.body.data).toEqual({ menu: [menuId] });
  });

  it('needs a token', async () => {
    expect((await h.call('GET', `${SYS}/menu/grant-tree`)).status).toBe(401);
  });
});

describe('departments carry ancestors in every answer, as BladeX\'s do', () => {
  it('list, detail, tree, lazy-tree, lazy-list, parent-list and child-list', async () => {
    const DEPT = `${SYS}/dept`;
    const submit = async (body: Record<string, unknown>) => {
      const res = await h.call<{ id: string; ancestors?: string }>('POST', `${DEPT}/submit`, { token: admin, body: { deptCategory: 2, sort: 1, ...body } });
      expect(res.status, res.body.msg).toBe(200);
      return res.body.data;
    };
    const root = await submit({ deptName: '祖先根', fullName: '祖先根部门' });
    const child = await submit({ deptName: '祖先子', fullName: '祖先子部门', parentId: root.id });
    const expected = `0,${root.id}`;
    const get = async <T>(path: string, query: Record<string, string> = {}) => {
      const res = await h.call<T>('GET', `${DEPT}/${path}`, { token: admin, query });
      expect(res.status, `${path}: ${res.body.msg}`).toBe(200);
      return res.body.data;
    };
    type Rec = { id: string; ancestors?: string; children?: Rec[] };
    const find = (list: Rec[]): Rec | undefined => list.map((r) => (r.id === child.id ? r : find(r.children ?? []))).find(Boolean);
    expect((await get<Rec>('detail', { id: child.id })).ancestors).toBe(expected);
    expect(find(await get<Rec[]>('list'))?.ancestors).toBe(expected);
    expect(find(await get<Rec[]>('tree'))?.ancestors).toBe(expected);
    expect(find(await get<Rec[]>('lazy-tree', { parentId: root.id }))?.ancestors).toBe(expected);
    expect(find(await get<Rec[]>('lazy-list', { parentId: root.id }))?.ancestors).toBe(expected);
    expect(find((await get<{ records: Rec[] }>('child-list', { parentId: root.id })).records)?.ancestors).toBe(expected);
    const roots = (await get<{ records: Rec[] }>('parent-list', { deptName: '祖先根' })).records;
    expect(roots.find((r) => r.id === root.id)?.ancestors).toBe('0');
  });
});
