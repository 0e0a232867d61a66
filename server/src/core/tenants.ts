import { and, eq } from 'drizzle-orm';
import type { Db, Executor } from './db/index.js';
import { schema } from './db/index.js';
import { serviceKey } from './services.js';

/**
 * What the areas give a tenant when it is created (the areas' `tenantSetup`, in registry order), inside the
 * transaction that creates it, as the platform: the sample workflow, for one.
 */
export interface TenantSetup {
  run(tx: Executor, tenantId: string): Promise<void>;
}
export const TENANT_SETUP = serviceKey<TenantSetup>('core.tenantSetup');

export type TenantProblem = 'tenantMissing' | 'tenantDisabled' | 'tenantExpired';

/** A tenant by its id, with why it cannot be used (missing, disabled, expired), or null when it can. */
export async function usableTenant(db: Db, tenantId: string) {
  const [tenant] = await db.select().from(schema.tenant).where(and(eq(schema.tenant.tenantId, tenantId), eq(schema.tenant.isDeleted, 0)));
  const problem: TenantProblem | null = !tenant
    ? 'tenantMissing'
    : tenant.status !== 1
      ? 'tenantDisabled'
      : tenant.expireTime && tenant.expireTime.getTime() < Date.now()
        ? 'tenantExpired'
        : null;
  return { tenant, problem };
}
