import { sql } from 'drizzle-orm';
import type { Executor } from '../../core/db/index.js';
import type { Presence, Uplink } from './gateway/types.js';

type Row = Record<string, unknown>;

const MAX_PROPERTIES = 100;

/** Only plain named values are kept of a report (a lock's state, its battery): at most 100, short texts. */
function plainValues(params: Row): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(params)) {
    if (Object.keys(out).length >= MAX_PROPERTIES || k.length > 64) break;
    if (typeof v === 'number' || typeof v === 'boolean' || v === null) out[k] = v;
    else if (typeof v === 'string') out[k] = v.slice(0, 255);
  }
  return out;
}

const finite = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined);

/**
 * Folds property reports, version reports and locations into the devices' state rows, one statement for the
 * batch: the latest report per device wins, and a report older than the one stored never overwrites it. The
 * first location a device reports is its activation place and time.
 */
export async function foldDeviceReports(tx: Executor, batch: readonly Uplink[]): Promise<number> {
  const byDevice = new Map<string, { sn: string; at: number; properties: Row; versions: Row; firmware?: string; lat?: number; lng?: number; region?: string }>();
  for (const u of [...batch].sort((a, b) => a.timestamp - b.timestamp)) {
    let d = byDevice.get(u.device.sn);
    if (!d) byDevice.set(u.device.sn, (d = { sn: u.device.sn, at: 0, properties: {}, versions: {} }));
    d.at = Math.max(d.at, u.timestamp);
    if (u.kind === 'property' && u.method === 'report') Object.assign(d.properties, plainValues(u.params));
    if ((u.kind === 'property' && u.method === 'report_info') || (u.kind === 'ota' && u.method === 'report_version')) {
      const version = typeof u.params.version === 'string' ? u.params.version.slice(0, 32) : undefined;
      const module = typeof u.params.module === 'string' ? u.params.module.slice(0, 16) : 'mcu';
      if (version) {
        d.versions[module] = version;
        if (module === 'mcu') d.firmware = version;
      }
    }
    if (u.kind === 'location') {
      const lat = finite(u.params.lat);
      const lng = finite(u.params.lng);
      if (lat !== undefined && lng !== undefined && Math.abs(lat) <= 90 && Math.abs(lng) <= 180) {
        d.lat = lat;
        d.lng = lng;
        d.region = typeof u.params.regionCode === 'string' ? u.params.regionCode.slice(0, 12) : undefined;
      }
    }
  }
  if (byDevice.size === 0) return 0;
  const records = [...byDevice.values()].map((d) => ({ sn: d.sn, at: d.at, properties: d.properties, versions: d.versions, firmware: d.firmware ?? null, lat: d.lat ?? null, lng: d.lng ?? null, region: d.region ?? null }));
  await tx.execute(sql`
    insert into ymy_device_status as s (id, sn, product_id, firmware_version, versions, properties, reported_at, last_seen_time, activation_time, activation_lat, activation_lng, activation_region)
    select f.id, r.sn, f.product_id, r.firmware, r.versions, r.properties, r.at, to_timestamp(r.at / 1000.0),
           case when r.lat is not null then to_timestamp(r.at / 1000.0) end, r.lat, r.lng, r.region
    from json_to_recordset(${JSON.stringify(records)}::json) as r(sn text, at bigint, properties jsonb, versions jsonb, firmware text, lat double precision, lng double precision, region text)
    join ymy_factory_device f on f.sn = r.sn
    on conflict (sn) do update set
      properties = case when excluded.reported_at >= s.reported_at then s.properties || excluded.properties else excluded.properties || s.properties end,
      versions = case when excluded.reported_at >= s.reported_at then s.versions || excluded.versions else excluded.versions || s.versions end,
      firmware_version = case when excluded.firmware_version is not null and excluded.reported_at >= s.reported_at then excluded.firmware_version else s.firmware_version end,
      reported_at = greatest(s.reported_at, excluded.reported_at),
      last_seen_time = greatest(s.last_seen_time, excluded.last_seen_time),
      activation_time = coalesce(s.activation_time, excluded.activation_time),
      activation_lat = case when s.activation_time is null then excluded.activation_lat else s.activation_lat end,
      activation_lng = case when s.activation_time is null then excluded.activation_lng else s.activation_lng end,
      activation_region = case when s.activation_time is null then excluded.activation_region else s.activation_region end`);
  return byDevice.size;
}

/** Devices connecting and leaving: the latest word per device, one statement. */
export async function foldPresence(tx: Executor, batch: readonly Presence[]): Promise<void> {
  const latest = new Map<string, Presence>();
  for (const p of batch) {
    const seen = latest.get(p.device.sn);
    if (!seen || seen.at <= p.at) latest.set(p.device.sn, p);
  }
  if (latest.size === 0) return;
  const records = [...latest.values()].map((p) => ({ sn: p.device.sn, online: p.online ? 1 : 0, at: p.at, address: p.address?.slice(0, 64) ?? null }));
  await tx.execute(sql`
    insert into ymy_device_status as s (id, sn, product_id, online, last_seen_time, address)
    select f.id, r.sn, f.product_id, r.online, to_timestamp(r.at / 1000.0), r.address
    from json_to_recordset(${JSON.stringify(records)}::json) as r(sn text, online smallint, at bigint, address text)
    join ymy_factory_device f on f.sn = r.sn
    on conflict (sn) do update set
      online = case when excluded.last_seen_time >= coalesce(s.last_seen_time, excluded.last_seen_time) then excluded.online else s.online end,
      last_seen_time = greatest(s.last_seen_time, excluded.last_seen_time),
      address = coalesce(excluded.address, s.address)`);
}
