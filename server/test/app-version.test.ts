import { APP_API } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer } from './harness.js';
import { grantCodes } from './io-resource.js';

/** App versions are published (issue 26): a new version is a draft, the app is offered published ones only. */

type Row = Record<string, unknown> & { id: string };
const V = '/api/ymy-app/version';
const h = useServer();
let admin: string;
let tenantAdmin: string;
let editor: string;

beforeAll(async () => {
  admin = (await h.login('000000', 'admin', 'admin')).access_token;
  tenantAdmin = (await h.login('541742', 'admin', 'admin')).access_token;
  await h.call('POST', '/api/blade-system/role/submit', { token: admin, body: { roleName: 'app editor', roleAlias: 'app-editor', sort: 9 } });
  await grantCodes(h.server, ['device', 'app_version', 'app_version_add', 'app_version_edit'], ['app-editor']);
  await h.createUser('000000', 'app-editor', 'pw', ['app-editor']);
  editor = (await h.login('000000', 'app-editor', 'pw')).access_token;
});

const create = async (versionCode: number, extra: Record<string, unknown> = {}) => {
  const res = await h.call<Row>('POST', `${V}/submit`, {
    token: admin, body: { platform: 'ios', versionName: `5.${versionCode}`, versionCode, storeUrl: 'https://apps.example.com/lock', ...extra },
  });
  expect(res.status).toBe(200);
  return res.body.data.id;
};
const detail = async (id: string) => (await h.call<Row>('GET', `${V}/detail`, { token: admin, query: { id } })).body.data;
const offered = async () => (await h.call<{ latest: Row | null }>('GET', APP_API.latestVersion, { query: { platform: 'ios', versionCode: 1 }, noClient: true })).body.data.latest;
const act = (action: 'publish' | 'withdraw', id: string, token = admin, lang: 'zh' | 'en' = 'en') =>
  h.call('POST', `${V}/${action}`, { token, body: { id }, lang });

describe('app version publishing', () => {
  it('creates a draft whatever state the client sends; the app is offered it only once published, with who and when', async () => {
    const id = await create(500, { state: 2, publishUserName: 'someone' });
    expect(await detail(id)).toMatchObject({ state: 1, stateName: '草稿', publishTime: null, publishUserName: null });
    expect(await offered()).toBeNull();

    expect((await act('publish', id)).status).toBe(200);
    const published = await detail(id);
    expect(published).toMatchObject({ state: 2, publishUserName: expect.any(String) });
    expect(published.publishTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(await offered()).toMatchObject({ versionCode: 500 });

    // an edit cannot move the state back
    expect((await h.call('POST', `${V}/submit`, { token: admin, body: { id, state: 1, releaseNotes: '修复' } })).status).toBe(200);
    expect(await detail(id)).toMatchObject({ state: 2, releaseNotes: '修复' });

    expect((await act('withdraw', id)).status).toBe(200);
    expect(await detail(id)).toMatchObject({ state: 3 });
    expect(await offered()).toBeNull();
    // a withdrawn version may be published again
    expect((await act('publish', id)).status).toBe(200);
    expect(await offered()).toMatchObject({ versionCode: 500 });
  });

  it('refuses to publish twice, to withdraw a draft, and to publish a version the app could not download, in the caller\'s language', async () => {
    const id = await create(510);
    const notPublished = await act('withdraw', id, admin, 'zh');
    expect(notPublished.status).toBe(400);
    expect(notPublished.body.msg).toBe('APP 版本 5.510 未发布, 不能撤回');
    expect((await act('publish', id)).status).toBe(200);
    const twice = await act('publish', id);
    expect(twice.status).toBe(400);
    expect(twice.body.msg).toBe('The app version 5.510 is already published');

    const bare = await create(520, { storeUrl: '' });
    const noDownload = await act('publish', bare);
    expect(noDownload.status).toBe(400);
    expect(noDownload.body.msg).toBe('The app version 5.520 has neither a package nor a store link; it cannot be published');
    expect(await detail(bare)).toMatchObject({ state: 1 });

    expect((await act('publish', '123456789')).status).toBe(404);
    expect((await h.call('POST', `${V}/publish`, { token: admin, body: { id: 'abc' } })).status).toBe(400);
  });

  it('needs its own permission, and is the platform\'s: a tenant cannot publish', async () => {
    const id = await create(530);
    expect((await act('publish', id, editor)).status).toBe(403);
    expect((await act('publish', id, tenantAdmin)).status).toBe(403);
    expect(await detail(id)).toMatchObject({ state: 1 });
    const menus = await h.call<Array<{ code: string; children?: Array<{ code: string }> }>>('GET', '/api/blade-system/menu/buttons', { token: admin });
    const codes = JSON.stringify(menus.body.data);
    expect(codes).toContain('app_version_publish');
    expect(codes).toContain('app_version_withdraw');
  });
});
