import { storageOrderResource, storagePriceResource } from '@console/contract/areas/storage/index';
import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, smallint, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { auditColumns, id, searchGramsIndexes, tenantColumn, ts, withSearchGrams } from '../../core/db/columns.js';

/** amounts are minor units of the row's currency (contract/src/money.ts) */
const money = (name: string) => bigint(name, { mode: 'number' });

export const storagePrice = pgTable(
  'ymy_storage_price',
  withSearchGrams(storagePriceResource, {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    planName: varchar('plan_name', { length: 64 }).notNull(),
    productTypeId: id('product_type_id').notNull(),
    months: integer('months').notNull(),
    storageDays: integer('storage_days').notNull(),
    price: money('price').notNull(),
    originalPrice: money('original_price'),
    currency: varchar('currency', { length: 3 }).notNull().default('CNY'),
    onSale: smallint('on_sale').notNull().default(1),
    sort: integer('sort').notNull().default(1),
    ...auditColumns(),
  }),
  (t) => [
    index('ix_storage_price_tenant_sort').on(t.tenantId, t.sort, t.id).where(sql`is_deleted = 0`),
    index('ix_storage_price_type').on(t.tenantId, t.productTypeId).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

/**
 * Orders: `order_no` is unique across tenants (the providers know the order by it alone); `device_sn` COLLATE "C"
 * (migration 0034), so an SN prefix is a range of `ix_storage_order_sn`. `token_hash`: SHA-256 of the lock's upload
 * token, which is answered once when it is made.
 */
export const storageOrder = pgTable(
  'ymy_storage_order',
  withSearchGrams(storageOrderResource, {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    orderNo: varchar('order_no', { length: 32 }).notNull(),
    deviceSn: varchar('device_sn', { length: 32 }).notNull(),
    appUserId: id('app_user_id').notNull(),
    priceId: id('price_id').notNull(),
    planName: varchar('plan_name', { length: 64 }).notNull(),
    months: integer('months').notNull(),
    storageDays: integer('storage_days').notNull(),
    amount: money('amount').notNull(),
    currency: varchar('currency', { length: 3 }).notNull(),
    payChannel: varchar('pay_channel', { length: 16 }).notNull(),
    payState: varchar('pay_state', { length: 16 }).notNull().default('unpaid'),
    payTime: ts('pay_time'),
    transactionId: varchar('transaction_id', { length: 64 }),
    startTime: ts('start_time'),
    endTime: ts('end_time'),
    transferredFrom: varchar('transferred_from', { length: 32 }),
    tokenHash: varchar('token_hash', { length: 64 }),
    remark: varchar('remark', { length: 500 }),
    ...auditColumns(),
  }),
  (t) => [
    uniqueIndex('uq_storage_order_no').on(t.orderNo),
    index('ix_storage_order_tenant_time').on(t.tenantId, t.createTime.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`is_deleted = 0`),
    index('ix_storage_order_sn').on(t.tenantId, t.deviceSn).where(sql`is_deleted = 0`),
    index('ix_storage_order_pay_time').on(t.tenantId, t.payTime.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`is_deleted = 0`),
    index('ix_storage_order_end').on(t.tenantId, t.endTime.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`is_deleted = 0`),
    index('ix_storage_order_user').on(t.tenantId, t.appUserId).where(sql`is_deleted = 0`),
    // the largest amounts first (the finance clerk's check of big orders)
    index('ix_storage_order_amount').on(t.tenantId, t.amount.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`is_deleted = 0`),
    // a payment state's orders, newest first: the finance clerk's usual list (refunded ones are a few per cent)
    index('ix_storage_order_state_time').on(t.tenantId, t.payState, t.createTime.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

/** An order's history: made, paid, moved to another lock, its token reset. Append-only. */
export const storageOrderLog = pgTable(
  'ymy_storage_order_log',
  {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    orderId: id('order_id').notNull(),
    action: varchar('action', { length: 16 }).notNull(),
    fromSn: varchar('from_sn', { length: 32 }),
    toSn: varchar('to_sn', { length: 32 }),
    detail: varchar('detail', { length: 500 }),
    createUser: id('create_user'),
    createTime: ts('create_time').notNull().defaultNow(),
  },
  (t) => [index('ix_storage_order_log_order').on(t.tenantId, t.orderId, t.createTime)],
);
