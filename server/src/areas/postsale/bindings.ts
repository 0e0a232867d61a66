import { PLATFORM_TENANT, type Lang } from '@console/contract';
import { BINDING_ROLE, type BindingRole, POSTSALE_APP_API } from '@console/contract/areas/postsale/index';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../core/context.js';
import type { Executor } from '../../core/db/index.js';
import { isUniqueViolation } from '../../core/dbErrors.js';
import { AppError, fieldError } from '../../core/errors.js';
import { nextId } from '../../core/ids.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { dropServerFields } from '../../core/resource/hooks.js';
import { deviceStatus } from '../device/index.js';
import { bySnColumn, factoryDevice } from '../production/index.js';
import { mountAppCall } from './appCall.js';
import { postsaleDevice, postsaleUser } from './tables.js';

const live = (tenantId: string) => [eq(postsaleDevice.tenantId, tenantId), eq(postsaleDevice.isDeleted, 0)];
const snField = () => z.string().trim().min(1).max(32).transform((v) => v.toUpperCase());

/** the lock's product, when the tenant owns a lock of this SN (the platform: any lock) */
export async function lockOf(tx: Executor, tenantId: string, sn: string): Promise<{ productId: string } | undefined> {
  const [d] = await tx.select({ productId: factoryDevice.productId }).from(factoryDevice)
    .where(and(eq(factoryDevice.sn, sn), tenantId === PLATFORM_TENANT ? undefined : eq(factoryDevice.ownerTenantId, tenantId))).limit(1);
  return d;
}

async function bindingsOf(tx: Executor, tenantId: string, sn: string) {
  return tx.select({ id: postsaleDevice.id, appUserId: postsaleDevice.appUserId, role: postsaleDevice.role }).from(postsaleDevice)
    .where(and(...live(tenantId), eq(postsaleDevice.deviceSn, sn)));
}

/** Why `appUserId` may not hold the lock as `role` now; undefined when it may. */
async function refusal(tx: Executor, tenantId: string, sn: string, appUserId: string, role: BindingRole, lang: Lang, field: string): Promise<AppError | undefined> {
  if (!(await lockOf(tx, tenantId, sn))) return fieldError('bindNoDevice', lang, field, { sn });
  const held = await bindingsOf(tx, tenantId, sn);
  if (held.some((b) => b.appUserId === appUserId)) return fieldError('bindAlready', lang, field, { sn });
  const owner = held.find((b) => b.role === BINDING_ROLE.owner);
  if (role === BINDING_ROLE.owner && owner) return fieldError('bindOwned', lang, field, { sn });
  if (role === BINDING_ROLE.member && !owner) return fieldError('bindMemberOfOwner', lang, field);
  return undefined;
}

/**
 * Binds a lock to an app user, checked first and held by the keys: of two owners binding one lock at once, the
 * second meets `uq_postsale_device_owner` and is refused as the first check would have.
 */
export async function bindLock(tx: Executor, b: { tenantId: string; sn: string; appUserId: string; role: BindingRole; nickname?: string | null; by?: string }, lang: Lang, field = 'deviceSn'): Promise<void> {
  const refused = await refusal(tx, b.tenantId, b.sn, b.appUserId, b.role, lang, field);
  if (refused) throw refused;
  const lock = (await lockOf(tx, b.tenantId, b.sn))!;
  try {
    await tx.transaction((sp) => sp.insert(postsaleDevice).values({
      id: nextId(), tenantId: b.tenantId, deviceSn: b.sn, appUserId: b.appUserId, role: b.role, nickname: b.nickname ?? null,
      productId: lock.productId, bindTime: new Date(), createUser: b.by ?? null, updateUser: b.by ?? null,
    }).then(() => undefined));
  } catch (e) {
    if (!isUniqueViolation(e)) throw e;
    throw (await refusal(tx, b.tenantId, b.sn, b.appUserId, b.role, lang, field)) ?? e;
  }
}

/**
 * Removes the bindings matched, and with an owner's binding its lock's members: a lock without an owner has no
 * members. Answers the SNs whose owner went.
 */
export async function unbind(tx: Executor, tenantId: string, which: SQL, by?: string): Promise<string[]> {
  const gone = await tx.update(postsaleDevice).set({ isDeleted: 1, updateTime: new Date(), updateUser: by ?? null })
    .where(and(...live(tenantId), which)).returning({ sn: postsaleDevice.deviceSn, role: postsaleDevice.role });
  const owned = [...new Set(gone.filter((g) => g.role === BINDING_ROLE.owner).map((g) => g.sn))];
  if (owned.length) {
    await tx.update(postsaleDevice).set({ isDeleted: 1, updateTime: new Date(), updateUser: by ?? null })
      .where(and(...live(tenantId), inArray(postsaleDevice.deviceSn, owned), eq(postsaleDevice.role, BINDING_ROLE.member)));
  }
  return owned;
}

/** each lock's firmware version as the lock last reported it */
async function showFirmware(tx: Executor, rows: Array<Record<string, unknown>>): Promise<void> {
  const sns = [...new Set(rows.map((r) => String(r.deviceSn ?? '')).filter(Boolean))];
  if (sns.length === 0) return;
  const found = await tx.select({ sn: deviceStatus.sn, version: deviceStatus.firmwareVersion }).from(deviceStatus).where(inArray(deviceStatus.sn, sns));
  const bySn = new Map(found.map((f) => [f.sn, f.version ?? '']));
  for (const r of rows) r.firmwareVersion = bySn.get(String(r.deviceSn)) ?? '';
}

export const postsaleDeviceHooks = (): ResourceHooks => ({
  // the bindings of the locks the tenant owns now (a lock taken back by the platform takes its bindings from view)
  scope: bySnColumn(postsaleDevice.deviceSn),
  shown: (tx, rows) => showFirmware(tx, rows),
  shownReads: ['deviceSn'],
  async beforeSave(tx, values, c) {
    dropServerFields(values, ['productId', 'bindTime']);
    if (c.mode !== 'create') return;
    const sn = String(values.deviceSn);
    const refused = await refusal(tx, c.user.tenantId, sn, String(values.appUserId), values.role as BindingRole, c.lang, 'deviceSn');
    if (refused) throw refused;
    values.productId = (await lockOf(tx, c.user.tenantId, sn))!.productId;
    values.bindTime = new Date();
  },
  async beforeRemove(tx, rows, c) {
    const owners = rows.filter((r) => r.role === BINDING_ROLE.owner).map((r) => String(r.deviceSn));
    if (owners.length) {
      await tx.update(postsaleDevice).set({ isDeleted: 1, updateTime: new Date(), updateUser: c.user.userId })
        .where(and(...live(c.user.tenantId), inArray(postsaleDevice.deviceSn, owners), eq(postsaleDevice.role, BINDING_ROLE.member)));
    }
  },
  releases: {
    // an app user removed: their bindings go, and the members of the locks they owned
    appUserId: async (tx, ids, user) => void (await unbind(tx, user.tenantId, inArray(postsaleDevice.appUserId, ids), user.userId)),
  },
});

const deviceOut = z.object({
  deviceSn: z.string(), role: z.string(), nickname: z.string(), productId: z.string(), firmwareVersion: z.string(), bindTime: z.string(),
  members: z.array(z.object({ appUserId: z.string(), phone: z.string(), nickname: z.string() })),
});
const labels = {
  deviceSn: { label: { zh: '设备 SN', en: 'Device SN' }, required: { zh: '请输入设备 SN', en: 'Please enter the device SN' } },
  nickname: { zh: '设备备注名', en: 'Name' },
  phone: { label: { zh: '手机号', en: 'Phone' }, required: { zh: '请输入手机号', en: 'Please enter the phone number' } },
};

/** The app's lock calls: the caller's locks, binding one by its SN, sharing it with a member, unbinding. */
export function registerAppBindings(app: FastifyInstance, ctx: AppContext): void {
  mountAppCall(app, ctx, {
    method: 'GET', url: POSTSALE_APP_API.devices, access: 'app', title: { zh: 'APP 我的设备', en: 'App: my locks' },
    summary: 'The caller\'s locks, as owner or member; an owner sees the lock\'s members',
    input: z.object({}).strict(), output: z.array(deviceOut),
  }, async (_input, { caller, tx }) => {
    const mine = await tx.select().from(postsaleDevice).where(and(...live(caller.tenantId), eq(postsaleDevice.appUserId, caller.appUserId)))
      .orderBy(postsaleDevice.bindTime);
    const owned = mine.filter((m) => m.role === BINDING_ROLE.owner).map((m) => m.deviceSn);
    const members = owned.length ? await tx.select({ sn: postsaleDevice.deviceSn, appUserId: postsaleDevice.appUserId, phone: postsaleUser.phone, nickname: postsaleUser.nickname })
      .from(postsaleDevice).innerJoin(postsaleUser, eq(postsaleUser.id, postsaleDevice.appUserId))
      .where(and(...live(caller.tenantId), inArray(postsaleDevice.deviceSn, owned), eq(postsaleDevice.role, BINDING_ROLE.member))) : [];
    const rows: Array<Record<string, unknown>> = mine.map((m) => ({ deviceSn: m.deviceSn }));
    await showFirmware(tx, rows);
    return mine.map((m, i) => ({
      deviceSn: m.deviceSn, role: m.role, nickname: m.nickname ?? '', productId: m.productId ?? '', firmwareVersion: String(rows[i]!.firmwareVersion ?? ''),
      bindTime: m.bindTime.toISOString(),
      members: members.filter((x) => x.sn === m.deviceSn).map((x) => ({ appUserId: x.appUserId, phone: x.phone, nickname: x.nickname ?? '' })),
    }));
  });

  mountAppCall(app, ctx, {
    method: 'POST', url: POSTSALE_APP_API.bind, access: 'app', labels, title: { zh: 'APP 绑定设备', en: 'App: bind a lock' },
    summary: 'The caller becomes the owner of the lock whose SN they scanned: a lock of the tenant without an owner',
    input: z.object({ deviceSn: snField(), nickname: z.string().trim().max(64).optional() }).strict(), output: z.boolean(),
  }, async (input, { caller, tx, lang }) => {
    await bindLock(tx, { tenantId: caller.tenantId, sn: input.deviceSn, appUserId: caller.appUserId, role: BINDING_ROLE.owner, nickname: input.nickname }, lang);
    return true;
  });

  mountAppCall(app, ctx, {
    method: 'POST', url: POSTSALE_APP_API.share, access: 'app', labels, title: { zh: 'APP 分享设备', en: 'App: share a lock' },
    summary: 'The lock\'s owner shares it with another registered user of the tenant (by phone), who becomes a member',
    input: z.object({ deviceSn: snField(), phone: z.string().trim().min(1).max(32), nickname: z.string().trim().max(64).optional() }).strict(), output: z.boolean(),
  }, async (input, { caller, tx, lang }) => {
    const held = await bindingsOf(tx, caller.tenantId, input.deviceSn);
    if (!held.some((b) => b.appUserId === caller.appUserId && b.role === BINDING_ROLE.owner)) throw fieldError('bindOwnerOnly', lang, 'deviceSn', { sn: input.deviceSn });
    const [member] = await tx.select({ id: postsaleUser.id }).from(postsaleUser)
      .where(and(eq(postsaleUser.tenantId, caller.tenantId), eq(postsaleUser.phone, input.phone), eq(postsaleUser.isDeleted, 0)));
    if (!member) throw fieldError('phoneNotRegistered', lang, 'phone', { phone: input.phone });
    if (member.id === caller.appUserId) throw fieldError('bindShareSelf', lang, 'phone');
    await bindLock(tx, { tenantId: caller.tenantId, sn: input.deviceSn, appUserId: member.id, role: BINDING_ROLE.member, nickname: input.nickname }, lang, 'phone');
    return true;
  });

  mountAppCall(app, ctx, {
    method: 'POST', url: POSTSALE_APP_API.unbind, access: 'app', labels, title: { zh: 'APP 解绑设备', en: 'App: unbind a lock' },
    summary: 'Without `phone`: the caller lets go of the lock (an owner\'s members go with it). With `phone`: the owner removes that member',
    input: z.object({ deviceSn: snField(), phone: z.string().trim().min(1).max(32).optional() }).strict(), output: z.boolean(),
  }, async (input, { caller, tx, lang }) => {
    const held = await bindingsOf(tx, caller.tenantId, input.deviceSn);
    const mine = held.find((b) => b.appUserId === caller.appUserId);
    if (!mine) throw fieldError('bindNotHeld', lang, 'deviceSn', { sn: input.deviceSn });
    if (!input.phone) {
      await unbind(tx, caller.tenantId, eq(postsaleDevice.id, mine.id));
      return true;
    }
    if (mine.role !== BINDING_ROLE.owner) throw fieldError('bindOwnerOnly', lang, 'deviceSn', { sn: input.deviceSn });
    const removed = await tx.update(postsaleDevice).set({ isDeleted: 1, updateTime: new Date() })
      .where(and(...live(caller.tenantId), eq(postsaleDevice.deviceSn, input.deviceSn), eq(postsaleDevice.role, BINDING_ROLE.member),
        sql`${postsaleDevice.appUserId} in (select id from ymy_postsale_user where tenant_id = ${caller.tenantId} and phone = ${input.phone} and is_deleted = 0)`))
      .returning({ id: postsaleDevice.id });
    if (removed.length === 0) throw fieldError('bindNotMember', lang, 'phone', { phone: input.phone, sn: input.deviceSn });
    return true;
  });
}
