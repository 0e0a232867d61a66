import type { Page } from '@console/contract';
import { asc, desc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertRows } from '../src/core/db/bulk.js';
import { inTenant } from '../src/core/db/index.js';
import { notice } from '../src/areas/desk/tables.js';
import { nextId } from '../src/core/ids.js';
import { useServer } from './harness.js';

// Small limits, so that a dozen rows exercise every counting path of a list of millions.
const h = useServer({ LIST_EXACT_COUNT_LIMIT: '5', LIST_TEXT_MATCH_LIMIT: '3' });
type Notice = { id: string; title: string; category: number };
let demo: string;
let platform: string;

const list = (query: Record<string, string | number>, token = demo) =>
  h.call<Page<Notice>>('GET', '/api/blade-desk/notice/list', { token, query });

beforeAll(async () => {
  demo = (await h.login('541742', 'admin', 'admin')).access_token;
  platform = (await h.login('000000', 'admin', 'admin')).access_token;
  for (let i = 1; i <= 12; i++) {
    const title = i <= 4 ? `zeta 报告 ${i}` : i <= 6 ? `omega ${i}` : `alpha ${i}`;
    await h.call('POST', '/api/blade-desk/notice/submit', { token: demo, body: { title, category: (i % 3) + 1, releaseTime: '2026-01-01 00:00:00' } });
  }
  await h.call('POST', '/api/blade-desk/notice/submit', { token: platform, body: { title: 'omega platform', category: 1, releaseTime: '2026-01-01 00:00:00' } });
});

describe('list totals', () => {
  it('estimates the total of a list larger than the exact limit, and says so', async () => {
    const res = await list({ size: 10 });
    expect(res.body.data.totalExact).toBe(false);
    expect(res.body.data.total).toBeGreaterThanOrEqual(6);
    expect(res.body.data.records).toHaveLength(10);
    const page2 = await list({ size: 10, current: 2 });
    expect(page2.body.data.records).toHaveLength(2);
  });

  it('counts exactly when the rows are few, through the bounded count', async () => {
    const res = await list({ category_equal: 1 });
    expect(res.body.data).toMatchObject({ total: 4, totalExact: true });
    expect(res.body.data.records).toHaveLength(4);
  });

  it('estimates the total of a substring match with more matches than the text-match limit', async () => {
    const res = await list({ title: 'zeta' });
    expect(res.body.data.totalExact).toBe(false);
    expect(res.body.data.total).toBeGreaterThanOrEqual(4);
    expect(res.body.data.records.map((r) => r.title).sort()).toEqual(['zeta 报告 1', 'zeta 报告 2', 'zeta 报告 3', 'zeta 报告 4']);
  });

  it('answers a small substring match from the text-match function, exactly, and only for the caller\'s tenant', async () => {
    const res = await list({ title: 'omega' });
    expect(res.body.data).toMatchObject({ total: 2, totalExact: true });
    expect(res.body.data.records.every((r) => r.title.startsWith('omega ') && !r.title.includes('platform'))).toBe(true);
    const combined = await list({ title: 'omega', category_equal: 1 });
    expect(combined.body.data.records.map((r) => r.title)).toEqual(['omega 6']);
    expect((await list({ title: 'nothing-like-this' })).body.data).toMatchObject({ total: 0, totalExact: true, records: [] });
    expect((await list({ title_likeright: 'omega' })).body.data.total).toBe(2);
    expect((await list({ title_likeleft: '报告 3' })).body.data.total).toBe(1);
  });

  it('keeps counting a filter the text-match function does not serve', async () => {
    const res = await list({ title_notlike: 'alpha' });
    expect(res.body.data).toMatchObject({ total: 6, totalExact: false });
    expect(res.body.data.records).toHaveLength(6);
  });
});

describe('pages read by their ids', () => {
  const BULK = 1200;
  const stamp = (i: number) => new Date(Date.UTC(2025, 0, 1) + i * 60_000);
  const stored = (order: 'created' | 'release') => inTenant(h.server.ctx.db, { tenantId: '541742' }, async (tx) =>
    (await tx.select({ id: notice.id }).from(notice).where(eq(notice.isDeleted, 0))
      .orderBy(...(order === 'created' ? [desc(notice.createTime), desc(notice.id)] : [asc(notice.releaseTime), desc(notice.id)]))).map((r) => String(r.id)));

  beforeAll(async () => {
    // ten creation times shared by 120 rows each: the id orders the ties
    const rows = Array.from({ length: BULK }, (_, i) => ({
      id: nextId(), tenantId: '541742', title: `bulk ${String(i).padStart(4, '0')}`, category: (i % 3) + 1,
      releaseTime: stamp((i * 7919) % BULK), createTime: stamp(i % 10), updateTime: stamp(0),
    }));
    await inTenant(h.server.ctx.db, { tenantId: '541742' }, (tx) => insertRows(tx, notice, rows));
  });

  it('answers a deep page (past the first thousand rows) in the list\'s order, ties by id, as reading every row would', async () => {
    const all = await stored('created');
    expect(all.length).toBeGreaterThan(BULK);
    for (const current of [100, 101, 121]) {
      const res = await list({ current, size: 10 });
      expect(res.body.data.records.map((r) => r.id)).toEqual(all.slice((current - 1) * 10, current * 10));
    }
    const byRelease = await stored('release');
    const res = await list({ current: 11, size: 100, ascs: 'release_time' });
    expect(res.body.data.records.map((r) => r.id)).toEqual(byRelease.slice(1000, 1100));
  });

  it('pages a filter\'s few matches in the asked order', async () => {
    // four rows released in this window (minutes 0–3), every one created at another time
    const window = { releaseTime_datege: '2025-01-01 08:00:00', releaseTime_datele: '2025-01-01 08:03:00' };
    const first = await list({ ...window, ascs: 'title', size: 3 });
    expect(first.body.data).toMatchObject({ total: 4, totalExact: true });
    const second = await list({ ...window, ascs: 'title', size: 3, current: 2 });
    const titles = [...first.body.data.records, ...second.body.data.records].map((r) => r.title);
    expect(titles).toHaveLength(4);
    expect(titles).toEqual([...titles].sort());
    const released = await list({ ...window, descs: 'release_time', size: 4 });
    expect(released.body.data.records.map((r) => r.title)).toEqual([...titles].sort((a, b) => releasedAt(b) - releasedAt(a)));
  });
});

/** the minute a bulk notice was released at: its number × 7919 mod 1200 */
const releasedAt = (title: string) => (Number(title.slice(5)) * 7919) % 1200;
