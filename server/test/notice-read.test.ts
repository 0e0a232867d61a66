import { type Page } from '@console/contract';
import { NOTICE_BELL, type NoticeBellItem, type NoticeUnreadCount } from '@console/contract/areas/desk/index';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { inTenant } from '../src/core/db/index.js';
import { useServer } from './harness.js';
import { noticeRead, noticeReadMark } from '../src/areas/desk/tables.js';

/** The bell's read state: counts, mark one / several / all, per user and per tenant. */

const h = useServer();
const DEMO = '541742';
let demoAdmin: string;
let platform: string;
let alice: string;
let bob: string;
let aliceId: string;
let bobId: string;

const submit = async (token: string, title: string, category: number, releaseTime = '2026-01-02 03:04:05') => {
  const res = await h.call<{ id: string }>('POST', '/api/blade-desk/notice/submit', { token, body: { title, category, releaseTime, content: `<p>${title}</p>` } });
  expect(res.status).toBe(200);
  return res.body.data.id;
};
const counts = async (token: string, query: Record<string, string> = {}) => {
  const res = await h.call<NoticeUnreadCount>('GET', NOTICE_BELL.unreadCount, { token, query });
  expect(res.status).toBe(200);
  return res.body.data;
};
const inbox = async (token: string, query: Record<string, string | number> = {}) => {
  const res = await h.call<Page<NoticeBellItem>>('GET', NOTICE_BELL.inbox, { token, query: { size: 100, ...query } });
  expect(res.status).toBe(200);
  return res.body.data;
};
const read = (token: string, ids: string | string[], how: 'query' | 'json' | 'form' = 'query') =>
  how === 'query'
    ? h.call<boolean>('POST', NOTICE_BELL.read, { token, query: { ids: Array.isArray(ids) ? ids.join(',') : ids } })
    : how === 'json'
      ? h.call<boolean>('POST', NOTICE_BELL.read, { token, body: { ids } })
      : h.call<boolean>('POST', NOTICE_BELL.read, {
        token, body: `ids=${encodeURIComponent(Array.isArray(ids) ? ids.join(',') : ids)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
const readAll = (token: string, category?: string) =>
  h.call<boolean>('POST', NOTICE_BELL.readAll, { token, ...(category === undefined ? {} : { query: { category } }) });

const ids: Record<string, string> = {};

beforeAll(async () => {
  platform = (await h.login('000000', 'admin', 'admin')).access_token;
  demoAdmin = (await h.login(DEMO, 'admin', 'admin')).access_token;
  // two users of the demo tenant without the notice menu: the bell needs only a signed-in user
  aliceId = await h.createUser(DEMO, 'alice', 'pw-alice', []);
  bobId = await h.createUser(DEMO, 'bob', 'pw-bob', []);
  alice = (await h.login(DEMO, 'alice', 'pw-alice')).access_token;
  bob = (await h.login(DEMO, 'bob', 'pw-bob')).access_token;
  ids.release1 = await submit(demoAdmin, 'release 1', 1);
  ids.release2 = await submit(demoAdmin, 'release 2', 1, '2026-01-03 00:00:00');
  ids.approval = await submit(demoAdmin, 'approval', 2);
  ids.forward = await submit(demoAdmin, 'forward', 3);
  ids.instruction = await submit(demoAdmin, 'instruction', 4);
  // not released yet: never in the bell
  ids.future = await submit(demoAdmin, 'future', 1, '2999-01-01 00:00:00');
  ids.platform = await submit(platform, 'platform notice', 1);
});

describe('unread counts', () => {
  it('counts the released notices of the caller\'s tenant, per category', async () => {
    expect(await counts(alice)).toEqual({ total: 5, byCategory: { 1: 2, 2: 1, 3: 1, 4: 1 }, exact: true });
    expect(await counts(alice, { category_in: '2,3' })).toEqual({ total: 2, byCategory: { 2: 1, 3: 1 }, exact: true });
  });

  it('lists the bell\'s items newest release first with a read flag, without unreleased or other tenants\' notices', async () => {
    const page = await inbox(alice);
    expect(page.total).toBe(5);
    expect(page.records.map((r) => r.id)).not.toContain(ids.future);
    expect(page.records.map((r) => r.id)).not.toContain(ids.platform);
    expect(page.records[0]).toMatchObject({ id: ids.release2, title: 'release 2', category: 1, categoryName: '发布通知', releaseTime: '2026-01-03 00:00:00', read: false });
    expect(page.records.every((r) => r.read === false)).toBe(true);
    const mail = await inbox(alice, { category_in: '2,3', size: 1 });
    expect(mail).toMatchObject({ total: 2, size: 1, pages: 2 });
    expect((await h.call('GET', NOTICE_BELL.inbox, { token: alice, query: { category_in: 'x' } })).status).toBe(400);
    expect((await h.call('GET', NOTICE_BELL.inbox, { token: alice, query: { size: 501 } })).status).toBe(400);
  });

  it('takes the token from a blade-auth query parameter too, and ignores other keys', async () => {
    const res = await h.call<NoticeUnreadCount>('GET', NOTICE_BELL.unreadCount, { query: { 'blade-auth': `bearer ${alice}`, _t: 1 } });
    expect(res.status).toBe(200);
    expect(res.body.data.total).toBe(5);
  });

  it('needs a signed-in user', async () => {
    expect((await h.call('GET', NOTICE_BELL.unreadCount)).status).toBe(401);
    expect((await h.call('POST', NOTICE_BELL.read, { query: { ids: ids.release1! } })).status).toBe(401);
    expect((await h.call('POST', NOTICE_BELL.readAll)).status).toBe(401);
  });

  it('opens a released notice with its content, and refuses unreleased or other tenants\' ones', async () => {
    const res = await h.call<{ title: string; content: string }>('GET', NOTICE_BELL.inboxDetail, { token: alice, query: { id: ids.approval! } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ title: 'approval', content: '<p>approval</p>', categoryName: '批转通知' });
    expect((await h.call('GET', NOTICE_BELL.inboxDetail, { token: alice, query: { id: ids.future! } })).status).toBe(404);
    expect((await h.call('GET', NOTICE_BELL.inboxDetail, { token: alice, query: { id: ids.platform! } })).status).toBe(404);
    expect((await h.call('GET', NOTICE_BELL.inboxDetail, { token: alice, query: { id: 'abc' } })).status).toBe(400);
  });
});

describe('mark read', () => {
  it('marks one notice read for the caller only', async () => {
    expect((await read(alice, ids.approval!)).body).toMatchObject({ code: 200, data: true });
    expect(await counts(alice)).toEqual({ total: 4, byCategory: { 1: 2, 3: 1, 4: 1 }, exact: true });
    const items = await inbox(alice);
    expect(items.records.find((r) => r.id === ids.approval)?.read).toBe(true);
    expect(items.records.filter((r) => r.read)).toHaveLength(1);
    // another user of the same tenant still sees it unread
    expect((await counts(bob)).total).toBe(5);
    expect((await inbox(bob)).records.every((r) => !r.read)).toBe(true);
    // marking it again changes nothing
    expect((await read(alice, ids.approval!)).status).toBe(200);
    expect((await counts(alice)).total).toBe(4);
  });

  it('takes several ids from the query, a form or a JSON body', async () => {
    expect((await read(bob, [ids.release1!, ids.release2!], 'json')).status).toBe(200);
    expect((await counts(bob)).byCategory).toEqual({ 2: 1, 3: 1, 4: 1 });
    expect((await read(bob, `${ids.forward} , ${ids.forward}`, 'form')).status).toBe(200);
    expect(await counts(bob)).toEqual({ total: 2, byCategory: { 2: 1, 4: 1 }, exact: true });
  });

  it('refuses bad ids with 400, and unknown, unreleased or other tenants\' ids with 404, marking nothing', async () => {
    const before = await counts(alice);
    for (const bad of ['', 'abc', `${ids.release1},x`, '1.5', '-1']) {
      const res = await read(alice, bad);
      expect(res.status, bad).toBe(400);
    }
    const tooMany = await read(alice, Array.from({ length: 1001 }, (_, i) => String(i + 1)).join(','));
    expect(tooMany.status).toBe(400);
    for (const unknown of ['123456789', ids.future!, ids.platform!]) {
      const res = await read(alice, [ids.release1!, unknown]);
      expect(res.status, unknown).toBe(404);
    }
    expect(await counts(alice)).toEqual(before);
    // nothing written for the other tenant's notice, whoever looks
    const rows = await inTenant(h.server.ctx.db, { tenantId: '000000', allTenants: true }, (tx) =>
      tx.select().from(noticeRead).where(sql`notice_id in (${ids.platform}, ${ids.future}, ${ids.release1})`));
    expect(rows.filter((r) => r.userId !== undefined && r.noticeId !== ids.release1)).toEqual([]);
    expect(rows.filter((r) => r.noticeId === ids.release1).map((r) => r.tenantId)).toEqual([DEMO]);
  });

  it('keeps the other tenant\'s counts apart', async () => {
    const p = await counts(platform);
    expect(p.total).toBe(1);
    expect((await inbox(platform)).records.map((r) => r.id)).toEqual([ids.platform]);
    expect((await read(platform, ids.approval!)).status).toBe(404);
    expect((await readAll(platform)).status).toBe(200);
    expect((await counts(platform)).total).toBe(0);
    // the platform's "all read" does not touch the demo tenant's users
    expect((await counts(alice)).total).toBe(4);
  });

  it('drops the read rows of a removed notice with it', async () => {
    const extra = await submit(demoAdmin, 'to remove', 6);
    expect((await read(alice, extra)).status).toBe(200);
    expect((await h.call('POST', '/api/blade-desk/notice/remove', { token: demoAdmin, query: { ids: extra } })).status).toBe(200);
    const left = await inTenant(h.server.ctx.db, { tenantId: DEMO }, (tx) => tx.select().from(noticeRead).where(sql`notice_id = ${extra}`));
    expect(left).toEqual([]);
    expect((await read(alice, extra)).status).toBe(404);
  });
});

describe('mark all read', () => {
  it('marks one category\'s notices read (a tab)', async () => {
    expect((await readAll(alice, '1,4')).status).toBe(200);
    expect(await counts(alice)).toEqual({ total: 1, byCategory: { 3: 1 }, exact: true });
    expect((await inbox(alice, { category_in: '1,4' })).records.every((r) => r.read)).toBe(true);
    expect((await readAll(alice, 'x')).status).toBe(400);
    expect((await counts(bob)).total).toBe(2);
  });

  it('marks everything read; a notice created afterwards is unread, even back-dated', async () => {
    expect((await readAll(alice)).status).toBe(200);
    expect(await counts(alice)).toEqual({ total: 0, byCategory: {}, exact: true });
    expect((await inbox(alice)).records.every((r) => r.read)).toBe(true);
    // the watermark replaced the single reads
    const rows = await inTenant(h.server.ctx.db, { tenantId: DEMO }, (tx) => tx.select().from(noticeRead));
    expect(rows.filter((r) => r.userId === aliceId)).toEqual([]);
    expect(rows.filter((r) => r.userId === bobId)).toHaveLength(3);

    ids.newer = await submit(demoAdmin, 'newer', 2);
    ids.backdated = await submit(demoAdmin, 'backdated', 4, '2020-01-01 00:00:00');
    expect(await counts(alice)).toEqual({ total: 2, byCategory: { 2: 1, 4: 1 }, exact: true });
    const items = await inbox(alice);
    expect(items.records.filter((r) => !r.read).map((r) => r.id).sort()).toEqual([ids.newer, ids.backdated].sort());
    expect((await read(alice, ids.backdated!)).status).toBe(200);
    expect(await counts(alice)).toEqual({ total: 1, byCategory: { 2: 1 }, exact: true });
    // bob: untouched by alice's marks
    expect((await counts(bob)).total).toBe(4);
  });

  it('turns per-tab marks into one watermark once nothing is left unread', async () => {
    expect((await readAll(alice, '2')).status).toBe(200);
    expect((await counts(alice)).total).toBe(0);
    const marks = await inTenant(h.server.ctx.db, { tenantId: DEMO }, (tx) => tx.select().from(noticeReadMark));
    expect(marks.filter((m) => m.userId === aliceId).map((m) => m.category)).toEqual([-1]);
  });

  it('is answered alike with the categories in a JSON body', async () => {
    const res = await h.call<boolean>('POST', NOTICE_BELL.readAll, { token: bob, body: { category: [2, 4] } });
    expect(res.status).toBe(200);
    // bob had read the rest one by one: nothing is left, so one watermark replaces the rows and marks
    expect(await counts(bob)).toEqual({ total: 0, byCategory: {}, exact: true });
    const db = h.server.ctx.db;
    expect((await inTenant(db, { tenantId: DEMO }, (tx) => tx.select().from(noticeRead))).filter((r) => r.userId === bobId)).toEqual([]);
    expect((await inTenant(db, { tenantId: DEMO }, (tx) => tx.select().from(noticeReadMark))).filter((m) => m.userId === bobId).map((m) => m.category)).toEqual([-1]);
  });
});
