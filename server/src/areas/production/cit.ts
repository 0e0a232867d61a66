import { msg, t } from '@console/contract';
import { CIT_STANDARD, citDictResource, citResource } from '@console/contract/areas/production/index';
import { and, eq, inArray, like, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../core/context.js';
import type { Executor } from '../../core/db/index.js';
import { AppError, conflict, fieldError, notFound } from '../../core/errors.js';
import { nextId } from '../../core/ids.js';
import { mountAction } from '../../core/resource/actions.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { parseDateTime } from '../../core/time.js';
import { bySnColumn } from './ownership.js';
import { cert, citDict, citRecord, factoryDevice, station } from './tables.js';

/** SNs as devices carry them: capitals and digits. */
const SN_PATTERN = /^[A-Z0-9]{4,32}$/;

/** A standard: the expected text, or `lo~hi` (inclusive, lo ≤ hi). */
export function parseStandard(standard: string): { range: [number, number] } | { value: string } | undefined {
  if (!CIT_STANDARD.test(standard)) return undefined;
  const range = /^(-?\d+(?:\.\d+)?)~(-?\d+(?:\.\d+)?)$/.exec(standard);
  if (!range) return { value: standard };
  const lo = Number(range[1]);
  const hi = Number(range[2]);
  return lo <= hi ? { range: [lo, hi] } : undefined;
}

/** Whether a reported value meets a standard: within the range (a number), or the same text (case aside). */
export function meetsStandard(value: string, standard: string): boolean {
  const parsed = parseStandard(standard);
  if (!parsed) return false;
  if ('range' in parsed) {
    const n = Number(value);
    return value.trim() !== '' && Number.isFinite(n) && n >= parsed.range[0] && n <= parsed.range[1];
  }
  return value.trim().toUpperCase() === parsed.value.trim().toUpperCase();
}

export const citDictHooks = (): ResourceHooks => ({
  inspect: (input, c) => {
    const standard = typeof input.standard === 'string' ? input.standard.trim() : '';
    if (standard && !parseStandard(standard)) {
      return { errors: { standard: msg('citStandardInvalid', c.lang, { field: t(citDictResource.fields.standard.label, c.lang) }) } };
    }
    return {};
  },
});

/** `get-cit-list?itemCode=`: the records that hold this item (the CIT screen's tree picks it). */
export const citRecordHooks = (): ResourceHooks => ({
  // a tenant reads the factory tests of the devices delivered to it
  scope: bySnColumn(citRecord.deviceSn),
  listParams: {
    itemCode: async (_tx, _user, value) => sql`${citRecord.items} ? ${value}`,
  },
});

async function deviceOf(tx: Executor, sn: string) {
  const [device] = await tx.select({ id: factoryDevice.id, sn: factoryDevice.sn, batchId: factoryDevice.batchId }).from(factoryDevice).where(eq(factoryDevice.sn, sn));
  return device;
}

/**
 * SN rewrites: the device named by the old SN takes the new one, and so does its certificate, in the
 * transaction that writes the audit row; a new SN that exists (or the same SN) is refused.
 */
export const rewriteSnHooks = (): ResourceHooks => ({
  async beforeSave(tx, values, c) {
    if (c.mode !== 'create') return;
    const oldSn = String(values.oldSn ?? '').toUpperCase();
    const newSn = String(values.newSn ?? '').toUpperCase();
    values.oldSn = oldSn;
    values.newSn = newSn;
    if (!SN_PATTERN.test(newSn)) throw fieldError('snInvalid', c.lang, 'newSn');
    const device = await deviceOf(tx, oldSn);
    if (!device) throw fieldError('snUnknown', c.lang, 'oldSn', { sn: oldSn });
    if (newSn === oldSn) throw fieldError('snUnchanged', c.lang, 'newSn');
    if (await deviceOf(tx, newSn)) {
      const field = c.lang === 'zh' ? '新 SN' : 'New SN';
      throw conflict({ field, value: newSn }, { newSn: msg('duplicate', c.lang, { field, value: newSn }) });
    }
    await tx.update(factoryDevice).set({ sn: newSn }).where(eq(factoryDevice.id, device.id));
    await tx.update(cert).set({ deviceSn: newSn, updateUser: c.user.userId, updateTime: new Date() }).where(and(eq(cert.deviceSn, oldSn), eq(cert.isDeleted, 0)));
  },
});

export function registerCitActions(app: FastifyInstance, ctx: AppContext): void {
  /** clones the item and everything under it beside it: codes get a `_COPY` suffix (numbered when taken) */
  mountAction(app, ctx, citDictResource.actions.copy, async (input, { tx, user, lang }) => {
    const [root] = await tx.select().from(citDict).where(and(eq(citDict.id, input.id), eq(citDict.isDeleted, 0)));
    if (!root) throw notFound();
    const nodes = await tx.select().from(citDict)
      .where(and(eq(citDict.isDeleted, 0), or(eq(citDict.id, root.id), like(citDict.ancestors, `${root.ancestors},${root.id}%`))));
    // a subtree's own nodes only: ancestors '0,5' must not match a node under '0,55'
    const subtree = nodes.filter((n) => n.id === root.id || `${n.ancestors},`.startsWith(`${root.ancestors},${root.id},`));
    if (subtree.length > 2000) throw new AppError(400, 'treeTooLarge');
    const taken = new Set((await tx.select({ code: citDict.code }).from(citDict).where(and(eq(citDict.isDeleted, 0), like(citDict.code, '%_COPY%')))).map((r) => r.code));
    const copyCode = (code: string) => {
      for (let i = 1; ; i++) {
        const next = `${code}_COPY${i === 1 ? '' : i}`.slice(-64);
        if (!taken.has(next)) {
          taken.add(next);
          return next;
        }
      }
    };
    const newIds = new Map(subtree.map((n) => [n.id, nextId()]));
    const now = new Date();
    const rows = subtree.map((n) => {
      const parentId = n.id === root.id ? root.parentId : newIds.get(n.parentId)!;
      // the copy's ancestors: the root's own, then the new ids below it
      const below = n.id === root.id ? [] : `${n.ancestors},`.slice(`${root.ancestors},`.length).split(',').filter(Boolean).map((id) => newIds.get(id)!);
      return {
        id: newIds.get(n.id)!, parentId, ancestors: [root.ancestors, ...below].join(','),
        code: copyCode(n.code), name: n.id === root.id ? `${n.name}${lang === 'zh' ? ' (副本)' : ' (copy)'}`.slice(0, 64) : n.name,
        standard: n.standard, sort: n.sort, remark: n.remark,
        createUser: user.userId, createTime: now, updateUser: user.userId, updateTime: now,
      };
    });
    for (let at = 0; at < rows.length; at += 500) await tx.insert(citDict).values(rows.slice(at, at + 500));
    return { id: newIds.get(root.id)!, copied: rows.length };
  });

  /**
   * A station posts a device's results: each item judged against its standard, the record written, the device's
   * test result and the station's last-seen time updated. Unknown device, station or items: 400 naming them.
   */
  mountAction(app, ctx, citResource.actions.post, async (input, { tx, lang }) => {
    const sn = input.deviceSn.toUpperCase();
    const device = await deviceOf(tx, sn);
    if (!device) throw fieldError('snUnknown', lang, 'deviceSn', { sn });
    const [st] = await tx.select({ id: station.id }).from(station).where(and(eq(station.stationCode, input.stationCode), eq(station.isDeleted, 0)));
    if (!st) throw fieldError('stationUnknown', lang, 'stationCode', { code: input.stationCode });
    const codes = Object.keys(input.items);
    const known = await tx.select({ code: citDict.code, standard: citDict.standard }).from(citDict)
      .where(and(inArray(citDict.code, codes), eq(citDict.isDeleted, 0)));
    const standards = new Map(known.filter((k) => k.standard).map((k) => [k.code, k.standard!]));
    const unknown = codes.filter((c) => !standards.has(c));
    if (unknown.length) throw fieldError('citItemsUnknown', lang, 'items', { codes: unknown.slice(0, 20).join(', ') });
    const items: Record<string, { value: string; pass: boolean; standard: string }> = {};
    for (const code of codes) {
      const value = String(input.items[code]);
      items[code] = { value, pass: meetsStandard(value, standards.get(code)!), standard: standards.get(code)! };
    }
    const failedItems = codes.filter((c) => !items[c]!.pass);
    const result = failedItems.length ? 2 : 1;
    const testTime = input.testTime ? parseDateTime(input.testTime) : new Date();
    if (!testTime) throw fieldError('badDate', lang, 'testTime', { field: lang === 'zh' ? '测试时间' : 'Tested at' });
    const id = nextId();
    await tx.insert(citRecord).values({
      id, deviceSn: sn, batchId: device.batchId, stationId: st.id, result, failedItems: failedItems.join(',').slice(0, 2000) || null, items, testTime,
    });
    await tx.update(factoryDevice).set({ testResult: result }).where(eq(factoryDevice.id, device.id));
    await tx.update(station).set({ lastSeenTime: new Date() }).where(eq(station.id, st.id));
    return { id, result, failedItems };
  });
}
