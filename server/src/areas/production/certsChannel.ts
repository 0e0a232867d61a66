import type { Kv } from '../../core/kv.js';

/** Broadcast on every instance when a certificate is revoked or changed (the device gateway forgets its cached keys). */
export const DEVICE_KEYS_CHANNEL = 'gateway:device-keys';

/** Tells every instance's gateway to forget cached device keys (call after revoking or changing a certificate). */
export async function invalidateDeviceKeys(kv: Kv): Promise<void> {
  await kv.publish(DEVICE_KEYS_CHANNEL, 'clear');
}
