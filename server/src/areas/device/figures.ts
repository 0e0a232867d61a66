import { type DashboardDevices, type DeviceFigure, OTA_RATE_DAYS } from '@console/contract/areas/desk/index';
import { and, count, eq, gte, inArray, sql, type SQL } from 'drizzle-orm';
import type { AuthUser } from '../../core/context.js';
import type { Tx } from '../../core/db/index.js';
import { bySnColumn } from '../production/index.js';
import { deviceStatus, emergencyUnlock, otaProgress } from './tables.js';

const FAILED = ['failed', 'timed_out'];

/** The rows the caller's device screens show: a tenant those of the locks it owns, the platform all. */
async function owned(tx: Tx, user: AuthUser, sn: Parameters<typeof bySnColumn>[0]): Promise<SQL[]> {
  const scope = await bySnColumn(sn)(tx, user);
  return scope ? [scope] : [];
}

async function locks(tx: Tx, user: AuthUser): Promise<DashboardDevices['locks']> {
  const [row] = await tx.select({ total: count(), online: sql<number>`count(*) filter (where ${deviceStatus.online} = 1)` })
    .from(deviceStatus).where(and(...(await owned(tx, user, deviceStatus.sn))));
  return { online: Number(row?.online ?? 0), total: Number(row?.total ?? 0) };
}

async function ota(tx: Tx, user: AuthUser): Promise<DashboardDevices['ota']> {
  const since = sql`now() - ${OTA_RATE_DAYS} * interval '1 day'`;
  const [row] = await tx.select({
    succeeded: sql<number>`count(*) filter (where ${otaProgress.state} = 'succeeded')`,
    failed: sql<number>`count(*) filter (where ${inArray(otaProgress.state, FAILED)})`,
  }).from(otaProgress).where(and(gte(otaProgress.lastReportTime, since), ...(await owned(tx, user, otaProgress.deviceSn))));
  const succeeded = Number(row?.succeeded ?? 0);
  const failed = Number(row?.failed ?? 0);
  return { days: OTA_RATE_DAYS, succeeded, failed, rate: succeeded + failed === 0 ? null : succeeded / (succeeded + failed) };
}

async function emergency(tx: Tx, user: AuthUser): Promise<DashboardDevices['emergency']> {
  const [row] = await tx.select({ pending: count() }).from(emergencyUnlock)
    .where(and(eq(emergencyUnlock.tenantId, user.tenantId), eq(emergencyUnlock.state, 'pending'), eq(emergencyUnlock.isDeleted, 0)));
  return { pending: Number(row?.pending ?? 0) };
}

const FIGURES: { [K in DeviceFigure]: (tx: Tx, user: AuthUser) => Promise<DashboardDevices[K]> } = { locks, ota, emergency };

/** The dashboard's device figures the caller may read (`held`), each scoped as its screen is. */
export async function deviceFigures(tx: Tx, user: AuthUser, held: readonly DeviceFigure[]): Promise<DashboardDevices> {
  const out: DashboardDevices = {};
  for (const name of held) Object.assign(out, { [name]: await FIGURES[name](tx, user) });
  return out;
}
