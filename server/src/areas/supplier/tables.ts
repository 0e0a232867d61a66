import { areaAgentResource } from '@console/contract/areas/supplier/index';
import { sql } from 'drizzle-orm';
import { index, pgTable, primaryKey, text, varchar } from 'drizzle-orm/pg-core';
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
