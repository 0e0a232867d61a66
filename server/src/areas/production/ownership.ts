import { type Lang, msg, PLATFORM_TENANT } from '@console/contract';
import { and, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { AuthUser } from '../../core/context.js';
import { allowLongStatements, rowsAffected, type Executor } from '../../core/db/index.js';
import { fieldError } from '../../core/errors.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { type Delivery, type DeliveryDevices, product } from '../product/index.js';
import { batch, factoryDevice } from './tables.js';

/**
 * Who owns a device (docs/decisions.md, "A lock belongs to the tenant it was delivered to"): the platform until a
 * delivery gives it to a customer tenant. Every device-facing read and command of a tenant goes through these
 * conditions; product-type authorisation decides the catalogue a tenant sees, never its devices.
 */

/** The tenant whose devices the caller reaches; undefined for the platform (every device). */
export function deviceOwner(user: AuthUser): string | undefined {
  return user.tenantId === PLATFORM_TENANT ? undefined : user.tenantId;
}

/** Factory-device rows the caller owns (undefined: every row). */
export function ownedDevices(user: AuthUser): SQL | undefined {
  const owner = deviceOwner(user);
  return owner === undefined ? undefined : eq(factoryDevice.ownerTenantId, owner);
}

/** The SNs of the devices a tenant owns, as a sub-select (the (owner_tenant_id, sn) index answers it). */
export function ownedSns(owner: string) {
  return sql`(select ${factoryDevice.sn} from ${factoryDevice} where ${factoryDevice.ownerTenantId} = ${owner})`;
}

/** Rows naming a device by SN (`column`) that the caller owns: the scope of every device-keyed resource. */
export function bySnColumn(column: PgColumn): NonNullable<ResourceHooks['scope']> {
  return async (_tx, user) => {
    const owner = deviceOwner(user);
    return owner === undefined ? undefined : sql`${column} in ${ownedSns(owner)}`;
  };
}

/** Whether the caller owns the device with this SN (the platform: whether it exists). */
export async function ownsDevice(tx: Executor, user: AuthUser, sn: string): Promise<boolean> {
  const owned = ownedDevices(user);
  const [d] = await tx.select({ id: factoryDevice.id }).from(factoryDevice).where(and(eq(factoryDevice.sn, sn), ...(owned ? [owned] : []))).limit(1);
  return Boolean(d);
}

/** One delivery's devices change hands at a time per product: two deliveries never take the same device. */
async function lockProduct(tx: Executor, productId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`deliver-devices:${productId}`}))`);
}

/**
 * Gives `count` more devices to the delivery's customer: the next undelivered ones of its batch (or, without a
 * batch, of its product) in SN order. Fewer left than asked: a 400 naming how many are left, nothing changed.
 */
async function takeDevices(tx: Executor, d: Delivery, count: number, lang: Lang): Promise<void> {
  if (count <= 0) return;
  const from = and(isNull(factoryDevice.deliverId), eq(factoryDevice.productId, d.productId), ...(d.batchId ? [eq(factoryDevice.batchId, d.batchId)] : []));
  const res = await tx.execute(sql`
    update ${factoryDevice} set owner_tenant_id = ${d.customerTenantId}, deliver_id = ${d.id}::bigint
    where id in (select ${factoryDevice.id} from ${factoryDevice} where ${from} order by ${factoryDevice.sn} limit ${count})`);
  const taken = rowsAffected(res);
  if (taken === count) return;
  const source = d.batchId
    ? msg('deliverSourceBatch', lang, { batchNo: (await tx.select({ no: batch.batchNo }).from(batch).where(eq(batch.id, d.batchId)))[0]?.no ?? d.batchId })
    : msg('deliverSourceProduct', lang, { name: (await tx.select({ name: product.productName }).from(product).where(eq(product.id, d.productId)))[0]?.name ?? d.productId });
  throw fieldError('deliverNotEnoughDevices', lang, 'quantity', { source, left: taken, needed: count });
}

/** A new delivery takes its devices. */
export async function deliverDevices(tx: Executor, d: Delivery, lang: Lang): Promise<void> {
  await allowLongStatements(tx, 300_000);
  await lockProduct(tx, d.productId);
  await takeDevices(tx, d, d.quantity, lang);
}

/**
 * An edited delivery: its devices go to the new customer; a quantity below what it holds returns its last devices
 * (SN order) to the platform, a larger one takes the next undelivered ones.
 */
export async function redeliverDevices(tx: Executor, before: Pick<Delivery, 'customerTenantId'>, after: Delivery, lang: Lang): Promise<void> {
  await allowLongStatements(tx, 300_000);
  await lockProduct(tx, after.productId);
  if (after.customerTenantId !== before.customerTenantId) {
    await tx.update(factoryDevice).set({ ownerTenantId: after.customerTenantId }).where(eq(factoryDevice.deliverId, after.id));
  }
  const [{ held }] = (await tx.execute(sql`select count(*)::int as held from ${factoryDevice} where ${factoryDevice.deliverId} = ${after.id}::bigint`) as unknown as { rows: [{ held: number }] }).rows;
  if (after.quantity < held) {
    await tx.execute(sql`
      update ${factoryDevice} set owner_tenant_id = ${PLATFORM_TENANT}, deliver_id = null
      where id in (select ${factoryDevice.id} from ${factoryDevice} where ${factoryDevice.deliverId} = ${after.id}::bigint
                   order by ${factoryDevice.sn} offset ${after.quantity})`);
  } else {
    await takeDevices(tx, after, after.quantity - held, lang);
  }
}

/** Removed deliveries: their devices go back to the platform (and may be delivered again). */
export async function returnDevices(tx: Executor, deliverIds: readonly string[]): Promise<void> {
  if (deliverIds.length === 0) return;
  await allowLongStatements(tx, 300_000);
  await tx.update(factoryDevice).set({ ownerTenantId: PLATFORM_TENANT, deliverId: null }).where(inArray(factoryDevice.deliverId, [...deliverIds]));
}

/** The live batch a delivery ships from. */
async function batchOf(tx: Executor, batchId: string): Promise<{ batchNo: string; productId: string; quantity: number } | undefined> {
  const [b] = await tx.select({ batchNo: batch.batchNo, productId: batch.productId, quantity: batch.quantity }).from(batch)
    .where(and(eq(batch.id, batchId), eq(batch.isDeleted, 0)));
  return b;
}

/** What a delivery (the product area's) does to the devices made here. */
export const deliveryDevices: DeliveryDevices = { batchOf, deliverDevices, redeliverDevices, returnDevices };
