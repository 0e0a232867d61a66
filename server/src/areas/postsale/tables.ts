import { sql } from 'drizzle-orm';
import { index, pgTable, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { auditColumns, id, searchGrams, searchGramsIndex, tenantColumn, ts } from '../../core/db/columns.js';

/**
 * After-sales. The app's users belong to a tenant (the brand whose app they installed) and sign in to the app
 * with their phone and password (`/api/app/auth/token`); the console's after-sales screens manage them.
 */
export const postsaleUser = pgTable(
  'ymy_postsale_user',
  {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    phone: varchar('phone', { length: 32 }).notNull(),
    nickname: varchar('nickname', { length: 64 }),
    avatar: varchar('avatar', { length: 1000 }),
    /** argon2id of the hex MD5 the app sends (as for console users) */
    passwordHash: varchar('password', { length: 255 }).notNull(),
    /** app tokens issued before this are refused: a password reset or change signs the app out everywhere */
    passwordTime: ts('password_time').notNull().defaultNow(),
    registerTime: ts('register_time').notNull().defaultNow(),
    lastLoginTime: ts('last_login_time'),
    ...auditColumns(),
    phoneGrams: searchGrams('phone'),
    nicknameGrams: searchGrams('nickname'),
  },
  (t) => [
    uniqueIndex('uq_postsale_user_phone').on(t.tenantId, t.phone).where(sql`is_deleted = 0`),
    index('ix_postsale_user_time').on(t.tenantId, t.registerTime.desc(), t.id.desc()).where(sql`is_deleted = 0`),
    searchGramsIndex('ix_postsale_user_phone_grams', t.phoneGrams),
    searchGramsIndex('ix_postsale_user_nickname_grams', t.nicknameGrams),
  ],
);
