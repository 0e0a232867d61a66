import type { Page } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { BASIC, md5, useServer } from './harness.js';

/** Input the database cannot take is refused with a 400 naming the field, before any statement runs. */
const h = useServer();
let demo: string;

beforeAll(async () => {
  demo = (await h.login('541742', 'admin', 'admin')).access_token;
});

const expectEnvelope = (res: { status: number; body: { code: number; success: boolean; msg: string } }, status: number) => {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ code: status, success: false });
  expect(typeof res.body.msg).toBe('string');
};

describe('NUL characters', () => {
  it('are a 400 naming the field in a query value, a JSON value or key, a form field and the client header', async () => {
    const q = await h.call('GET', '/api/blade-desk/notice/list', { token: demo, query: { title: 'a\u0000b' } });
    expectEnvelope(q, 400);
    expect(q.body.data).toEqual({ title: 'title含有不允许的空字符 (NUL)' });
    const json = await h.call('POST', '/api/blade-desk/notice/submit', { token: demo, body: { title: 'x\u0000', category: 1, releaseTime: '2026-01-01 00:00:00' } });
    expectEnvelope(json, 400);
    expect(Object.keys(json.body.data as object)).toEqual(['title']);
    const key = await h.call('POST', '/api/blade-desk/notice/submit', { token: demo, body: { 'ti\u0000tle': 'x' }, lang: 'en' });
    expectEnvelope(key, 400);
    expect(key.body.msg).toMatch(/NUL/);
    const form = await h.server.app.inject({
      method: 'POST', url: '/api/blade-auth/oauth/token',
      headers: { authorization: BASIC, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `grant_type=password&tenantId=000000&username=ad%00min&password=${md5('admin')}`,
    });
    expect(form.statusCode).toBe(400);
    expect(form.json()).toMatchObject({ code: 400, success: false });
    const client = await h.call('GET', '/api/blade-desk/notice/list', {
      noClient: true, token: demo, headers: { authorization: `Basic ${Buffer.from('saber\u0000:saber_secret').toString('base64')}` },
    });
    expectEnvelope(client, 400);
    expect(client.body.msg).toBe('Authorization含有不允许的空字符 (NUL)');
    const tokenClient = await h.server.app.inject({
      method: 'POST', url: '/api/blade-auth/oauth/token', query: { grant_type: 'password' },
      headers: { authorization: `Basic ${Buffer.from('saber\u0000:saber_secret').toString('base64')}` },
    });
    expect(tokenClient.statusCode).toBe(400);
    expect(tokenClient.json()).toMatchObject({ error: 'invalid_request', code: 400, success: false });
    const publicRoute = await h.call('POST', '/api/blade-user/register-guest', { body: { tenantId: '541742', account: 'nul\u0000', password: md5('x') } });
    expectEnvelope(publicRoute, 400);
  });
});

describe('numbers outside their column', () => {
  it('are a 400 naming the field: ids beyond 64 bits, integers beyond 32 bits, in queries and bodies', async () => {
    const detail = await h.call('GET', '/api/blade-desk/notice/detail', { token: demo, query: { id: '9999999999999999999' } });
    expectEnvelope(detail, 400);
    expect(Object.keys(detail.body.data as object)).toEqual(['id']);
    const filter = await h.call('GET', '/api/blade-desk/notice/list', { token: demo, query: { category: '99999999999' } });
    expectEnvelope(filter, 400);
    expect(filter.body.data).toEqual({ category: '通知类型超出允许的范围 (-2147483648 到 2147483647)' });
    const inList = await h.call('GET', '/api/blade-desk/notice/list', { token: demo, query: { category_in: '1,2147483648' } });
    expectEnvelope(inList, 400);
    const idFilter = await h.call('GET', '/api/blade-desk/notice/list', { token: demo, query: { id: '99999999999999999999' } });
    expectEnvelope(idFilter, 400);
    const body = await h.call('POST', '/api/blade-desk/notice/submit', { token: demo, body: { title: 't', category: 2147483648, releaseTime: '2026-01-01 00:00:00' } });
    expectEnvelope(body, 400);
    expect(Object.keys(body.body.data as object)).toEqual(['category']);
    const bigId = await h.call('POST', '/api/blade-desk/notice/submit', { token: demo, body: { id: '9223372036854775808', title: 't' } });
    expectEnvelope(bigId, 400);
    const remove = await h.call('POST', '/api/blade-desk/notice/remove', { token: demo, query: { ids: '9223372036854775808' } });
    expectEnvelope(remove, 400);
    const topMenu = await h.call('GET', '/api/blade-system/menu/routes', { token: demo, query: { topMenuId: '99999999999999999999' } });
    expectEnvelope(topMenu, 400);
    const paging = await h.call('GET', '/api/blade-desk/notice/list', { token: demo, query: { current: '99999999999999' } });
    expectEnvelope(paging, 400);
  });
});

describe('deeply nested bodies', () => {
  it('are refused with 400 before parsing, in the envelope, and nothing is written or half-logged', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const res = await h.server.app.inject({
      method: 'POST', url: '/api/blade-desk/notice/submit', payload: deep,
      headers: { authorization: BASIC, 'blade-auth': `bearer ${demo}`, 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 400, success: false, msg: '请求体嵌套层级过深 (最多 32 层)' });
    const objects = `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`;
    const publicRoute = await h.server.app.inject({
      method: 'POST', url: '/api/blade-user/register-guest', payload: objects, headers: { 'content-type': 'application/json' },
    });
    expect(publicRoute.statusCode).toBe(400);
    // brackets inside strings do not count as nesting
    const inString = await h.call('POST', '/api/blade-desk/notice/submit', {
      token: demo, body: { title: '[[[[[{{{{{'.repeat(20), category: 1, releaseTime: '2026-01-01 00:00:00' },
    });
    expect(inString.status).toBe(200);
  });

  it('a body just under the limit is logged without throwing', async () => {
    let nested: unknown = 'x';
    for (let i = 0; i < 30; i++) nested = { a: nested };
    const res = await h.call('POST', '/api/blade-desk/notice/submit', { token: demo, body: { title: 'nested', category: 1, releaseTime: '2026-01-01 00:00:00', extra: nested } });
    expect(res.status).toBe(200);
    await h.server.ctx.logs.flush();
  });
});

describe('conflicts', () => {
  it('40 parallel sign-ups of one account: one succeeds, the others answer 409, never 500', async () => {
    const body = { tenantId: '541742', account: 'racer', name: 'racer', password: md5('pw') };
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => h.server.app.inject({
      method: 'POST', url: '/api/blade-user/register-guest', payload: body, remoteAddress: `10.9.${Math.floor(i / 8)}.${i}`,
    })));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(39);
    for (const a of answers.filter((x) => x.statusCode === 409)) expect(a.json().msg).toBe('账号「racer」已被注册');
  });

  it('a unique violation anywhere is a 409 in the envelope', async () => {
    const platform = (await h.login('000000', 'admin', 'admin')).access_token;
    const submit = (key: string) => h.call('POST', '/api/blade-system/param/submit', {
      token: platform, body: { paramName: 'p', paramKey: key, paramValue: 'v' },
    });
    const answers = await Promise.all(Array.from({ length: 10 }, () => submit('race.key')));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) expectEnvelope(a, 409);
    const list = await h.call<Page<unknown>>('GET', '/api/blade-system/param/list', { token: platform, query: { paramKey: 'race.key' } });
    expect(list.body.data.total).toBe(1);
  });
});
