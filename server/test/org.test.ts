import type { Page, TreeNode } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer } from './harness.js';

const h = useServer();
type Dept = { id: string; parentId: string; deptName: string; parentIdName: string | null; deptCategoryName: string | null; hasChildren?: boolean; children?: Dept[] };
type Region = { id: string; code: string; name: string; parentId: string; regionLevel: number; provinceName: string | null; cityName: string | null; hasChildren?: boolean };
let admin: string;
let demo: string;

beforeAll(async () => {
  admin = (await h.login('000000', 'admin', 'admin')).access_token;
  demo = (await h.login('541742', 'admin', 'admin')).access_token;
});

const DEPT = '/api/blade-system/dept';
const submitDept = (body: Record<string, unknown>, token = admin, lang?: 'zh' | 'en') =>
  h.call<Dept>('POST', `${DEPT}/submit`, { token, body, lang });
const detailDept = (id: string, token = admin) => h.call<Dept>('GET', `${DEPT}/detail`, { token, query: { id } });

describe('departments: a tree resource', () => {
  let root: Dept;
  let child: Dept;
  let grandchild: Dept;

  beforeAll(async () => {
    root = (await submitDept({ deptName: '华东大区', fullName: '华东大区', deptCategory: 1, sort: 1 })).body.data;
    child = (await submitDept({ deptName: '上海分部', fullName: '华东大区上海分部', parentId: root.id, deptCategory: 2, sort: 1 })).body.data;
    grandchild = (await submitDept({ deptName: '浦东组', fullName: '上海分部浦东组', parentId: child.id, deptCategory: 3, sort: 1 })).body.data;
  });

  it('keeps ancestors from the root and answers the parent\'s name and the category\'s', async () => {
    expect(child.parentIdName).toBe('华东大区');
    expect(child.deptCategoryName).toBe('部门');
    const { server } = h;
    const { inTenant, schema } = await import('../src/core/db/index.js');
    const { eq } = await import('drizzle-orm');
    const [row] = await inTenant(server.ctx.db, { tenantId: '000000' }, (tx) => tx.select().from(schema.dept).where(eq(schema.dept.id, grandchild.id)));
    expect(row!.ancestors).toBe(`0,${root.id},${child.id}`);
  });

  it('answers list as the whole tree, unpaged, and the tree calls as documented', async () => {
    const list = await h.call<Dept[]>('GET', `${DEPT}/list`, { token: admin });
    expect(Array.isArray(list.body.data)).toBe(true);
    const east = list.body.data.find((d) => d.id === root.id)!;
    expect(east.hasChildren).toBe(true);
    expect(east.children?.[0]?.id).toBe(child.id);
    expect(east.children?.[0]?.children?.[0]?.id).toBe(grandchild.id);

    const tree = await h.call<TreeNode[]>('GET', `${DEPT}/tree`, { token: admin });
    const node = tree.body.data.find((n) => n.id === root.id)!;
    expect(node).toMatchObject({ title: '华东大区', key: root.id, value: root.id, hasChildren: true });

    const lazy = await h.call<TreeNode[]>('GET', `${DEPT}/lazy-tree`, { token: admin, query: { parentId: root.id } });
    expect(lazy.body.data.map((n) => n.id)).toEqual([child.id]);
    const lazyList = await h.call<Dept[]>('GET', `${DEPT}/lazy-list`, { token: admin, query: { parentId: child.id } });
    expect(lazyList.body.data.map((d) => [d.id, d.hasChildren])).toEqual([[grandchild.id, false]]);
    // a search looks through every level
    const found = await h.call<Dept[]>('GET', `${DEPT}/lazy-list`, { token: admin, query: { deptName: '浦东' } });
    expect(found.body.data.map((d) => d.id)).toEqual([grandchild.id]);
    const children = await h.call<Page<Dept>>('GET', `${DEPT}/child-list`, { token: admin, query: { parentId: root.id } });
    expect(children.body.data.total).toBe(1);
    const roots = await h.call<Page<Dept>>('GET', `${DEPT}/parent-list`, { token: admin, query: { deptName: '华东' } });
    expect(roots.body.data.records.map((d) => d.id)).toEqual([root.id]);
  });

  it('moves a subtree: its ancestors follow; a move under itself or its descendant is refused', async () => {
    const other = (await submitDept({ deptName: '华南大区', fullName: '华南大区', deptCategory: 1, sort: 2 })).body.data;
    const toSelf = await submitDept({ id: child.id, parentId: child.id });
    expect(toSelf.status).toBe(400);
    expect(toSelf.body.data).toEqual({ parentId: '上级不能是自己或自己的下级' });
    const underDescendant = await submitDept({ id: root.id, parentId: grandchild.id }, admin, 'en');
    expect(underDescendant.status).toBe(400);
    expect(underDescendant.body.msg).toMatch(/descendants/);

    expect((await submitDept({ id: child.id, parentId: other.id })).status).toBe(200);
    const { inTenant, schema } = await import('../src/core/db/index.js');
    const { eq } = await import('drizzle-orm');
    const [moved] = await inTenant(h.server.ctx.db, { tenantId: '000000' }, (tx) => tx.select().from(schema.dept).where(eq(schema.dept.id, grandchild.id)));
    expect(moved!.ancestors).toBe(`0,${other.id},${child.id}`);
    expect((await submitDept({ id: child.id, parentId: root.id })).status).toBe(200);
  });

  it('refuses a parent that does not exist or is another tenant\'s, naming the field', async () => {
    const missing = await submitDept({ deptName: 'x', fullName: 'x', parentId: '123456789', deptCategory: 2, sort: 1 });
    expect(missing.status).toBe(400);
    expect(missing.body.data).toEqual({ parentId: '上级部门选择的数据不存在或已删除' });
    const demoRoot = (await h.call<Dept[]>('GET', `${DEPT}/list`, { token: demo })).body.data[0]!;
    const foreign = await submitDept({ deptName: 'x', fullName: 'x', parentId: demoRoot.id, deptCategory: 2, sort: 1 });
    expect(foreign.status).toBe(400);
  });

  it('refuses to remove a node with children, or a department with users; removes a leaf', async () => {
    const refused = await h.call('POST', `${DEPT}/remove`, { token: admin, query: { ids: root.id } });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe('「华东大区」下还有子节点, 请先删除子节点');
    await h.createUser('000000', 'pudong', 'pw', ['user'], { deptId: grandchild.id });
    const withUsers = await h.call('POST', `${DEPT}/remove`, { token: admin, query: { ids: grandchild.id } });
    expect(withUsers.status).toBe(409);
    expect(withUsers.body.msg).toBe('用户管理「pudong」等 1 条记录仍在使用「浦东组」, 不能删除');
    const leaf = (await submitDept({ deptName: '临时组', fullName: '临时组', parentId: child.id, deptCategory: 3, sort: 9 })).body.data;
    expect((await h.call('POST', `${DEPT}/remove`, { token: admin, query: { ids: leaf.id } })).status).toBe(200);
    expect((await detailDept(leaf.id)).status).toBe(404);
  });

  it('keeps tenants apart: another tenant neither sees nor changes the rows', async () => {
    const theirs = await h.call<Dept[]>('GET', `${DEPT}/list`, { token: demo });
    expect(theirs.body.data.some((d) => d.id === root.id)).toBe(false);
    expect((await detailDept(root.id, demo)).status).toBe(404);
    expect((await submitDept({ id: root.id, deptName: 'hijack' }, demo)).status).toBe(404);
    expect((await h.call('POST', `${DEPT}/remove`, { token: demo, query: { ids: grandchild.id } })).status).toBe(404);
    expect((await detailDept(root.id)).body.data.deptName).toBe('华东大区');
  });

  it('lets only the platform\'s administrators read another tenant\'s tree with tenantId', async () => {
    const asked = await h.call<TreeNode[]>('GET', `${DEPT}/tree`, { token: admin, query: { tenantId: '541742' } });
    expect(asked.status).toBe(200);
    expect(asked.body.data.some((n) => n.id === root.id)).toBe(false);
    expect(asked.body.data.length).toBeGreaterThan(0);
    expect((await h.call('GET', `${DEPT}/tree`, { token: demo, query: { tenantId: '000000' } })).status).toBe(403);
  });

  it('select answers the caller\'s own departments, or the ones named', async () => {
    const own = await h.call<Array<{ id: string; deptName: string }>>('GET', `${DEPT}/select`, { token: admin });
    expect(own.body.data.length).toBe(2);
    const named = await h.call<Array<{ id: string }>>('GET', `${DEPT}/select`, { token: admin, query: { deptId: `${root.id},${child.id}` } });
    expect(named.body.data.map((d) => d.id).sort()).toEqual([root.id, child.id].sort());
    const bad = await h.call('GET', `${DEPT}/select`, { token: admin, query: { userId: 'abc' } });
    expect(bad.status).toBe(400);
  });
});

describe('posts', () => {
  it('selects a tenant\'s posts, sorted; another tenant\'s only for the platform\'s administrators', async () => {
    const submit = (body: Record<string, unknown>, token = admin) => h.call<{ id: string }>('POST', '/api/blade-system/post/submit', { token, body });
    expect((await submit({ category: 1, postCode: 'ceo', postName: '首席执行官', sort: 1 })).status).toBe(200);
    expect((await submit({ category: 3, postCode: 'dev', postName: '开发', sort: 2 })).status).toBe(200);
    const dup = await submit({ category: 3, postCode: 'dev', postName: '开发2', sort: 3 });
    expect(dup.status).toBe(409);
    // the same code in another tenant is fine
    expect((await submit({ category: 3, postCode: 'dev', postName: '开发', sort: 1 }, demo)).status).toBe(200);
    const mine = await h.call<Array<{ postCode: string }>>('GET', '/api/blade-system/post/select', { token: admin });
    expect(mine.body.data.map((p) => p.postCode)).toEqual(['ceo', 'dev']);
    const theirs = await h.call<Array<{ postCode: string }>>('GET', '/api/blade-system/post/select', { token: admin, query: { tenantId: '541742' } });
    expect(theirs.body.data.map((p) => p.postCode)).toEqual(['dev']);
    expect((await h.call('GET', '/api/blade-system/post/select', { token: demo, query: { tenantId: '000000' } })).status).toBe(403);
  });
});

describe('regions: the national divisions, keyed by code', () => {
  const REGION = '/api/blade-system/region';
  it('holds the provinces, cities and districts with their real codes', async () => {
    const provinces = await h.call<TreeNode[]>('GET', `${REGION}/lazy-tree`, { token: admin, query: { parentCode: '00' } });
    expect(provinces.status).toBe(200);
    expect(provinces.body.data.length).toBe(34);
    expect(provinces.body.data[0]).toMatchObject({ id: '110000', title: '北京市', hasChildren: true });
    const gd = await h.call<TreeNode[]>('GET', `${REGION}/lazy-tree`, { token: admin, query: { parentCode: '440000' } });
    expect(gd.body.data.find((n) => n.id === '440300')?.title).toBe('深圳市');
    const nanshan = await h.call<Region>('GET', `${REGION}/detail`, { token: admin, query: { code: '440305' } });
    expect(nanshan.body.data).toMatchObject({ code: '440305', name: '南山区', parentId: '440300', regionLevel: 3, provinceName: '广东省', cityName: '深圳市' });
    const page = await h.call<Page<Region>>('GET', `${REGION}/list`, { token: admin, query: { name: '南山', regionLevel_equal: 3 } });
    expect(page.body.data.records.map((r) => r.code)).toContain('440305');
  });

  it('adds a town under a district: its id is its code, its level and names follow the parent; removes it by id', async () => {
    const created = await h.call<Region>('POST', `${REGION}/submit`, { token: admin, body: { code: '440305999', parentId: '440305', name: '测试街道', sort: 99 } });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ id: '440305999', regionLevel: 4, provinceName: '广东省', cityName: '深圳市', districtName: '南山区' });
    const badCode = await h.call('POST', `${REGION}/submit`, { token: admin, body: { code: '12ab', parentId: '440305', name: 'x' } });
    expect(badCode.status).toBe(400);
    const changed = await h.call('POST', `${REGION}/submit`, { token: admin, body: { id: '440305999', code: '440305998' } });
    expect(changed.status).toBe(400);
    expect(changed.body.data).toEqual({ code: '区划编号创建后不能修改' });
    expect((await h.call('POST', `${REGION}/remove`, { token: admin, query: { id: '440305' } })).status).toBe(400);
    expect((await h.call('POST', `${REGION}/remove`, { token: admin, query: { id: '440305999' } })).status).toBe(200);
  });

  it('is written only by the platform tenant', async () => {
    expect((await h.call('POST', `${REGION}/submit`, { token: demo, body: { code: '440305997', parentId: '440305', name: 'x' } })).status).toBe(403);
  });
});
