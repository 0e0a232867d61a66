import { and, eq, getTableName } from 'drizzle-orm';
import { msg } from '@console/contract';
import type { AppContext } from '../../core/context.js';
import { inList } from '../../core/db/bulk.js';
import { AppError, conflict, fieldError } from '../../core/errors.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { bySnColumn, deviceOwner, factoryDevice, ownsDevice } from '../production/index.js';
import { logChanges } from './placement.js';
import { isRegionPath, normalPath, regionParam, regionPaths, regionNameHooks } from './regions.js';
import { areaModifyLog, deviceArea } from './tables.js';

export const deviceAreaHooks = (ctx: AppContext): ResourceHooks => ({
  ...regionNameHooks({ code: ['codeName', deviceArea.code] }),
  // a tenant's rows are those of the locks it owns now
  scope: bySnColumn(deviceArea.deviceSn),
  listParams: { code: regionParam(deviceArea.code), code_likeright: regionParam(deviceArea.code) },
  // an import's rows are checked by chunks, one statement each for the regions, the locks and the areas held
  async checkRows(tx, rows, lang, user) {
    const sns = rows.map((r) => String(r.deviceSn ?? ''));
    const paths = await regionPaths(tx, rows.map((r) => normalPath(r.code)));
    // the locks by their SN alone (its unique index), the owner compared here: one probe a lock
    const owner = deviceOwner(user);
    const owned = new Set((await tx.select({ sn: factoryDevice.sn, owner: factoryDevice.ownerTenantId }).from(factoryDevice)
      .where(inList(factoryDevice.sn, sns))).filter((r) => owner === undefined || r.owner === owner).map((r) => r.sn));
    const held = new Set((await tx.select({ sn: deviceArea.deviceSn }).from(deviceArea)
      .where(and(eq(deviceArea.tenantId, user.tenantId), inList(deviceArea.deviceSn, sns), eq(deviceArea.isDeleted, 0)))).map((r) => r.sn));
    return rows.map((r, i) => {
      const sn = sns[i]!;
      const errors: Record<string, string> = {};
      if (!paths.has(normalPath(r.code))) errors.code = msg('areaCodePath', lang);
      if (!owned.has(sn)) errors.deviceSn = msg('deviceUnknown', lang, { sn });
      else if (held.has(sn)) errors.deviceSn = msg('duplicate', lang, { field: msg('areaDeviceLabel', lang), value: sn });
      return Object.keys(errors).length ? errors : undefined;
    });
  },
  async beforeSave(tx, values, c) {
    delete values.source;
    if (values.code !== undefined) values.code = normalPath(values.code);
    if (c.checked) {
      values.source = 'import';
      return;
    }
    if (values.code !== undefined && !(await isRegionPath(tx, String(values.code)))) throw fieldError('areaCodePath', c.lang, 'code');
    if (c.mode === 'create') {
      const sn = String(values.deviceSn ?? '');
      if (!(await ownsDevice(tx, c.user, sn))) throw fieldError('deviceUnknown', c.lang, 'deviceSn', { sn });
      const [held] = await tx.select({ id: deviceArea.id }).from(deviceArea)
        .where(and(eq(deviceArea.tenantId, c.user.tenantId), eq(deviceArea.deviceSn, sn), eq(deviceArea.isDeleted, 0))).limit(1);
      if (held) {
        const params = { field: msg('areaDeviceLabel', c.lang), value: sn };
        throw conflict(params, { deviceSn: msg('duplicate', c.lang, params) });
      }
      values.source = c.imported ? 'import' : 'manual';
    } else if (c.stored && !(await ownsDevice(tx, c.user, String(c.stored.deviceSn)))) {
      throw new AppError(400, 'deviceUnknown', { sn: String(c.stored.deviceSn) });
    }
  },
  // every change of a lock's region is on record
  async afterSave(tx, saved, c) {
    const before = c.stored?.code === undefined || c.stored.code === null ? null : String(c.stored.code);
    await logChanges(tx, c.user, [{ sn: String(saved.deviceSn), oldCode: before, newCode: String(saved.code) }], null);
  },
  async afterCreateRows(tx, saved, c) {
    await logChanges(tx, c.user, saved.map((r) => ({ sn: String(r.deviceSn), oldCode: null, newCode: String(r.code) })), null);
    c.afterCommit(() => ctx.upkeep.changed(getTableName(areaModifyLog), saved.length));
  },
});
