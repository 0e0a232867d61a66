import {
  areaAgentResource, areaDispatchOaResource, areaDispatchResource, areaModifyLogResource, areaOaResource, areaWarnResource, deviceAreaResource,
} from '@console/contract/areas/supplier/index';
import { sql } from 'drizzle-orm';
import { type ExtraConfigColumn, index, integer, pgTable, primaryKey, smallint, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { auditColumns, id, searchGramsIndexes, tenantColumn, ts, withSearchGrams } from '../../core/db/columns.js';

export const areaAgent = pgTable(
  'ymy_area_agent',
  withSearchGrams(areaAgentResource, {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    agentName: varchar('agent_name', { length: 64 }).notNull(),
    contact: varchar('contact', { length: 32 }),
    phone: varchar('phone', { length: 32 }),
    regionCodes: text('region_codes').notNull(),
    remark: varchar('remark', { length: 500 }),
    ...auditColumns(),
  }),
  (t) => [
    index('ix_area_agent_tenant_time').on(t.tenantId, t.createTime.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

/**
 * The regions held, one row per (tenant, region): the key is the rule that a region belongs to one agent, held by
 * the database whatever the order of two concurrent saves. Kept by the agents' saves and removes (agent.ts).
 */
export const areaAgentRegion = pgTable(
  'ymy_area_agent_region',
  {
    tenantId: tenantColumn(),
    regionCode: varchar('region_code', { length: 12 }).notNull(),
    agentId: id('agent_id').notNull(),
    createTime: ts('create_time').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.regionCode] }), index('ix_area_agent_region_agent').on(t.agentId)],
);

/*
 * Every `device_sn` of these tables is COLLATE "C" (migrations 0033, and 0029–0031 for the indexes that named it):
 * the SN prefix the lists search (`deviceSn_likeright`) is a range of the btree that leads with the tenant.
 */

/** The device → region registry (`area`): one live row per device of a tenant. */
export const deviceArea = pgTable(
  'ymy_device_area',
  withSearchGrams(deviceAreaResource, {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    deviceSn: varchar('device_sn', { length: 32 }).notNull(),
    // a region path, province first; `COLLATE "C"`: a prefix match (a region and everything under it) uses the index
    code: varchar('code', { length: 64 }).notNull(),
    agentId: id('agent_id'),
    dispatchTime: ts('dispatch_time'),
    source: varchar('source', { length: 16 }).notNull().default('manual'),
    dispatchId: id('dispatch_id'),
    ...auditColumns(),
  }),
  (t) => [
    index('ix_device_area_dispatch').on(t.dispatchId).where(sql`is_deleted = 0 and dispatch_id is not null`),
    uniqueIndex('ux_device_area_sn').on(t.tenantId, t.deviceSn).where(sql`is_deleted = 0`),
    index('ix_device_area_code').on(t.tenantId, sql`code COLLATE "C"`).where(sql`is_deleted = 0`),
    index('ix_device_area_tenant_time').on(t.tenantId, t.createTime.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

/** Cross-region warnings (`region_wrong_log`): one per device and activated region of a tenant. */
export const areaWarn = pgTable(
  'ymy_device_area_warn',
  withSearchGrams(areaWarnResource, {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    deviceSn: varchar('device_sn', { length: 32 }).notNull(),
    dispatchedCode: varchar('dispatched_code', { length: 64 }),
    activatedCode: varchar('activated_code', { length: 64 }),
    location: varchar('location', { length: 255 }),
    activationTime: ts('activation_time'),
    handled: smallint('handled').notNull().default(0),
    handleRemark: varchar('handle_remark', { length: 500 }),
    ...auditColumns(),
  }),
  (t) => [
    uniqueIndex('ux_device_area_warn').on(t.tenantId, t.deviceSn, t.activatedCode).where(sql`is_deleted = 0`),
    index('ix_device_area_warn_time').on(t.tenantId, t.activationTime.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`is_deleted = 0`),
    // the unhandled ones, newest first (the operator's work list), and an SN's start (COLLATE "C": a prefix match)
    index('ix_device_area_warn_open').on(t.tenantId, t.activationTime.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`is_deleted = 0 and handled = 0`),
    index('ix_device_area_warn_sn').on(t.tenantId, sql`device_sn COLLATE "C"`).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

const newestFirst = (name: string, t: Record<'tenantId' | 'createTime' | 'id', ExtraConfigColumn>) =>
  index(name).on(t.tenantId, t.createTime.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`is_deleted = 0`);

/** Every change of a lock's region (`area_modify_log`). */
export const areaModifyLog = pgTable(
  'ymy_device_area_modify',
  withSearchGrams(areaModifyLogResource, {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    deviceSn: varchar('device_sn', { length: 32 }).notNull(),
    oldCode: varchar('old_code', { length: 64 }),
    newCode: varchar('new_code', { length: 64 }).notNull(),
    operator: varchar('operator', { length: 64 }),
    reason: varchar('reason', { length: 255 }),
    ...auditColumns(),
  }),
  (t) => [
    newestFirst('ix_device_area_modify_time', t),
    index('ix_device_area_modify_sn').on(t.tenantId, sql`device_sn COLLATE "C"`).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

const approvalColumns = () => ({
  status: smallint('status').notNull().default(0),
  approver: id('approver'),
  approverName: varchar('approver_name', { length: 64 }),
  approvalTime: ts('approval_time'),
  comment: varchar('comment', { length: 255 }),
});

/** Region changes waiting for approval (`area_oa`): one pending per lock of a tenant. */
export const areaOa = pgTable(
  'ymy_device_area_oa',
  withSearchGrams(areaOaResource, {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    deviceSn: varchar('device_sn', { length: 32 }).notNull(),
    code: varchar('code', { length: 64 }).notNull(),
    agentId: id('agent_id'),
    dispatchTime: ts('dispatch_time'),
    reason: varchar('reason', { length: 255 }).notNull(),
    // after the audit columns: the approval's state takes their `status`
    ...auditColumns(),
    ...approvalColumns(),
  }),
  (t) => [
    uniqueIndex('ux_device_area_oa_pending').on(t.tenantId, t.deviceSn).where(sql`is_deleted = 0 and status = 0`),
    index('ix_device_area_oa_sn').on(t.tenantId, t.deviceSn).where(sql`is_deleted = 0`),
    newestFirst('ix_device_area_oa_time', t),
    ...searchGramsIndexes(t),
  ],
);

const dispatchColumns = () => ({
  id: id('id').primaryKey(),
  tenantId: tenantColumn(),
  code: varchar('code', { length: 64 }).notNull(),
  agentId: id('agent_id').notNull(),
  deviceSn: varchar('device_sn', { length: 32 }),
  batchNo: varchar('batch_no', { length: 32 }),
  quantity: integer('quantity').notNull().default(0),
  dispatchTime: ts('dispatch_time'),
});

/** Dispatches of locks to an agent's region (`area_dispatch`). */
export const areaDispatch = pgTable(
  'ymy_area_dispatch',
  withSearchGrams(areaDispatchResource, { ...dispatchColumns(), ...auditColumns() }),
  (t) => [newestFirst('ix_area_dispatch_time', t), index('ix_area_dispatch_sn').on(t.tenantId, t.deviceSn).where(sql`is_deleted = 0`), ...searchGramsIndexes(t)],
);

/** Dispatches waiting for approval (`area_dispatch_oa`); `dispatchId`: the dispatch an approval made. */
export const areaDispatchOa = pgTable(
  'ymy_area_dispatch_oa',
  withSearchGrams(areaDispatchOaResource, { ...dispatchColumns(), dispatchId: id('dispatch_id'), ...auditColumns(), ...approvalColumns() }),
  (t) => [newestFirst('ix_area_dispatch_oa_time', t), index('ix_area_dispatch_oa_sn').on(t.tenantId, t.deviceSn).where(sql`is_deleted = 0`), ...searchGramsIndexes(t)],
);
