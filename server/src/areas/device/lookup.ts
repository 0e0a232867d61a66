import { PLATFORM_TENANT } from '@console/contract';
import { deviceInfoResource, deviceNoticeResource } from '@console/contract/areas/device/index';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { rowsAffected } from '../../core/db/index.js';
import { AppError, notFound } from '../../core/errors.js';
import { idBlockSql, nextId } from '../../core/ids.js';
import { mountAction } from '../../core/resource/actions.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { formatDateTime } from '../../core/time.js';
import { bySnColumn, ownedDevices, batch, cert, factoryDevice } from '../production/index.js';
import { product, byProductColumn } from '../product/index.js';
import { deviceControl, deviceNoticeConfig, deviceStatus, otaProgress } from './tables.js';

export const deviceStatusHooks = (): ResourceHooks => ({ scope: bySnColumn(deviceStatus.sn) });
export const noticeConfigHooks = (): ResourceHooks => ({ scope: byProductColumn(deviceNoticeConfig.productId) });

/** `device/info?deviceSn=`: one view of a device, from production to the field (a device the caller's tenant owns). */
export function registerDeviceLookup(app: FastifyInstance, ctx: AppContext): void {
  mountAction(app, ctx, deviceInfoResource.actions.info, async ({ deviceSn }, { tx, user, lang }) => {
    const scope = ownedDevices(user);
    const [d] = await tx.select({
      sn: factoryDevice.sn, productId: factoryDevice.productId, productName: product.productName, batchNo: batch.batchNo, mac: factoryDevice.mac,
      burnTime: factoryDevice.burnTime, cloudVendor: cert.cloudVendor, deviceName: cert.deviceName,
    }).from(factoryDevice)
      .leftJoin(product, eq(product.id, factoryDevice.productId))
      .leftJoin(batch, eq(batch.id, factoryDevice.batchId))
      .leftJoin(cert, and(eq(cert.id, factoryDevice.certificateId), eq(cert.isDeleted, 0)))
      .where(and(eq(factoryDevice.sn, deviceSn), ...(scope ? [scope] : [])));
    if (!d) throw new AppError(404, 'deviceUnknown', { sn: deviceSn });
    const [s] = await tx.select().from(deviceStatus).where(eq(deviceStatus.sn, deviceSn));
    const [ota] = await tx.select({ taskId: otaProgress.taskId, state: otaProgress.state, toVersion: otaProgress.toVersion, lastReportTime: otaProgress.lastReportTime })
      .from(otaProgress).where(eq(otaProgress.deviceSn, deviceSn)).orderBy(desc(otaProgress.createTime), desc(otaProgress.id)).limit(1);
    const controls = await tx.select({ action: deviceControl.action, state: deviceControl.state, createTime: deviceControl.createTime })
      .from(deviceControl).where(and(eq(deviceControl.deviceSn, deviceSn), eq(deviceControl.isDeleted, 0))).orderBy(desc(deviceControl.createTime)).limit(20);
    return {
      sn: d.sn, productId: d.productId, productName: d.productName, batchNo: d.batchNo, mac: d.mac, reportedMac: s?.mac ?? null, imei: s?.imei ?? null,
      cloudVendorName: d.cloudVendor ? (await ctx.dicts.labels('cloud_vendor', lang, tx)).get(String(d.cloudVendor)) ?? String(d.cloudVendor) : null,
      deviceName: d.deviceName,
      online: s?.online ?? 0, lastSeenTime: formatDateTime(s?.lastSeenTime ?? null) ?? null, address: s?.address ?? null,
      versions: s?.versions ?? {}, properties: s?.properties ?? {},
      activationTime: formatDateTime(s?.activationTime ?? null) ?? null,
      activationLocation: s?.activationLat != null && s.activationLng != null ? { lat: s.activationLat, lng: s.activationLng, regionCode: s.activationRegion } : null,
      burnTime: formatDateTime(d.burnTime) ?? null,
      lastOta: ota ? { taskId: ota.taskId, state: ota.state, toVersion: ota.toVersion, lastReportTime: formatDateTime(ota.lastReportTime) ?? null } : null,
      controls: controls.map((c) => ({ action: c.action, state: c.state, createTime: formatDateTime(c.createTime) ?? '' })),
    };
  });

  const { configSave, dict, productList } = deviceNoticeResource.actions;

  mountAction(app, ctx, configSave, async ({ productId, items }, { tx, user }) => {
    const [p] = await tx.select({ id: product.id }).from(product).where(and(eq(product.id, productId), eq(product.isDeleted, 0)));
    if (!p) throw notFound();
    const known = await ctx.dicts.labels('device_notice', 'zh', tx);
    const unknown = items.find((i) => !known.has(i.noticeType));
    if (unknown) throw new AppError(400, 'notInDict', { field: 'noticeType', value: unknown.noticeType });
    const channels = await ctx.dicts.labels('notice_channel', 'zh', tx);
    const badChannel = items.flatMap((i) => i.channels.split(',').filter(Boolean)).find((c) => !channels.has(c));
    if (badChannel) throw new AppError(400, 'notInDict', { field: 'channels', value: badChannel });
    // an enabled notice reaches no one without a channel
    const silent = items.find((i) => i.enabled === 1 && !i.channels.split(',').some((c) => c.trim()));
    if (silent) {
      const names = { zh: (await ctx.dicts.labels('device_notice', 'zh', tx)).get(silent.noticeType), en: (await ctx.dicts.labels('device_notice', 'en', tx)).get(silent.noticeType) };
      throw new AppError(400, 'noticeWithoutChannel', { type: { zh: names.zh ?? silent.noticeType, en: names.en ?? silent.noticeType } });
    }
    for (const i of items) {
      await tx.insert(deviceNoticeConfig).values({ id: nextId(), productId, noticeType: i.noticeType, enabled: i.enabled, channels: i.channels, template: i.template ?? null, updateUser: user.userId })
        .onConflictDoUpdate({ target: [deviceNoticeConfig.productId, deviceNoticeConfig.noticeType], set: { enabled: i.enabled, channels: i.channels, template: i.template ?? null, updateUser: user.userId, updateTime: new Date() } });
    }
    return true;
  });

  mountAction(app, ctx, dict, async ({ sync }, { tx, lang, granted, user }) => {
    const items = [...(await ctx.dicts.labels('device_notice', lang, tx))].map(([dictKey, dictValue]) => ({ dictKey, dictValue }));
    const doSync = sync === true || sync === '1' || sync === 'true';
    if (!doSync) return items.map((i) => ({ dictKey: i.dictKey, dictValue: i.dictValue }));
    // sync: every product gets a (disabled) row of each notice type it lacks
    if (!granted.has('device_notice_sync') || user.tenantId !== PLATFORM_TENANT) throw new AppError(403, 'forbidden', { code: 'device_notice_sync' });
    const out = [];
    const [{ n }] = (await tx.execute(sql`select count(*)::int as n from ymy_product where is_deleted = 0`) as unknown as { rows: [{ n: number }] }).rows;
    for (const i of items) {
      const res = await tx.execute(sql`
        insert into ymy_device_notice_config (id, product_id, notice_type, enabled, channels, update_user)
        select ${idBlockSql(n, sql`(row_number() over (order by p.id) - 1)`)}, p.id, ${i.dictKey}, 0, 'push', ${user.userId}::bigint
        from ymy_product p where p.is_deleted = 0
        on conflict (product_id, notice_type) do nothing`);
      out.push({ dictKey: i.dictKey, dictValue: i.dictValue, added: rowsAffected(res) });
    }
    return out;
  });

  mountAction(app, ctx, productList, async (_input, { tx, user }) => {
    const scope = await byProductColumn(product.id)!(tx, user);
    const rows = await tx.select({ id: product.id, productName: product.productName, noticeCount: sql<number>`(select count(*)::int from ymy_device_notice_config c where c.product_id = "ymy_product"."id" and c.enabled = 1)` })
      .from(product).where(and(eq(product.isDeleted, 0), ...(scope ? [scope] : []))).orderBy(asc(product.productName)).limit(1000);
    return rows.map((r) => ({ ...r, noticeCount: Number(r.noticeCount) }));
  });
}
