import type { Page } from '@console/contract';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { inTenant, schema } from '../src/core/db/index.js';
import { nextId } from '../src/core/ids.js';
import { useServer } from './harness.js';
import { notice } from '../src/areas/desk/tables.js';

const h = useServer();
type Notice = { id: string; tenantId: string; title: string; category: number; releaseTime: string; content: string | null };
let platform: string;
let demo: string;

beforeAll(async () => {
  platform = (await h.login('000000', 'admin', 'admin')).access_token;
  demo = (await h.login('541742', 'admin', 'admin')).access_token;
});

const submit = (token: string, body: unknown) => h.call<Notice>('POST', '/api/blade-desk/notice/submit', { token, body });
const list = (token: string, query: Record<string, string | number> = {}) =>
  h.call<Page<Notice>>('GET', '/api/blade-desk/notice/list', { token, query });

describe('notices', () => {
  it('creates a notice in the caller\'s tenant, with the release time in the wire format', async () => {
    const res = await submit(demo, { title: '停机维护', category: 1, releaseTime: '2026-05-01 08:30:00', content: '<p>周六 <b>22:00</b></p>' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ tenantId: '541742', title: '停机维护', category: 1, releaseTime: '2026-05-01 08:30:00' });
    const iso = await submit(demo, { title: 'iso', category: '2', releaseTime: '2026-05-01T00:30:00Z' });
    expect(iso.body.data.releaseTime).toBe('2026-05-01 08:30:00');
  });

  it('sanitises rich-text content', async () => {
    const res = await submit(demo, {
      title: 'xss', category: 1, releaseTime: '2026-05-01 08:30:00',
      content: '<p onclick="steal()">hi<script>alert(1)</script><img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a></p>',
    });
    const html = res.body.data.content!;
    expect(html).toContain('hi');
    expect(html).not.toMatch(/script|onerror|onclick|javascript:/i);
  });

  it('validates category and release time', async () => {
    const res = await submit(demo, { title: 't', category: 'abc', releaseTime: '2026-13-45 99:00:00' });
    expect(res.status).toBe(400);
    expect(res.body.data).toMatchObject({ category: '通知类型必须是数字', releaseTime: '发布时间不是合法的时间 (yyyy-MM-dd HH:mm:ss)' });
    const missing = await submit(demo, { title: 't' });
    expect(missing.body.data).toMatchObject({ category: '请选择通知类型', releaseTime: '请选择发布时间' });
  });

  it('filters by title, category and release-time range, and sorts by release time', async () => {
    await submit(demo, { title: '固件发布 v2', category: 3, releaseTime: '2026-06-01 10:00:00' });
    expect((await list(demo, { title: '固件' })).body.data.total).toBe(1);
    expect((await list(demo, { category_equal: 3 })).body.data.total).toBe(1);
    expect((await list(demo, { releaseTime_datege: '2026-05-15 00:00:00' })).body.data.total).toBe(1);
    expect((await list(demo, { releaseTime_dateequal: '2026-06-01' })).body.data.total).toBe(1);
    const sorted = await list(demo, { ascs: 'releaseTime' });
    const times = sorted.body.data.records.map((r) => r.releaseTime);
    expect([...times].sort()).toEqual(times);
    expect((await list(demo, { descs: 'release_time' })).status).toBe(200);
  });
});

describe('tenant isolation', () => {
  let platformNotice: string;
  beforeAll(async () => {
    platformNotice = (await submit(platform, { title: '平台公告', category: 1, releaseTime: '2026-01-01 00:00:00' })).body.data.id;
  });

  it('never lists another tenant\'s rows', async () => {
    const demoList = await list(demo, { size: 500 });
    expect(demoList.body.data.records.every((r) => r.tenantId === '541742')).toBe(true);
    expect(demoList.body.data.records.map((r) => r.id)).not.toContain(platformNotice);
    const byId = await list(demo, { id_equal: platformNotice });
    expect(byId.body.data.total).toBe(0);
  });

  it('cannot read, change or delete another tenant\'s row by id', async () => {
    expect((await h.call('GET', '/api/blade-desk/notice/detail', { token: demo, query: { id: platformNotice } })).status).toBe(404);
    expect((await submit(demo, { id: platformNotice, title: 'hijacked' })).status).toBe(404);
    expect((await h.call('POST', '/api/blade-desk/notice/remove', { token: demo, query: { ids: platformNotice } })).status).toBe(404);
    const still = await h.call<Notice>('GET', '/api/blade-desk/notice/detail', { token: platform, query: { id: platformNotice } });
    expect(still.body.data.title).toBe('平台公告');
  });

  it('ignores a tenantId sent in the body', async () => {
    const res = await submit(demo, { title: 'sneaky', category: 1, releaseTime: '2026-01-01 00:00:00', tenantId: '000000' });
    expect(res.body.data.tenantId).toBe('541742');
  });

  it('is enforced by row-level security even for a query without a tenant filter', async () => {
    const db = h.server.ctx.db;
    const seen = await inTenant(db, { tenantId: '541742' }, (tx) => tx.select().from(notice));
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((r) => r.tenantId === '541742')).toBe(true);
    await expect(inTenant(db, { tenantId: '541742' }, (tx) =>
      tx.insert(notice).values({ id: nextId(), tenantId: '000000', title: 'x', category: 1, releaseTime: new Date() }))).rejects.toThrow();
    const changed = await inTenant(db, { tenantId: '541742' }, (tx) =>
      tx.execute(sql`update blade_notice set title = 'rls-bypass' where tenant_id = '000000'`));
    expect((changed as unknown as { rowCount?: number; affectedRows?: number }).rowCount ?? (changed as { affectedRows?: number }).affectedRows ?? 0).toBe(0);
    const none = await inTenant(db, { tenantId: '' }, (tx) => tx.select().from(schema.user));
    expect(none).toHaveLength(0);
  });
});

describe('notices: permissions', () => {
  it('lets a user with notice_view only read', async () => {
    await h.createUser('000000', 'reader', 'pw', ['user']);
    const token = (await h.login('000000', 'reader', 'pw')).access_token;
    expect((await list(token)).status).toBe(200);
    expect((await submit(token, { title: 't', category: 1, releaseTime: '2026-01-01 00:00:00' })).status).toBe(403);
    expect((await h.call('POST', '/api/blade-desk/notice/remove', { token, query: { ids: '1' } })).status).toBe(403);
  });
});
