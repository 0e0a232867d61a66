import { AGREEMENT_SETTING_PATH, SETTING_PATH as SETTING } from '@console/contract/areas/setting/index';
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer } from './harness.js';

/**
 * Agreement settings (issue 28): versions of the user agreement and privacy policy written as drafts and published;
 * the app's get-agreement (and the public /policy page) shows the latest published one; a published version never
 * changes; only the platform writes them.
 */
type Row = Record<string, unknown> & { id: string };
const h = useServer();
let platform: string;
let tenantAdmin: string;
const current = (type: string, lang: 'zh' | 'en' = 'zh') => h.call<Row>('GET', '/api/app/pub/get-agreement', { query: { type }, lang, noClient: true });

beforeAll(async () => {
  platform = (await h.login('000000', 'admin', 'admin')).access_token;
  tenantAdmin = (await h.login('541742', 'admin', 'admin')).access_token;
});

describe('agreement settings', () => {
  it('list the shipped versions as published; a new version is a draft until it is published, then it is what the app reads', async () => {
    const shipped = await h.call<{ records: Row[] }>('GET', `${AGREEMENT_SETTING_PATH}/list`, { token: platform, query: { type: 'user', language: 'zh' } });
    expect(shipped.body.data.records).toEqual([expect.objectContaining({ version: '1.0', published: 1, title: '用户服务协议' })]);
    const draft = await h.call<Row>('POST', `${AGREEMENT_SETTING_PATH}/submit`, {
      token: platform, body: { type: 'user', language: 'zh', title: '用户服务协议 (2027 版)', version: '2.0', content: '<h2>新版</h2><p>第一条</p><script>alert(1)</script>' },
    });
    expect(draft.status, draft.body.msg).toBe(200);
    expect((await current('user')).body.data.version).toBe('1.0');
    const detail = await h.call<Row>('GET', `${AGREEMENT_SETTING_PATH}/detail`, { token: platform, query: { id: draft.body.data.id } });
    expect(detail.body.data).toMatchObject({ published: 0, publishTime: null });
    expect(String(detail.body.data.content)).not.toContain('<script');
    // a draft may still change
    expect((await h.call('POST', `${AGREEMENT_SETTING_PATH}/submit`, { token: platform, body: { id: draft.body.data.id, content: '<h2>新版</h2><p>第一条, 修订</p>' } })).status).toBe(200);
    expect((await h.call('POST', `${AGREEMENT_SETTING_PATH}/publish`, { token: platform, query: { id: draft.body.data.id } })).status).toBe(200);
    const shown = await current('user');
    expect(shown.body.data).toMatchObject({ version: '2.0', title: '用户服务协议 (2027 版)' });
    expect(String(shown.body.data.content)).toContain('修订');
    // English readers still read the English text, the privacy policy is untouched
    expect((await current('user', 'en')).body.data.version).toBe('1.0');
    expect((await current('privacy')).body.data.version).toBe('1.0');
  });

  it('never change a published version: no edit, no second publish, no remove; a version number is used once', async () => {
    const [published] = (await h.call<{ records: Row[] }>('GET', `${AGREEMENT_SETTING_PATH}/list`, { token: platform, query: { type: 'privacy', language: 'en' } })).body.data.records;
    const edit = await h.call('POST', `${AGREEMENT_SETTING_PATH}/submit`, { token: platform, body: { id: published!.id, title: 'changed' }, lang: 'en' });
    expect(edit.status).toBe(400);
    expect(edit.body.msg).toContain('write a new version');
    expect((await h.call('POST', `${AGREEMENT_SETTING_PATH}/publish`, { token: platform, query: { id: published!.id } })).status).toBe(400);
    expect((await h.call('POST', `${AGREEMENT_SETTING_PATH}/remove`, { token: platform, query: { ids: published!.id } })).status).toBe(400);
    const again = await h.call('POST', `${AGREEMENT_SETTING_PATH}/submit`, { token: platform, body: { type: 'privacy', language: 'en', title: 'x', version: '1.0', content: '<p>x</p>' } });
    expect(again.status).toBe(409);
    expect((await current('privacy', 'en')).body.data.title).toBe('Privacy Policy');
  });

  it('refuse bad input field by field; a draft can be removed', async () => {
    const bad = await h.call('POST', `${AGREEMENT_SETTING_PATH}/submit`, { token: platform, body: { type: 'terms', language: 'zh' }, lang: 'en' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.data as Row).sort()).toEqual(['content', 'title', 'version']);
    const draft = await h.call<Row>('POST', `${AGREEMENT_SETTING_PATH}/submit`, { token: platform, body: { type: 'privacy', language: 'zh', title: '草稿', version: '9.9', content: '<p>草稿</p>' } });
    expect((await h.call('POST', `${AGREEMENT_SETTING_PATH}/remove`, { token: platform, query: { ids: draft.body.data.id } })).status).toBe(200);
  });

  it('are the platform\'s: a tenant\'s administrator has no such screen and is refused every call', async () => {
    expect((await h.call('GET', `${AGREEMENT_SETTING_PATH}/list`, { token: tenantAdmin })).status).toBe(403);
    const write = await h.call('POST', `${AGREEMENT_SETTING_PATH}/submit`, { token: tenantAdmin, body: { type: 'user', language: 'zh', title: 't', version: '5.0', content: '<p>t</p>' } });
    expect(write.status).toBe(403);
    const [row] = (await h.call<{ records: Row[] }>('GET', `${AGREEMENT_SETTING_PATH}/list`, { token: platform, query: { type: 'user', language: 'zh' } })).body.data.records;
    expect((await h.call('POST', `${AGREEMENT_SETTING_PATH}/publish`, { token: tenantAdmin, query: { id: row!.id } })).status).toBe(403);
  });

  it('answer BladeX\'s calls: each type and language with what users read and the newest draft; a save writes a draft', async () => {
    const saved = await h.call<{ id: string }>('POST', `${SETTING}/agreement-setting`, {
      token: platform, body: { type: 'privacy', language: 'en', title: 'Privacy Policy (draft)', version: '1.1', content: '<p>Draft</p>' },
    });
    expect(saved.status, saved.body.msg).toBe(200);
    const read = await h.call<Array<{ type: string; language: string; published: Row | null; draft: Row | null }>>('GET', `${SETTING}/agreement-setting`, { token: platform, query: { type: 'privacy' } });
    expect(read.status).toBe(200);
    const en = read.body.data.find((r) => r.language === 'en')!;
    expect(en.published).toMatchObject({ version: '1.0', title: 'Privacy Policy' });
    expect(en.draft).toMatchObject({ id: saved.body.data.id, version: '1.1', publishTime: null });
    expect(read.body.data.map((r) => r.type)).toEqual(['privacy', 'privacy']);
    // its refusals are the submit's, fields named
    const bad = await h.call('POST', `${SETTING}/agreement-setting`, { token: platform, body: { type: 'user', language: 'zh' }, lang: 'en' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.data as Row).sort()).toEqual(['content', 'title', 'version']);
    expect((await h.call('POST', `${SETTING}/agreement-setting`, { token: tenantAdmin, body: { type: 'user', language: 'zh', title: 't', version: '7', content: '<p>t</p>' } })).status).toBe(403);
  });
});
