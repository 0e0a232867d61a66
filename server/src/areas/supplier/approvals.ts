import {
  APPROVAL_APPROVED, APPROVAL_PENDING, areaDispatchOaResource, areaOaResource,
} from '@console/contract/areas/supplier/index';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../core/context.js';
import type { Executor } from '../../core/db/index.js';
import { conflict, fieldError, notFound } from '../../core/errors.js';
import { nextId } from '../../core/ids.js';
import { mountAction } from '../../core/resource/actions.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { msg } from '@console/contract';
import { bySnColumn, ownsDevice } from '../production/index.js';
import { checkDecidable, decision, guardRequestRemove, guardRequestSave } from './approvalRules.js';
import { applyDispatch, checkDispatch, savedTarget } from './dispatch.js';
import { operatorOf, placeDevices, tendPlaced } from './placement.js';
import { isRegionPath, regionNameHooks } from './regions.js';
import { areaDispatch, areaDispatchOa, areaOa } from './tables.js';

export const areaOaHooks = (): ResourceHooks => ({
  ...regionNameHooks({ code: ['codeName', areaOa.code] }),
  // a tenant's requests are those for the locks it owns now
  scope: bySnColumn(areaOa.deviceSn),
  async beforeSave(tx, values, c) {
    guardRequestSave(values, c);
    if (values.code !== undefined) {
      values.code = String(values.code).split(',').map((p) => p.trim()).filter(Boolean).join(',');
      if (!(await isRegionPath(tx, String(values.code)))) throw fieldError('areaCodePath', c.lang, 'code');
    }
    if (c.mode === 'create') {
      const sn = String(values.deviceSn ?? '');
      if (!(await ownsDevice(tx, c.user, sn))) throw fieldError('deviceUnknown', c.lang, 'deviceSn', { sn });
      const [pending] = await tx.select({ id: areaOa.id }).from(areaOa)
        .where(and(eq(areaOa.tenantId, c.user.tenantId), eq(areaOa.deviceSn, sn), eq(areaOa.status, APPROVAL_PENDING), eq(areaOa.isDeleted, 0))).limit(1);
      if (pending) {
        const text = msg('areaOaPending', c.lang, { sn });
        throw conflict({ field: msg('areaDeviceLabel', c.lang), value: sn }, { deviceSn: text });
      }
    }
  },
  beforeRemove: guardRequestRemove,
});

export function registerApprovalActions(app: FastifyInstance, ctx: AppContext): void {
  mountAction(app, ctx, areaOaResource.actions.process, async ({ id, status, comment }, { tx, user }) => {
    await lockRequest(tx, 'area-oa', id);
    const [row] = await tx.select().from(areaOa).where(and(eq(areaOa.id, id), eq(areaOa.tenantId, user.tenantId), eq(areaOa.isDeleted, 0)));
    if (!row || !(await ownsDevice(tx, user, row.deviceSn))) throw notFound();
    checkDecidable(row, user);
    await tx.update(areaOa).set(decision(user, status, comment)).where(eq(areaOa.id, id));
    if (status === APPROVAL_APPROVED) {
      await placeDevices(tx, user, sql`select ${row.deviceSn}::text as sn`, 1, {
        code: row.code, agentId: row.agentId, dispatchTime: row.dispatchTime, source: 'manual', dispatchId: null,
        operator: operatorOf(user), reason: row.reason,
      });
    }
    return true;
  });

  mountAction(app, ctx, areaDispatchOaResource.actions.process, async ({ id, status, comment }, { tx, user, lang, afterCommit }) => {
    await lockRequest(tx, 'area-dispatch-oa', id);
    const [row] = await tx.select().from(areaDispatchOa).where(and(eq(areaDispatchOa.id, id), eq(areaDispatchOa.tenantId, user.tenantId), eq(areaDispatchOa.isDeleted, 0)));
    if (!row) throw notFound();
    checkDecidable(row, user);
    let dispatchId: string | null = null;
    if (status === APPROVAL_APPROVED) {
      // checked again: the locks, the batch or the agent's regions may have changed since the request
      const values: Record<string, unknown> = { code: row.code, agentId: row.agentId, deviceSn: row.deviceSn, batchNo: row.batchNo, dispatchTime: row.dispatchTime };
      await checkDispatch(tx, values, { user, lang });
      dispatchId = nextId();
      const [saved] = await tx.insert(areaDispatch).values({
        id: dispatchId, tenantId: user.tenantId, code: String(values.code), agentId: row.agentId, deviceSn: values.deviceSn as string | null,
        batchNo: values.batchNo as string | null, quantity: Number(values.quantity), dispatchTime: (values.dispatchTime as Date | null) ?? new Date(),
        createUser: row.createUser, createDept: row.createDept, updateUser: user.userId,
      }).returning();
      tendPlaced(ctx, afterCommit, await applyDispatch(tx, user, lang, saved!, await savedTarget(tx, user, lang, saved!)));
    }
    await tx.update(areaDispatchOa).set({ ...decision(user, status, comment), dispatchId }).where(eq(areaDispatchOa.id, id));
    return true;
  });
}

/** One decision of a request at a time: a double click decides it once. */
async function lockRequest(tx: Executor, kind: string, id: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`${kind}:${id}`}))`);
}
