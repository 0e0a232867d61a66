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

const MAC = /^[0-9A-Fa-f]{2}([:-]?[0-9A-Fa-f]{2}){5}$/;
/** a reported MAC as AA:BB:CC:DD:EE:FF (colons, dashes or none accepted); anything else is not kept */
function normalMac(v: unknown): string | undefined {
  if (typeof v !== 'string' || !MAC.test(v.trim())) return undefined;
  return v.trim().replace(/[:-]/g, '').toUpperCase().match(/../g)!.join(':');
}

/** a reported IMEI: 15 digits (16 for an IMEISV); anything else is not kept */
function normalImei(v: unknown): string | undefined {
  return typeof v === 'string' && /^\d{15,16}$/.test(v.trim()) ? v.trim() : undefined;
}

const finite = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined);

/**
 * Folds property reports, version reports and locations into the devices' state rows, one statement for the
 * batch: the latest report per device wins, and a report older than the one stored never overwrites it. The
 * first location a device reports is its activation place and time.
 */
export async function foldDeviceReports(tx: Executor, batch: readonly Uplink[]): Promise<number> {
  const byDevice = new Map<string, { sn: string; at: number; properties: Row; versions: Row; firmware?: string; mac?: string; imei?: string; lat?: number; lng?: number; region?: string }>();
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
      if (u.method === 'report_info') {
        d.mac = normalMac(u.params.mac) ?? d.mac;
        d.imei = normalImei(u.params.imei) ?? d.imei;
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
  const records = [...byDevice.values()].map((d) => ({
    sn: d.sn, at: d.at, properties: d.properties, versions: d.versions, firmware: d.firmware ?? null, mac: d.mac ?? null, imei: d.imei ?? null, lat: d.lat ?? null, lng: d.lng ?? null, region: d.region ?? null,
  }));
  await tx.execute(sql`
    insert into ymy_device_status as s (id, sn, product_id, firmware_version, versions, properties, mac, imei, reported_at, last_seen_time, activation_time, activation_lat, activation_lng, activation_region)
    select f.id, r.sn, f.product_id, r.firmware, r.versions, r.properties, r.mac, r.imei, r.at, to_timestamp(r.at / 1000.0),
           case when r.lat is not null then to_timestamp(r.at / 1000.0) end, r.lat, r.lng, r.region
    from json_to_recordset(${JSON.stringify(records)}::json) as r(sn text, at bigint, properties jsonb, versions jsonb, firmware text, mac text, imei text, lat double precision, lng double precision, region text)
    join ymy_factory_device f on f.sn = r.sn
    on conflict (sn) do update set
      mac = case when excluded.mac is not null and excluded.reported_at >= s.reported_at then excluded.mac else coalesce(s.mac, excluded.mac) end,
      imei = case when excluded.imei is not null and excluded.reported_at >= s.reported_at then excluded.imei else coalesce(s.imei, excluded.imei) end,
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

interface PresenceOutcome {
  sn: string;
  online: 0 | 1;
  at: number;
  address: string | null;
  /** the session an `online` opens (external broker) */
  session: string | null;
  /** an `offline` that applies only if the stored session is one of these (external broker, no `online` in the batch) */
  ends: string[] | null;
}

/**
 * A batch's last word per device. An `online` opens its session; a signed `offline` ends only the session it names
 * (an offline for another session, such as a replayed old one, changes nothing); the embedded broker's presence
 * (no session) always applies.
 */
function presenceOutcomes(batch: readonly Presence[]): PresenceOutcome[] {
  const out = new Map<string, PresenceOutcome>();
  for (const p of [...batch].sort((a, b) => a.at - b.at)) {
    const sn = p.device.sn;
    const cur = out.get(sn);
    const base = { sn, at: p.at, address: null, session: null, ends: null };
    if (p.online) out.set(sn, { ...base, online: 1, address: p.address?.slice(0, 64) ?? null, session: p.session ?? null });
    else if (p.session === undefined) out.set(sn, { ...base, online: 0 });
    else if (cur?.online === 1) {
      if (cur.session === p.session) out.set(sn, { ...base, online: 0 });
    } else if (!cur || cur.ends) out.set(sn, { ...base, online: 0, ends: [...(cur?.ends ?? []), p.session] });
  }
  return [...out.values()];
}

/** Devices connecting and leaving: the latest word per device, in one statement (and one for session-bound offlines). */
export async function foldPresence(tx: Executor, batch: readonly Presence[]): Promise<void> {
  const outcomes = presenceOutcomes(batch);
  const settled = outcomes.filter((o) => !o.ends).map(({ ends: _, ...o }) => o);
  const conditional = outcomes.filter((o) => o.ends).map((o) => ({ sn: o.sn, at: o.at, ends: o.ends }));
  if (settled.length) {
    await tx.execute(sql`
      insert into ymy_device_status as s (id, sn, product_id, online, last_seen_time, address, presence_session)
      select f.id, r.sn, f.product_id, r.online, to_timestamp(r.at / 1000.0), r.address, r.session
      from json_to_recordset(${JSON.stringify(settled)}::json) as r(sn text, online smallint, at bigint, address text, session text)
      join ymy_factory_device f on f.sn = r.sn
      on conflict (sn) do update set
        online = case when excluded.last_seen_time >= coalesce(s.last_seen_time, excluded.last_seen_time) then excluded.online else s.online end,
        presence_session = case when excluded.last_seen_time >= coalesce(s.last_seen_time, excluded.last_seen_time) then excluded.presence_session else s.presence_session end,
        last_seen_time = greatest(s.last_seen_time, excluded.last_seen_time),
        address = coalesce(excluded.address, s.address)`);
  }
  if (conditional.length) {
    await tx.execute(sql`
      update ymy_device_status s set online = 0, presence_session = null, last_seen_time = greatest(s.last_seen_time, to_timestamp(r.at / 1000.0))
      from json_to_recordset(${JSON.stringify(conditional)}::json) as r(sn text, at bigint, ends jsonb)
      where s.sn = r.sn and exists (select 1 from jsonb_array_elements_text(r.ends) e where e = s.presence_session)`);
  }
}
