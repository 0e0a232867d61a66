import { messages } from '@console/contract';
import { asc, inArray, sql } from 'drizzle-orm';
import { type Dependent, NAMED_USES } from '../../core/resource/registry.js';
import { factoryDevice } from '../production/index.js';
import { deviceStatus } from './tables.js';

/**
 * A batch whose devices have reported from the field stays (docs/decisions.md, "No delete orphans anything"):
 * they are locks in use, with their state, OTA history and owners; removing the batch would leave them online in
 * the device lists while their SN names nothing.
 */
export const deviceDependents = (): Dependent[] => [{
  target: 'batch',
  label: messages.batchDevicesOnline,
  policy: 'refuse',
  async uses(tx, ids) {
    const ofBatches = inArray(deviceStatus.id, tx.select({ id: factoryDevice.id }).from(factoryDevice).where(inArray(factoryDevice.batchId, ids)));
    const [counted] = await tx.select({ total: sql<number>`count(*)::int` }).from(deviceStatus).where(ofBatches);
    const total = Number(counted?.total ?? 0);
    if (total === 0) return { total, others: 0, names: [] };
    const named = await tx.select({ sn: deviceStatus.sn }).from(deviceStatus).where(ofBatches).orderBy(asc(deviceStatus.sn)).limit(NAMED_USES);
    return { total, others: 0, names: named.map((r) => r.sn) };
  },
}];
