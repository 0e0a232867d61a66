import type { Page } from '@console/contract';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { answerForDbError } from '../src/core/dbErrors.js';
import { inTenant } from '../src/core/db/index.js';
import { AppError } from '../src/core/errors.js';
import { Semaphore } from '../src/core/semaphore.js';
import { useServer } from './harness.js';

/** One request never starves the others: bounded lanes for expensive work, time limits on statements. */
const h = useServer();
const onPostgres = Boolean(process.env.DATABASE_URL);
let demo: string;

beforeAll(async () => {
  demo = (await h.login('541742', 'admin', 'admin')).access_token;
});

describe('the semaphore behind the lanes', () => {
  it('runs at most `limit` at once, in order, and refuses a full queue or a wait past its bound with 429', async () => {
    const lane = new Semaphore(2, 3, 50);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const job = (i: number) => lane.run(async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 5));
      order.push(i);
      running--;
      return i;
    });
    expect(await Promise.all([0, 1, 2, 3, 4].map(job))).toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBe(2);
    expect(order.slice(2)).toEqual([2, 3, 4]);

    const block = new Semaphore(1, 1, 30);
    let release!: () => void;
    const holder = block.run(() => new Promise<void>((r) => { release = r; }));
    const waiter = block.run(async () => 'late');
    const overflow = block.run(async () => 'never');
    await expect(overflow).rejects.toMatchObject({ code: 429, key: 'serverBusy' });
    await expect(waiter).rejects.toBeInstanceOf(AppError); // waited past 30 ms
    release();
    await holder;
    expect(await block.run(async () => 'free again')).toBe('free again');
  });
});

describe('searches no index can serve', () => {
  it('go through the heavy lane; searches of any length on a searchable field (grams index) do not', async () => {
    const spy = vi.spyOn(h.server.ctx.heavyQueries, 'run');
    const list = (query: Record<string, string>) => h.call('GET', '/api/blade-desk/notice/list', { token: demo, query });
    // content is not searchable in the console (no grams column): a substring of it has no index
    expect((await list({ content: '通知' })).status).toBe(200);
    expect(spy).toHaveBeenCalledTimes(1);
    expect((await list({ content_like: 'a%' })).status).toBe(200);
    expect(spy).toHaveBeenCalledTimes(2);
    // the title has its grams: one character, two, a wildcard character, four
    for (const title of ['通', '通知', 'a%', '维护通知']) expect((await list({ title })).status).toBe(200);
    expect((await list({ title_like: '知' })).status).toBe(200);
    expect((await h.call('GET', '/api/blade-desk/notice/list', { token: demo })).status).toBe(200);
    expect(spy).toHaveBeenCalledTimes(2);
    spy.mockRestore();
  });
});

describe('statement time limits', () => {
  it.skipIf(!onPostgres)('cancel a statement past the limit, answered as a 400 "search too broad" (PostgreSQL)', async () => {
    const err = await inTenant(h.server.ctx.db, { tenantId: '541742', timeoutMs: 50 }, (tx) => tx.execute(sql`select pg_sleep(2)`))
      .then(() => null, (e: unknown) => e);
    expect(answerForDbError(err)).toEqual({ status: 400, key: 'queryTooBroad' });
  });

  it.skipIf(onPostgres)('on the embedded database a long statement runs off the server\'s thread: other requests are answered meanwhile', async () => {
    let settled = false;
    const long = h.server.ctx.db.execute(sql`select count(*) from generate_series(1, 6000000) g where g::text like '%77%'`)
      .finally(() => { settled = true; });
    await new Promise((r) => setTimeout(r, 20));
    const version = await h.server.app.inject({ method: 'GET', url: '/version.json' });
    expect(version.statusCode).toBe(200);
    expect(settled).toBe(false);
    await long;
  });
});

describe('a short search on many rows', () => {
  it('finds rare matches through the grams index, in the tenant only, exactly counted; frequent ones page at once', async () => {
    const { ctx } = h.server;
    // 30,000 notices in the demo tenant, three of them with a rare pair of characters (oldest, middle,
    // newest), and one in another tenant that must never be found (computing their grams takes a while on
    // a busy machine: no statement time limit for the fixture)
    await inTenant(ctx.db, { tenantId: '541742', timeoutMs: 0 }, (tx) => tx.execute(sql`
      insert into blade_notice (id, tenant_id, title, category, release_time, create_time, update_time, status, is_deleted)
      select 800000000000000000 + g, '541742',
        case when g in (1, 15000, 30000) then '关于召回 ' || g else 'routine notice ' || g end,
        1, now(), now() - (30000 - g) * interval '1 second', now(), 1, 0
      from generate_series(1, 30000) g`));
    await inTenant(ctx.db, { tenantId: '000000' }, (tx) => tx.execute(sql`
      insert into blade_notice (id, tenant_id, title, category, release_time, create_time, update_time, status, is_deleted)
      values (810000000000000001, '000000', '平台召回', 1, now(), now(), now(), 1, 0)`));
    const rare = await h.call<Page<{ title: string; tenantId: string }>>('GET', '/api/blade-desk/notice/list', { token: demo, query: { title: '召回' } });
    expect(rare.status).toBe(200);
    expect(rare.body.data).toMatchObject({ total: 3, totalExact: true });
    expect(rare.body.data.records.map((r) => r.title)).toEqual(['关于召回 30000', '关于召回 15000', '关于召回 1']);
    const one = await h.call<Page<{ title: string }>>('GET', '/api/blade-desk/notice/list', { token: demo, query: { title: '召' } });
    expect(one.body.data).toMatchObject({ total: 3, totalExact: true });
    const frequent = await h.call<Page<{ title: string }>>('GET', '/api/blade-desk/notice/list', { token: demo, query: { title: 'ti', size: 20 } });
    expect(frequent.body.data.totalExact).toBe(false);
    expect(frequent.body.data.total).toBeGreaterThan(1000);
    expect(frequent.body.data.records).toHaveLength(20);
    expect(frequent.body.data.records.every((r) => r.title.includes('ti'))).toBe(true);
  });
});
