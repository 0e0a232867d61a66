import type { DictItem, MenuButton, MenuRoute, TopMenu } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer } from './harness.js';

const h = useServer();
let platform: string;
let demo: string;

beforeAll(async () => {
  platform = (await h.login('000000', 'admin', 'admin')).access_token;
  demo = (await h.login('541742', 'admin', 'admin')).access_token;
});

const codes = (nodes: Array<{ code: string; children?: unknown[] }>): string[] =>
  nodes.flatMap((n) => [n.code, ...codes((n.children ?? []) as typeof nodes)]);

describe('menus', () => {
  it('gives each role its menu tree with ancestors, names in the caller\'s language', async () => {
    const admin = await h.call<MenuRoute[]>('GET', '/api/blade-system/menu/routes', { token: platform });
    // production first: the sidebar shows /production only as its first entry (spec section 2)
    expect(codes(admin.body.data).slice(0, 2)).toEqual(['production', 'factory']);
    expect(admin.body.data.map((m) => m.code).slice(0, 2)).toEqual(['production', 'desk']);
    expect(codes(admin.body.data)).toEqual(expect.arrayContaining(['system', 'param', 'tenant', 'user', 'authority', 'role']));
    expect(admin.body.data[1]).toMatchObject({ name: '工作台', path: '/desk', i18n: { zh: '工作台', en: 'Workbench' } });
    const en = await h.call<MenuRoute[]>('GET', '/api/blade-system/menu/routes', { token: platform, lang: 'en' });
    const system = en.body.data.find((m) => m.code === 'system')!;
    expect(system.children!.find((m) => m.code === 'param')!.name).toBe('Parameters');
    // a tenant's administrator holds the screens of the tenant's own data, never the platform's
    const demoMenus = await h.call<MenuRoute[]>('GET', '/api/blade-system/menu/routes', { token: demo });
    const demoCodes = codes(demoMenus.body.data);
    expect(demoCodes).toEqual(expect.arrayContaining(['desk', 'notice', 'system', 'user', 'dept', 'post', 'authority', 'role']));
    for (const platformScreen of ['param', 'menu', 'tenant', 'tenant_package', 'region', 'data_scope']) expect(demoCodes).not.toContain(platformScreen);
  });

  it('lists granted buttons under their menus', async () => {
    const res = await h.call<MenuButton[]>('GET', '/api/blade-system/menu/buttons', { token: demo });
    const all = codes(res.body.data);
    expect(all).toEqual(expect.arrayContaining(['notice_add', 'notice_edit', 'notice_delete', 'notice_view']));
    expect(all).not.toContain('param_add');
    await h.createUser('000000', 'menuviewer', 'pw', ['user']);
    const viewer = (await h.login('000000', 'menuviewer', 'pw')).access_token;
    const vb = await h.call<MenuButton[]>('GET', '/api/blade-system/menu/buttons', { token: viewer });
    expect(codes(vb.body.data).filter((c) => c.includes('_'))).toEqual(['notice_view']);
  });

  it('answers the top menus holding the caller\'s menus, and limits routes to a top menu\'s subtree', async () => {
    const top = await h.call<TopMenu[]>('GET', '/api/blade-system/menu/top-menu', { token: platform });
    expect(top.body.data.map((m) => m.code)).toEqual(['workbench', 'system']);
    const en = await h.call<TopMenu[]>('GET', '/api/blade-system/menu/top-menu', { token: platform, lang: 'en' });
    expect(en.body.data.map((m) => m.name)).toEqual(['Workbench', 'System']);
    const system = top.body.data[1]!;
    const limited = await h.call<MenuRoute[]>('GET', '/api/blade-system/menu/routes', { token: platform, query: { topMenuId: system.id } });
    expect(limited.body.data.map((m) => m.code)).toEqual(['system']);
    expect(limited.body.data[0]!.children?.map((m) => m.code)).toContain('param');
    // under a top menu, the demo tenant's admin sees only what they hold of its subtree
    const demoTop = await h.call<TopMenu[]>('GET', '/api/blade-system/menu/top-menu', { token: demo });
    expect(demoTop.body.data.map((m) => m.code)).toEqual(['workbench', 'system']);
    const theirs = await h.call<MenuRoute[]>('GET', '/api/blade-system/menu/routes', { token: demo, query: { topMenuId: system.id } });
    expect(codes(theirs.body.data)).not.toContain('param');
    expect(codes(theirs.body.data)).toContain('dept');
    const unknown = await h.call<MenuRoute[]>('GET', '/api/blade-system/menu/routes', { token: platform, query: { topMenuId: '1' } });
    expect(unknown.body.data).toEqual([]);
    expect((await h.call('GET', '/api/blade-system/menu/routes', { token: platform, query: { topMenuId: 'x' } })).status).toBe(400);
  });
});

describe('dictionaries', () => {
  it('answers a dictionary\'s items in order, in the caller\'s language', async () => {
    const zh = await h.call<DictItem[]>('GET', '/api/blade-system/dict/dictionary', { token: demo, query: { code: 'notice' } });
    expect(zh.body.data.map((d) => d.dictKey)).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(zh.body.data[0]!.dictValue).toBe('发布通知');
    const en = await h.call<DictItem[]>('GET', '/api/blade-system/dict/dictionary', { token: demo, query: { code: 'notice' }, lang: 'en' });
    expect(en.body.data[0]!.dictValue).toBe('Release');
    expect((await h.call('GET', '/api/blade-system/dict/dictionary', { token: demo })).status).toBe(400);
    expect((await h.call('GET', '/api/blade-system/dict/dictionary', { query: { code: 'notice' } })).status).toBe(401);
  });
});

describe('robustness', () => {
  it('answers malformed JSON, wrong media types and unknown routes with clear 4xx envelopes', async () => {
    const bad = await h.server.app.inject({
      method: 'POST', url: '/api/blade-system/param/submit',
      headers: { authorization: (await import('./harness.js')).BASIC, 'blade-auth': `bearer ${platform}`, 'content-type': 'application/json' },
      payload: '{"paramName":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 400, success: false, msg: '请求体不是合法的 JSON' });
    const media = await h.server.app.inject({
      method: 'POST', url: '/api/blade-system/param/submit',
      headers: { authorization: (await import('./harness.js')).BASIC, 'blade-auth': `bearer ${platform}`, 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(media.statusCode).toBe(415);
    const arrayBody = await h.call('POST', '/api/blade-system/param/submit', { token: platform, body: [1, 2] });
    expect(arrayBody.status).toBe(400);
    const missing = await h.call('GET', '/api/blade-system/nothing-here', { token: platform, lang: 'en' });
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe('No such endpoint: GET /api/blade-system/nothing-here');
    const huge = await h.call('POST', '/api/blade-system/param/submit', { token: platform, body: { paramName: 'x'.repeat(6 * 1024 * 1024) } });
    expect(huge.status).toBe(413);
    const repeated = await h.server.app.inject({
      method: 'GET', url: '/api/blade-system/param/list?paramName=a&paramName=b',
      headers: { authorization: (await import('./harness.js')).BASIC, 'blade-auth': `bearer ${platform}` },
    });
    expect(repeated.statusCode).toBe(400);
  });

  it('serves version.json and the OpenAPI document publicly', async () => {
    const v = await h.server.app.inject({ method: 'GET', url: '/version.json' });
    expect(v.json()).toHaveProperty('version');
    const doc = await h.server.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(doc.statusCode).toBe(200);
    const spec = doc.json() as { paths: Record<string, unknown> };
    expect(Object.keys(spec.paths)).toEqual(expect.arrayContaining(['/api/blade-system/param/list', '/api/blade-desk/notice/submit', '/api/blade-auth/oauth/token']));
  });

  it('writes an API log for writes and stores front-end error records', async () => {
    await h.call('POST', '/api/blade-desk/notice/submit', { token: demo, body: { title: 'logged', category: 1, releaseTime: '2026-01-01 00:00:00' } });
    const posted = await h.call<number>('POST', '/api/blade-auth/oauth/logout', {
      token: demo,
      body: [{ type: 'error', message: 'boom', stack: 'Error: boom\n at x', url: '/desk/notice', time: '2026-01-01 00:00:00' }],
    });
    expect(posted.body).toMatchObject({ code: 200, data: 1, msg: '发送成功!' });
    await h.server.ctx.logs.flush();
    const { inTenant, schema } = await import('../src/core/db/index.js');
    const { apiLogs, errors } = await inTenant(h.server.ctx.db, { tenantId: '541742' }, async (tx) => ({
      apiLogs: await tx.select().from(schema.logApi),
      errors: await tx.select().from(schema.logError),
    }));
    const submitLog = apiLogs.find((l) => l.requestUri === '/api/blade-desk/notice/submit');
    expect(submitLog).toMatchObject({ method: 'POST', createBy: 'admin', status: 200 });
    const tokenLog = apiLogs.find((l) => l.requestUri === '/api/blade-auth/oauth/token');
    expect(tokenLog?.params ?? '').not.toMatch(/[0-9a-f]{32}/);
    expect(errors.find((e) => e.type === 'web')).toMatchObject({ message: 'boom', requestUri: '/desk/notice', createBy: 'admin' });
  });
});
