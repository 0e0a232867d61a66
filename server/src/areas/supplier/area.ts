import { REGION_PATH_PATTERN } from '@console/contract/areas/supplier/index';
import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../core/db/index.js';
import { msg } from '@console/contract';
import { AppError, conflict, fieldError } from '../../core/errors.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { bySnColumn, ownsDevice } from '../production/index.js';
import { region } from '../system/index.js';
import { deviceArea } from './tables.js';

/** Whether `path` walks down the region tree: its first code a province, each next a child of the one before. */
async function isRegionPath(tx: Executor, path: string): Promise<boolean> {
  if (!REGION_PATH_PATTERN.test(path)) return false;
  const codes = path.split(',');
  const rows = await tx.select({ id: region.id, parentId: region.parentId }).from(region).where(and(inArray(region.id, codes), eq(region.isDeleted, 0)));
  const parentOf = new Map(rows.map((r) => [String(r.id), String(r.parentId)]));
  return codes.every((code, i) => parentOf.get(code) === (i === 0 ? '0' : codes[i - 1]));
}

/** The path of the region tree down to `code` (its ancestors, then itself), or undefined for no region. */
async function pathOf(tx: Executor, code: string): Promise<string | undefined> {
  const [row] = await tx.select({ ancestors: region.ancestors }).from(region).where(and(eq(region.id, code), eq(region.isDeleted, 0)));
  if (!row) return undefined;
  return [...row.ancestors.split(',').filter((c) => c !== '' && c !== '0'), code].join(',');
}

/**
 * `code=`: the region chosen in the search form, as the console sends it (a path, or a code): its last code names
 * the region, and the rows of that region and of every region under it match (a prefix of the stored path).
 */
export const regionParam = (column: typeof deviceArea.code) => async (tx: Executor, _user: unknown, value: string): Promise<SQL> => {
  const last = value.split(',').map((c) => c.trim()).filter(Boolean).at(-1) ?? '';
  const path = /^\d{6,12}$/.test(last) ? await pathOf(tx, last) : undefined;
  if (!path) return sql`false`;
  return or(eq(column, path), sql`${column} COLLATE "C" like ${`${path},%`}`)!;
};

/** `codeName` of each row: the names of its region path, 浙江省 / 杭州市 / 西湖区 (a code the tree lacks as it is). */
async function showRegionNames(tx: Executor, rows: Array<Record<string, unknown>>): Promise<void> {
  // a code is digits (a region's id); anything else is shown as it is
  const codes = [...new Set(rows.flatMap((r) => String(r.code ?? '').split(',').filter(Boolean)))].filter((c) => /^\d{1,18}$/.test(c));
  if (codes.length === 0) return;
  const named = await tx.select({ id: region.id, name: region.name }).from(region).where(inArray(region.id, codes));
  const nameOf = new Map(named.map((r) => [String(r.id), r.name]));
  for (const row of rows) row.codeName = String(row.code ?? '').split(',').filter(Boolean).map((c) => nameOf.get(c) ?? c).join(' / ');
}

export const deviceAreaHooks = (): ResourceHooks => ({
  shown: (tx, rows) => showRegionNames(tx, rows),
  shownReads: ['code'],
  // a tenant's rows are those of the locks it owns now
  scope: bySnColumn(deviceArea.deviceSn),
  listParams: { code: regionParam(deviceArea.code) },
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
});
