import { PLATFORM_TENANT } from '@console/contract';
import { and, eq, ne, sql } from 'drizzle-orm';
import { schema } from '../../core/db/index.js';
import { fieldError } from '../../core/errors.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { deliver } from '../product/tables.js';
import { byProductColumn } from '../product/typeAccess.js';
import { type Delivery, deliverDevices, redeliverDevices, returnDevices } from '../production/ownership.js';
import { batch } from '../production/tables.js';

const asDelivery = (row: Record<string, unknown>): Delivery => ({
  id: String(row.id), productId: String(row.productId), batchId: row.batchId ? String(row.batchId) : null,
  customerTenantId: String(row.customerTenantId), quantity: Number(row.quantity),
});

/**
 * Deliveries: the customer is a tenant that exists; a delivery from a batch is of the batch's product and
 * never ships more than the batch made. A delivery gives its devices to the customer (production/ownership.ts):
 * the next undelivered ones of its batch or product in SN order; its edit and removal move them consistently.
 * A tenant other than the platform reads the deliveries made to it.
 */
export const deliverHooks = (): ResourceHooks => {
  const ofProductTypes = byProductColumn(deliver.productId)!;
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
      const [b] = await tx.select({ batchNo: batch.batchNo, productId: batch.productId, quantity: batch.quantity }).from(batch)
        .where(and(eq(batch.id, String(row.batchId)), eq(batch.isDeleted, 0)));
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
      if (c.mode === 'create') await deliverDevices(tx, after, c.lang);
      else await redeliverDevices(tx, asDelivery(c.stored!), after, c.lang);
    },
    async afterRemove(tx, ids) {
      await returnDevices(tx, ids.map(String));
    },
  };
};
