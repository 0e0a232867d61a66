import { PLATFORM_TENANT } from '@console/contract';
import { randomBytes } from 'node:crypto';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import type { AppContext } from '../src/core/context.js';
import { inTenant } from '../src/core/db/index.js';
import { nextId } from '../src/core/ids.js';
import { secretBox } from '../src/core/secrets.js';
import { openDeviceKey } from '../src/areas/device/gateway/deviceKeys.js';
import { batch, cert, factoryDevice } from '../src/areas/production/tables.js';

export interface FixtureDevice {
  sn: string;
  cloudVendor: number;
  cloudProductId: string;
  deviceName: string;
  /** the PSK (base64) or DeviceSecret as imported */
  secret: string;
  key: Buffer;
  certId: string;
}

/**
 * A batch of devices with certificates, written straight into the platform tables: `state` 2 allocated, 3 burned,
 * 4 revoked, 1 free. Device names are the SNs (as allocation matches them).
 */
export async function makeDevices(ctx: Pick<AppContext, 'db' | 'config'>, o: { batchNo: string; snPrefix: string; count: number; cloudVendor?: number; cloudProductId: string; state?: number }): Promise<FixtureDevice[]> {
  const box = secretBox(ctx.config.encryptionKey);
  const vendor = o.cloudVendor ?? 1;
  const batchId = nextId();
  const devices: FixtureDevice[] = Array.from({ length: o.count }, (_, i) => {
    const sn = `${o.snPrefix}${String(i + 1).padStart(4, '0')}`;
    const secret = vendor === 1 ? randomBytes(16).toString('base64') : randomBytes(16).toString('hex');
    return { sn, cloudVendor: vendor, cloudProductId: o.cloudProductId, deviceName: sn, secret, key: openDeviceKey(vendor, secret), certId: nextId() };
  });
  await inTenant(ctx.db, { tenantId: PLATFORM_TENANT }, async (tx) => {
    await tx.insert(batch).values({ id: batchId, batchNo: o.batchNo, factoryId: nextId(), productId: '1001', cloudVendor: vendor, quantity: o.count, snPrefix: o.snPrefix });
    await tx.insert(factoryDevice).values(devices.map((d) => ({ id: nextId(), sn: d.sn, batchId, productId: '1001', certificateId: d.certId, burnTime: new Date() })));
    await tx.insert(cert).values(devices.map((d) => ({
      id: d.certId, cloudVendor: vendor, cloudProductId: d.cloudProductId, deviceName: d.deviceName, deviceSecret: box.seal(d.secret),
      state: o.state ?? 3, batchId, deviceSn: d.sn,
    })));
  });
  return devices;
}

export async function setCertState(ctx: Pick<AppContext, 'db'>, certId: string, state: number): Promise<void> {
  const { eq } = await import('drizzle-orm');
  await inTenant(ctx.db, { tenantId: PLATFORM_TENANT }, (tx) => tx.update(cert).set({ state }).where(eq(cert.id, certId)));
}

/** Connects once (no reconnect); rejects with the CONNACK refusal (its `code` is the return code). */
export function connect(url: string, opts: IClientOptions): Promise<MqttClient> {
  return mqtt.connectAsync(url, { protocolVersion: 4, reconnectPeriod: 0, connectTimeout: 5_000, ...opts });
}

/** Polls until `check` is true (or fails after `ms`). */
export async function until(check: () => boolean | Promise<boolean>, ms = 5_000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
