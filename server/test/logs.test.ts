import type { Page } from '@console/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { inTenant, schema } from '../src/core/db/index.js';
import { nextId } from '../src/core/ids.js';
import { LOG_RETENTION_PARAM, purgeLogs } from '../src/areas/monitor/retention.js';
import { keepOldEventsAsMessages } from '../src/areas/monitor/reading.js';
import { md5, useServer } from './harness.js';
import { param } from '../src/areas/system/tables.js';

const h = useServer();
type Log = Record<string, unknown> & { id: string; createTime: string; requestUri: string | null; type?: string; createBy: string | null };
let admin: string;
let demo: string;
let demoUser: string;

const PLATFORM = '000000';
const DEMO = '541742';

beforeAll(async () => {
  admin = (await h.login(PLATFORM, 'admin', 'admin')).access_token;
  demo = (await h.login(DEMO, 'admin', 'admin')).access_token;
  await h.createUser(DEMO, 'logreader', 'pw', ['user']);
  demoUser = (await h.login(DEMO, 'logreader', 'pw')).access_token;
});

const list = (kind: string, query: Record<string, string | number> = {}, token = admin) =>
  h.call<Page<Log>>('GET', `/api/blade-log/${kind}/list`, { token, query });

describe('menus', () => {
  it('seeds monitor › usual, API and error logs (view only) and the API docs link opening in a new window', async () => {
    const rows = await h.server.ctx.db.select({ code: schema.menu.code, path: schema.menu.path, isOpen: schema.menu.isOpen, parentId: schema.menu.parentId })
      .from(schema.menu).where(inArray(schema.menu.code, ['monitor', 'log_usual', 'log_api', 'log_error', 'api_doc', 'log_api_view', 'log_api_add', 'log_api_delete', 'log_error_edit']));
    const byCode = new Map(rows.map((r) => [r.code, r]));
    expect([...byCode.keys()].sort()).toEqual(['api_doc', 'log_api', 'log_api_view', 'log_error', 'log_usual', 'monitor']);
    expect(byCode.get('api_doc')).toMatchObject({ path: '/api/docs', isOpen: 2, parentId: byCode.get('monitor')!.parentId === '0' ? byCode.get('monitor')!.path && expect.any(String) : expect.any(String) });
    expect(byCode.get('api_doc')!.parentId).toBe(byCode.get('log_api')!.parentId);
    // the platform's administrator sees all four; a tenant's administrator its logs but not the API docs
    const routes = JSON.stringify((await h.call('GET', '/api/blade-system/menu/routes', { token: admin })).body.data);
    for (const code of ['log_usual', 'log_api', 'log_error', 'api_doc']) expect(routes).toContain(`"code":"${code}"`);
    const theirs = JSON.stringify((await h.call('GET', '/api/blade-system/menu/routes', { token: demo })).body.data);
    expect(theirs).toContain('"code":"log_error"');
    expect(theirs).not.toContain('"code":"api_doc"');
  });
});

describe('the error log', () => {
  it('shows the console\'s uploaded error records as type web in the uploader\'s tenant, with their stack', async () => {
    const record = { type: 'TypeError', message: 'x is undefined', stack: 'TypeError: x is undefined\n    at render (app.js:1:2)', url: '/system/user?blade-auth=secret-token', info: 'component: UserPage' };
    expect((await h.call('POST', '/api/blade-auth/oauth/logout', { token: demo, body: [record] })).status).toBe(200);
    const mine = await list('error', { type_equal: 'web' }, demo);
    expect(mine.status).toBe(200);
    const hit = mine.body.data.records.find((r) => r.message === 'x is undefined')!;
    expect(hit).toMatchObject({ type: 'web', typeName: '前端', exceptionName: 'TypeError', createBy: 'admin' });
    expect(hit.requestUri).not.toContain('secret-token');
    const detail = await h.call<Log>('GET', '/api/blade-log/error/detail', { token: demo, query: { id: hit.id } });
    expect(detail.body.data).toMatchObject({ stackTrace: record.stack, params: record.info });
    // another tenant neither lists nor reads it
    expect((await list('error', { type_equal: 'web' })).body.data.records.some((r) => r.id === hit.id)).toBe(false);
    expect((await h.call('GET', '/api/blade-log/error/detail', { token: admin, query: { id: hit.id } })).status).toBe(404);
    // the platform's administrators read any tenant's with tenantId; a tenant may not read the platform's
    const asked = await list('error', { tenantId: DEMO, type_equal: 'web' });
    expect(asked.body.data.records.some((r) => r.id === hit.id)).toBe(true);
    expect((await h.call<Log>('GET', '/api/blade-log/error/detail', { token: admin, query: { id: hit.id, tenantId: DEMO } })).body.data.id).toBe(hit.id);
    expect((await list('error', { tenantId: PLATFORM }, demo)).status).toBe(403);
    expect((await h.call('GET', '/api/blade-log/error/detail', { token: demo, query: { id: hit.id, tenantId: PLATFORM } })).status).toBe(403);
  });
});

describe('the API log', () => {
  it('lists writes newest first, filtered by time, user, URI and method; detail shows the masked parameters', async () => {
    const before = new Date(Date.now() - 1000);
    const one = await h.call('POST', '/api/blade-desk/notice/submit', { token: demo, body: { category: 1, content: 'wrongsecret', password: 'wrongsecret' } });
    expect(one.status).toBe(400);
    await h.call('POST', '/api/blade-desk/notice/submit', { token: demo, body: { title: 'log me', category: 1, releaseTime: '2026-01-01 00:00:00' } });
    await h.server.ctx.logs.flush();
    const page = await list('api', { requestUri: 'notice/sub', method_equal: 'POST', createBy_equal: 'admin' }, demo);
    expect(page.status).toBe(200);
    expect(page.body.data.records.length).toBeGreaterThan(0);
    expect(page.body.data.records[0]).toMatchObject({ requestUri: '/api/blade-desk/notice/submit', method: 'POST', type: '1', typeName: '成功' });
    const all = await list('api', {}, demo);
    const times = all.body.data.records.map((r) => r.createTime);
    expect([...times].sort().reverse()).toEqual(times);
    expect(all.body.data.records[0]!.requestUri).toBe('/api/blade-desk/notice/submit');
    const fmt = (d: Date) => new Date(d.getTime() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
    const ranged = await list('api', { createTime_datege: fmt(before), createTime_datele: fmt(new Date(Date.now() + 60_000)) }, demo);
    expect(ranged.body.data.total).toBeGreaterThanOrEqual(2);
    expect(ranged.body.data.records.every((r) => r.createTime >= fmt(before))).toBe(true);
    const past = await list('api', { createTime_datele: fmt(new Date(Date.now() - 86_400_000)) }, demo);
    expect(past.body.data.total).toBe(0);
    const future = await list('api', { createTime_datege: fmt(new Date(Date.now() + 3600_000)) }, demo);
    expect(future.body.data.total).toBe(0);
    const pw = all.body.data.records[1]!;
    expect(pw).toMatchObject({ type: '2', status: 400, requestUri: '/api/blade-desk/notice/submit' });
    const detail = await h.call<Log>('GET', '/api/blade-log/api/detail', { token: demo, query: { id: pw.id } });
    expect(String(detail.body.data.params)).toContain('wrongsecret');
    expect(String(detail.body.data.params).match(/wrongsecret/g)).toHaveLength(1); // the password is masked
  });

  it('refuses bad filters naming them, and has no add, edit or delete', async () => {
    const bad = await list('api', { createTime_datege: 'yesterday' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.data as object)).toEqual(['createTime_datege']);
    const unknown = await list('api', { secretColumn: 'x' }, admin);
    expect(unknown.status).toBe(400);
    expect(unknown.body.data).toHaveProperty('secretColumn');
    const status = await list('api', { status_equal: 'abc' });
    expect(status.status).toBe(400);
    for (const kind of ['usual', 'api', 'error']) {
      expect((await h.call('POST', `/api/blade-log/${kind}/submit`, { token: admin, body: { title: 'x' } })).status).toBe(404);
      expect((await h.call('POST', `/api/blade-log/${kind}/remove`, { token: admin, query: { ids: '1' } })).status).toBe(404);
    }
  });

  it('needs a token (401) and the menu\'s grant (403)', async () => {
    for (const kind of ['usual', 'api', 'error']) {
      expect((await h.call('GET', `/api/blade-log/${kind}/list`)).status).toBe(401);
      expect((await list(kind, {}, demoUser)).status).toBe(403);
      expect((await h.call('GET', `/api/blade-log/${kind}/detail`, { token: demoUser, query: { id: '1' } })).status).toBe(403);
    }
  });
});

describe('the usual log', () => {
  it('records sign-outs', async () => {
    const t = (await h.login(DEMO, 'logreader', 'pw')).access_token;
    await h.call('GET', '/api/blade-auth/oauth/logout', { token: t });
    await h.server.ctx.logs.flush();
    const page = await list('usual', { logId_equal: 'logout', createBy_equal: 'logreader' }, demo);
    expect(page.body.data.records[0]).toMatchObject({ logId: 'logout', logLevel: 'info', createBy: 'logreader' });
  });
});

describe('one language at a time', () => {
  const noKeys = (records: Log[]) => JSON.stringify(records.map((r) => [r.logData, r.logIdName, r.logLevelName]));

  it('shows a refused sign-in in the reader\'s language, its event and level named, never a message key', async () => {
    expect((await h.login(DEMO, 'logreader', 'not-the-password').catch(() => null))?.access_token).toBeUndefined();
    await h.server.ctx.logs.flush();
    const query = { logId_equal: 'login', createBy_equal: 'logreader', logLevel_equal: 'warn' };
    const zh = (await h.call<Page<Log>>('GET', '/api/blade-log/usual/list', { token: demo, query, lang: 'zh' })).body.data.records;
    expect(zh[0]).toMatchObject({ logData: '登录失败: 用户名或密码错误', logIdName: '登录', logLevelName: '警告' });
    const en = (await h.call<Page<Log>>('GET', '/api/blade-log/usual/list', { token: demo, query, lang: 'en' })).body.data.records;
    expect(en[0]).toMatchObject({ id: zh[0]!.id, logData: 'Sign-in failed: Wrong user name or password', logIdName: 'Sign-in', logLevelName: 'Warning' });
    expect(noKeys(zh)).not.toMatch(/badCredentials|[A-Za-z]{4,}/);
    expect(noKeys(en)).not.toMatch(/badCredentials|[\u4e00-\u9fff]/);
    const detail = await h.call<Log>('GET', '/api/blade-log/usual/detail', { token: demo, query: { id: en[0]!.id }, lang: 'en' });
    expect(detail.body.data.logData).toBe('Sign-in failed: Wrong user name or password');
    // BladeX's readers of the table find the Chinese text
    const [stored] = await inTenant(h.server.ctx.db, { tenantId: DEMO }, (tx) => tx.select({ logData: schema.logUsual.logData }).from(schema.logUsual).where(eq(schema.logUsual.id, zh[0]!.id)));
    expect(stored!.logData).toBe('登录失败: 用户名或密码错误');
  });

  it('titles an API log row by its call in the reader\'s language (the engine\'s save, delete; a route\'s own title)', async () => {
    await h.call('POST', '/api/blade-desk/notice/submit', { token: demo, body: { title: 'titled', category: 1, releaseTime: '2026-01-01 00:00:00' } });
    await h.call('POST', '/api/blade-desk/notice/remove', { token: demo, query: { ids: '1' } });
    await h.call('POST', '/api/blade-system/user/update-password', { token: demoUser, query: { oldPassword: md5('wrong'), newPassword: md5('x1'), newPassword1: md5('x1') } });
    await h.server.ctx.logs.flush();
    const titles = async (lang: 'zh' | 'en') => {
      const uris = ['/api/blade-desk/notice/submit', '/api/blade-desk/notice/remove', '/api/blade-system/user/update-password'];
      const pages = await Promise.all(uris.map((requestUri) => h.call<Page<Log>>('GET', '/api/blade-log/api/list', { token: demo, query: { requestUri, size: 1 }, lang })));
      return new Map(pages.map((p, i) => [uris[i], p.body.data.records[0]?.title]));
    };
    const zh = await titles('zh');
    const en = await titles('en');
    expect(zh.get('/api/blade-desk/notice/submit')).toBe('通知公告: 保存');
    expect(en.get('/api/blade-desk/notice/submit')).toBe('Notices: save');
    expect(zh.get('/api/blade-desk/notice/remove')).toBe('通知公告: 删除');
    expect(en.get('/api/blade-desk/notice/remove')).toBe('Notices: delete');
    expect(zh.get('/api/blade-system/user/update-password')).toBe('修改密码');
    expect(en.get('/api/blade-system/user/update-password')).toBe('Change own password');
    expect(JSON.stringify([...zh.values()])).not.toMatch(/submit|remove|[A-Za-z]{5,}/);
    expect(JSON.stringify([...en.values()])).not.toMatch(/[\u4e00-\u9fff]/);
  });

  it('reads rows written before events were messages in the reader\'s language too', async () => {
    const id = nextId();
    await inTenant(h.server.ctx.db, { tenantId: DEMO }, (tx) => tx.insert(schema.logUsual).values({
      id, tenantId: DEMO, logId: 'login', logLevel: 'warn', logData: 'sign-in failed: accountDisabled', createBy: 'old-row',
    }));
    await keepOldEventsAsMessages(h.server.ctx.db as never);
    const read = async (lang: 'zh' | 'en') => (await h.call<Log>('GET', '/api/blade-log/usual/detail', { token: demo, query: { id }, lang })).body.data.logData;
    expect(await read('zh')).toBe('登录失败: 账号已停用, 请联系管理员');
    expect(await read('en')).toBe('Sign-in failed: The account is disabled; contact your administrator');
  });
});

describe('retention', () => {
  const setRetention = (value: string) => h.server.ctx.db.update(param).set({ paramValue: value }).where(eq(param.paramKey, LOG_RETENTION_PARAM));
  const old = (days: number) => new Date(Date.now() - days * 86_400_000);
  const seedRows = async (tenantId: string, createTime: Date, n: number, tag: string) => {
    await inTenant(h.server.ctx.db, { tenantId }, async (tx) => {
      const rows = Array.from({ length: n }, () => ({ id: nextId(), tenantId, requestUri: `/retention/${tag}`, createTime }));
      await tx.insert(schema.logApi).values(rows);
      await tx.insert(schema.logUsual).values(rows);
      await tx.insert(schema.logError).values(rows);
    });
  };
  const count = async (tag: string) => {
    const [r] = await inTenant(h.server.ctx.db, { tenantId: PLATFORM, allTenants: true }, (tx) => tx.execute(sql`
      select (select count(*) from blade_log_api where request_uri = ${`/retention/${tag}`})
           + (select count(*) from blade_log_usual where request_uri = ${`/retention/${tag}`})
           + (select count(*) from blade_log_error where request_uri = ${`/retention/${tag}`}) as n`)).then((res) => (res as unknown as { rows: Array<{ n: number | string }> }).rows);
    return Number(r!.n);
  };

  it('is a seeded parameter of 90 days', async () => {
    const [p] = await h.server.ctx.db.select().from(param).where(and(eq(param.paramKey, LOG_RETENTION_PARAM), eq(param.isDeleted, 0)));
    expect(p!.paramValue).toBe('90');
  });

  it('purges every tenant\'s rows older than the retention in bounded batches, and keeps the rest', async () => {
    await seedRows(DEMO, old(3), 7, 'old');
    await seedRows(PLATFORM, old(2.5), 4, 'old');
    await seedRows(DEMO, old(0.5), 3, 'recent');
    // 90 days: nothing of these goes
    let result = await purgeLogs(h.server.ctx.db, { batch: 3 });
    expect(await count('old')).toBe(33);
    await setRetention('2');
    result = await purgeLogs(h.server.ctx.db, { batch: 3 });
    // deleted row by row, unless their month went whole (the days just after a month began)
    const api = result.partitions.find((p) => p.table === 'blade_log_api')!;
    expect(result.deleted.blade_log_api! >= 11 || api.dropped.length > 0).toBe(true);
    expect(await count('old')).toBe(0);
    expect(await count('recent')).toBe(9);
    // 0 keeps everything
    await seedRows(DEMO, old(400), 2, 'ancient');
    await setRetention('0');
    expect((await purgeLogs(h.server.ctx.db)).cutoff).toBeNull();
    expect(await count('ancient')).toBe(6);
    await setRetention('90');
  });
});
