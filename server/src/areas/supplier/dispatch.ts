import { msg, type Lang } from '@console/contract';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { AppContext, AuthUser } from '../../core/context.js';
import type { Executor } from '../../core/db/index.js';
import { AppError, fieldError } from '../../core/errors.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { batch, deviceOwner, factoryDevice, ownsDevice } from '../production/index.js';
import { guardRequestRemove, guardRequestSave } from './approvalRules.js';
import { operatorOf, placeDevices, tendPlaced } from './placement.js';
import { isRegionPath, regionNameHooks, regionParam, showRegionNames } from './regions.js';
import { areaAgent, areaAgentRegion, areaDispatch, areaDispatchOa, deviceArea } from './tables.js';

type Row = Record<string, unknown>;

/** The locks a dispatch names, as a query of one column `sn`, and how many. */
export interface DispatchTarget {
  sns: SQL;
  count: number;
}

const text = (v: unknown) => (v === undefined || v === null ? '' : String(v).trim());

/** The region path as saved: codes trimmed, blanks dropped. */
const normalPath = (v: unknown) => text(v).split(',').map((p) => p.trim()).filter(Boolean).join(',');

/** Refuses an agent that holds neither the region nor a region above it. */
async function checkAgentRegion(tx: Executor, user: AuthUser, lang: Lang, agentId: string, path: string): Promise<void> {
  const codes = path.split(',');
  const [held] = await tx.select({ code: areaAgentRegion.regionCode }).from(areaAgentRegion)
    .where(and(eq(areaAgentRegion.tenantId, user.tenantId), eq(areaAgentRegion.agentId, agentId), inArray(areaAgentRegion.regionCode, codes))).limit(1);
  if (held) return;
  const [agent] = await tx.select({ name: areaAgent.agentName }).from(areaAgent).where(eq(areaAgent.id, agentId));
  const names: Row[] = [{ code: path }];
  await showRegionNames(tx, names, { code: 'name' });
  throw fieldError('dispatchAgentRegion', lang, 'agentId', { agent: agent?.name ?? agentId, region: String(names[0]!.name) });
}

/** The locks of one SN or one batch that the caller owns; refuses an unknown SN, batch, or a batch without any. */
async function targetOf(tx: Executor, user: AuthUser, lang: Lang, deviceSn: string, batchNo: string): Promise<DispatchTarget> {
  if (deviceSn) {
    if (!(await ownsDevice(tx, user, deviceSn))) throw fieldError('deviceUnknown', lang, 'deviceSn', { sn: deviceSn });
    return { sns: sql`select ${deviceSn}::text as sn`, count: 1 };
  }
  const [b] = await tx.select({ id: batch.id }).from(batch).where(and(eq(batch.batchNo, batchNo), eq(batch.isDeleted, 0)));
  const owner = deviceOwner(user);
  const mine = b ? sql`${factoryDevice.batchId} = ${b.id}::bigint${owner === undefined ? sql`` : sql` and ${factoryDevice.ownerTenantId} = ${owner}`}` : undefined;
  const [{ count } = { count: 0 }] = mine ? await tx.select({ count: sql<number>`count(*)::int` }).from(factoryDevice).where(mine) : [];
  if (!mine || count === 0) throw fieldError('dispatchBatchEmpty', lang, 'batchNo', { batchNo });
  return { sns: sql`select ${factoryDevice.sn} as sn from ${factoryDevice} where ${mine}`, count };
}

/**
 * A dispatch's rules, on a create or an update (of a dispatch or a request for one): a region path of the tree,
 * one SN or one batch (not both), an agent holding the region; `quantity` is the number of locks it names.
 */
export async function checkDispatch(tx: Executor, values: Row, c: { user: AuthUser; lang: Lang; stored?: Row }): Promise<DispatchTarget> {
  const merged = { ...c.stored, ...values };
  if (values.code !== undefined) values.code = normalPath(values.code);
  const code = normalPath(merged.code);
  if (!(await isRegionPath(tx, code))) throw fieldError('areaCodePath', c.lang, 'code');
  const deviceSn = text(merged.deviceSn).toUpperCase();
  const batchNo = text(merged.batchNo);
  if (Boolean(deviceSn) === Boolean(batchNo)) throw fieldError('dispatchTarget', c.lang, deviceSn ? 'batchNo' : 'deviceSn');
  // the one not named is cleared (an update from a batch to one SN)
  values.deviceSn = deviceSn || null;
  values.batchNo = batchNo || null;
  await checkAgentRegion(tx, c.user, c.lang, String(merged.agentId), code);
  const target = await targetOf(tx, c.user, c.lang, deviceSn, batchNo);
  values.quantity = target.count;
  if (!merged.dispatchTime) values.dispatchTime = new Date();
  return target;
}

/**
 * Places a dispatch's locks (a saved dispatch row); those it held before and names no more lose their device area.
 * Answers how many locks were placed.
 */
export async function applyDispatch(tx: Executor, user: AuthUser, lang: Lang, saved: Row, target: DispatchTarget): Promise<number> {
  const id = String(saved.id);
  await tx.update(deviceArea).set({ isDeleted: 1, updateUser: user.userId, updateTime: new Date() })
    .where(and(eq(deviceArea.tenantId, user.tenantId), eq(deviceArea.dispatchId, id), eq(deviceArea.isDeleted, 0), sql`${deviceArea.deviceSn} not in (${target.sns})`));
  return placeDevices(tx, user, target.sns, target.count, {
    code: String(saved.code), agentId: String(saved.agentId), dispatchTime: new Date(saved.dispatchTime as Date | string),
    source: 'dispatch', dispatchId: id, operator: operatorOf(user), reason: msg('areaByDispatch', lang),
  });
}

const SERVER_FIELDS = ['quantity', 'dispatchId'] as const;

/**
 * An import's rows, each checked as a save would (the rules of `checkDispatch`), so that the report names every bad
 * row and not only the first; a save checks again (the rows are written after the whole sheet passed)
 */
const checkDispatchRows: NonNullable<ResourceHooks['checkRows']> = async (tx, rows, lang, user) => {
  const verdicts: Array<Record<string, string> | undefined> = [];
  for (const row of rows) {
    verdicts.push(await checkDispatch(tx, { ...row }, { user, lang }).then(() => undefined, (e: unknown) => {
      if (!(e instanceof AppError)) throw e;
      return e.data ?? { code: e.message_(lang) };
    }));
  }
  return verdicts;
};

/** The locks a saved dispatch names (checked when it was saved). */
export const savedTarget = (tx: Executor, user: AuthUser, lang: Lang, saved: Row) =>
  targetOf(tx, user, lang, text(saved.deviceSn), text(saved.batchNo));

/**
 * The dispatch lists' region (spec section 5): the console splits the chosen path and sends its last code as a
 * like-right match on `code`; it finds that region and every region under it (the stored codes are paths)
 */
const regionParams = (column: AnyPgColumn) => ({ code: regionParam(column), code_likeright: regionParam(column) });

export const areaDispatchHooks = (ctx: AppContext): ResourceHooks => ({
  ...regionNameHooks({ code: ['codeName', areaDispatch.code] }),
  listParams: regionParams(areaDispatch.code),
  checkRows: checkDispatchRows,
  async beforeSave(tx, values, c) {
    for (const name of SERVER_FIELDS) delete values[name];
    await checkDispatch(tx, values, c);
  },
  async afterSave(tx, saved, c) {
    tendPlaced(ctx, c.afterCommit, await applyDispatch(tx, c.user, c.lang, saved, await savedTarget(tx, c.user, c.lang, saved)));
  },
});

export const areaDispatchOaHooks = (): ResourceHooks => ({
  ...regionNameHooks({ code: ['codeName', areaDispatchOa.code] }),
  listParams: regionParams(areaDispatchOa.code),
  checkRows: checkDispatchRows,
  async beforeSave(tx, values, c) {
    delete values.dispatchId;
    guardRequestSave(values, c);
    await checkDispatch(tx, values, c);
  },
  beforeRemove: guardRequestRemove,
});
