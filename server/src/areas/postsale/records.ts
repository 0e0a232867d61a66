import { postsaleRecordResource, RECORD_KIND, RECORD_STATE } from '@console/contract/areas/postsale/index';
import { and, eq, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext, AuthUser } from '../../core/context.js';
import type { Executor } from '../../core/db/index.js';
import { AppError, fieldError, notFound } from '../../core/errors.js';
import { mountAction } from '../../core/resource/actions.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { dropServerFields } from '../../core/resource/hooks.js';
import { lockOf } from './bindings.js';
import { LOCK_REPLACEMENT } from './services.js';
import { postsaleDevice, postsaleRecord } from './tables.js';
import type { Lang } from '@console/contract';

const lockProduct = async (tx: Executor, tenantId: string, sn: string) => (await lockOf(tx, tenantId, sn))?.productId;

export const postsaleRecordHooks = (): ResourceHooks => ({
  async beforeSave(tx, values, c) {
    // the state, its handler and its end move only by the actions
    dropServerFields(values, ['state', 'handler', 'closedTime']);
    const kind = values.kind ?? c.stored?.kind;
    if (kind !== RECORD_KIND.replace) values.newDeviceSn = null;
    if (c.mode === 'create') {
      const sn = String(values.deviceSn);
      if (!(await lockProduct(tx, c.user.tenantId, sn))) throw fieldError('bindNoDevice', c.lang, 'deviceSn', { sn });
      values.state = RECORD_STATE.pending;
      // the lock's owner, when the record names no user
      if (!values.appUserId) {
        const [owner] = await tx.select({ id: postsaleDevice.appUserId }).from(postsaleDevice)
          .where(and(eq(postsaleDevice.tenantId, c.user.tenantId), eq(postsaleDevice.deviceSn, sn), eq(postsaleDevice.role, 'owner'), eq(postsaleDevice.isDeleted, 0)));
        values.appUserId = owner?.id ?? null;
      }
    }
    const newSn = values.newDeviceSn ? String(values.newDeviceSn) : '';
    if (newSn && newSn === String(values.deviceSn ?? c.stored?.deviceSn)) throw fieldError('recordReplaceSame', c.lang, 'newDeviceSn');
    if (newSn && !(await lockProduct(tx, c.user.tenantId, newSn))) throw fieldError('bindNoDevice', c.lang, 'newDeviceSn', { sn: newSn });
  },
});

type Row = typeof postsaleRecord.$inferSelect;

/**
 * A replacement finished: the old lock's bindings become the new lock's, and what else the old lock held moves
 * with them (its cloud-storage plan, through `LOCK_REPLACEMENT`), all in the record's transaction.
 */
async function replaceLock(ctx: AppContext, tx: Executor, row: Row, user: AuthUser, lang: Lang): Promise<void> {
  const newSn = row.newDeviceSn;
  if (!newSn) throw fieldError('recordReplaceSn', lang, 'newDeviceSn');
  const productId = await lockProduct(tx, user.tenantId, newSn);
  if (!productId) throw fieldError('bindNoDevice', lang, 'newDeviceSn', { sn: newSn });
  const [taken] = await tx.select({ id: postsaleDevice.id }).from(postsaleDevice)
    .where(and(eq(postsaleDevice.tenantId, user.tenantId), eq(postsaleDevice.deviceSn, newSn), eq(postsaleDevice.isDeleted, 0))).limit(1);
  if (taken) throw fieldError('recordNewDeviceBound', lang, 'newDeviceSn', { sn: newSn });
  await tx.update(postsaleDevice).set({ deviceSn: newSn, productId, updateTime: new Date(), updateUser: user.userId })
    .where(and(eq(postsaleDevice.tenantId, user.tenantId), eq(postsaleDevice.deviceSn, row.deviceSn), eq(postsaleDevice.isDeleted, 0)));
  await ctx.services.find(LOCK_REPLACEMENT)?.replaced(tx, user, row.deviceSn, newSn);
}

export function registerRecordActions(app: FastifyInstance, ctx: AppContext): void {
  const { accept, finish, close } = postsaleRecordResource.actions;
  /** the live record, locked for the change: two handlers deciding at once meet here */
  const recordOf = async (tx: Executor, tenantId: string, id: string): Promise<Row> => {
    const [row] = await tx.select().from(postsaleRecord).where(and(eq(postsaleRecord.id, id), eq(postsaleRecord.tenantId, tenantId), eq(postsaleRecord.isDeleted, 0))).for('update');
    if (!row) throw notFound();
    return row;
  };
  mountAction(app, ctx, accept, async ({ id }, { tx, user }) => {
    const row = await recordOf(tx, user.tenantId, id);
    if (row.state !== RECORD_STATE.pending) throw new AppError(400, row.state === RECORD_STATE.processing ? 'recordNotPending' : 'recordEnded');
    await tx.update(postsaleRecord).set({ state: RECORD_STATE.processing, handler: user.userId, updateUser: user.userId, updateTime: new Date() }).where(eq(postsaleRecord.id, id));
    return true;
  });
  mountAction(app, ctx, finish, async ({ id }, { tx, user, lang }) => {
    const row = await recordOf(tx, user.tenantId, id);
    if (row.state !== RECORD_STATE.processing) throw new AppError(400, row.state === RECORD_STATE.pending ? 'recordNotProcessing' : 'recordEnded');
    if (row.kind === RECORD_KIND.replace) await replaceLock(ctx, tx, row, user, lang);
    await tx.update(postsaleRecord).set({ state: RECORD_STATE.done, closedTime: new Date(), updateUser: user.userId, updateTime: new Date() }).where(eq(postsaleRecord.id, id));
    return true;
  });
  mountAction(app, ctx, close, async ({ id }, { tx, user }) => {
    const row = await recordOf(tx, user.tenantId, id);
    if (row.state !== RECORD_STATE.pending && row.state !== RECORD_STATE.processing) throw new AppError(400, 'recordEnded');
    await tx.update(postsaleRecord).set({
      state: RECORD_STATE.closed, closedTime: new Date(), handler: row.handler ?? user.userId, updateUser: user.userId, updateTime: new Date(),
    }).where(and(eq(postsaleRecord.id, id), ne(postsaleRecord.state, RECORD_STATE.closed)));
    return true;
  });
}
