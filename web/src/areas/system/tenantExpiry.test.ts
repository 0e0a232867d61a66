import { describe, expect, it } from 'vitest';
import { isExpired } from './tenantExpiry';

describe('isExpired', () => {
  const now = new Date('2026-03-01T04:00:00Z'); // 12:00 in Shanghai
  it('compares in the display zone', () => {
    expect(isExpired('2026-03-01 11:59:59', now, 'Asia/Shanghai')).toBe(true);
    expect(isExpired('2026-03-01 12:00:01', now, 'Asia/Shanghai')).toBe(false);
    expect(isExpired('2026-03-01 05:00:00', now, 'UTC')).toBe(false);
  });
  it('never for an empty expiry', () => {
    expect(isExpired(null, now)).toBe(false);
    expect(isExpired('', now)).toBe(false);
    expect(isExpired(undefined, now)).toBe(false);
  });
});
