import { and, eq } from 'drizzle-orm';
import { msg } from '@console/contract';
import { AppError, conflict, fieldError } from '../../core/errors.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { bySnColumn, ownsDevice } from '../production/index.js';
import { logChange } from './placement.js';
import { isRegionPath, regionParam, showRegionNames } from './regions.js';
import { deviceArea } from './tables.js';

export const deviceAreaHooks = (): ResourceHooks => ({
  shown: (tx, rows) => showRegionNames(tx, rows, { code: 'codeName' }),
  shownReads: ['code'],
  // a tenant's rows are those of the locks it owns now
  scope: bySnColumn(deviceArea.deviceSn),
  listParams: { code: regionParam(deviceArea.code), code_likeright: regionParam(deviceArea.code) },
  async beforeSave(tx, values, c) {
    delete values.source;
    if (values.code !== undefined) {
      values.code = String(values.code).split(',').map((p) => p.trim()).filter(Boolean).join(',');
      if (!(await isRegionPath(tx, String(values.code)))) throw fieldError('areaCodePath', c.lang, 'code');
    }
    if (c.mode === 'create') {
      const sn = String(values.deviceSn ?? '');
      if (!(await ownsDevice(tx, c.user, sn))) throw fieldError('deviceUnknown', c.lang, 'deviceSn', { sn });
      const [held] = await tx.select({ id: deviceArea.id }).from(deviceArea)
        .where(and(eq(deviceArea.tenantId, c.user.tenantId), eq(deviceArea.deviceSn, sn), eq(deviceArea.isDeleted, 0))).limit(1);
      if (held) {
        const params = { field: msg('areaDeviceLabel', c.lang), value: sn };
        throw conflict(params, { deviceSn: msg('duplicate', c.lang, params) });
      }
      values.source = 'manual';
    } else if (c.stored && !(await ownsDevice(tx, c.user, String(c.stored.deviceSn)))) {
      throw new AppError(400, 'deviceUnknown', { sn: String(c.stored.deviceSn) });
    }
  },
  // every change of a lock's region is on record
  async afterSave(tx, saved, c) {
    const before = c.stored?.code === undefined || c.stored.code === null ? null : String(c.stored.code);
    await logChange(tx, c.user, String(saved.deviceSn), before, String(saved.code), null);
  },
});
