import {
  batchResource, certResource, citDictResource, citResource, factoryDeviceResource, factoryResource, rewriteSnResource,
  stationResource,
} from '@console/contract/areas/production/index';
import { sql } from 'drizzle-orm';
import { bigint, date, index, integer, jsonb, pgTable, smallint, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { auditColumns, id, searchGramsIndexes, ts, withSearchGrams } from '../../core/db/columns.js';

/** The IPC back office (platform data, no tenant column): factories › stations, batches › devices. */

export const factory = pgTable(
  'ymy_factory',
  withSearchGrams(factoryResource, {
    id: id('id').primaryKey(),
    factoryName: varchar('factory_name', { length: 64 }).notNull(),
    factoryCode: varchar('factory_code', { length: 32 }).notNull(),
    contact: varchar('contact', { length: 32 }),
    phone: varchar('phone', { length: 32 }),
    address: varchar('address', { length: 200 }),
    remark: varchar('remark', { length: 500 }),
    ...auditColumns(),
  }),
  (t) => [
    uniqueIndex('uq_factory_name').on(t.factoryName).where(sql`is_deleted = 0`),
    uniqueIndex('uq_factory_code').on(t.factoryCode).where(sql`is_deleted = 0`),
    index('ix_factory_time').on(t.createTime, t.id).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

export const station = pgTable(
  'ymy_station',
  withSearchGrams(stationResource, {
    id: id('id').primaryKey(),
    factoryId: id('factory_id').notNull(),
    stationName: varchar('station_name', { length: 64 }).notNull(),
    stationCode: varchar('station_code', { length: 32 }).notNull(),
    stationType: integer('station_type').notNull(),
    ip: varchar('ip', { length: 45 }),
    lastSeenTime: ts('last_seen_time'),
    /** SHA-256 (hex) of the station key (32 random bytes): the station's own calls sign in with it */
    keyHash: varchar('key_hash', { length: 64 }),
    keyTime: ts('key_time'),
    remark: varchar('remark', { length: 500 }),
    ...auditColumns(),
  }),
  (t) => [
    uniqueIndex('uq_station_code').on(t.stationCode).where(sql`is_deleted = 0`),
    index('ix_station_factory').on(t.factoryId, t.createTime, t.id).where(sql`is_deleted = 0`),
    index('ix_station_time').on(t.createTime, t.id).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

export const batch = pgTable(
  'ymy_batch',
  withSearchGrams(batchResource, {
    id: id('id').primaryKey(),
    batchNo: varchar('batch_no', { length: 32 }).notNull(),
    factoryId: id('factory_id').notNull(),
    productId: id('product_id').notNull(),
    projectId: id('project_id'),
    cloudVendor: integer('cloud_vendor').notNull(),
    quantity: integer('quantity').notNull(),
    snPrefix: varchar('sn_prefix', { length: 16 }).notNull(),
    snStart: varchar('sn_start', { length: 32 }),
    snEnd: varchar('sn_end', { length: 32 }),
    firmwareVersion: varchar('firmware_version', { length: 32 }),
    plannedDate: date('planned_date', { mode: 'string' }),
    state: integer('state').notNull().default(1),
    log: text('log'),
    ...auditColumns(),
  }),
  (t) => [
    uniqueIndex('uq_batch_no').on(t.batchNo).where(sql`is_deleted = 0`),
    index('ix_batch_factory').on(t.factoryId).where(sql`is_deleted = 0`),
    index('ix_batch_product').on(t.productId, t.createTime, t.id).where(sql`is_deleted = 0`),
    index('ix_batch_time').on(t.createTime, t.id).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

/** `edit-batch-log`: every production note kept with its author and time (the batch shows the latest). */
export const batchLog = pgTable(
  'ymy_batch_log',
  {
    id: id('id').primaryKey(),
    batchId: id('batch_id').notNull(),
    log: text('log').notNull(),
    createUser: id('create_user').notNull(),
    createTime: ts('create_time').notNull().defaultNow(),
  },
  (t) => [index('ix_batch_log_batch').on(t.batchId, t.createTime)],
);

/** The last serial handed out per SN prefix: `add-batch` takes the next range under a row lock. */
export const snSequence = pgTable('ymy_sn_sequence', {
  prefix: varchar('prefix', { length: 16 }).primaryKey(),
  lastSerial: bigint('last_serial', { mode: 'number' }).notNull(),
});

/**
 * A device made in a batch. SNs are unique across the platform (one index over every row); the rows are
 * written by `add-batch` and removed with their batch (refused once one is burned or delivered), so there is no
 * soft delete. `owner_tenant_id` is the tenant the device belongs to: the platform (000000) until a delivery
 * (`deliver_id`) gives it to a customer tenant, back to the platform when that delivery is removed or shrinks
 * (docs/decisions.md, "A lock belongs to the tenant it was delivered to").
 */
export const factoryDevice = pgTable(
  'ymy_factory_device',
  withSearchGrams(factoryDeviceResource, {
    id: id('id').primaryKey(),
    sn: varchar('sn', { length: 32 }).notNull(),
    batchId: id('batch_id').notNull(),
    productId: id('product_id').notNull(),
    mac: varchar('mac', { length: 17 }),
    certificateId: id('certificate_id'),
    stationId: id('station_id'),
    burnTime: ts('burn_time'),
    testResult: smallint('test_result'),
    attributes: jsonb('attributes').$type<Record<string, string | number | boolean | null>>(),
    ownerTenantId: varchar('owner_tenant_id', { length: 12 }).notNull().default('000000'),
    deliverId: id('deliver_id'),
    createTime: ts('create_time').notNull().defaultNow(),
  }),
  (t) => [
    uniqueIndex('uq_factory_device_sn').on(t.sn),
    // a tenant's devices in SN order: every device-facing list of a tenant joins its rows' SNs to this
    index('ix_factory_device_owner').on(t.ownerTenantId, t.sn),
    index('ix_factory_device_deliver').on(t.deliverId, t.sn).where(sql`deliver_id is not null`),
    // the devices a delivery may still take, in SN order: of a batch, or of a product
    index('ix_factory_device_undelivered_batch').on(t.batchId, t.sn).where(sql`deliver_id is null`),
    index('ix_factory_device_undelivered_product').on(t.productId, t.sn).where(sql`deliver_id is null`),
    // a batch's devices in SN order; sn is COLLATE "C" (migration 0016): the unique index serves SN prefixes
    // (`sn_likeright`, LIKE 'B6%') in SN order
    index('ix_factory_device_batch').on(t.batchId, t.sn),
    index('ix_factory_device_product').on(t.productId, t.sn),
    index('ix_factory_device_burned').on(t.batchId).where(sql`burn_time is not null`),
    ...searchGramsIndexes(t),
  ],
);

/**
 * The audit of burn bundles (append-only): every time a station took a device's credentials and emergency
 * secret, from which address, and which certificate it got.
 */
export const burnRecord = pgTable(
  'ymy_burn_record',
  {
    id: id('id').primaryKey(),
    stationId: id('station_id').notNull(),
    deviceSn: varchar('device_sn', { length: 32 }).notNull(),
    batchId: id('batch_id').notNull(),
    certificateId: id('certificate_id').notNull(),
    remoteIp: varchar('remote_ip', { length: 64 }),
    createTime: ts('create_time').notNull().defaultNow(),
  },
  (t) => [
    index('ix_burn_record_device').on(t.deviceSn, t.createTime),
    index('ix_burn_record_station').on(t.stationId, t.createTime),
  ],
);

/**
 * IoT cloud credentials. Secrets (PSK / DeviceSecret, private keys) are sealed (AES-256-GCM, core/secrets.ts);
 * allocation takes free rows of a batch's cloud product, matching device names to SNs first.
 */
export const cert = pgTable(
  'ymy_cert',
  withSearchGrams(certResource, {
    id: id('id').primaryKey(),
    cloudVendor: integer('cloud_vendor').notNull(),
    cloudProductId: varchar('cloud_product_id', { length: 64 }).notNull(),
    deviceName: varchar('device_name', { length: 64 }).notNull(),
    deviceSecret: text('device_secret'),
    certificate: text('certificate'),
    privateKey: text('private_key'),
    fingerprint: varchar('fingerprint', { length: 64 }),
    validTo: ts('valid_to'),
    state: integer('state').notNull().default(1),
    batchId: id('batch_id'),
    deviceSn: varchar('device_sn', { length: 32 }),
    ...auditColumns(),
  }),
  (t) => [
    uniqueIndex('uq_cert_device_name').on(t.deviceName).where(sql`is_deleted = 0`),
    uniqueIndex('uq_cert_fingerprint').on(t.fingerprint).where(sql`is_deleted = 0 and fingerprint is not null`),
    index('ix_cert_free').on(t.cloudVendor, t.cloudProductId, t.deviceName).where(sql`is_deleted = 0 and state = 1`),
    index('ix_cert_batch').on(t.batchId).where(sql`is_deleted = 0`),
    // a tenant's certificates are those of its devices
    index('ix_cert_device_sn').on(t.deviceSn).where(sql`is_deleted = 0 and device_sn is not null`),
    index('ix_cert_time').on(t.createTime, t.id).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

/** CIT (factory test) items: a tree; an item has a standard (a value or a range), a group has none. */
export const citDict = pgTable(
  'ymy_cit_dict',
  withSearchGrams(citDictResource, {
    id: id('id').primaryKey(),
    parentId: id('parent_id').notNull().default('0'),
    ancestors: varchar('ancestors', { length: 2000 }).notNull().default('0'),
    code: varchar('code', { length: 64 }).notNull(),
    name: varchar('name', { length: 64 }).notNull(),
    standard: varchar('standard', { length: 64 }),
    sort: integer('sort').notNull().default(1),
    remark: varchar('remark', { length: 500 }),
    ...auditColumns(),
  }),
  (t) => [
    uniqueIndex('uq_cit_dict_code').on(t.code).where(sql`is_deleted = 0`),
    index('ix_cit_dict_parent').on(t.parentId, t.sort).where(sql`is_deleted = 0`),
    index('ix_cit_dict_time').on(t.createTime, t.id).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

/** A station's CIT results for a device (append-only): items code → { value, pass, standard }. */
export const citRecord = pgTable(
  'ymy_cit',
  withSearchGrams(citResource, {
    id: id('id').primaryKey(),
    deviceSn: varchar('device_sn', { length: 32 }).notNull(),
    batchId: id('batch_id'),
    stationId: id('station_id'),
    result: smallint('result').notNull(),
    failedItems: varchar('failed_items', { length: 2000 }),
    items: jsonb('items').notNull(),
    testTime: ts('test_time').notNull(),
    createTime: ts('create_time').notNull().defaultNow(),
  }),
  (t) => [
    index('ix_cit_time').on(t.testTime.desc(), t.id.desc()),
    index('ix_cit_device').on(t.deviceSn, t.testTime),
    index('ix_cit_batch').on(t.batchId, t.testTime),
    // records holding an item (`items ? code`): the CIT screen's tree filters by it
    index('ix_cit_items').using('gin', t.items),
    ...searchGramsIndexes(t),
  ],
);

/** SN rewrites: the audit of every device SN changed (never edited nor removed). */
export const rewriteSn = pgTable(
  'ymy_rewrite_sn',
  withSearchGrams(rewriteSnResource, {
    id: id('id').primaryKey(),
    oldSn: varchar('old_sn', { length: 32 }).notNull(),
    newSn: varchar('new_sn', { length: 32 }).notNull(),
    reason: varchar('reason', { length: 500 }).notNull(),
    ...auditColumns(),
  }),
  (t) => [
    index('ix_rewrite_sn_time').on(t.createTime, t.id).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

/** A station operator: a platform account working the stations of one factory (`/sc/ymy-ipc/users/submit`). */
export const stationOperator = pgTable(
  'ymy_station_operator',
  {
    userId: id('user_id').primaryKey(),
    factoryId: id('factory_id').notNull(),
    stationIds: varchar('station_ids', { length: 2000 }).notNull().default(''),
    createTime: ts('create_time').notNull().defaultNow(),
    updateTime: ts('update_time').notNull().defaultNow(),
  },
  (t) => [index('ix_station_operator_factory').on(t.factoryId)],
);
