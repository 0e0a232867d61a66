import { attachResource, ossResource, smsResource } from '@console/contract/areas/resource/index';
import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
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

/** Uploaded files (the file storage interface keeps the bytes; this is the register). */
export const attach = pgTable(
  'blade_attach',
  withSearchGrams(attachResource, {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    domainUrl: varchar('domain_url', { length: 255 }).notNull().default(''),
    link: varchar('link', { length: 1000 }).notNull(),
    /** storage key: tenant/yyyyMMdd/random.ext */
    name: varchar('name', { length: 500 }).notNull(),
    originalName: varchar('original_name', { length: 500 }).notNull(),
    extension: varchar('extension', { length: 16 }).notNull(),
    contentType: varchar('content_type', { length: 100 }).notNull(),
    attachSize: bigint('attach_size', { mode: 'number' }).notNull(),
    sha256: varchar('sha256', { length: 64 }).notNull(),
    md5: varchar('md5', { length: 32 }),
    /** the object storage configuration (blade_oss) holding the bytes; null: the local disk */
    ossId: id('oss_id'),
    ...auditColumns(),
  }),
  (t) => [
    index('ix_attach_tenant_time').on(t.tenantId, t.createTime.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`is_deleted = 0`),
    uniqueIndex('uq_attach_name').on(t.name),
    ...searchGramsIndexes(t),
  ],
);
