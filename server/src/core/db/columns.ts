import { sql } from 'drizzle-orm';
import { customType, integer, smallint, timestamp, varchar } from 'drizzle-orm/pg-core';

/** A 64-bit id stored as bigint and handled as a decimal string (JSON cannot carry it as a number). */
export const id = customType<{ data: string; driverData: string | number | bigint }>({
  dataType: () => 'bigint',
  fromDriver: (v) => String(v),
  toDriver: (v) => v,
});

export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** The audit columns of domain.md: who and when created/updated, status and the soft-delete flag. */
export const auditColumns = () => ({
  createUser: id('create_user'),
  createDept: id('create_dept'),
  createTime: ts('create_time').notNull().defaultNow(),
  updateUser: id('update_user'),
  updateTime: ts('update_time').notNull().defaultNow(),
  status: integer('status').notNull().default(1),
  isDeleted: smallint('is_deleted').notNull().default(0),
});

export const tenantColumn = () => varchar('tenant_id', { length: 12 }).notNull();

export const live = sql`is_deleted = 0`;
