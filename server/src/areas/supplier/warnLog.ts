import { areaWarnResource } from '@console/contract/areas/supplier/index';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { AppError, fieldError, notFound } from '../../core/errors.js';
import { mountAction } from '../../core/resource/actions.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { isRegionPath, normalPath, regionNameHooks } from './regions.js';
import { areaWarn } from './tables.js';

export const areaWarnHooks = (): ResourceHooks => ({
  ...regionNameHooks({ dispatchedCode: ['dispatchedName', areaWarn.dispatchedCode], activatedCode: ['activatedName', areaWarn.activatedCode] }),
  // a warning written by hand or imported names paths of the region tree
  async beforeSave(tx, values, c) {
    if (c.mode !== 'create') return;
    for (const field of ['dispatchedCode', 'activatedCode'] as const) {
      values[field] = normalPath(values[field]) || null;
      if (values[field] && !(await isRegionPath(tx, String(values[field])))) throw fieldError('areaCodePath', c.lang, field);
    }
  },
});

export function registerWarnActions(app: FastifyInstance, ctx: AppContext): void {
  mountAction(app, ctx, areaWarnResource.actions.handle, async ({ id, remark }, { tx, user }) => {
    const [row] = await tx.select({ handled: areaWarn.handled }).from(areaWarn)
      .where(and(eq(areaWarn.id, id), eq(areaWarn.tenantId, user.tenantId), eq(areaWarn.isDeleted, 0)));
    if (!row) throw notFound();
    if (row.handled === 1) throw new AppError(400, 'areaWarnHandled');
    await tx.update(areaWarn).set({ handled: 1, handleRemark: remark || null, updateUser: user.userId, updateTime: new Date() }).where(eq(areaWarn.id, id));
    return true;
  });
}
