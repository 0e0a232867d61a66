import { createHmac, hkdfSync } from 'node:crypto';

/**
 * The secret a lock verifies its emergency codes with: derived from the server's key and the device's SN
 * (HKDF, then HMAC), so it is never stored anywhere; the lock receives it at production, in the burn station's
 * bundle (stationChannel.ts, docs/device-protocol.md §10); the device area derives it again to issue codes (device/emergency.ts).
 */
export function deviceUnlockSecret(masterKey: Buffer, sn: string): Buffer {
  const key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'emergency-unlock/v1', 32));
  return createHmac('sha256', key).update(sn).digest();
}
