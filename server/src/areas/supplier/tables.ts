import { areaAgentResource, areaWarnResource, deviceAreaResource } from '@console/contract/areas/supplier/index';
import { sql } from 'drizzle-orm';
import { index, pgTable, primaryKey, smallint, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
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
    ...auditColumns(),
  }),
  (t) => [
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
    ...searchGramsIndexes(t),
  ],
);
