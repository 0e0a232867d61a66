import { FEEDBACK_MAX_IMAGES, FEEDBACK_STATE, feedbackResource, POSTSALE_APP_API } from '@console/contract/areas/postsale/index';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../core/context.js';
import type { Executor } from '../../core/db/index.js';
import { AppError, fieldError, notFound } from '../../core/errors.js';
import { nextId } from '../../core/ids.js';
import { mountAction } from '../../core/resource/actions.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { isSafeLink } from '../../core/validation.js';
import { mountAppCall } from './appCall.js';
import { feedback, feedbackReply } from './tables.js';

async function liveFeedback(tx: Executor, tenantId: string, id: string, lock = false) {
  const q = tx.select().from(feedback).where(and(eq(feedback.id, id), eq(feedback.tenantId, tenantId), eq(feedback.isDeleted, 0)));
  const [row] = await (lock ? q.for('update') : q);
  return row;
}

/** Feedback comes from the app (the screen has no add or edit button, and no caller writes one here). */
export const feedbackHooks = (): ResourceHooks => ({
  async beforeSave() {
    throw new AppError(400, 'feedbackByApp');
  },
});

/** A reply is refused on a closed feedback; written, it moves the feedback to replied. */
export const feedbackReplyHooks = (): ResourceHooks => ({
  async beforeSave(tx, values, c) {
    const parent = await liveFeedback(tx, c.user.tenantId, String(values.feedbackId), true);
    if (!parent) throw notFound();
    if (parent.state === FEEDBACK_STATE.closed) throw fieldError('feedbackClosed', c.lang, 'content');
    values.replier = c.user.userId;
  },
  async afterSave(tx, saved, c) {
    await tx.update(feedback).set({ state: FEEDBACK_STATE.replied, replyCount: sql`${feedback.replyCount} + 1`, updateUser: c.user.userId, updateTime: new Date() })
      .where(and(eq(feedback.tenantId, c.user.tenantId), eq(feedback.id, String(saved.feedbackId))));
  },
});

/** the images of a feedback from the app: links of this server's uploads or https links, at most nine */
function imagesOf(raw: string | string[] | undefined, lang: 'zh' | 'en'): string | null {
  const list = (Array.isArray(raw) ? raw : (raw ?? '').split(',')).map((l) => l.trim()).filter(Boolean);
  if (list.length > FEEDBACK_MAX_IMAGES) throw fieldError('feedbackTooManyImages', lang, 'images', { max: FEEDBACK_MAX_IMAGES });
  if (list.some((l) => !isSafeLink(l) || l.startsWith('http:') || l.length > 1000)) throw fieldError('feedbackImageLink', lang, 'images');
  return list.length ? list.join(',') : null;
}

const labels = {
  content: { label: { zh: '反馈内容', en: 'Feedback' }, required: { zh: '请填写反馈内容', en: 'Please write your feedback' } },
  kind: { zh: '类型', en: 'Kind' }, images: { zh: '图片', en: 'Images' }, deviceSn: { zh: '设备 SN', en: 'Device SN' }, appVersion: { zh: 'APP 版本', en: 'App version' },
};
const feedbackOut = z.object({
  id: z.string(), kind: z.string(), content: z.string(), images: z.array(z.string()), deviceSn: z.string(), appVersion: z.string(),
  state: z.number(), createTime: z.string(), replies: z.array(z.object({ content: z.string(), createTime: z.string() })),
});

export function registerFeedback(app: FastifyInstance, ctx: AppContext): void {
  mountAction(app, ctx, feedbackResource.actions.close, async ({ id }, { tx, user }) => {
    const row = await liveFeedback(tx, user.tenantId, id, true);
    if (!row) throw notFound();
    if (row.state === FEEDBACK_STATE.closed) throw new AppError(400, 'feedbackClosed');
    await tx.update(feedback).set({ state: FEEDBACK_STATE.closed, updateUser: user.userId, updateTime: new Date() }).where(eq(feedback.id, id));
    return true;
  });

  mountAppCall(app, ctx, {
    method: 'POST', url: POSTSALE_APP_API.feedbackSubmit, access: 'app', labels, title: { zh: 'APP 提交反馈', en: 'App: send feedback' },
    summary: 'A feedback from the signed-in user: text, kind, up to nine image links (from /api/app/file/upload-image), the lock and the app\'s version',
    input: z.object({
      content: z.string().trim().min(1).max(2000), kind: z.string().trim().max(16).optional(),
      images: z.union([z.string().max(9000), z.array(z.string().max(1000)).max(FEEDBACK_MAX_IMAGES + 1)]).optional(),
      deviceSn: z.string().trim().max(32).transform((v) => v.toUpperCase()).optional(), appVersion: z.string().trim().max(32).optional(),
    }).strict(),
    output: z.object({ id: z.string() }),
  }, async (input, { caller, tx, lang }) => {
    const id = nextId();
    await tx.insert(feedback).values({
      id, tenantId: caller.tenantId, appUserId: caller.appUserId, phone: caller.phone, kind: input.kind || null, content: input.content,
      images: imagesOf(input.images, lang), deviceSn: input.deviceSn || null, appVersion: input.appVersion || null,
    });
    return { id };
  });

  const answer = async (tx: Executor, rows: Array<typeof feedback.$inferSelect>) => {
    const replies = rows.length ? await tx.select({ feedbackId: feedbackReply.feedbackId, content: feedbackReply.content, createTime: feedbackReply.createTime })
      .from(feedbackReply).where(and(sql`${feedbackReply.feedbackId} in ${rows.map((r) => r.id)}`, eq(feedbackReply.isDeleted, 0))).orderBy(feedbackReply.createTime) : [];
    return rows.map((r) => ({
      id: r.id, kind: r.kind ?? '', content: r.content, images: r.images ? r.images.split(',') : [], deviceSn: r.deviceSn ?? '', appVersion: r.appVersion ?? '',
      state: r.state, createTime: r.createTime.toISOString(),
      replies: replies.filter((x) => x.feedbackId === r.id).map((x) => ({ content: x.content, createTime: x.createTime.toISOString() })),
    }));
  };

  mountAppCall(app, ctx, {
    method: 'GET', url: POSTSALE_APP_API.feedbackList, access: 'app', title: { zh: 'APP 我的反馈', en: 'App: my feedback' },
    summary: 'The signed-in user\'s feedback, newest first, with the console\'s replies (20 a page)',
    input: z.object({ current: z.coerce.number().int().min(1).max(10_000).default(1) }).strict(),
    output: z.array(feedbackOut),
  }, async ({ current }, { caller, tx }) => {
    const rows = await tx.select().from(feedback)
      .where(and(eq(feedback.tenantId, caller.tenantId), eq(feedback.appUserId, caller.appUserId), eq(feedback.isDeleted, 0)))
      .orderBy(desc(feedback.createTime), desc(feedback.id)).limit(20).offset((current - 1) * 20);
    return answer(tx, rows);
  });

  mountAppCall(app, ctx, {
    method: 'GET', url: POSTSALE_APP_API.feedbackDetail, access: 'app', title: { zh: 'APP 反馈详情', en: 'App: a feedback' },
    summary: 'One of the signed-in user\'s feedback, with the replies', input: z.object({ id: z.string().regex(/^\d{1,19}$/) }).strict(), output: feedbackOut,
  }, async ({ id }, { caller, tx }) => {
    const row = await liveFeedback(tx, caller.tenantId, id);
    if (!row || row.appUserId !== caller.appUserId) throw notFound();
    return (await answer(tx, [row]))[0]!;
  });
}
