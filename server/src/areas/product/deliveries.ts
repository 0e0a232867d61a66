import { type Lang, PLATFORM_TENANT } from '@console/contract';
import { and, eq, ne, sql } from 'drizzle-orm';
import { schema } from '../../core/db/index.js';
import { fieldError } from '../../core/errors.js';
import type { AppContext } from '../../core/context.js';
import type { Executor } from '../../core/db/index.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { serviceKey } from '../../core/services.js';
import { deliver } from './tables.js';
import { byProductColumn } from './typeAccess.js';

export interface Delivery {
  id: string;
  productId: string;
  batchId: string | null;
  customerTenantId: string;
  quantity: number;
}

/**
 * What a delivery does to the devices it ships: they are made (and owned) by the production area, which provides
 * this (production/ownership.ts).
 */
export interface DeliveryDevices {
  /** the live batch a delivery ships from */
  batchOf(tx: Executor, batchId: string): Promise<{ batchNo: string; productId: string; quantity: number } | undefined>;
  /** a new delivery takes its devices */
  deliverDevices(tx: Executor, d: Delivery, lang: Lang): Promise<void>;
  /** an edited delivery: its devices follow the new customer and quantity */
  redeliverDevices(tx: Executor, before: Pick<Delivery, 'customerTenantId'>, after: Delivery, lang: Lang): Promise<void>;
  /** removed deliveries: their devices go back to the platform */
  returnDevices(tx: Executor, deliverIds: readonly string[]): Promise<void>;
}
export const DELIVERY_DEVICES = serviceKey<DeliveryDevices>('product.deliveryDevices');

const asDelivery = (row: Record<string, unknown>): Delivery => ({
  id: String(row.id), productId: String(row.productId), batchId: row.batchId ? String(row.batchId) : null,
  customerTenantId: String(row.customerTenantId), quantity: Number(row.quantity),
});

/**
 * Deliveries: the customer is a tenant that exists; a delivery from a batch is of the batch's product and
 * never ships more than the batch made. A delivery gives its devices to the customer (DELIVERY_DEVICES, production/ownership.ts):
 * the next undelivered ones of its batch or product in SN order; its edit and removal move them consistently.
 * A tenant other than the platform reads the deliveries made to it.
 */
export const deliverHooks = (ctx: AppContext): ResourceHooks => {
  const ofProductTypes = byProductColumn(deliver.productId)!;
  const devices = () => ctx.services.get(DELIVERY_DEVICES);
  return {
    async scope(tx, user) {
      if (user.tenantId === PLATFORM_TENANT) return undefined;
      return and(eq(deliver.customerTenantId, user.tenantId), await ofProductTypes(tx, user));
    },
    async beforeSave(tx, values, c) {
      const row = { ...c.stored, ...values };
      if (values.customerTenantId !== undefined) {
        const tenantId = String(values.customerTenantId);
        const [t] = await tx.select({ id: schema.tenant.id }).from(schema.tenant).where(and(eq(schema.tenant.tenantId, tenantId), eq(schema.tenant.isDeleted, 0)));
        if (!t) throw fieldError('tenantUnknownId', c.lang, 'customerTenantId', { tenantId });
      }
      if (!row.batchId) return;
      const b = await devices().batchOf(tx, String(row.batchId));
      if (!b) return; // the engine's reference check names a missing batch
      if (b.productId !== String(row.productId)) throw fieldError('deliverBatchProduct', c.lang, 'batchId', { batchNo: b.batchNo });
      const [shipped] = await tx.select({ n: sql<number>`coalesce(sum(${deliver.quantity}), 0)::int` }).from(deliver)
        .where(and(eq(deliver.batchId, String(row.batchId)), eq(deliver.isDeleted, 0), ...(c.stored ? [ne(deliver.id, String(c.stored.id))] : [])));
      const already = Number(shipped?.n ?? 0);
      if (already + Number(row.quantity) > b.quantity) {
        throw fieldError('deliverOverBatch', c.lang, 'quantity', { batchNo: b.batchNo, quantity: b.quantity, shipped: already, left: Math.max(0, b.quantity - already) });
      }
    },
    async afterSave(tx, saved, c) {
      const after = asDelivery({ ...c.stored, ...saved });
      if (c.mode === 'create') await devices().deliverDevices(tx, after, c.lang);
      else await devices().redeliverDevices(tx, asDelivery(c.stored!), after, c.lang);
    },
    async afterRemove(tx, ids) {
      await devices().returnDevices(tx, ids.map(String));
    },
  };
};
