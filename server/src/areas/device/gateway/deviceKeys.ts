import { PLATFORM_TENANT } from '@console/contract';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { AppContext } from '../../../core/context.js';
import { type Executor, inTenant } from '../../../core/db/index.js';
import { secretBox } from '../../../core/secrets.js';
import { cert, DEVICE_KEYS_CHANNEL, factoryDevice } from '../../production/index.js';
import type { DeviceIdentity } from './types.js';

/** cloud_vendor dictionary keys */
export const VENDOR_TENCENT = 1;
export const VENDOR_ALIBABA = 2;

/** A device and its opened key (never logged, never answered). */
export interface DeviceKey {
  device: DeviceIdentity;
  key: Buffer;
}

type Secrets = Pick<AppContext['config'], 'encryptionKey'>;

/** The device key of a certificate: the PSK base64-decoded (Tencent), the DeviceSecret's utf-8 bytes (others). */
export function openDeviceKey(cloudVendor: number, secret: string): Buffer {
  return cloudVendor === VENDOR_TENCENT ? Buffer.from(secret, 'base64') : Buffer.from(secret, 'utf8');
}

const columns = {
  sn: factoryDevice.sn, productId: factoryDevice.productId, cloudVendor: cert.cloudVendor, cloudProductId: cert.cloudProductId,
  deviceName: cert.deviceName, deviceSecret: cert.deviceSecret,
};
type Row = { sn: string; productId: string; cloudVendor: number; cloudProductId: string; deviceName: string; deviceSecret: string | null };

/** live certificates (allocated or burned, SN set) of these device names, with their device's product */
function certsByName(tx: Executor, names: string[]): Promise<Row[]> {
  return tx.select(columns).from(cert).innerJoin(factoryDevice, eq(factoryDevice.sn, cert.deviceSn))
    .where(and(inArray(cert.deviceName, names), eq(cert.isDeleted, 0), inArray(cert.state, [2, 3]), isNotNull(cert.deviceSn)));
}

/** live certificates of these SNs */
export function certsBySn(tx: Executor, sns: string[]): Promise<Row[]> {
  return tx.select(columns).from(cert).innerJoin(factoryDevice, eq(factoryDevice.sn, cert.deviceSn))
    .where(and(inArray(cert.deviceSn, sns), eq(cert.isDeleted, 0), inArray(cert.state, [2, 3])));
}

export function toDeviceKey(row: Row, box: ReturnType<typeof secretBox>): DeviceKey | null {
  let secret: string | null;
  try {
    secret = box.open(row.deviceSecret);
  } catch {
    return null;
  }
  if (!secret) return null;
  const { deviceSecret: _s, ...device } = row;
  return { device, key: openDeviceKey(row.cloudVendor, secret) };
}

interface Entry {
  value: DeviceKey | null;
  expires: number;
  /** `placed` when the entry was last put at the cache's end */
  at: number;
}

export interface DeviceKeysOptions {
  ttlMs?: number;
  negativeTtlMs?: number;
  maxEntries?: number;
  /** told when certificates cannot be read (the devices concerned are answered "unknown", not cached) */
  onError?: (err: unknown) => void;
}

/**
 * (cloudProductId, deviceName) → device and key, from the certificates (platform data), cached in a bounded
 * LRU with a TTL (misses too, shorter). Lookups arriving together (a reconnect storm) are read in one query.
 * `clear()` forgets everything here; `invalidateDeviceKeys(kv)` does it on every instance.
 */
export class DeviceKeys {
  private readonly cache = new Map<string, Entry>();
  private queued = new Map<string, Array<(v: DeviceKey | null) => void>>();
  private timer?: NodeJS.Timeout;
  private readonly box: ReturnType<typeof secretBox>;
  private readonly ttlMs: number;
  private readonly negativeTtlMs: number;
  private readonly maxEntries: number;
  private readonly onError?: (err: unknown) => void;
  /** generation: a clear during a read keeps that read's answer out of the cache */
  private generation = 0;
  /** entries put at the cache's end so far: the oldest is evicted once `maxEntries` came after it */
  private placed = 0;

  constructor(private readonly ctx: Pick<AppContext, 'db' | 'kv'> & { config: Secrets }, opts: DeviceKeysOptions = {}) {
    this.box = secretBox(ctx.config.encryptionKey);
    this.ttlMs = opts.ttlMs ?? 60_000;
    this.negativeTtlMs = opts.negativeTtlMs ?? 5_000;
    this.maxEntries = opts.maxEntries ?? 100_000;
    this.onError = opts.onError;
  }

  async start(onClear?: () => void): Promise<void> {
    const cleared = () => {
      this.clear();
      onClear?.();
    };
    await this.ctx.kv.subscribe(DEVICE_KEYS_CHANNEL, cleared, cleared);
  }

  clear(): void {
    this.cache.clear();
    this.generation++;
  }

  /** cached answer, or undefined when it must be read */
  peek(cloudProductId: string, deviceName: string): DeviceKey | null | undefined {
    const k = `${cloudProductId}\n${deviceName}`;
    const e = this.cache.get(k);
    if (!e) return undefined;
    if (e.expires <= Date.now()) {
      this.cache.delete(k);
      return undefined;
    }
    // LRU, most recent last: an entry is moved to the end once a quarter of the cache came after it, not on every
    // message (a delete and a set per uplink), so one used within any three quarters of the cache's turnover stays
    if (this.placed - e.at > this.maxEntries / 4) {
      this.cache.delete(k);
      this.cache.set(k, e);
      e.at = ++this.placed;
    }
    return e.value;
  }

  lookup(cloudProductId: string, deviceName: string): Promise<DeviceKey | null> {
    const hit = this.peek(cloudProductId, deviceName);
    if (hit !== undefined) return Promise.resolve(hit);
    return new Promise((resolve) => {
      const k = `${cloudProductId}\n${deviceName}`;
      const waiting = this.queued.get(k);
      if (waiting) waiting.push(resolve);
      else this.queued.set(k, [resolve]);
      this.timer ??= setTimeout(() => void this.readQueued(), 2);
    });
  }

  /**
   * Tencent's clientId is productId + deviceName without a separator: every split is a candidate (device
   * names are unique, so at most one matches).
   */
  async lookupClientId(clientId: string): Promise<DeviceKey | null> {
    if (clientId.length < 2 || clientId.length > 128) return null;
    // product ids of Tencent are 10 characters: try that split first
    if (clientId.length > 10) {
      const first = await this.lookup(clientId.slice(0, 10), clientId.slice(10));
      if (first) return first;
    }
    const cached = this.peek('*', clientId);
    if (cached !== undefined) return cached;
    const generation = this.generation;
    const names = Array.from({ length: clientId.length - 1 }, (_, i) => clientId.slice(i + 1));
    const rows = await inTenant(this.ctx.db, { tenantId: PLATFORM_TENANT }, (tx) => certsByName(tx, names));
    const row = rows.find((r) => r.cloudProductId + r.deviceName === clientId);
    const value = row ? toDeviceKey(row, this.box) : null;
    if (generation === this.generation) {
      this.put('*', clientId, value);
      if (value) this.put(value.device.cloudProductId, value.device.deviceName, value);
    }
    return value;
  }

  private put(cloudProductId: string, deviceName: string, value: DeviceKey | null): void {
    const k = `${cloudProductId}\n${deviceName}`;
    this.cache.delete(k);
    this.cache.set(k, { value, expires: Date.now() + (value ? this.ttlMs : this.negativeTtlMs), at: ++this.placed });
    while (this.cache.size > this.maxEntries) this.cache.delete(this.cache.keys().next().value as string);
  }

  private async readQueued(): Promise<void> {
    this.timer = undefined;
    const queued = this.queued;
    this.queued = new Map();
    const generation = this.generation;
    const wanted = [...queued.keys()].map((k) => k.split('\n') as [string, string]);
    const found = new Map<string, DeviceKey | null>();
    try {
      for (let i = 0; i < wanted.length; i += 500) {
        const chunk = wanted.slice(i, i + 500);
        const rows = await inTenant(this.ctx.db, { tenantId: PLATFORM_TENANT }, (tx) => certsByName(tx, [...new Set(chunk.map(([, d]) => d))]));
        for (const r of rows) found.set(`${r.cloudProductId}\n${r.deviceName}`, toDeviceKey(r, this.box));
      }
    } catch (err) {
      // a failed read answers "unknown" without caching it: the device retries
      this.onError?.(err);
      for (const resolvers of queued.values()) for (const r of resolvers) r(null);
      return;
    }
    for (const [k, resolvers] of queued) {
      const value = found.get(k) ?? null;
      if (generation === this.generation) {
        const [p, d] = k.split('\n') as [string, string];
        this.put(p, d, value);
      }
      for (const r of resolvers) r(value);
    }
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (const resolvers of this.queued.values()) for (const r of resolvers) r(null);
    this.queued.clear();
  }
}
