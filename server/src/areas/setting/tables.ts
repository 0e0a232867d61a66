import { agreementSettingResource } from '@console/contract/areas/setting/index';
import { sql } from 'drizzle-orm';
import { index, pgTable, smallint, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { auditColumns, id, searchGramsIndexes, tenantColumn, ts, withSearchGrams } from '../../core/db/columns.js';

/** One row per payment channel of a tenant (made with the tenant); `api_key` and `private_key` sealed (secretBox). */
export const paymentSetting = pgTable(
  'ymy_payment_setting',
  {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    channel: varchar('channel', { length: 16 }).notNull(),
    enabled: smallint('enabled').notNull().default(0),
    appId: varchar('app_id', { length: 64 }),
    mchId: varchar('mch_id', { length: 32 }),
    apiKey: text('api_key'),
    certSerial: varchar('cert_serial', { length: 64 }),
    privateKey: text('private_key'),
    merchantCert: text('merchant_cert'),
    publicKey: text('public_key'),
    ...auditColumns(),
  },
  (t) => [uniqueIndex('uq_payment_setting_channel').on(t.tenantId, t.channel)],
);

/**
 * User agreement and privacy policy texts, per language and version (platform-wide, public). A published version
 * (`published` = 1, `publish_time` set) is never edited; the latest published one of a type and language is shown.
 */
export const agreement = pgTable(
  'ymy_agreement',
  withSearchGrams(agreementSettingResource, {
    id: id('id').primaryKey(),
    type: varchar('type', { length: 16 }).notNull(),
    language: varchar('language', { length: 8 }).notNull(),
    title: varchar('title', { length: 255 }).notNull(),
    content: text('content').notNull(),
    version: varchar('version', { length: 32 }).notNull(),
    published: smallint('published').notNull().default(0),
    publishTime: ts('publish_time'),
    ...auditColumns(),
  }),
  (t) => [
    uniqueIndex('uq_agreement_version').on(t.type, t.language, t.version).where(sql`is_deleted = 0`),
    index('ix_agreement_published').on(t.type, t.language, t.publishTime.desc().nullsLast()).where(sql`is_deleted = 0`),
    index('ix_agreement_time').on(t.createTime.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);
