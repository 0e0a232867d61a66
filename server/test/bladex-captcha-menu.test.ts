import type { MenuButton, MenuRoute, TopMenu } from '@console/contract';
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { schema } from '../src/core/db/index.js';
import { setCaptchaGenerator } from '../src/areas/auth/captcha.js';
import { runDataSteps } from '../src/seed/runner.js';
import { DATA_STEPS } from '../src/seed/steps.js';
import { md5, useServer } from './harness.js';

// What an unmodified BladeX Saber console needs: the captcha as BladeX answers it, and menu icons it can show.
const h = useServer();

const CAPTCHA = '/api/blade-auth/oauth/captcha';
const ICONFONT = /^iconfont icon(icon_[A-Za-z_]+|-[a-z0-9-]+)$/;

function flatten(tree: MenuRoute[]): MenuRoute[] {
  return tree.flatMap((n) => [n, ...flatten(n.children ?? [])]);
}

function flattenButtons(tree: MenuButton[]): MenuButton[] {
  return tree.flatMap((n) => [n, ...flattenButtons(n.children ?? [])]);
}

async function sourcesByCode(token: string): Promise<Record<string, string>> {
  const res = await h.call<MenuRoute[]>('GET', '/api/blade-system/menu/routes', { token });
  expect(res.status).toBe(200);
  return Object.fromEntries(flatten(res.body.data).map((n) => [n.code, n.source]));
}

describe('captcha, BladeX-shaped', () => {
  it('answers the raw { key, image } object, no envelope, as Saber reads it (res.data.key)', async () => {
    setCaptchaGenerator(() => 'M4RK7');
    const res = await h.call('GET', CAPTCHA, { noClient: true });
    expect(res.status).toBe(200);
    expect(res.raw.headers['content-type']).toMatch(/^application\/json/);
    const body = res.raw.json<Record<string, unknown>>();
    expect(Object.keys(body).sort()).toEqual(['image', 'key']);
    expect(body.key).toMatch(/^[0-9a-f]{32}$/);
    expect(body.image).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);

    // the key is the one the captcha grant takes
    const grant = await h.tokenRequest(
      { grant_type: 'captcha', tenantId: '000000', username: 'admin', password: md5('admin') },
      { 'tenant-id': '000000', 'captcha-key': String(body.key), 'captcha-code': 'm4rk7' },
    );
    expect(grant.statusCode).toBe(200);
    expect(grant.json()).toMatchObject({ tenant_id: '000000', account: 'admin' });
  });

  it('documents the raw answer in the OpenAPI description', async () => {
    const res = await h.server.app.inject({ method: 'GET', url: '/api/docs/json' });
    const doc = res.json<{ paths: Record<string, { get: { summary: string; responses: Record<string, { content: Record<string, { schema: { properties: Record<string, unknown>; required: string[] } }> }> } }> }>();
    const op = doc.paths[CAPTCHA]!.get;
    expect(op.summary).toMatch(/raw \{ key, image \}/);
    const schema200 = op.responses['200']!.content['application/json']!.schema;
    expect(Object.keys(schema200.properties).sort()).toEqual(['image', 'key']);
    expect(schema200.required.sort()).toEqual(['image', 'key']);
  });
});

describe('menu icons, BladeX-shaped', () => {
  it('menu/routes answers iconfont classes in source', async () => {
    const t = await h.login('000000', 'admin', 'admin');
    const sources = await sourcesByCode(t.access_token);
    expect(sources).toMatchObject({
      desk: 'iconfont iconicon_airplay',
      notice: 'iconfont iconicon_sms',
      system: 'iconfont iconicon_setting',
      param: 'iconfont iconicon_community_line',
    });
    for (const [code, source] of Object.entries(sources)) expect(source, code).toMatch(ICONFONT);
  });

  it('menu/top-menu answers iconfont classes in source', async () => {
    const t = await h.login('000000', 'admin', 'admin');
    const res = await h.call<TopMenu[]>('GET', '/api/blade-system/menu/top-menu', { token: t.access_token });
    expect(res.status).toBe(200);
    const sources = Object.fromEntries(res.body.data.map((m) => [m.code, m.source]));
    expect(sources).toEqual({ workbench: 'iconfont iconicon_airplay', system: 'iconfont iconicon_setting' });
  });

  it('buttons carry BladeX\'s button icons', async () => {
    const t = await h.login('000000', 'admin', 'admin');
    const res = await h.call<MenuButton[]>('GET', '/api/blade-system/menu/buttons', { token: t.access_token });
    const byCode = Object.fromEntries(flattenButtons(res.body.data).map((b) => [b.code, b.source]));
    expect(byCode).toMatchObject({
      notice_add: 'plus', notice_edit: 'form', notice_delete: 'delete', notice_view: 'file-text',
      param_add: 'plus', param_edit: 'form', param_delete: 'delete', param_view: 'file-text',
    });
  });

  it('upgrades a database seeded with antd names, keeping an administrator\'s own icons', async () => {
    const db = h.server.ctx.db;
    // the database as the earlier version left it: antd names, buttons without icons; and two edits of
    // an administrator's, which must stay
    const back = { desk: 'DesktopOutlined', notice: 'NotificationOutlined', system: 'SettingOutlined', param: 'HomeOutlined' };
    for (const [code, source] of Object.entries(back)) {
      await db.update(schema.menu).set({ source }).where(and(eq(schema.menu.code, code), eq(schema.menu.category, 1)));
    }
    await db.update(schema.menu).set({ source: '' }).where(inArray(schema.menu.code, ['notice_add', 'notice_edit', 'param_view']));
    await db.update(schema.menu).set({ source: 'iconfont iconicon_star' }).where(eq(schema.menu.code, 'param_delete'));
    await db.update(schema.topMenu).set({ source: 'DesktopOutlined' }).where(eq(schema.topMenu.code, 'workbench'));
    await db.update(schema.topMenu).set({ source: 'iconfont iconicon_work' }).where(eq(schema.topMenu.code, 'system'));
    await db.delete(schema.appDataStep).where(eq(schema.appDataStep.name, '0006-bladex-menu-icons'));

    expect(await runDataSteps(db, DATA_STEPS)).toEqual(['0006-bladex-menu-icons']);
    // data steps run at start, before anything is cached; here the server was already answering menus
    await h.server.ctx.permissions.invalidate();

    const t = await h.login('000000', 'admin', 'admin');
    expect(await sourcesByCode(t.access_token)).toMatchObject({
      desk: 'iconfont iconicon_airplay',
      notice: 'iconfont iconicon_sms',
      system: 'iconfont iconicon_setting',
      // not a name we seeded: the administrator's
      param: 'HomeOutlined',
    });
    const tops = await h.call<TopMenu[]>('GET', '/api/blade-system/menu/top-menu', { token: t.access_token });
    expect(Object.fromEntries(tops.body.data.map((m) => [m.code, m.source])))
      .toEqual({ workbench: 'iconfont iconicon_airplay', system: 'iconfont iconicon_work' });
    const buttons = await db.select({ code: schema.menu.code, source: schema.menu.source }).from(schema.menu)
      .where(inArray(schema.menu.code, ['notice_add', 'notice_edit', 'param_view', 'param_delete']));
    expect(Object.fromEntries(buttons.map((b) => [b.code, b.source])))
      .toEqual({ notice_add: 'plus', notice_edit: 'form', param_view: 'file-text', param_delete: 'iconfont iconicon_star' });

    // recorded: it does not run again
    expect(await runDataSteps(db, DATA_STEPS)).toEqual([]);
  });
});
