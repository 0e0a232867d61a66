import { feedbackReplyResource, feedbackResource, postsaleDeviceResource, postsaleRecordResource, postsaleUserResource } from '@console/contract/areas/postsale/index';
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, smallint, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { auditColumns, id, searchGramsIndexes, tenantColumn, ts, withSearchGrams } from '../../core/db/columns.js';

/**
 * After-sales. The app's users belong to a tenant (the brand whose app they installed) and sign in to the app
 * with their phone and password (`/api/app/auth/token`); the console's after-sales screens manage them.
 */
export const postsaleUser = pgTable(
  'ymy_postsale_user',
  withSearchGrams(postsaleUserResource, {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    phone: varchar('phone', { length: 32 }).notNull(),
    nickname: varchar('nickname', { length: 64 }),
    avatar: varchar('avatar', { length: 1000 }),
    /** argon2id of the hex MD5 the app sends (as for console users) */
    passwordHash: varchar('password', { length: 255 }).notNull(),
    /** app tokens issued before this are refused: a password reset or change signs the app out everywhere */
    passwordTime: ts('password_time').notNull().defaultNow(),
    /** 1: the console reset the password; the app must set a new one through an SMS code before signing in */
    passwordReset: smallint('password_reset').notNull().default(0),
    registerTime: ts('register_time').notNull().defaultNow(),
    lastLoginTime: ts('last_login_time'),
    ...auditColumns(),
  }),
  (t) => [
    uniqueIndex('uq_postsale_user_phone').on(t.tenantId, t.phone).where(sql`is_deleted = 0`),
    index('ix_postsale_user_time').on(t.tenantId, t.registerTime.desc(), t.id.desc()).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

/**
 * Who holds which lock: one live row per (lock, user). A lock has at most one owner: the partial key
 * `uq_postsale_device_owner` holds it whatever the order of two concurrent bindings. `device_sn` is COLLATE "C".
 */
export const postsaleDevice = pgTable(
  'ymy_postsale_device',
  withSearchGrams(postsaleDeviceResource, {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    deviceSn: varchar('device_sn', { length: 32 }).notNull(),
    appUserId: id('app_user_id').notNull(),
    role: varchar('role', { length: 16 }).notNull(),
    nickname: varchar('nickname', { length: 64 }),
    productId: id('product_id'),
    bindTime: ts('bind_time').notNull().defaultNow(),
    ...auditColumns(),
  }),
  (t) => [
    uniqueIndex('uq_postsale_device_owner').on(t.tenantId, t.deviceSn).where(sql`is_deleted = 0 and role = 'owner'`),
    uniqueIndex('uq_postsale_device_user').on(t.tenantId, t.deviceSn, t.appUserId).where(sql`is_deleted = 0`),
    index('ix_postsale_device_app_user').on(t.tenantId, t.appUserId).where(sql`is_deleted = 0`),
    index('ix_postsale_device_time').on(t.tenantId, t.bindTime.desc(), t.id.desc()).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

export const postsaleRecord = pgTable(
  'ymy_postsale_record',
  withSearchGrams(postsaleRecordResource, {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    deviceSn: varchar('device_sn', { length: 32 }).notNull(),
    kind: varchar('kind', { length: 16 }).notNull(),
    appUserId: id('app_user_id'),
    description: varchar('description', { length: 1000 }).notNull(),
    newDeviceSn: varchar('new_device_sn', { length: 32 }),
    result: varchar('result', { length: 1000 }),
    state: integer('state').notNull().default(0),
    handler: id('handler'),
    closedTime: ts('closed_time'),
    ...auditColumns(),
  }),
  (t) => [
    index('ix_postsale_record_tenant_time').on(t.tenantId, t.createTime.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`is_deleted = 0`),
    index('ix_postsale_record_sn').on(t.tenantId, t.deviceSn).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

export const feedback = pgTable(
  'ymy_feedback',
  withSearchGrams(feedbackResource, {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    appUserId: id('app_user_id'),
    phone: varchar('phone', { length: 32 }),
    kind: varchar('kind', { length: 16 }),
    content: varchar('content', { length: 2000 }).notNull(),
    images: text('images'),
    deviceSn: varchar('device_sn', { length: 32 }),
    appVersion: varchar('app_version', { length: 32 }),
    state: integer('state').notNull().default(0),
    replyCount: integer('reply_count').notNull().default(0),
    ...auditColumns(),
  }),
  (t) => [
    index('ix_feedback_tenant_time').on(t.tenantId, t.createTime.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`is_deleted = 0`),
    index('ix_feedback_app_user').on(t.tenantId, t.appUserId).where(sql`is_deleted = 0`),
    index('ix_feedback_sn').on(t.tenantId, t.deviceSn).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

export const feedbackReply = pgTable(
  'ymy_feedback_reply',
  withSearchGrams(feedbackReplyResource, {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    feedbackId: id('feedback_id').notNull(),
    content: varchar('content', { length: 2000 }).notNull(),
    replier: id('replier'),
    ...auditColumns(),
  }),
  (t) => [index('ix_feedback_reply_feedback').on(t.tenantId, t.feedbackId, t.createTime).where(sql`is_deleted = 0`)],
);
