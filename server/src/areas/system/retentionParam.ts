import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../core/db/index.js';
import { nextId } from '../../core/ids.js';
import { param } from './tables.js';

/** A parameter (blade_param) holding how many days rows are kept; 0 or less (or over a century) keeps them forever. */
export interface RetentionParam {
  key: string;
  defaultDays: number;
  /** the parameter's name and remark as seeded (Chinese, as BladeX's parameters are; the remark says it in English too) */
  name: string;
  remark: string;
}

const MAX_DAYS = 36_500;

/** The retention in days from the parameter (the default when absent or unreadable; null: keep forever). */
export async function retentionDaysOf(db: Db, p: RetentionParam): Promise<number | null> {
  const [row] = await db.select({ value: param.paramValue }).from(param)
    .where(and(eq(param.paramKey, p.key), eq(param.isDeleted, 0))).limit(1);
  if (!row) return p.defaultDays;
  const days = Number(row.value.trim());
  if (!Number.isFinite(days)) return p.defaultDays;
  // beyond a century (a date before any row, or none at all: 1e300 days) is forever too
  return days > 0 && days <= MAX_DAYS ? days : null;
}

/** Seeds the parameter with its default, unless it exists (an operator's value is kept). */
export async function seedRetentionParam(tx: Tx, p: RetentionParam): Promise<void> {
  const [hit] = await tx.select({ id: param.id }).from(param).where(and(eq(param.paramKey, p.key), eq(param.isDeleted, 0)));
  if (hit) return;
  await tx.insert(param).values({ id: nextId(), paramName: p.name, paramKey: p.key, paramValue: String(p.defaultDays), remark: p.remark });
}
