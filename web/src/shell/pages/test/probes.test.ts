import { describe, expect, it } from 'vitest';
import { clockSkewMs } from './probes';

describe('clockSkewMs', () => {
  const sentAt = Date.parse('2026-01-01T00:00:10.000Z');

  it('compares the mid-second of the Date header with the middle of the round trip', () => {
    // sent at :10.000, answered after 200 ms: the browser's middle is :10.100, the server said :10 (≈ :10.500)
    expect(clockSkewMs('Thu, 01 Jan 2026 00:00:10 GMT', sentAt, 200)).toBe(400);
    // the server is a minute ahead
    expect(clockSkewMs('Thu, 01 Jan 2026 00:01:10 GMT', sentAt, 200)).toBe(60_400);
    // the server is a minute behind
    expect(clockSkewMs('Wed, 31 Dec 2025 23:59:10 GMT', sentAt, 200)).toBe(-59_600);
  });

  it('gives nothing without a usable header', () => {
    expect(clockSkewMs(null, sentAt, 10)).toBeUndefined();
    expect(clockSkewMs('not a date', sentAt, 10)).toBeUndefined();
  });
});
