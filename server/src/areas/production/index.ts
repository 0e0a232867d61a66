import { type DynamicColumn, type Lang } from '@console/contract';
import {
  batchResource, certResource, citDictResource, citResource, rewriteSnResource, factoryDeviceResource, factoryResource,
  SN_PREFIX_PATTERN, SN_SERIAL_DIGITS, stationResource,
} from '@console/contract/areas/production/index';
import { and, asc, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { allowLongStatements, rowsAffected, schema } from '../../core/db/index.js';
import type { Executor } from '../../core/db/index.js';
import { AppError, fieldError, notFound } from '../../core/errors.js';
import { nextId, reserveIdBlock } from '../../core/ids.js';
import { mountAction } from '../../core/resource/actions.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { formatDateTime } from '../../core/time.js';
import { bind, type DataStep, defineArea, provide } from '../../core/area.js';
import { type DictSeed, seedDicts } from '../../seed/steps.js';
import { authorisedTypeIds, byProductColumn, byTypeColumn, DELIVERY_DEVICES, deviceColumn, product } from '../product/index.js';
import type { AppContext, AuthUser } from '../../core/context.js';
import { registerCatalogueActions } from './catalogue.js';
import { certHooks, registerCertActions } from './certs.js';
import { invalidateDeviceKeys } from './certsChannel.js';
import { deliveryDevices, ownedDevices } from './ownership.js';
import { operatorDependents, registerOperatorActions } from './operators.js';
import { registerStationChannel } from './stationChannel.js';
import { citDictHooks, citRecordHooks, registerCitActions, rewriteSnHooks } from './cit.js';
import { batch, batchLog, cert, citDict, citRecord, factory, factoryDevice, rewriteSn, snSequence, station } from './tables.js';

const PRODUCTION_DICTS: DictSeed[] = [
  { code: 'station_type', name: '工位类型', nameEn: 'Station type', items: [['1', '烧录', 'Burn'], ['2', '测试', 'Test'], ['3', '包装', 'Pack']] },
  {
    code: 'batch_state', name: '批次状态', nameEn: 'Batch state',
    items: [['1', '已创建', 'Created'], ['2', '生产中', 'Producing'], ['3', '已完成', 'Finished'], ['4', '已取消', 'Cancelled']],
  },
  {
    code: 'cert_state', name: '证书状态', nameEn: 'Certificate state',
    items: [['1', '空闲', 'Free'], ['2', '已分配', 'Allocated'], ['3', '已烧录', 'Burned'], ['4', '已吊销', 'Revoked']],
  },
  { code: 'cit_result', name: '测试结果', nameEn: 'Test result', items: [['1', '通过', 'Pass'], ['2', '不通过', 'Fail']] },
];

const SERIAL_LIMIT = 10 ** SN_SERIAL_DIGITS - 1;

/**
 * `add-batch` writes the batch's devices in its own transaction: the next `quantity` serials of the SN
 * prefix (taken under the prefix's row lock, so two batches never share one), SNs `prefix + serial`, one
 * INSERT … SELECT. An SN that exists already (another prefix's SN can read the same) refuses the batch.
 */
async function generateDevices(tx: Executor, saved: Record<string, unknown>, lang: 'zh' | 'en'): Promise<void> {
  const prefix = String(saved.snPrefix);
  const quantity = Number(saved.quantity);
  const [seq] = await tx.insert(snSequence).values({ prefix, lastSerial: quantity })
    .onConflictDoUpdate({ target: snSequence.prefix, set: { lastSerial: sql`${snSequence.lastSerial} + ${quantity}` } })
    .returning({ last: snSequence.lastSerial });
  const last = seq!.last;
  const first = last - quantity + 1;
  if (last > SERIAL_LIMIT) {
    throw fieldError('snSerialExhausted', lang, 'quantity', { prefix, quantity, left: Math.max(0, SERIAL_LIMIT - first + 1) });
  }
  // a million devices take tens of seconds: not the request limit of a search
  await allowLongStatements(tx, 300_000);
  const block = reserveIdBlock(quantity);
  const i = sql`(g - ${first}::bigint)`;
  const sn = sql`${prefix}::text || lpad(g::text, ${SN_SERIAL_DIGITS}, '0')`;
  const inserted = await tx.execute(sql`
    insert into ymy_factory_device (id, sn, batch_id, product_id, create_time)
    select ((${block.ms}::bigint + ${i} / 4096) << 22) | (${block.worker}::bigint << 12) | (${i} % 4096),
           ${sn}, ${saved.id}::bigint, ${saved.productId}::bigint, now()
    from generate_series(${first}::bigint, ${last}::bigint) g
    on conflict (sn) do nothing`);
  const written = rowsAffected(inserted);
  if (written !== quantity) {
    const [taken] = await tx.execute(sql`
      select ${sn} as sn from generate_series(${first}::bigint, ${last}::bigint) g
      where exists (select 1 from ymy_factory_device d where d.sn = ${sn} and d.batch_id <> ${saved.id}::bigint) limit 1`).then((r) => (r as { rows: Array<{ sn: string }> }).rows);
    throw fieldError('snTaken', lang, 'snPrefix', { sn: taken?.sn ?? `${prefix}…` });
  }
  const snOf = (n: number) => prefix + String(n).padStart(SN_SERIAL_DIGITS, '0');
  await tx.update(batch).set({ snStart: snOf(first), snEnd: snOf(last) }).where(eq(batch.id, String(saved.id)));
  saved.snStart = snOf(first);
  saved.snEnd = snOf(last);
}

const batchHooks = (ctx: AppContext): ResourceHooks => ({
  scope: byProductColumn(batch.productId),
  async beforeSave(_tx, values, c) {
    if (c.mode !== 'create') return;
    const prefix = String(values.snPrefix ?? '').toUpperCase();
    values.snPrefix = prefix;
    if (!SN_PREFIX_PATTERN.test(prefix)) throw fieldError('snPrefixInvalid', c.lang, 'snPrefix');
  },
  async afterSave(tx, saved, c) {
    if (c.mode !== 'create') return;
    await generateDevices(tx, saved, c.lang);
    c.afterCommit(() => ctx.upkeep.changed('ymy_factory_device', Number(saved.quantity)));
  },
  async beforeRemove(tx, rows, c) {
    const ids = rows.map((r) => String(r.id));
    const devices = rows.reduce((n, r) => n + Number(r.quantity ?? 0), 0);
    c.afterCommit(() => ctx.upkeep.changed('ymy_factory_device', devices));
    // the gateway forgets the removed devices' keys on every instance
    c.afterCommit(() => invalidateDeviceKeys(ctx.kv));
    const [burned] = await tx.select({ batchId: factoryDevice.batchId, sn: factoryDevice.sn }).from(factoryDevice)
      .where(and(inArray(factoryDevice.batchId, ids), isNotNull(factoryDevice.burnTime))).limit(1);
    if (burned) {
      const name = String(rows.find((r) => String(r.id) === burned.batchId)?.batchNo ?? burned.batchId);
      throw new AppError(400, 'batchHasBurnedDevices', { name, sn: burned.sn });
    }
    const [delivered] = await tx.select({ batchId: factoryDevice.batchId, sn: factoryDevice.sn }).from(factoryDevice)
      .where(and(inArray(factoryDevice.batchId, ids), isNotNull(factoryDevice.deliverId))).limit(1);
    if (delivered) {
      const name = String(rows.find((r) => String(r.id) === delivered.batchId)?.batchNo ?? delivered.batchId);
      throw new AppError(400, 'batchHasDeliveredDevices', { name, sn: delivered.sn });
    }
  },
});

/**
 * The dynamic columns of a product type (its device columns), named by the type, a product of it or a batch
 * of such a product; none when they name nothing the caller may see.
 */
async function dynamicColumnsOf(tx: Executor, user: AuthUser, by: { batchId?: string; productId?: string; productTypeId?: string }, lang: Lang): Promise<DynamicColumn[]> {
  let productId = by.productId;
  if (by.batchId) {
    const scope = await byProductColumn(batch.productId)!(tx, user);
    const [row] = await tx.select({ productId: batch.productId }).from(batch).where(and(eq(batch.id, by.batchId), eq(batch.isDeleted, 0), ...(scope ? [scope] : [])));
    if (!row) return [];
    productId = row.productId;
  }
  let typeId = by.productTypeId;
  if (productId) {
    const scope = await byTypeColumn(product.typeId)!(tx, user);
    const [row] = await tx.select({ typeId: product.typeId }).from(product).where(and(eq(product.id, productId), eq(product.isDeleted, 0), ...(scope ? [scope] : [])));
    if (!row) return [];
    typeId = row.typeId;
  } else if (typeId) {
    const allowed = await authorisedTypeIds(tx, user);
    if (allowed && !allowed.includes(typeId)) return [];
  }
  if (!typeId) return [];
  const rows = await tx.select({ key: deviceColumn.columnKey, label: deviceColumn.label, labelEn: deviceColumn.labelEn, type: deviceColumn.valueType }).from(deviceColumn)
    .where(and(eq(deviceColumn.typeId, typeId), eq(deviceColumn.isDeleted, 0))).orderBy(asc(deviceColumn.sort), asc(deviceColumn.id));
  return rows.map((r) => ({ key: r.key, label: lang === 'en' && r.labelEn ? r.labelEn : r.label, type: (['text', 'number', 'date', 'boolean'].includes(r.type) ? r.type : 'text') as DynamicColumn['type'] }));
}

/** `get-device-list-by-batch?batchId=`: the devices of one batch (BladeX's call; `get-device-list?batchId_equal=` alike). */
const deviceHooks = (): ResourceHooks => ({
  // a removed batch's devices (`onRemove: 'cascade'`): up to a million rows, not a search's time limit
  releases: {
    async batchId(tx, ids) {
      await allowLongStatements(tx, 300_000);
      await tx.delete(factoryDevice).where(inArray(factoryDevice.batchId, ids));
    },
  },
  // a tenant lists the devices delivered to it, whatever their product type
  scope: async (_tx, user) => ownedDevices(user),
  // the export carries the product type's columns when it is of one batch or product
  dynamicColumns: (tx, user, filters, lang) => dynamicColumnsOf(tx, user, filters, lang),
  listAliases: ['get-device-list-by-batch'],
  listParams: {
    batchId: async (_tx, _user, value) => {
      if (!/^\d{1,19}$/.test(value)) return sql`false`;
      return eq(factoryDevice.batchId, value);
    },
  },
});

async function routes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  mountAction(app, ctx, stationResource.actions.editRemark, async (input, { user, tx }) => {
    const [hit] = await tx.update(station).set({ remark: input.remark ?? null, updateUser: user.userId, updateTime: new Date() })
      .where(and(eq(station.id, input.id), eq(station.isDeleted, 0))).returning({ id: station.id });
    if (!hit) throw notFound();
    return true;
  });

  mountAction(app, ctx, factoryDeviceResource.actions.dynamicColumns, async (input, { tx, user, lang }) => dynamicColumnsOf(tx, user, input, lang));

  mountAction(app, ctx, batchResource.actions.editLog, async (input, { user, tx }) => {
    const now = new Date();
    const [hit] = await tx.update(batch).set({ log: input.log, updateUser: user.userId, updateTime: now })
      .where(and(eq(batch.id, input.id), eq(batch.isDeleted, 0))).returning({ id: batch.id });
    if (!hit) throw notFound();
    await tx.insert(batchLog).values({ id: nextId(), batchId: input.id, log: input.log, createUser: user.userId, createTime: now });
    return true;
  });

  mountAction(app, ctx, batchResource.actions.logHistory, async (input, { tx, user }) => {
    const scope = await byProductColumn(batch.productId)!(tx, user);
    const [live] = await tx.select({ id: batch.id }).from(batch).where(and(eq(batch.id, input.id), eq(batch.isDeleted, 0), ...(scope ? [scope] : [])));
    if (!live) throw notFound();
    const rows = await tx.select({ id: batchLog.id, log: batchLog.log, createUser: batchLog.createUser, createUserName: schema.user.realName, createTime: batchLog.createTime })
      .from(batchLog).leftJoin(schema.user, eq(schema.user.id, batchLog.createUser))
      .where(eq(batchLog.batchId, input.id)).orderBy(desc(batchLog.createTime), asc(batchLog.id)).limit(200);
    return rows.map((r) => ({ ...r, createTime: formatDateTime(r.createTime) ?? '' }));
  });
}

const PRODUCTION_DATA_STEPS: DataStep[] = [{ name: '0501-production-dicts', run: (tx) => seedDicts(tx, PRODUCTION_DICTS) }];

export { DEVICE_KEYS_CHANNEL, invalidateDeviceKeys } from './certsChannel.js';
export { bySnColumn, deviceOwner, ownedDevices, ownedSns, ownsDevice } from './ownership.js';
export { batch, cert, factoryDevice } from './tables.js';
export { deviceUnlockSecret } from './unlockSecret.js';

/**
 * ymy-ipc: the IPC back office (factories, stations, batches and their devices); the devices a delivery (product
 * area) ships change hands here.
 */
export const productionArea = defineArea({
  name: 'production',
  services: [provide(DELIVERY_DEVICES, () => deliveryDevices)],
  dependents: operatorDependents,
  resources: [
    bind(factoryResource, factory),
    bind(stationResource, station),
    bind(batchResource, batch, batchHooks),
    bind(factoryDeviceResource, factoryDevice, deviceHooks),
    bind(certResource, cert, certHooks),
    bind(citDictResource, citDict, citDictHooks),
    bind(citResource, citRecord, citRecordHooks),
    bind(rewriteSnResource, rewriteSn, rewriteSnHooks),
  ],
  routes: async (app, ctx) => {
    await routes(app, ctx);
    registerCertActions(app, ctx);
    registerCitActions(app, ctx);
    registerOperatorActions(app, ctx);
    registerStationChannel(app, ctx);
    registerCatalogueActions(app, ctx);
  },
  dataSteps: PRODUCTION_DATA_STEPS,
});
