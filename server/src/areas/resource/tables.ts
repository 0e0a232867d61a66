import { ossResource, smsResource } from '@console/contract/areas/resource/index';
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { auditColumns, id, searchGramsIndexes, tenantColumn, withSearchGrams } from '../../core/db/columns.js';

/** SMS configurations of a tenant; `status` 2 marks the enabled one (at most one per tenant). Keys are sealed (core/secrets.ts). */
export const sms = pgTable(
  'blade_sms',
  withSearchGrams(smsResource, {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    category: integer('category').notNull(),
    smsCode: varchar('sms_code', { length: 64 }).notNull(),
    templateId: varchar('template_id', { length: 64 }).notNull(),
    accessKey: text('access_key'),
    secretKey: text('secret_key'),
    appId: varchar('app_id', { length: 64 }),
    regionId: varchar('region_id', { length: 64 }),
    signName: varchar('sign_name', { length: 64 }),
    remark: varchar('remark', { length: 500 }),
    ...auditColumns(),
  }),
  (t) => [
    uniqueIndex('uq_sms_code').on(t.tenantId, t.smsCode).where(sql`is_deleted = 0`),
    uniqueIndex('uq_sms_enabled').on(t.tenantId).where(sql`status = 2 and is_deleted = 0`),
    index('ix_sms_tenant_time').on(t.tenantId, t.createTime.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

/** Object storage configurations of a tenant; `status` 2 marks the enabled one (at most one per tenant). Keys are sealed. */
export const oss = pgTable(
  'blade_oss',
  withSearchGrams(ossResource, {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    category: integer('category').notNull(),
    ossCode: varchar('oss_code', { length: 64 }).notNull(),
    endpoint: varchar('endpoint', { length: 255 }),
    accessKey: text('access_key'),
    secretKey: text('secret_key'),
    bucketName: varchar('bucket_name', { length: 255 }),
    appId: varchar('app_id', { length: 64 }),
    region: varchar('region', { length: 64 }),
    remark: varchar('remark', { length: 500 }),
    ...auditColumns(),
  }),
  (t) => [
    uniqueIndex('uq_oss_code').on(t.tenantId, t.ossCode).where(sql`is_deleted = 0`),
    uniqueIndex('uq_oss_enabled').on(t.tenantId).where(sql`status = 2 and is_deleted = 0`),
    index('ix_oss_tenant_time').on(t.tenantId, t.createTime.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);
