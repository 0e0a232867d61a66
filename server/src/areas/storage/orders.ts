import { createHash, randomBytes } from 'node:crypto';
import { BINDING_ROLE } from '@console/contract/areas/postsale/index';
import { PAY_STATE, storageOrderResource } from '@console/contract/areas/storage/index';
import { and, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext, AuthUser } from '../../core/context.js';
import type { Executor } from '../../core/db/index.js';
import { AppError, fieldError, notFound } from '../../core/errors.js';
import { nextId } from '../../core/ids.js';
import { mountAction } from '../../core/resource/actions.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { dropServerFields } from '../../core/resource/hooks.js';
import { formatDateTime } from '../../core/time.js';
import { type LockReplacement, postsaleDevice } from '../postsale/index.js';
import { storageOrder, storageOrderLog } from './tables.js';

type Order = typeof storageOrder.$inferSelect;
export type OrderAction = 'created' | 'paid' | 'transferred' | 'replaced' | 'token';

export async function logOrder(tx: Executor, order: Pick<Order, 'id' | 'tenantId'>, action: OrderAction, e: { fromSn?: string | null; toSn?: string | null; detail?: string; by?: string | null } = {}): Promise<void> {
  await tx.insert(storageOrderLog).values({
    id: nextId(), tenantId: order.tenantId, orderId: order.id, action, fromSn: e.fromSn ?? null, toSn: e.toSn ?? null, detail: e.detail ?? null, createUser: e.by ?? null,
  });
}

/** The end of the latest paid period of a lock still running at `now` (a new or moved period starts after it). */
export async function runningUntil(tx: Executor, tenantId: string, sn: string, now: Date, except?: string): Promise<Date | null> {
  const [row] = await tx.select({ endTime: storageOrder.endTime }).from(storageOrder)
    .where(and(eq(storageOrder.tenantId, tenantId), eq(storageOrder.deviceSn, sn), eq(storageOrder.payState, PAY_STATE.paid), eq(storageOrder.isDeleted, 0),
      gt(storageOrder.endTime, now), except ? ne(storageOrder.id, except) : undefined))
    .orderBy(desc(storageOrder.endTime)).limit(1);
  return row?.endTime ?? null;
}

/** whether the app user owns the lock (owner binding) */
async function ownsLock(tx: Executor, tenantId: string, appUserId: string, sn: string): Promise<boolean> {
  const [row] = await tx.select({ id: postsaleDevice.id }).from(postsaleDevice)
    .where(and(eq(postsaleDevice.tenantId, tenantId), eq(postsaleDevice.deviceSn, sn), eq(postsaleDevice.appUserId, appUserId),
      eq(postsaleDevice.role, BINDING_ROLE.owner), eq(postsaleDevice.isDeleted, 0))).limit(1);
  return Boolean(row);
}

/**
 * Moves what is left of a paid order's period to another lock: it runs for as long as it had left, from now (or
 * after the new lock's own running period). One statement guarded by the lock the order was on, under the row's lock:
 * of two moves of one order at once, the second finds it moved and is refused.
 */
async function transfer(tx: Executor, user: AuthUser, lang: 'zh' | 'en', input: { id: string; deviceSn: string; fromSn?: string }): Promise<{ deviceSn: string; endTime: string }> {
  const seen = input.fromSn;
  const [order] = await tx.select().from(storageOrder)
    .where(and(eq(storageOrder.id, input.id), eq(storageOrder.tenantId, user.tenantId), eq(storageOrder.isDeleted, 0))).for('update');
  if (!order) throw notFound();
  const params = { orderNo: order.orderNo };
  if (seen && seen !== order.deviceSn) throw new AppError(409, 'orderMovedMeanwhile', params);
  if (order.payState === PAY_STATE.refunded) throw new AppError(400, 'orderRefunded', params);
  if (order.payState !== PAY_STATE.paid || !order.startTime || !order.endTime) throw new AppError(400, 'orderNotPaid', params);
  const now = new Date();
  if (order.endTime <= now) throw new AppError(400, 'orderEnded', params);
  if (input.deviceSn === order.deviceSn) throw fieldError('orderSameLock', lang, 'deviceSn', { sn: input.deviceSn });
  if (!(await ownsLock(tx, user.tenantId, order.appUserId, input.deviceSn))) throw fieldError('orderNotOwnersLock', lang, 'deviceSn', { sn: input.deviceSn });
  const left = order.endTime.getTime() - Math.max(now.getTime(), order.startTime.getTime());
  const after = await runningUntil(tx, user.tenantId, input.deviceSn, now, order.id);
  const startTime = new Date(Math.max(now.getTime(), order.startTime.getTime(), after?.getTime() ?? 0));
  const endTime = new Date(startTime.getTime() + left);
  const moved = await tx.update(storageOrder).set({
    deviceSn: input.deviceSn, startTime, endTime, transferredFrom: order.deviceSn, updateUser: user.userId, updateTime: now,
  }).where(and(eq(storageOrder.id, order.id), eq(storageOrder.deviceSn, order.deviceSn))).returning({ id: storageOrder.id });
  if (moved.length === 0) throw new AppError(409, 'orderMovedMeanwhile', params);
  await logOrder(tx, order, 'transferred', { fromSn: order.deviceSn, toSn: input.deviceSn, by: user.userId, detail: `${formatDateTime(startTime)} → ${formatDateTime(endTime)}` });
  return { deviceSn: input.deviceSn, endTime: formatDateTime(endTime)! };
}

/** A lock replaced under after-sales service: its running paid periods move to the new lock, logged. */
export const storageOnReplacement: LockReplacement = {
  async replaced(tx, user, fromSn, toSn) {
    const moved = await tx.update(storageOrder).set({ deviceSn: toSn, transferredFrom: fromSn, updateUser: user.userId, updateTime: new Date() })
      .where(and(eq(storageOrder.tenantId, user.tenantId), eq(storageOrder.deviceSn, fromSn), eq(storageOrder.payState, PAY_STATE.paid),
        eq(storageOrder.isDeleted, 0), sql`(${storageOrder.endTime} > now() or ${isNull(storageOrder.endTime)})`))
      .returning({ id: storageOrder.id, tenantId: storageOrder.tenantId });
    for (const o of moved) await logOrder(tx, o, 'replaced', { fromSn, toSn, by: user.userId });
  },
};

export const storageOrderHooks = (): ResourceHooks => ({
  // orders are placed in the app; the console writes their remark
  async beforeSave(_tx, values, c) {
    if (c.mode === 'create') throw new AppError(400, 'orderByApp');
    dropServerFields(values, Object.keys(values).filter((k) => k !== 'remark' && k !== 'updateUser' && k !== 'updateTime'));
  },
  async beforeRemove(_tx, rows) {
    const paid = rows.find((r) => r.payState !== PAY_STATE.unpaid);
    if (paid) throw new AppError(400, 'orderNotRemovable', { orderNo: String(paid.orderNo) });
  },
});

export const newUploadToken = () => randomBytes(24).toString('base64url');
export const tokenDigest = (token: string) => createHash('sha256').update(token).digest('hex');

export function registerOrderActions(app: FastifyInstance, ctx: AppContext): void {
  const { orderDetail, resetToken, orderTransfer } = storageOrderResource.actions;
  mountAction(app, ctx, orderTransfer, async (input, { tx, user, lang }) => transfer(tx, user, lang, input));

  mountAction(app, ctx, resetToken, async ({ id }, { tx, user }) => {
    const token = newUploadToken();
    const [order] = await tx.update(storageOrder).set({ tokenHash: tokenDigest(token), updateUser: user.userId, updateTime: new Date() })
      .where(and(eq(storageOrder.id, id), eq(storageOrder.tenantId, user.tenantId), eq(storageOrder.isDeleted, 0))).returning();
    if (!order) throw notFound();
    await logOrder(tx, order, 'token', { by: user.userId });
    return { token };
  });

  mountAction(app, ctx, orderDetail, async ({ id }, { tx, user }) => {
    const [order] = await tx.select().from(storageOrder).where(and(eq(storageOrder.id, id), eq(storageOrder.tenantId, user.tenantId), eq(storageOrder.isDeleted, 0)));
    if (!order) throw notFound();
    const events = await tx.select().from(storageOrderLog).where(and(eq(storageOrderLog.tenantId, user.tenantId), eq(storageOrderLog.orderId, id))).orderBy(storageOrderLog.createTime, storageOrderLog.id);
    const { tokenHash, ...shown } = order;
    return {
      order: {
        ...shown, hasToken: tokenHash !== null,
        payTime: formatDateTime(order.payTime), startTime: formatDateTime(order.startTime), endTime: formatDateTime(order.endTime),
        createTime: formatDateTime(order.createTime), updateTime: formatDateTime(order.updateTime),
      },
      events: events.map((e) => ({ action: e.action, fromSn: e.fromSn ?? '', toSn: e.toSn ?? '', detail: e.detail ?? '', by: e.createUser ?? '', time: formatDateTime(e.createTime)! })),
    };
  });
}
