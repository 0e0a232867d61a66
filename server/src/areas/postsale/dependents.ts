import { messages } from '@console/contract';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { acrossTenants } from '../../core/db/index.js';
import { type Dependent, NAMED_USES } from '../../core/resource/registry.js';
import { factoryDevice } from '../production/index.js';
import { postsaleDevice } from './tables.js';

/**
 * A batch whose locks are bound in the app stays (docs/decisions.md, "No delete orphans anything"): their owners
 * and members would hold SNs that name nothing. Unbind them first (售后设备).
 */
export const postsaleDependents = (): Dependent[] => [{
  target: 'batch',
  label: messages.batchLocksBound,
  policy: 'refuse',
  async uses(tx, ids) {
    const bound = and(eq(postsaleDevice.isDeleted, 0), inArray(postsaleDevice.deviceSn, tx.select({ sn: factoryDevice.sn }).from(factoryDevice).where(inArray(factoryDevice.batchId, ids))));
    // every tenant's bindings (the batch is the platform's, its locks whoever's it delivered them to): read as the platform
    return acrossTenants(tx, async () => {
      const [counted] = await tx.select({ total: sql<number>`count(distinct ${postsaleDevice.deviceSn})::int` }).from(postsaleDevice).where(bound);
      const total = Number(counted?.total ?? 0);
      if (total === 0) return { total, others: 0, names: [] };
      const named = await tx.selectDistinct({ sn: postsaleDevice.deviceSn }).from(postsaleDevice).where(bound).orderBy(asc(postsaleDevice.deviceSn)).limit(NAMED_USES);
      return { total, others: 0, names: named.map((r) => r.sn) };
    });
  },
}];
