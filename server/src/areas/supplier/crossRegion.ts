import { PLATFORM_TENANT } from '@console/contract';
import { getTableName, sql } from 'drizzle-orm';
import type { AppContext } from '../../core/context.js';
import { type Executor, inTenant, rowsAffected } from '../../core/db/index.js';
import { nextId } from '../../core/ids.js';
import { GATEWAY, type Uplink } from '../device/index.js';
import { factoryDevice } from '../production/index.js';
import { region } from '../system/index.js';
import { areaWarn, deviceArea } from './tables.js';

/** A background fold is never cut by the requests' statement limit (a batch cut would be lost). */
const FOLD_TIMEOUT_MS = 120_000;

const REGION_CODE = /^\d{6}(\d{3}){0,2}$/;

interface Sighting {
  id: string;
  sn: string;
  region: string;
  location: string;
  at: number;
}

const finite = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? n : undefined;
};

/** Where a location report puts the lock: its region code (the protocol's `regionCode`) and what it said of its place. */
function sightingOf(u: Uplink): Sighting | undefined {
  const region = typeof u.params.regionCode === 'string' ? u.params.regionCode.trim() : '';
  if (!REGION_CODE.test(region)) return undefined;
  const lat = finite(u.params.lat);
  const lng = finite(u.params.lng);
  const address = typeof u.params.address === 'string' ? u.params.address.trim().slice(0, 160) : '';
  const point = lat !== undefined && lng !== undefined && Math.abs(lat) <= 90 && Math.abs(lng) <= 180 ? `${lat.toFixed(5)},${lng.toFixed(5)}` : '';
  return { id: nextId(), sn: u.device.sn, region, location: [address, point].filter(Boolean).join(' ') || region, at: u.timestamp };
}

/**
 * Compares the locks' reported regions with the regions they were dispatched to, in one statement for the batch: a
 * lock seen outside its region (neither region inside the other) gets a warning of its owner tenant, once per lock
 * and region seen. A region the tree lacks, or a lock without a device area, is not compared. Answers how many
 * warnings were written.
 */
export async function foldCrossRegion(tx: Executor, batch: readonly Uplink[]): Promise<number> {
  const seen = new Map<string, Sighting>();
  // the first report of a region wins (when the lock was first seen there)
  for (const u of [...batch].sort((a, b) => a.timestamp - b.timestamp)) {
    const s = u.kind === 'location' ? sightingOf(u) : undefined;
    if (s && !seen.has(`${s.sn}:${s.region}`)) seen.set(`${s.sn}:${s.region}`, s);
  }
  if (seen.size === 0) return 0;
  const res = await tx.execute(sql`
    with r as (
      select r.id, r.sn, r.location, r.at, concat_ws(',', nullif(trim(both ',' from regexp_replace(g.ancestors, '^0,?', '')), ''), g.code) as path
      from json_to_recordset(${JSON.stringify([...seen.values()])}::json) as r(id bigint, sn text, region text, location text, at bigint)
      join ${region} g on g.code = r.region and g.is_deleted = 0
    )
    insert into ${areaWarn} (id, tenant_id, device_sn, dispatched_code, activated_code, location, activation_time)
    select r.id, a.tenant_id, r.sn, a.code, r.path, r.location, to_timestamp(r.at / 1000.0)
    from r
    join ${factoryDevice} f on f.sn = r.sn
    join ${deviceArea} a on a.tenant_id = f.owner_tenant_id and a.device_sn = r.sn and a.is_deleted = 0
    where not (r.path = a.code or r.path like a.code || ',%' or a.code like r.path || ',%')
    on conflict (tenant_id, device_sn, activated_code) where is_deleted = 0 do nothing`);
  return rowsAffected(res);
}

/** Registers the check on the device gateway's location reports (when the server runs one). */
export function watchLocations(ctx: AppContext): void {
  const gw = ctx.services.find(GATEWAY);
  // the device areas and warnings belong to tenants: the batch is matched across them, as the platform
  gw?.onUplink(['location'], (batch) =>
    inTenant(ctx.db, { tenantId: PLATFORM_TENANT, allTenants: true, timeoutMs: FOLD_TIMEOUT_MS }, (tx) => foldCrossRegion(tx, batch))
      .then((written) => ctx.upkeep.changed(getTableName(areaWarn), written)));
}
