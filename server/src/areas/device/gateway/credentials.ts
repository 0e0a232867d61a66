import { createHmac, hash, randomInt, timingSafeEqual } from 'node:crypto';

/**
 * Device credentials (docs/device-protocol.md §Credentials) and the signed envelope of messages.
 * Pure functions, no server imports: the simulator and tests use them too.
 *
 * The device key is the base64-decoded PSK (Tencent) or the utf-8 DeviceSecret (Alibaba).
 */

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export const DEFAULT_SDK_APP_ID = '12010126';
/** |now − timestamp| of a signed message */
export const CLOCK_TOLERANCE_MS = 5 * 60_000;

function equalHex(gotHex: string, want: Buffer): boolean {
  if (!/^[0-9a-fA-F]+$/.test(gotHex) || gotHex.length !== want.length * 2) return false;
  return timingSafeEqual(Buffer.from(gotHex, 'hex'), want);
}

// ---------------------------------------------------------------- Tencent (PSK)

export interface TencentUsername {
  clientId: string;
  sdkAppId: string;
  connId: string;
  /** seconds since epoch; Infinity for LONG_MAX-style "never" */
  expiry: number;
}

/** `{clientId};{sdkappid};{connid};{expiry}`; null when malformed */
export function parseTencentUsername(username: string): TencentUsername | null {
  if (typeof username !== 'string' || username.length > 300) return null;
  const parts = username.split(';');
  if (parts.length !== 4) return null;
  const [clientId, sdkAppId, connId, expiryText] = parts as [string, string, string, string];
  if (!clientId || !/^\d{1,19}$/.test(expiryText)) return null;
  const expiry = Number(expiryText);
  return { clientId, sdkAppId, connId, expiry: Number.isSafeInteger(expiry) ? expiry : Infinity };
}

export interface TencentOptions {
  sdkAppId?: string;
  ttlSec?: number;
  alg?: 'sha256' | 'sha1';
  now?: number;
  connId?: string;
}

/** Connect credentials of Tencent's key authentication: clientId = productId + deviceName. */
export function tencentCredentials(cloudProductId: string, deviceName: string, deviceKey: Buffer, opts: TencentOptions = {}) {
  const { sdkAppId = DEFAULT_SDK_APP_ID, ttlSec = 600, alg = 'sha256', now = Date.now() } = opts;
  const clientId = cloudProductId + deviceName;
  const connId = opts.connId ?? Array.from({ length: 5 }, () => ALNUM[randomInt(ALNUM.length)]).join('');
  const username = `${clientId};${sdkAppId};${connId};${Math.floor(now / 1000) + ttlSec}`;
  const sig = createHmac(alg, deviceKey).update(username).digest('hex');
  return { clientId, username, password: `${sig};hmac${alg}` };
}

/** Checks a Tencent connect: clientId matches the username, not expired, HMAC (sha256 or sha1) right. */
export function tencentVerify(clientId: string, username: string, password: string, deviceKey: Buffer, now = Date.now()): boolean {
  const u = parseTencentUsername(username);
  if (!u || u.clientId !== clientId || u.expiry * 1000 < now) return false;
  const m = /^([0-9a-fA-F]{40}|[0-9a-fA-F]{64});hmac(sha1|sha256)$/.exec(password);
  if (!m) return false;
  return equalHex(m[1]!, createHmac(m[2]!, deviceKey).update(username).digest());
}

// ---------------------------------------------------------------- Alibaba (one device, one secret)

export type AliyunSignMethod = 'hmacmd5' | 'hmacsha1' | 'hmacsha256';
const ALIYUN_ALGS: Record<AliyunSignMethod, string> = { hmacmd5: 'md5', hmacsha1: 'sha1', hmacsha256: 'sha256' };

export interface AliyunClientId {
  clientId: string;
  signmethod: AliyunSignMethod;
  securemode?: string;
  timestamp?: string;
}

/** `{clientId}|securemode=3,signmethod=hmacsha1,timestamp=789|`; null when malformed */
export function parseAliyunClientId(mqttClientId: string): AliyunClientId | null {
  const m = /^([^|]*)\|([^|]*)\|$/.exec(mqttClientId);
  if (!m) return null;
  const params = new Map<string, string>();
  for (const kv of m[2]!.split(',')) {
    const i = kv.indexOf('=');
    if (i > 0) params.set(kv.slice(0, i).trim(), kv.slice(i + 1).trim());
  }
  const signmethod = (params.get('signmethod') ?? '').toLowerCase();
  if (!(signmethod in ALIYUN_ALGS)) return null;
  return { clientId: m[1]!, signmethod: signmethod as AliyunSignMethod, securemode: params.get('securemode'), timestamp: params.get('timestamp') };
}

/** `{deviceName}&{productKey}` */
export function parseAliyunUsername(username: string): { deviceName: string; productKey: string } | null {
  const i = typeof username === 'string' ? username.indexOf('&') : -1;
  if (i <= 0 || i === username.length - 1 || username.indexOf('&', i + 1) >= 0) return null;
  return { deviceName: username.slice(0, i), productKey: username.slice(i + 1) };
}

function aliyunContent(productKey: string, deviceName: string, clientId: string | undefined, timestamp: string | undefined): string {
  // parameters sorted by name, concatenated as name + value; clientId and timestamp only when given
  return `${clientId ? `clientId${clientId}` : ''}deviceName${deviceName}productKey${productKey}${timestamp ? `timestamp${timestamp}` : ''}`;
}

export interface AliyunOptions {
  clientId?: string;
  timestamp?: string;
  signmethod?: AliyunSignMethod;
  securemode?: number;
}

export function aliyunCredentials(productKey: string, deviceName: string, deviceSecret: string, opts: AliyunOptions = {}) {
  const { clientId = `${productKey}.${deviceName}`, timestamp = String(Date.now()), signmethod = 'hmacsha256', securemode = 2 } = opts;
  const content = aliyunContent(productKey, deviceName, clientId, timestamp);
  return {
    clientId: `${clientId}|securemode=${securemode},signmethod=${signmethod},timestamp=${timestamp}|`,
    username: `${deviceName}&${productKey}`,
    password: createHmac(ALIYUN_ALGS[signmethod], deviceSecret).update(content).digest('hex'),
  };
}

/** Checks an Alibaba connect against the device key (the DeviceSecret's utf-8 bytes); hex compared case-insensitively. */
export function aliyunVerify(mqttClientId: string, username: string, password: string, deviceKey: Buffer): boolean {
  const c = parseAliyunClientId(mqttClientId);
  const u = parseAliyunUsername(username);
  if (!c || !u) return false;
  const content = aliyunContent(u.productKey, u.deviceName, c.clientId || undefined, c.timestamp || undefined);
  return equalHex(password, createHmac(ALIYUN_ALGS[c.signmethod], deviceKey).update(content).digest());
}

// ---------------------------------------------------------------- the signed envelope

/** a key JSON.stringify would write unchanged between quotes */
const PLAIN_KEY = /^[\w\-. ]*$/;

/**
 * JSON with object keys sorted at every level, no spaces: what both sides hash. Written with string appends (the
 * gateway runs it for every uplink: an entries array, a filter, a sort and a map per object cost twice the time
 * and most of the garbage).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    const s = JSON.stringify(value);
    return s === undefined ? 'null' : s;
  }
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      const v: unknown = value[i];
      out += v === undefined ? 'null' : canonicalJson(v);
    }
    return `${out}]`;
  }
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  for (let i = 1; i < keys.length; i++) {
    if (keys[i - 1]! > keys[i]!) {
      keys.sort();
      break;
    }
  }
  let out = '{';
  for (const k of keys) {
    const v = object[k];
    if (v === undefined) continue;
    if (out.length > 1) out += ',';
    out += `${PLAIN_KEY.test(k) ? `"${k}"` : JSON.stringify(k)}:${canonicalJson(v)}`;
  }
  return `${out}}`;
}

export const sha256Hex = (text: string) => hash('sha256', text, 'hex');

/** The session key a device signs uplinks with: HMAC-SHA256(deviceKey, 'session\n' + username). */
export function sessionKey(deviceKey: Buffer, username: string): Buffer {
  return createHmac('sha256', deviceKey).update(`session\n${username}`).digest();
}

/** hex HMAC-SHA256(key, topic \n timestamp \n clientToken \n sha256hex(canonicalJson(body))) */
export function signMessage(key: Buffer, topic: string, timestamp: number, clientToken: string, body: unknown): string {
  return createHmac('sha256', key).update(`${topic}\n${timestamp}\n${clientToken}\n${sha256Hex(canonicalJson(body ?? {}))}`).digest('hex');
}

export function verifyMessage(key: Buffer, topic: string, timestamp: number, clientToken: string, body: unknown, sign: string): boolean {
  return verifySigned(new HmacSha256Key(key), topic, timestamp, clientToken, body, sign);
}

/** `verifyMessage` with a key prepared once for the messages of a session (the gateway checks every uplink) */
export function verifySigned(key: HmacSha256Key, topic: string, timestamp: number, clientToken: string, body: unknown, sign: string): boolean {
  return typeof sign === 'string' && sign.length === 64
    && sameHex(sign, key.hex(`${topic}\n${timestamp}\n${clientToken}\n${sha256Hex(canonicalJson(body ?? {}))}`));
}

/**
 * Hex strings compared in constant time (for the length of `want`, lowercase hex): `got` in either case, any other
 * character a mismatch. What `equalHex` answers, without a pattern, a decoded buffer and a comparison buffer a message.
 */
export function sameHex(got: string, want: string): boolean {
  if (got.length !== want.length) return false;
  let diff = 0;
  for (let i = 0; i < want.length; i++) {
    let c = got.charCodeAt(i);
    if (c >= 0x41 && c <= 0x46) c += 0x20;
    diff |= c ^ want.charCodeAt(i);
  }
  return diff === 0;
}

/** the inner hash's input: the key's inner pad then the message (grown for a longer message) */
let innerScratch = Buffer.allocUnsafe(64 + 1024);
/** the outer hash's input: the key's outer pad then the inner hash */
const outerScratch = Buffer.allocUnsafe(64 + 32);

/**
 * An HMAC-SHA256 key for many messages (RFC 2104): its pads are computed once, and each message costs two one-shot
 * hashes into reused buffers, not an Hmac object (its key object, its stream state) a message: the signature check
 * was the gateway's costliest work under ingestion.
 */
export class HmacSha256Key {
  private readonly ipad = Buffer.allocUnsafe(64);
  private readonly opad = Buffer.allocUnsafe(64);

  constructor(key: Buffer) {
    const k = key.length > 64 ? (hash('sha256', key, 'buffer') as unknown as Buffer) : key;
    for (let i = 0; i < 64; i++) {
      const b = i < k.length ? k[i]! : 0;
      this.ipad[i] = b ^ 0x36;
      this.opad[i] = b ^ 0x5c;
    }
  }

  /** hex HMAC-SHA256 of the message's utf-8 bytes */
  hex(message: string): string {
    // at most 3 bytes of utf-8 a UTF-16 unit
    if (innerScratch.length < 64 + message.length * 3) innerScratch = Buffer.allocUnsafe(64 + message.length * 3);
    this.ipad.copy(innerScratch, 0);
    const n = innerScratch.write(message, 64, 'utf8');
    const inner = hash('sha256', innerScratch.subarray(0, 64 + n), 'buffer') as unknown as Buffer;
    this.opad.copy(outerScratch, 0);
    inner.copy(outerScratch, 64);
    return hash('sha256', outerScratch, 'hex');
  }
}

/** Timestamps in ms; a device sending seconds (below 10^11) is read as seconds. */
export function timestampMs(ts: number): number {
  return ts < 1e11 ? ts * 1000 : ts;
}

export interface UplinkEnvelope {
  method?: string;
  type?: string;
  clientToken: string;
  timestamp: number;
  params?: Record<string, unknown>;
  report?: Record<string, unknown>;
  /** the device's Tencent-style connect username, from which the server derives the session key */
  conn?: string;
  sign?: string;
}

/**
 * Signs a device's uplink with its session key: `params` (or, for OTA, `report`) are what is hashed.
 * Answers the envelope with `conn` and `sign` set.
 */
export function signUplink(session: Buffer, conn: string, topic: string, envelope: Omit<UplinkEnvelope, 'conn' | 'sign'>): UplinkEnvelope {
  const body = envelope.report ?? envelope.params ?? {};
  return { ...envelope, conn, sign: signMessage(session, topic, envelope.timestamp, envelope.clientToken, body) };
}

/** What a downlink's signature covers: every field but `sign`, `timestamp` and `clientToken` (those are in the signed string). */
export function downlinkBody(payload: Record<string, unknown>): Record<string, unknown> {
  const { sign: _s, timestamp: _t, clientToken: _c, ...body } = payload;
  return body;
}

/** Signs a command with the device key (not a session key: the server does not know the device's session). */
export function signDownlink(deviceKey: Buffer, topic: string, payload: Record<string, unknown> & { timestamp: number; clientToken: string }): Record<string, unknown> {
  const { sign: _s, ...rest } = payload;
  return { ...rest, sign: signMessage(deviceKey, topic, payload.timestamp, payload.clientToken, downlinkBody(rest)) };
}

export function verifyDownlink(deviceKey: Buffer, topic: string, payload: Record<string, unknown>): boolean {
  const { timestamp, clientToken, sign } = payload;
  if (typeof timestamp !== 'number' || typeof clientToken !== 'string' || typeof sign !== 'string') return false;
  return verifyMessage(deviceKey, topic, timestamp, clientToken, downlinkBody(payload), sign);
}

/** A fresh client token: 16 random alphanumerics. */
export function newClientToken(): string {
  return Array.from({ length: 16 }, () => ALNUM[randomInt(ALNUM.length)]).join('');
}
