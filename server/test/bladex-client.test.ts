import type { Page } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { BASIC, md5, useServer } from './harness.js';

/**
 * Exactly the shapes an unmodified BladeX 2.9 Saber console (Vue 2 + Avue) sends, so that every later
 * resource keeps working with the client people migrating to this product already run.
 */
const h = useServer();
let demo: string;

beforeAll(async () => {
  demo = (await h.login('541742', 'admin', 'admin')).access_token;
});

type Notice = Record<string, unknown> & { id: string; category: number; categoryName: string | null };

describe('a BladeX Saber console', () => {
  it('adds and edits from an Avue form: $-keys, dictionary display copies and search-only props are ignored, never written', async () => {
    const avueBody = {
      title: '来自 Saber 的通知', category: 2, releaseTime: '2026-11-20 10:00:00', content: '<p>hi</p>',
      $index: 0, $category: '批转通知', releaseTimeRange: ['2026-11-01 00:00:00', '2026-11-30 00:00:00'], someOtherProp: 'x',
    };
    const created = await h.call<Notice>('POST', '/api/blade-desk/notice/submit', { token: demo, body: avueBody });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ title: '来自 Saber 的通知', category: 2, categoryName: '批转通知' });
    for (const key of ['$index', '$category', 'releaseTimeRange', 'someOtherProp']) expect(created.body.data).not.toHaveProperty(key);
    const edited = await h.call<Notice>('POST', '/api/blade-desk/notice/submit', {
      token: demo, body: { ...avueBody, ...created.body.data, title: '改过的', $categoryName: 'x', $index: 3 },
    });
    expect(edited.status).toBe(200);
    const detail = await h.call<Notice>('GET', '/api/blade-desk/notice/detail', { token: demo, query: { id: created.body.data.id } });
    expect(detail.body.data).toMatchObject({ title: '改过的', category: 2, categoryName: '批转通知' });
    expect(Object.keys(detail.body.data).filter((k) => k.startsWith('$'))).toEqual([]);
  });

  it('gets the display value of every dictionary-coded field as <field>Name, in the caller\'s language', async () => {
    const zh = await h.call<Page<Notice>>('GET', '/api/blade-desk/notice/list', { token: demo, query: { descs: 'create_time' } });
    expect(zh.body.data.records.length).toBeGreaterThan(0);
    for (const r of zh.body.data.records) expect(typeof r.categoryName).toBe('string');
    const en = await h.call<Page<Notice>>('GET', '/api/blade-desk/notice/list', { token: demo, lang: 'en', query: { category: 2 } });
    expect(en.body.data.records[0]).toMatchObject({ category: 2, categoryName: 'Approval' });
  });

  it('searches with the date-range picker\'s own keys beside the _datege / _datelt ones', async () => {
    const url = '/api/blade-desk/notice/list?current=1&size=10&releaseTimeRange%5B%5D=2026-11-19%2000%3A00%3A00'
      + '&releaseTimeRange%5B%5D=2026-11-21%2000%3A00%3A00&releaseTime_datege=2026-11-19%2000%3A00%3A00&releaseTime_datelt=2026-11-21%2000%3A00%3A00';
    const res = await h.call<Page<Notice>>('GET', url, { token: demo });
    expect(res.status).toBe(200);
    expect(res.body.data.records.map((r) => r.title)).toContain('改过的');
    const outside = await h.call<Page<Notice>>('GET', url.replaceAll('2026-11-19', '2026-10-01').replaceAll('2026-11-21', '2026-10-02'), { token: demo });
    expect(outside.body.data.total).toBe(0);
    // a range key of a field that is not a date stays an error, as does any other unknown key
    const bad = await h.call('GET', '/api/blade-desk/notice/list?titleRange%5B%5D=a', { token: demo });
    expect(bad.status).toBe(400);
  });

  it('changes the password with update-password?oldPassword=…&newPassword=…&newPassword1=… and no body', async () => {
    await h.createUser('541742', 'saber-user', 'old-pass', ['user']);
    const token = (await h.login('541742', 'saber-user', 'old-pass')).access_token;
    const query = { oldPassword: md5('old-pass'), newPassword: md5('new-pass'), newPassword1: md5('new-pass') };
    const res = await h.server.app.inject({
      method: 'POST', url: '/api/blade-user/update-password', query,
      headers: { authorization: BASIC, 'blade-auth': `bearer ${token}`, 'content-type': 'application/json;charset=UTF-8' },
    });
    expect(res.json()).toMatchObject({ code: 200, success: true });
    await expect(h.login('541742', 'saber-user', 'new-pass')).resolves.toMatchObject({ account: 'saber-user' });
    // the same call as a form body
    const token2 = (await h.login('541742', 'saber-user', 'new-pass')).access_token;
    const form = await h.server.app.inject({
      method: 'POST', url: '/api/blade-user/update-password',
      headers: { authorization: BASIC, 'blade-auth': `bearer ${token2}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `oldPassword=${md5('new-pass')}&newPassword=${md5('third')}&newPassword1=${md5('third')}`,
    });
    expect(form.json()).toMatchObject({ code: 200 });
  });

  it('saves Saber\'s whole profile form (id, account, password fields, no phone) without writing what it does not own', async () => {
    await h.createUser('541742', 'saber-info', 'pw', ['user']);
    const token = (await h.login('541742', 'saber-info', 'pw')).access_token;
    const info = await h.call<Record<string, unknown>>('GET', '/api/blade-user/info', { token });
    const form = {
      id: info.body.data.id, account: 'hijack', tenantId: '000000', roleId: '1', realName: '萨伯', name: 'saber', phone: '',
      email: 'saber@example.com', avatar: '', password: '', oldPassword: '', newPassword: '', newPassword1: '', $sex: '男', sex: 1,
    };
    const res = await h.call('POST', '/api/blade-user/update-info', { token, body: form });
    expect(res.status).toBe(200);
    const after = await h.call<Record<string, unknown>>('GET', '/api/blade-user/info', { token });
    expect(after.body.data).toMatchObject({ account: 'saber-info', tenantId: '541742', roleId: info.body.data.roleId, realName: '萨伯', phone: '', email: 'saber@example.com' });
  });
});
