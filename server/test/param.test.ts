import type { Page } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer } from './harness.js';

const h = useServer();
type Param = { id: string; paramName: string; paramKey: string; paramValue: string; remark: string | null; createTime: string };
let admin: string;
let demoAdmin: string;
let plainUser: string;

beforeAll(async () => {
  admin = (await h.login('000000', 'admin', 'admin')).access_token;
  demoAdmin = (await h.login('541742', 'admin', 'admin')).access_token;
  await h.createUser('000000', 'viewer', 'pw', ['user']);
  plainUser = (await h.login('000000', 'viewer', 'pw')).access_token;
});

const submit = (body: unknown, opts: { token?: string; lang?: 'zh' | 'en' } = {}) =>
  h.call<Param>('POST', '/api/blade-system/param/submit', { token: opts.token ?? admin, body, lang: opts.lang });
const list = (query: Record<string, string | number> = {}, token = admin) =>
  h.call<Page<Param>>('GET', '/api/blade-system/param/list', { token, query });

describe('parameters: create, read, update, delete', () => {
  it('creates, reads, updates and soft-deletes a parameter', async () => {
    const created = await submit({ paramName: '注册审核', paramKey: 'account.registerAudit', paramValue: 'true', remark: 'r' });
    expect(created.status).toBe(200);
    expect(created.body.msg).toBe('操作成功');
    const { id } = created.body.data;
    expect(id).toMatch(/^\d+$/);
    expect(created.body.data.createTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    const detail = await h.call<Param>('GET', '/api/blade-system/param/detail', { token: admin, query: { id } });
    expect(detail.body.data).toMatchObject({ paramKey: 'account.registerAudit', paramValue: 'true' });

    const updated = await submit({ id, paramValue: 'false' });
    expect(updated.body.data).toMatchObject({ paramName: '注册审核', paramValue: 'false' });

    const removed = await h.call('POST', '/api/blade-system/param/remove', { token: admin, query: { ids: id } });
    expect(removed.body).toMatchObject({ code: 200, data: true });
    expect((await h.call('GET', '/api/blade-system/param/detail', { token: admin, query: { id } })).status).toBe(404);
    // the key is free again once its row is deleted
    expect((await submit({ paramName: 'x', paramKey: 'account.registerAudit', paramValue: 'y' })).status).toBe(200);
  });

  it('validates every required field with the spec\'s messages, in zh and en, and saves nothing', async () => {
    const before = (await list()).body.data.total;
    const zh = await submit({ paramName: ' ', paramKey: '' });
    expect(zh.status).toBe(400);
    expect(zh.body.data).toEqual({ paramName: '请输入参数名称', paramKey: '请输入参数键名', paramValue: '请输入参数键值' });
    const en = await submit({}, { lang: 'en' });
    expect(en.body.data).toMatchObject({ paramName: 'Please enter the parameter name', paramValue: 'Please enter the parameter value' });
    const tooLong = await submit({ paramName: 'n', paramKey: 'k'.repeat(256), paramValue: 'v' });
    expect(tooLong.body.data).toEqual({ paramKey: '参数键名长度不能超过 255 个字符' });
    const wrongType = await submit({ paramName: 5, paramKey: 'k1', paramValue: 'v' });
    expect(wrongType.body.data).toEqual({ paramName: '参数名称的类型不正确' });
    const blanked = await submit({ id: '1', paramName: '' });
    expect(blanked.status).toBe(400);
    expect((await list()).body.data.total).toBe(before);
  });

  it('refuses a duplicate key with 409 naming the field', async () => {
    await submit({ paramName: 'a', paramKey: 'dup.key', paramValue: '1' });
    const dup = await submit({ paramName: 'b', paramKey: 'dup.key', paramValue: '2' });
    expect(dup.status).toBe(409);
    expect(dup.body.data).toEqual({ paramKey: '参数键名「dup.key」已存在' });
    const other = await submit({ paramName: 'c', paramKey: 'dup.key2', paramValue: '3' });
    const renamed = await submit({ id: other.body.data.id, paramKey: 'dup.key' });
    expect(renamed.status).toBe(409);
  });

  it('answers 404 for updating or deleting an id that does not exist, and deletes all-or-nothing', async () => {
    expect((await submit({ id: '42', paramValue: 'x' })).status).toBe(404);
    const keep = await submit({ paramName: 'keep', paramKey: 'keep.me', paramValue: '1' });
    const res = await h.call('POST', '/api/blade-system/param/remove', { token: admin, query: { ids: `${keep.body.data.id},42` } });
    expect(res.status).toBe(404);
    expect((await h.call('GET', '/api/blade-system/param/detail', { token: admin, query: { id: keep.body.data.id } })).status).toBe(200);
  });
});

describe('parameters: list conventions', () => {
  beforeAll(async () => {
    for (let i = 1; i <= 25; i++) await submit({ paramName: `列表参数${i}`, paramKey: `list.k${String(i).padStart(2, '0')}`, paramValue: `v${i}` });
  });

  it('pages with current/size and reports total and pages', async () => {
    const p2 = await list({ current: 2, size: 10, paramKey_likeright: 'list.' });
    expect(p2.body.data).toMatchObject({ total: 25, size: 10, current: 2, pages: 3 });
    expect(p2.body.data.records).toHaveLength(10);
    const p3 = await list({ current: 3, size: 10, paramKey_likeright: 'list.' });
    expect(p3.body.data.records).toHaveLength(5);
    const beyond = await list({ current: 9, size: 10, paramKey_likeright: 'list.' });
    expect(beyond.body.data.records).toHaveLength(0);
  });

  it('filters: plain key is a substring match, suffixes change the operator, blanks are dropped', async () => {
    expect((await list({ paramName: '参数1' })).body.data.total).toBe(11); // 1, 10–19
    expect((await list({ paramKey_equal: 'list.k07' })).body.data.records.map((r) => r.paramValue)).toEqual(['v7']);
    expect((await list({ paramKey_likeleft: 'k25' })).body.data.total).toBe(1);
    expect((await list({ paramKey_in: 'list.k01,list.k02,nope' })).body.data.total).toBe(2);
    expect((await list({ paramKey_likeright: 'list.', paramKey_notlike: 'k1' })).body.data.total).toBe(15);
    expect((await list({ paramKey_likeright: 'list.', paramName: '   ' })).body.data.total).toBe(25);
    expect((await list({ paramKey_likeright: 'list.', remark_null: '1' })).body.data.total).toBe(25);
    const today = new Date().toISOString().slice(0, 10);
    const range = await list({ paramKey_likeright: 'list.', createTime_datege: '2000-01-01 00:00:00', createTime_datele: '2999-12-31 23:59:59' });
    expect(range.body.data.total).toBe(25);
    expect((await list({ paramKey_likeright: 'list.', createTime_datelt: '2000-01-01' })).body.data.total).toBe(0);
    expect(today).toMatch(/^\d{4}/);
  });

  it('treats LIKE wildcards in values literally', async () => {
    await submit({ paramName: 'pct', paramKey: 'odd%_key', paramValue: '1' });
    expect((await list({ paramKey: '%_' })).body.data.total).toBe(1);
    expect((await list({ paramKey: '_' })).body.data.total).toBe(1);
  });

  it('sorts by whitelisted fields in camelCase or snake_case', async () => {
    const asc = await list({ paramKey_likeright: 'list.', ascs: 'paramKey', size: 3 });
    expect(asc.body.data.records.map((r) => r.paramKey)).toEqual(['list.k01', 'list.k02', 'list.k03']);
    const desc = await list({ paramKey_likeright: 'list.', descs: 'param_key', size: 2 });
    expect(desc.body.data.records.map((r) => r.paramKey)).toEqual(['list.k25', 'list.k24']);
    const newest = await list({ paramKey_likeright: 'list.', size: 1 });
    expect(newest.body.data.records[0]!.paramKey).toBe('list.k25');
  });

  it('answers 400 with a clear message for unknown filters, bad sorts, bad paging and bad values', async () => {
    const unknown = await list({ password: 'x' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toBe('不支持的查询条件: password');
    expect((await list({ 'paramKey; drop table blade_param': 'x' })).status).toBe(400);
    expect((await list({ descs: 'paramValue' })).body.msg).toBe('不支持的排序字段: paramValue');
    expect((await list({ descs: 'id;select 1' })).status).toBe(400);
    const huge = await list({ size: 100000 });
    expect(huge.status).toBe(400);
    expect(huge.body.data).toHaveProperty('size');
    expect((await list({ current: 0 })).status).toBe(400);
    expect((await list({ size: 'ten' })).status).toBe(400);
    expect((await list({ createTime_datege: 'yesterday' })).body.msg).toMatch(/创建时间不是合法的时间/);
    expect((await list({ id_equal: '1 or 1=1' })).body.msg).toMatch(/编号不是合法的编号/);
    expect((await list({ paramName_ge: 'x' })).status).toBe(200);
    expect((await list({ paramName_datege: '2020-01-01' })).status).toBe(400);
    const injected = await list({ paramName: "' or 1=1 --" });
    expect(injected.body.data.total).toBe(0);
  });
});

describe('parameters: permissions', () => {
  it('answers 401 without a token and 403 without the permission code', async () => {
    expect((await h.call('GET', '/api/blade-system/param/list')).status).toBe(401);
    const viewer = await list({}, plainUser);
    expect(viewer.status).toBe(403);
    expect(viewer.body.msg).toBe('无权执行该操作 (param)');
    expect((await submit({ paramName: 'a', paramKey: 'b', paramValue: 'c' }, { token: plainUser })).status).toBe(403);
    expect((await h.call('POST', '/api/blade-system/param/remove', { token: plainUser, query: { ids: '1' } })).status).toBe(403);
    expect((await list({}, demoAdmin)).status).toBe(403);
  });

  it('needs param_add to create and param_edit to update, checked on the server', async () => {
    const { server } = h;
    const { schema, inTenant } = await import('../src/core/db/index.js');
    const { eq, and, inArray } = await import('drizzle-orm');
    await h.createUser('000000', 'limited', 'pw', ['user']);
    // give the user role the param menu and param_edit, but not param_add
    await inTenant(server.ctx.db, { tenantId: '000000' }, async (tx) => {
      const [role] = await tx.select().from(schema.role).where(eq(schema.role.roleAlias, 'user'));
      const menus = await tx.select().from(schema.menu).where(inArray(schema.menu.code, ['param', 'param_edit']));
      await tx.insert(schema.roleMenu).values(menus.map((m) => ({ roleId: role!.id, menuId: m.id })));
      void and;
    });
    await server.ctx.permissions.invalidate();
    const token = (await h.login('000000', 'limited', 'pw')).access_token;
    expect((await list({}, token)).status).toBe(200);
    const add = await submit({ paramName: 'a', paramKey: 'limited.k', paramValue: 'c' }, { token });
    expect(add.status).toBe(403);
    expect(add.body.msg).toBe('无权执行该操作 (param_add)');
    const existing = await submit({ paramName: 'a', paramKey: 'limited.k2', paramValue: 'c' });
    expect((await submit({ id: existing.body.data.id, paramValue: 'changed' }, { token })).status).toBe(200);
  });
});
