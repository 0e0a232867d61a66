import { formatInZone } from '../../time/displayZone';

/**
 * Whether a tenant's expiry has passed. Expiries are `yyyy-MM-dd HH:mm:ss` in the server's display zone,
 * which `formatInZone` writes "now" in: the two compare as text. Empty means no expiry.
 */
export function isExpired(expireTime: unknown, now: Date = new Date(), zone?: string): boolean {
  return typeof expireTime === 'string' && expireTime !== '' && expireTime < formatInZone(now, zone);
}
