import { CLOCK_TOLERANCE_MS, HmacSha256Key, parseTencentUsername, sessionKey, type TencentUsername, timestampMs, verifySigned } from './credentials.js';
import type { UpTopicKind } from './topics.js';

/** Payloads above this are refused unread. */
export const MAX_PAYLOAD_BYTES = 64 * 1024;

export type RejectReason =
  | 'too_large' | 'not_json' | 'bad_envelope' | 'bad_topic' | 'unknown_device' | 'unsigned' | 'bad_sign'
  | 'conn_expired' | 'conn_mismatch' | 'clock' | 'duplicate' | 'ignored';

/** A decoded uplink envelope, before its signature is checked. */
export interface Decoded {
  /** `method`, or for OTA its `type` */
  name: string;
  clientToken: string;
  /** as sent (the signed string uses it unchanged); undefined when absent */
  timestamp?: number;
  /** `params` (OTA: `report`) */
  body: Record<string, unknown>;
  conn?: string;
  sign?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const shortString = (v: unknown, max: number): v is string => typeof v === 'string' && v.length <= max;

/** Reads a payload as an envelope: any malformed input is a reason, never an exception. */
export function decodeEnvelope(payload: Buffer | string, kind: UpTopicKind): Decoded | RejectReason {
  if (payload.length > MAX_PAYLOAD_BYTES) return 'too_large';
  let raw: unknown;
  try {
    raw = JSON.parse(typeof payload === 'string' ? payload : payload.toString('utf8'));
  } catch {
    return 'not_json';
  }
  if (!isObject(raw)) return 'bad_envelope';
  const name = kind === 'ota' ? (raw.type ?? raw.method) : raw.method;
  const body = kind === 'ota' ? (raw.report ?? raw.params ?? {}) : (raw.params ?? {});
  const token = raw.clientToken ?? '';
  if (!shortString(name, 64) || name === '' || !isObject(body) || !shortString(token, 64)) return 'bad_envelope';
  if (raw.timestamp !== undefined && (typeof raw.timestamp !== 'number' || !Number.isFinite(raw.timestamp) || raw.timestamp < 0)) return 'bad_envelope';
  if (raw.conn !== undefined && !shortString(raw.conn, 300)) return 'bad_envelope';
  if (raw.sign !== undefined && !shortString(raw.sign, 128)) return 'bad_envelope';
  return { name, clientToken: token, timestamp: raw.timestamp as number | undefined, body, conn: raw.conn as string | undefined, sign: raw.sign as string | undefined };
}

interface Session {
  conn: string;
  /** `conn` read as a Tencent username; null when it is none */
  username: TencentUsername | null;
  /** the session key, derived once the username fits the device, prepared for HMACs */
  key?: HmacSha256Key;
}

/**
 * a device key's session: its username read and its session key (an HMAC) derived once, for the next messages of
 * the same session (an HMAC, a split and a pattern less per message)
 */
const sessions = new WeakMap<Buffer, Session>();
function sessionOf(deviceKey: Buffer, conn: string): Session {
  const known = sessions.get(deviceKey);
  if (known?.conn === conn) return known;
  const session: Session = { conn, username: parseTencentUsername(conn) };
  sessions.set(deviceKey, session);
  return session;
}

/**
 * Checks a signed envelope: `conn` is this device's Tencent-style username (clientId = productId + deviceName),
 * not expired; the timestamp within the tolerance; the sign made with the session key derived from `conn`.
 */
export function checkSigned(
  d: Decoded, topic: string, deviceKey: Buffer, cloudProductId: string, deviceName: string, now: number, opts: { fresh?: boolean } = {},
): RejectReason | null {
  if (!d.sign || !d.conn || d.timestamp === undefined) return 'unsigned';
  const session = sessionOf(deviceKey, d.conn);
  const u = session.username;
  if (!u || u.clientId !== cloudProductId + deviceName) return 'conn_mismatch';
  // `fresh: false`: a last will, signed at connect and delivered whenever the device goes away (bound to its session instead)
  if (opts.fresh !== false && u.expiry * 1000 < now) return 'conn_expired';
  if (opts.fresh !== false && Math.abs(now - timestampMs(d.timestamp)) > CLOCK_TOLERANCE_MS) return 'clock';
  session.key ??= new HmacSha256Key(sessionKey(deviceKey, d.conn));
  return verifySigned(session.key, topic, d.timestamp, d.clientToken, d.body, d.sign) ? null : 'bad_sign';
}

/** An unsigned message's timestamp (embedded mode): absent means now; present, it must be within the tolerance. */
export function checkClock(d: Decoded, now: number): RejectReason | null {
  if (d.timestamp === undefined) return null;
  return Math.abs(now - timestampMs(d.timestamp)) > CLOCK_TOLERANCE_MS ? 'clock' : null;
}
