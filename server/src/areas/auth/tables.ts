import { pgTable, varchar } from 'drizzle-orm/pg-core';
import { ts } from '../../core/db/columns.js';

/** Single-use captchas (platform-wide: the caller is not signed in yet). */
export const authCaptcha = pgTable('auth_captcha', {
  key: varchar('key', { length: 64 }).primaryKey(),
  codeHash: varchar('code_hash', { length: 64 }).notNull(),
  expireTime: ts('expire_time').notNull(),
});
