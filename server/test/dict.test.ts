import type { DictItem, Page, TreeNode } from '@console/contract';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { inTenant, schema } from '../src/core/db/index.js';
import { nextId } from '../src/core/ids.js';
import { useServer } from './harness.js';

const h = useServer();
type Dict = {
  id: string; parentId: string; code: string; dictKey: string; dictValue: string; dictValueEn: string | null; sort: number; isSealed: number;
  isSealedName: string | null; parentIdName: string | null; remark: string | null; hasChildren?: boolean; children?: Dict[]; tenantId?: string;
};
const DICT = '/api/blade-system/dict';
const BIZ = '/api/blade-system/dict-biz';
let admin: string;
let demo: string;
let keeper: string;

const submit = (base: string, body: Record<string, unknown>, token = admin, lang?: 'zh' | 'en') => h.call<Dict>('POST', `${base}/submit`, { token, body, lang });
const remove = (base: string, ids: string, token = admin, lang?: 'zh' | 'en') => h.call<boolean>('POST', `${base}/remove`, { token, query: { ids }, lang });
const header = (base: string, code: string, token = admin, extra: Record<string, unknown> = {}) =>
  submit(base, { code, dictKey: '-1', dictValue: `${code} 字典`, sort: 1, isSealed: 0, ...extra }, token);

beforeAll(async () => {
  admin = (await h.login('000000', 'admin', 'admin')).access_token;
  demo = (await h.login('541742', 'admin', 'admin')).access_token;
  // a platform user who may edit the system dictionary but is not the platform's administrator
  await h.createUser('000000', 'dictkeeper', 'keeper-pass', ['user']);
  await inTenant(h.server.ctx.db, { tenantId: '000000' }, async (tx) => {
    const [role] = await tx.select().from(schema.role).where(and(eq(schema.role.tenantId, '000000'), eq(schema.role.roleAlias, 'user')));
    const menus = await tx.select().from(schema.menu);
    const codes = ['system', 'dict', 'dict_add', 'dict_edit', 'dict_delete', 'dict_view'];
    await tx.insert(schema.roleMenu).values(menus.filter((m) => codes.includes(m.code)).map((m) => ({ roleId: role!.id, menuId: m.id }))).onConflictDoNothing();
  });
  keeper = (await h.login('000000', 'dictkeeper', 'keeper-pass')).access_token;
});

describe('system dictionary', () => {
  let head: Dict;
  let red: Dict;

  beforeAll(async () => {
    head = (await header(DICT, 'test_colour')).body.data;
    const res = await submit(DICT, { parentId: head.id, code: 'ignored', dictKey: '1', dictValue: '红色', dictValueEn: 'Red', sort: 1, isSealed: 0 });
    expect(res.status).toBe(200);
    red = res.body.data;
  });

  it('items inherit their parent\'s code; the answers carry the parent\'s name and the sealed flag\'s', async () => {
    expect(head).toMatchObject({ parentId: '0', code: 'test_colour', dictKey: '-1', isSealed: 0, isSealedName: '否' });
    expect(red).toMatchObject({ parentId: head.id, code: 'test_colour', parentIdName: 'test_colour 字典' });
  });

  it('answers list (unpaged tree), parent-list, child-list, detail, tree?code=DICT and dictionary?code=', async () => {
    const list = await h.call<Dict[]>('GET', `${DICT}/list`, { token: admin, query: { code: 'test_colour' } });
    expect(Array.isArray(list.body.data)).toBe(true);
    const node = list.body.data.find((d) => d.id === head.id)!;
    expect(node.hasChildren).toBe(true);
    expect(node.children?.map((d) => d.id)).toEqual([red.id]);

    const parents = await h.call<Page<Dict>>('GET', `${DICT}/parent-list`, { token: admin, query: { code: 'test_colour', current: 1, size: 10 } });
    expect(parents.body.data.records.map((d) => d.id)).toEqual([head.id]);
    const all = await h.call<Page<Dict>>('GET', `${DICT}/parent-list`, { token: admin, query: { size: 100 } });
    expect(all.body.data.records.every((d) => d.parentId === '0')).toBe(true);
    expect(all.body.data.records.some((d) => d.code === 'notice')).toBe(true);

    const children = await h.call<Page<Dict>>('GET', `${DICT}/child-list`, { token: admin, query: { parentId: head.id } });
    expect(children.body.data).toMatchObject({ total: 1, records: [{ id: red.id, dictKey: '1', dictValue: '红色' }] });

    const detail = await h.call<Dict>('GET', `${DICT}/detail`, { token: admin, query: { id: red.id } });
    expect(detail.body.data).toMatchObject({ id: red.id, dictValueEn: 'Red', parentIdName: 'test_colour 字典' });

    const tree = await h.call<TreeNode[]>('GET', `${DICT}/tree`, { token: admin, query: { code: 'DICT' } });
    const t = tree.body.data.find((n) => n.id === head.id)!;
    expect(t).toMatchObject({ title: 'test_colour 字典', hasChildren: true });
    expect(t.children?.[0]).toMatchObject({ id: red.id, title: '红色' });

    const zh = await h.call<DictItem[]>('GET', `${DICT}/dictionary`, { token: admin, query: { code: 'test_colour' } });
    expect(zh.body.data).toEqual([{ id: red.id, code: 'test_colour', dictKey: '1', dictValue: '红色', sort: 1, remark: '' }]);
    const en = await h.call<DictItem[]>('GET', `${DICT}/dictionary`, { token: demo, query: { code: 'test_colour' }, lang: 'en' });
    expect(en.body.data.map((d) => d.dictValue)).toEqual(['Red']);
  });

  it('names every missing required field with the spec\'s message, in Chinese and English', async () => {
    const zh = await submit(DICT, {}, admin, 'zh');
    expect(zh.status).toBe(400);
    expect(zh.body.data).toMatchObject({
      code: '请输入字典编号', dictValue: '请输入字典名称', sort: '请输入字典排序', isSealed: '请选择封存', dictKey: '请输入字典键值',
    });
    expect(zh.body.data).not.toHaveProperty('parentId');
    const en = await submit(DICT, {}, admin, 'en');
    expect(en.body.data).toMatchObject({
      code: 'Please enter the dictionary code', dictValue: 'Please enter the dictionary name', sort: 'Please enter the sort order',
      isSealed: 'Please select whether it is sealed', dictKey: 'Please enter the dictionary key',
    });
    const blank = await submit(DICT, { id: red.id, dictValue: '' });
    expect(blank.body.data).toEqual({ dictValue: '请输入字典名称' });
    const badSeal = await submit(DICT, { id: red.id, isSealed: 2 });
    expect(badSeal.status).toBe(400);
  });

  it('keeps (code, dictKey) unique among live rows', async () => {
    const dup = await submit(DICT, { parentId: head.id, dictKey: '1', dictValue: '又一个红', sort: 2, isSealed: 0, code: 'x' });
    expect(dup.status).toBe(409);
    expect(dup.body.data).toEqual({ dictKey: '字典「test_colour」中已存在键值「1」' });
    const dupHeader = await header(DICT, 'test_colour');
    expect(dupHeader.status).toBe(409);
    // another dictionary may use the same key
    const other = (await header(DICT, 'test_size')).body.data;
    expect((await submit(DICT, { parentId: other.id, dictKey: '1', dictValue: '大', sort: 1, isSealed: 0, code: 'test_size' })).status).toBe(200);
  });

  it('renames a dictionary: its items follow; a code used by another dictionary is refused', async () => {
    const h1 = (await header(DICT, 'test_shape')).body.data;
    const item = (await submit(DICT, { parentId: h1.id, dictKey: 'c', dictValue: '圆', sort: 1, isSealed: 0, code: 'x' })).body.data;
    expect((await submit(DICT, { id: h1.id, code: 'test_size' })).status).toBe(409);
    expect((await submit(DICT, { id: h1.id, code: 'test_shape2' })).status).toBe(200);
    const moved = await h.call<Dict>('GET', `${DICT}/detail`, { token: admin, query: { id: item.id } });
    expect(moved.body.data.code).toBe('test_shape2');
    // an item's own code cannot leave its parent's dictionary
    const self = await submit(DICT, { id: item.id, code: 'elsewhere' });
    expect(self.body.data.code).toBe('test_shape2');
  });

  it('refuses to remove a dictionary that still has items', async () => {
    const res = await remove(DICT, head.id);
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain('子节点');
  });

  describe('sealed entries', () => {
    let sealed: Dict;
    beforeAll(async () => {
      sealed = (await submit(DICT, { parentId: head.id, dictKey: '9', dictValue: '封存色', sort: 9, isSealed: 1, code: 'x' })).body.data;
    });

    it('are neither updated nor removed, whoever asks', async () => {
      for (const token of [admin, keeper]) {
        const upd = await submit(DICT, { id: sealed.id, dictValue: '改名' }, token);
        expect(upd.status).toBe(400);
        expect(upd.body.msg).toBe('字典「封存色」已封存, 不能修改或删除');
        const rm = await remove(DICT, sealed.id, token);
        expect(rm.status).toBe(400);
        expect(rm.body.msg).toBe('字典「封存色」已封存, 不能修改或删除');
      }
      const en = await remove(DICT, `${red.id},${sealed.id}`, admin, 'en');
      expect(en.body.msg).toBe('The dictionary entry "封存色" is sealed; it cannot be changed or removed');
      // all or nothing: the unsealed one was not removed either
      expect((await h.call('GET', `${DICT}/detail`, { token: admin, query: { id: red.id } })).status).toBe(200);
      // unsealing together with another change is refused, even to the administrator
      const mixed = await submit(DICT, { id: sealed.id, isSealed: 0, dictValue: '改名' });
      expect(mixed.status).toBe(400);
      expect(mixed.body.data).toEqual({ isSealed: '已封存的字典只能由平台管理员解除封存 (只修改封存为否)' });
    });

    it('only the platform administrator may unseal (an update setting isSealed 0, the rest echoed as it was)', async () => {
      const byKeeper = await submit(DICT, { id: sealed.id, isSealed: 0 }, keeper);
      expect(byKeeper.status).toBe(400);
      const detail = (await h.call<Dict>('GET', `${DICT}/detail`, { token: admin, query: { id: sealed.id } })).body.data;
      const { id, code, dictKey, dictValue, sort, remark, parentId } = detail;
      const byAdmin = await submit(DICT, { id, code, dictKey, dictValue, sort, remark, parentId, isSealed: 0 });
      expect(byAdmin.status).toBe(200);
      expect(byAdmin.body.data.isSealed).toBe(0);
      // unsealed, it is an ordinary entry again
      expect((await submit(DICT, { id: sealed.id, dictValue: '解封色' }, keeper)).status).toBe(200);
      expect((await remove(DICT, sealed.id, keeper)).status).toBe(200);
    });
  });

  it('a changed display value shows at once in <field>Name (the cache is dropped on every change)', async () => {
    const notice = (await h.call<{ id: string; categoryName: string }>('POST', '/api/blade-desk/notice/submit', {
      token: admin, body: { title: '字典缓存', category: 1, releaseTime: '2026-05-01 08:30:00', content: '<p>x</p>' },
    })).body.data;
    expect(notice.categoryName).toBe('发布通知');
    const items = await h.call<Page<Dict>>('GET', `${DICT}/child-list`, {
      token: admin, query: { parentId: (await h.call<Page<Dict>>('GET', `${DICT}/parent-list`, { token: admin, query: { code_equal: 'notice' } })).body.data.records[0]!.id },
    });
    const one = items.body.data.records.find((d) => d.dictKey === '1')!;
    expect((await submit(DICT, { id: one.id, dictValue: '发布通知(改)', dictValueEn: 'Released' })).status).toBe(200);
    const after = await h.call<{ categoryName: string }>('GET', '/api/blade-desk/notice/detail', { token: admin, query: { id: notice.id } });
    expect(after.body.data.categoryName).toBe('发布通知(改)');
    const en = await h.call<{ categoryName: string }>('GET', '/api/blade-desk/notice/detail', { token: admin, query: { id: notice.id }, lang: 'en' });
    expect(en.body.data.categoryName).toBe('Released');
    expect((await submit(DICT, { id: one.id, dictValue: '发布通知', dictValueEn: 'Release' })).status).toBe(200);
    const back = await h.call<{ categoryName: string }>('GET', '/api/blade-desk/notice/detail', { token: admin, query: { id: notice.id } });
    expect(back.body.data.categoryName).toBe('发布通知');
  });

  it('answers 401 without a token and 403 to a tenant (the system dictionary is the platform\'s)', async () => {
    expect((await h.call('GET', `${DICT}/list`)).status).toBe(401);
    expect((await h.call('POST', `${DICT}/submit`, { body: { code: 'x' } })).status).toBe(401);
    expect((await h.call('GET', `${DICT}/parent-list`, { token: demo })).status).toBe(403);
    expect((await header(DICT, 'tenant_try', demo)).status).toBe(403);
    expect((await remove(DICT, red.id, demo)).status).toBe(403);
  });
});

describe('business dictionary', () => {
  it('keeps each tenant\'s rows to itself; the same code may exist in several tenants', async () => {
    const mine = (await header(BIZ, 'biz_level', demo)).body.data;
    expect(mine).toMatchObject({ tenantId: '541742', code: 'biz_level', parentId: '0' });
    const item = await submit(BIZ, { parentId: mine.id, dictKey: 'gold', dictValue: '金牌', dictValueEn: 'Gold', sort: 1, isSealed: 0, code: 'x' }, demo);
    expect(item.body.data).toMatchObject({ code: 'biz_level', parentIdName: 'biz_level 字典' });
    const theirs = (await header(BIZ, 'biz_level')).body.data;
    expect(theirs.tenantId).toBe('000000');

    const demoList = await h.call<Dict[]>('GET', `${BIZ}/list`, { token: demo });
    expect(demoList.body.data.map((d) => d.id)).toEqual([mine.id]);
    expect(demoList.body.data[0]!.children?.map((d) => d.dictKey)).toEqual(['gold']);
    const platformParents = await h.call<Page<Dict>>('GET', `${BIZ}/parent-list`, { token: admin });
    expect(platformParents.body.data.records.map((d) => d.id)).toEqual([theirs.id]);
    expect((await h.call<Page<Dict>>('GET', `${BIZ}/child-list`, { token: admin, query: { parentId: mine.id } })).body.data.total).toBe(0);
    expect((await h.call('GET', `${BIZ}/detail`, { token: admin, query: { id: mine.id } })).status).toBe(404);
    expect((await submit(BIZ, { id: mine.id, dictValue: '偷改' })).status).toBe(404);
    expect((await remove(BIZ, item.body.data.id)).status).toBe(404);
    // another tenant's row is not a parent one can pick
    const cross = await submit(BIZ, { parentId: mine.id, dictKey: 'x', dictValue: 'x', sort: 1, isSealed: 0, code: 'x' });
    expect(cross.status).toBe(400);

    const zh = await h.call<DictItem[]>('GET', `${BIZ}/dictionary`, { token: demo, query: { code: 'biz_level' } });
    expect(zh.body.data.map((d) => [d.dictKey, d.dictValue])).toEqual([['gold', '金牌']]);
    const en = await h.call<DictItem[]>('GET', `${BIZ}/dictionary`, { token: demo, query: { code: 'biz_level' }, lang: 'en' });
    expect(en.body.data.map((d) => d.dictValue)).toEqual(['Gold']);
    expect((await h.call<DictItem[]>('GET', `${BIZ}/dictionary`, { token: admin, query: { code: 'biz_level' } })).body.data).toEqual([]);
    const tree = await h.call<TreeNode[]>('GET', `${BIZ}/tree`, { token: demo, query: { code: 'DICT' } });
    expect(tree.body.data.map((n) => n.id)).toEqual([mine.id]);
  });

  it('has the same rules: required messages, unique keys, sealed entries', async () => {
    const en = await submit(BIZ, {}, demo, 'en');
    expect(en.body.data).toMatchObject({ code: 'Please enter the dictionary code', dictKey: 'Please enter the dictionary key', isSealed: 'Please select whether it is sealed' });
    const head = (await header(BIZ, 'biz_sealed', demo, { isSealed: 1 })).body.data;
    expect((await submit(BIZ, { id: head.id, dictValue: 'x' }, demo)).status).toBe(400);
    expect((await remove(BIZ, head.id, demo)).status).toBe(400);
    // a tenant's administrator is not the platform's: it cannot unseal
    expect((await submit(BIZ, { id: head.id, isSealed: 0 }, demo)).status).toBe(400);
    expect((await header(BIZ, 'biz_sealed', demo)).status).toBe(409);
  });

  it('answers 401 without a token', async () => {
    expect((await h.call('GET', `${BIZ}/list`)).status).toBe(401);
    expect((await h.call('GET', `${BIZ}/dictionary`, { query: { code: 'x' } })).status).toBe(401);
  });
});

describe('dictionary labels', () => {
  it('a caller inside a transaction never waits for a load queued behind it (PGlite has one connection)', async () => {
    const { db, dicts } = h.server.ctx;
    const header = nextId();
    await db.insert(schema.dict).values([
      { id: header, parentId: '0', code: 'labels_probe', dictKey: '-1', dictValue: '探针', sort: 0 },
      { id: nextId(), parentId: header, code: 'labels_probe', dictKey: 'a', dictValue: '甲', dictValueEn: 'A', sort: 1 },
    ]);
    const { queued } = await inTenant(db, { tenantId: '000000' }, async (tx) => {
      // a request without a transaction asks first: on PGlite its read waits for this transaction to end
      const queued = dicts.labels('labels_probe', 'en');
      expect((await dicts.labels('labels_probe', 'zh', tx)).get('a')).toBe('甲');
      return { queued };
    });
    expect((await queued).get('a')).toBe('A');
  });
});
