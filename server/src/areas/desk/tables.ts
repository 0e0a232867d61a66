import { noticeResource } from '@console/contract/areas/desk/index';
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, varchar } from 'drizzle-orm/pg-core';
import { auditColumns, id, searchGramsIndexes, tenantColumn, ts, withSearchGrams } from '../../core/db/columns.js';

export const notice = pgTable(
  'blade_notice',
  withSearchGrams(noticeResource, {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    title: varchar('title', { length: 255 }).notNull(),
    category: integer('category').notNull(),
    releaseTime: ts('release_time').notNull(),
    content: text('content'),
    ...auditColumns(),
  }),
  (t) => [
    // DESC NULLS FIRST mirrors ASC NULLS LAST, the defaults of ORDER BY, so one index serves both directions
    index('ix_notice_tenant_time').on(t.tenantId, t.createTime.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`is_deleted = 0`),
    index('ix_notice_tenant_release').on(t.tenantId, t.releaseTime.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`is_deleted = 0`),
    index('ix_notice_title_trgm').using('gin', sql`title gin_trgm_ops`),
    ...searchGramsIndexes(t),
  ],
);

/**
 * Notices a user has read one by one (the bell). A user's "mark all as read" is a watermark in
 * blade_notice_read_mark instead, so this table stays small: it holds only reads since the last one.
 */
export const noticeRead = pgTable(
  'blade_notice_read',
  {
    tenantId: tenantColumn(),
    userId: id('user_id').notNull(),
    noticeId: id('notice_id').notNull(),
    readTime: ts('read_time').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'blade_notice_read_pkey', columns: [t.userId, t.noticeId] }),
    // a removed notice's read rows are dropped with it
    index('ix_notice_read_notice').on(t.noticeId),
  ],
);

/**
 * "Mark all as read" per user: every notice that was visible at `readUntil` (created and released by
 * then) counts as read. `category` -1 is the watermark of every category; any other value only covers
 * notices of that category (a tab's "mark all").
 */
export const noticeReadMark = pgTable(
  'blade_notice_read_mark',
  {
    tenantId: tenantColumn(),
    userId: id('user_id').notNull(),
    category: integer('category').notNull(),
    readUntil: ts('read_until').notNull(),
  },
  (t) => [primaryKey({ name: 'blade_notice_read_mark_pkey', columns: [t.userId, t.category] })],
);
