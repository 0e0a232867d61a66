import { type Lang, MAX_IDS_PER_CALL, msg, recordSchema } from '@console/contract';
import {
  NOTICE_BELL, NOTICE_UNREAD_CAP, type NoticeBellItem, type NoticeUnreadCount,
} from '@console/contract/areas/desk/index';
import { and, desc, eq, inArray, lte, ne, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../../core/access.js';
import type { AppContext, AuthUser } from '../../core/context.js';
import { idsParam } from '../../core/idList.js';
import { type Executor, inTenant } from '../../core/db/index.js';
import { envelopeOf, ok, pageOf } from '../../core/envelope.js';
import { AppError, badRequest, notFound } from '../../core/errors.js';
import { isId } from '../../core/ids.js';
import type { MountedResource } from '../../core/resource/engine.js';
import { scopeList } from '../../core/resource/count.js';
import { notice, noticeRead, noticeReadMark } from './tables.js';

/**
 * The bell's read state (see docs/decisions.md, "Notice read state").
 *
 * What a user sees in the bell: the live notices of their own tenant that are released (release time at
 * or before now). Any signed-in user may read their own counts and mark such notices read; the notice
 * menu (`notice`) is needed only for the notice page and its list/detail/submit/remove.
 *
 * A notice is read by a user when
 * - a row (user, notice) is in blade_notice_read (marked one by one), or
 * - a watermark of the user in blade_notice_read_mark covers it: category -1 (every category) or the
 *   notice's own category, with the notice created and released at or before the watermark.
 */

const n = notice;
const r = noticeRead;
const m = noticeReadMark;

/** The watermark category that covers every category. */
export const ALL_CATEGORIES = -1;
const INT_MIN = -2147483648;
const INT_MAX = 2147483647;

/** Live released notices of the caller's tenant: what the bell may show. */
const visible = (user: AuthUser, now: Date): SQL => and(eq(n.tenantId, user.tenantId), eq(n.isDeleted, 0), lte(n.releaseTime, now))!;

/** Whether the notice row `n` is read by the user (a correlated condition on blade_notice). */
const isRead = (user: AuthUser): SQL => sql`(exists (select 1 from ${r} where ${r.userId} = ${user.userId} and ${r.noticeId} = ${n.id} and ${r.tenantId} = ${user.tenantId})
  or exists (select 1 from ${m} where ${m.userId} = ${user.userId} and ${m.tenantId} = ${user.tenantId} and ${m.category} in (${ALL_CATEGORIES}, ${n.category})
    and ${n.releaseTime} <= ${m.readUntil} and ${n.createTime} <= ${m.readUntil}))`;

type Rows<T> = { rows: T[] };

/** The user's "everything read until" watermark (category -1), or null. */
async function allWatermark(tx: Executor, user: AuthUser): Promise<Date | null> {
  const [row] = await tx.select({ at: m.readUntil }).from(m)
    .where(and(eq(m.userId, user.userId), eq(m.tenantId, user.tenantId), eq(m.category, ALL_CATEGORIES)));
  return row?.at ?? null;
}

/**
 * Unread released notices of the user, per category, counted exactly up to `cap`. Everything released and
 * created at or before the all-categories watermark W is read, so only two index ranges can hold unread
 * notices: released after W (ix_notice_tenant_release, newest first), and released before W but created
 * after it (a back-dated notice; ix_notice_tenant_time). Each range is walked newest first, every row
 * probing the read rows' and category watermarks' primary keys, and stops after cap + 1 unread ones.
 */
export async function countUnread(tx: Executor, user: AuthUser, now: Date, cap: number, categories?: number[]): Promise<NoticeUnreadCount> {
  const w = await allWatermark(tx, user);
  const base = [visible(user, now), sql`not ${isRead(user)}`];
  if (categories) base.push(inArray(n.category, categories));
  const released = w ? and(...base, sql`${n.releaseTime} > ${w.toISOString()}::timestamptz`) : and(...base);
  const branches = [sql`(select ${n.category} as category from ${n} where ${released} order by ${n.releaseTime} desc, ${n.id} desc limit ${cap + 1})`];
  if (w) {
    const backdated = and(...base, sql`${n.releaseTime} <= ${w.toISOString()}::timestamptz`, sql`${n.createTime} > ${w.toISOString()}::timestamptz`);
    branches.push(sql`(select ${n.category} as category from ${n} where ${backdated} order by ${n.createTime} desc, ${n.id} desc limit ${cap + 1})`);
  }
  const res = await tx.execute(sql`select u.category, count(*) as n from (${sql.join(branches, sql` union all `)}) u group by u.category`);
  const byCategory: Record<string, number> = {};
  let total = 0;
  for (const row of (res as unknown as Rows<{ category: number | string; n: number | string }>).rows) {
    byCategory[String(row.category)] = Number(row.n);
    total += Number(row.n);
  }
  return { total, byCategory, exact: total <= cap };
}

const categoryList = z.union([z.string().max(2000), z.array(z.union([z.string(), z.number()])).max(MAX_IDS_PER_CALL)]);
const idList = z.union([z.string().max(40_000), z.array(z.union([z.string(), z.number()])).max(MAX_IDS_PER_CALL)]);

/** `a,b` or `['a','b']` → distinct trimmed non-empty parts. */
function parts(raw: unknown): string[] {
  const items = Array.isArray(raw) ? raw.map(String) : typeof raw === 'string' || typeof raw === 'number' ? String(raw).split(',') : [];
  return [...new Set(items.map((s) => s.trim()).filter(Boolean))];
}

/** Category filters (`category_in=2,3`, `category=2,3`): whole numbers in int range, or a 400 naming the key. */
function parseCategories(raw: unknown, field: string, lang: Lang): number[] | undefined {
  const items = parts(raw);
  if (items.length === 0) return undefined;
  if (items.length > 100) throw badRequest('tooManyIds', { max: 100 });
  return items.map((s) => {
    const v = /^-?\d{1,10}$/.test(s) ? Number(s) : NaN;
    if (!Number.isInteger(v) || v < INT_MIN || v > INT_MAX) {
      const text = msg('notInteger', lang, { field });
      throw new AppError(400, 'validationFailed', { detail: text }, { [field]: text });
    }
    return v;
  });
}

const bellItem = z.object({
  id: z.string(), title: z.string(), category: z.number(), categoryName: z.string().nullable(), releaseTime: z.string(), read: z.boolean(),
});
const unreadCount = z.object({ total: z.number(), byCategory: z.record(z.string(), z.number()), exact: z.boolean() });

export function registerNoticeReadRoutes(app: FastifyInstance, ctx: AppContext, notices: MountedResource): void {
  const run = <T>(user: AuthUser, fn: (tx: Executor) => Promise<T>) => inTenant(ctx.db, { tenantId: user.tenantId }, fn);
  const tag = 'blade-desk';
  const categoryLabel = { category_in: { zh: '通知类型', en: 'Category' }, category: { zh: '通知类型', en: 'Category' } };

  app.get(NOTICE_BELL.unreadCount, {
    config: { access: { permission: null }, fieldLabels: categoryLabel },
    schema: {
      tags: [tag],
      summary: 'Notice bell: the caller\'s unread released notices, in total and per category (exact up to a bound)',
      querystring: z.object({ category_in: categoryList.optional() }).passthrough(),
      response: { 200: envelopeOf(unreadCount) },
    },
  }, async (req) => {
    const user = requireUser(req);
    const categories = parseCategories((req.query as { category_in?: unknown }).category_in, 'category_in', req.lang);
    const body = await run(user, (tx) => countUnread(tx, user, new Date(), NOTICE_UNREAD_CAP, categories));
    return ok(body, req.lang);
  });

  const inboxQuery = z.object({
    current: z.coerce.number().int().min(1).max(10_000_000).default(1),
    size: z.coerce.number().int().min(1).max(500).default(10),
    category_in: categoryList.optional(),
  }).passthrough();
  app.get(NOTICE_BELL.inbox, {
    config: { access: { permission: null }, fieldLabels: { current: { zh: '页码', en: 'current' }, size: { zh: '每页条数', en: 'size' }, ...categoryLabel } },
    schema: {
      tags: [tag],
      summary: 'Notice bell: the caller\'s released notices, newest release first, each with its read flag (paged)',
      querystring: inboxQuery,
      response: { 200: envelopeOf(pageOf(bellItem)) },
    },
  }, async (req) => {
    const user = requireUser(req);
    const { current, size, category_in } = req.query as z.output<typeof inboxQuery>;
    const categories = parseCategories(category_in, 'category_in', req.lang);
    const now = new Date();
    const offset = (current - 1) * size;
    const base = [visible(user, now)];
    if (categories) base.push(inArray(n.category, categories));
    const { rows, total, exact } = await run(user, async (tx) => {
      const scope = await scopeList(tx, n, n.id, base, { conditions: [], textMatches: [] }, ctx.config.listCount, false);
      const rows = !scope.exact || scope.total > offset
        ? await tx.select({ id: n.id, title: n.title, category: n.category, releaseTime: n.releaseTime, read: sql<boolean>`${isRead(user)}` })
          .from(n).where(scope.where).orderBy(desc(n.releaseTime), desc(n.id)).limit(size).offset(offset)
        : [];
      return { rows, total: scope.total, exact: scope.exact };
    });
    const presented = await notices.present(rows, req.lang);
    const records: NoticeBellItem[] = rows.map((row, i) => ({
      id: String(row.id),
      title: row.title,
      category: row.category,
      categoryName: (presented[i]!.categoryName as string | null) ?? null,
      releaseTime: presented[i]!.releaseTime as string,
      read: row.read === true || (row.read as unknown) === 't',
    }));
    return ok({ records, total, size, current, pages: Math.ceil(total / size), totalExact: exact }, req.lang);
  });

  app.get(NOTICE_BELL.inboxDetail, {
    config: { access: { permission: null }, fieldLabels: { id: { zh: '编号', en: 'id' } } },
    schema: {
      tags: [tag],
      summary: 'Notice bell: one released notice of the caller\'s tenant, with its content',
      querystring: z.object({ id: z.string().max(40) }).passthrough(),
      docsOnly: { response: { 200: envelopeOf(recordSchema(notices.def)) } },
    },
  }, async (req) => {
    const user = requireUser(req);
    const id = (req.query as { id: string }).id.trim();
    if (!isId(id)) throw badRequest('badId', { field: 'id' }, { id: msg('badId', req.lang, { field: 'id' }) });
    const [row] = await run(user, (tx) => tx.select().from(n).where(and(eq(n.id, id), visible(user, new Date()))));
    if (!row) throw notFound();
    const [record] = await notices.present([row as Record<string, unknown>], req.lang);
    return ok(record, req.lang);
  });

  app.post(NOTICE_BELL.read, {
    config: { access: { permission: null }, fieldLabels: { ids: { zh: '编号', en: 'ids' } }, title: { zh: '通知公告: 标记已读', en: 'Notices: mark as read' } },
    schema: {
      tags: [tag],
      summary: 'Notice bell: mark notices read for the caller (ids comma-joined or an array; query, form or JSON); 404 and nothing marked if one is not a released notice of the tenant',
      querystring: z.object({ ids: z.string().optional() }).passthrough(),
      body: z.object({ ids: idList.optional() }).passthrough().nullish(),
      response: { 200: envelopeOf(z.boolean()) },
    },
  }, async (req) => {
    const user = requireUser(req);
    const ids = idsParam((req.body as { ids?: unknown } | null | undefined)?.ids ?? (req.query as { ids?: string }).ids, req.lang);
    const now = new Date();
    await run(user, async (tx) => {
      const found = await tx.select({ id: n.id }).from(n).where(and(inArray(n.id, ids), visible(user, now)));
      // all or nothing: an unknown, deleted, unreleased or other tenant's id marks nothing
      if (found.length !== ids.length) throw notFound();
      await tx.insert(r).values(ids.map((noticeId) => ({ tenantId: user.tenantId, userId: user.userId, noticeId, readTime: now })))
        .onConflictDoNothing();
    });
    return ok(true, req.lang);
  });

  app.post(NOTICE_BELL.readAll, {
    config: { access: { permission: null }, fieldLabels: { category: { zh: '通知类型', en: 'Category' } }, title: { zh: '通知公告: 全部已读', en: 'Notices: mark all as read' } },
    schema: {
      tags: [tag],
      summary: 'Notice bell: mark every released notice read for the caller, or those of some categories (category comma-joined or an array)',
      querystring: z.object({ category: z.string().optional() }).passthrough(),
      body: z.object({ category: categoryList.optional() }).passthrough().nullish(),
      response: { 200: envelopeOf(z.boolean()) },
    },
  }, async (req) => {
    const user = requireUser(req);
    const categories = parseCategories((req.body as { category?: unknown } | null | undefined)?.category ?? (req.query as { category?: string }).category, 'category', req.lang);
    const now = new Date();
    const mine = and(eq(m.userId, user.userId), eq(m.tenantId, user.tenantId));
    const setMark = (tx: Executor, category: number) =>
      tx.insert(m).values({ tenantId: user.tenantId, userId: user.userId, category, readUntil: now })
        .onConflictDoUpdate({ target: [m.userId, m.category], set: { readUntil: now } });
    const markAll = async (tx: Executor) => {
      // the new watermark covers every earlier read row and category watermark: drop them
      await setMark(tx, ALL_CATEGORIES);
      await tx.delete(m).where(and(mine, ne(m.category, ALL_CATEGORIES)));
      await tx.delete(r).where(and(eq(r.userId, user.userId), eq(r.tenantId, user.tenantId)));
    };
    await run(user, async (tx) => {
      if (!categories) return markAll(tx);
      for (const c of categories) await setMark(tx, c);
      await tx.execute(sql`delete from ${r} using ${n} where ${r.userId} = ${user.userId} and ${r.tenantId} = ${user.tenantId}
        and ${n.id} = ${r.noticeId} and ${inArray(n.category, categories)}`);
      // nothing left unread in any category: one watermark for all instead of one per category
      if ((await countUnread(tx, user, now, 0)).total === 0) await markAll(tx);
    });
    return ok(true, req.lang);
  });
}

/** The notice resource's hook: a removed notice's read rows go with it. */
export async function dropReadRows(tx: Executor, ids: string[], user: AuthUser): Promise<void> {
  await tx.delete(r).where(and(eq(r.tenantId, user.tenantId), inArray(r.noticeId, ids)));
}
