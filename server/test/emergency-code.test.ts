import { describe, expect, it } from 'vitest';
import { CLOCK_TOLERANCE_MS, counterBytes, hotp, issueCode, timedKindFor, verifyCode } from '../src/areas/device/emergencyCode.js';

/** The emergency unlock code and the verifier a lock runs offline (issue 11). */
const secret = Buffer.from('8f1c2a9b7e6d5c4b3a29180716253443f1e2d3c4b5a69788', 'hex');
const other = Buffer.from('00112233445566778899aabbccddeeff00112233445566778899', 'hex');
const at = (iso: string) => new Date(iso);
const HOUR = 3_600_000;

describe('HOTP as RFC 4226 and RFC 6238 define it', () => {
  it('answers RFC 4226 appendix D (HMAC-SHA-1, 6 digits)', () => {
    const key = Buffer.from('12345678901234567890');
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    expect(expected.map((_, i) => hotp(key, counterBytes(i), 6, 'sha1'))).toEqual(expected);
  });

  it('answers RFC 6238 appendix B (HMAC-SHA-256, 8 digits, 30-second steps)', () => {
    const key = Buffer.from('12345678901234567890123456789012');
    const cases: Array<[number, string]> = [[59, '46119246'], [1111111109, '68084774'], [1111111111, '67062674'], [1234567890, '91819424'], [2000000000, '90698825'], [20000000000, '77737706']];
    for (const [time, code] of cases) expect(hotp(key, counterBytes(Math.floor(time / 30)), 8)).toBe(code);
  });
});

describe('emergency codes', () => {
  it('opens a timed code only inside its window, its kind and start readable in its first digits', () => {
    const issued = issueCode(secret, timedKindFor(4)!, at('2026-11-28T10:25:00Z'));
    expect(issued).toMatchObject({ kind: 'timed', validFrom: at('2026-11-28T10:00:00Z'), validTo: at('2026-11-28T14:00:00Z') });
    expect(issued.code).toMatch(/^4\d{9}$/);
    expect(verifyCode(secret, issued.code, at('2026-11-28T10:00:01Z'))).toMatchObject({ ok: true, kind: 'timed' });
    expect(verifyCode(secret, issued.code, at('2026-11-28T13:59:00Z'))).toMatchObject({ ok: true });
    // timed codes open as often as needed within the window
    expect(verifyCode(secret, issued.code, at('2026-11-28T12:00:00Z'), new Set([issued.code]))).toMatchObject({ ok: true });
    expect(verifyCode(secret, issued.code, at('2026-11-28T14:06:00Z'))).toEqual({ ok: false, reason: 'expired' });
    expect(verifyCode(secret, issued.code, at('2026-12-20T10:00:00Z'))).toEqual({ ok: false, reason: 'expired' });
    expect(verifyCode(secret, issued.code, at('2026-11-28T09:30:00Z'))).toEqual({ ok: false, reason: 'notYet' });
  });

  it('forgives a lock clock a few minutes off, not more', () => {
    const issued = issueCode(secret, 2, at('2026-11-28T10:00:00Z'));
    expect(verifyCode(secret, issued.code, new Date(issued.validFrom.getTime() - CLOCK_TOLERANCE_MS + 1000))).toMatchObject({ ok: true });
    expect(verifyCode(secret, issued.code, new Date(issued.validTo.getTime() + CLOCK_TOLERANCE_MS - 1000))).toMatchObject({ ok: true });
    expect(verifyCode(secret, issued.code, new Date(issued.validTo.getTime() + CLOCK_TOLERANCE_MS))).toEqual({ ok: false, reason: 'expired' });
  });

  it('opens a one-time code once within its day', () => {
    const issued = issueCode(secret, 1, at('2026-11-28T23:40:00Z'));
    expect(issued).toMatchObject({ kind: 'one-time', validFrom: at('2026-11-28T23:00:00Z'), validTo: at('2026-11-29T23:00:00Z') });
    const first = verifyCode(secret, issued.code, at('2026-11-29T08:00:00Z'));
    expect(first).toEqual({ ok: true, kind: 'one-time', validTo: issued.validTo, remember: issued.code });
    const used = new Set([issued.code]);
    expect(verifyCode(secret, issued.code, at('2026-11-29T08:01:00Z'), used)).toEqual({ ok: false, reason: 'used' });
    expect(verifyCode(secret, issued.code, at('2026-11-30T08:00:00Z'))).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses every tampered digit, another lock\'s code and what is not a code', () => {
    const now = at('2026-11-28T10:30:00Z');
    const issued = issueCode(secret, 6, now);
    for (let i = 0; i < 10; i++) {
      const digit = (Number(issued.code[i]) + 1) % 10;
      const tampered = issued.code.slice(0, i) + String(digit) + issued.code.slice(i + 1);
      expect(verifyCode(secret, tampered, now).ok, `digit ${i}`).toBe(false);
    }
    expect(verifyCode(other, issued.code, now)).toEqual({ ok: false, reason: 'invalid' });
    for (const junk of ['', '123', '12345678901', '0123456789', 'abcdefghij', ' 123456789']) {
      expect(verifyCode(secret, junk, now)).toEqual({ ok: false, reason: 'malformed' });
    }
  });

  it('reads the start hour across the wrap of its three digits', () => {
    // a start hour ending in 999, verified after the hour count passed the next thousand
    const startHour = Math.ceil(Date.UTC(2026, 10, 28) / HOUR / 1000) * 1000 - 1;
    const issued = issueCode(secret, 9, new Date(startHour * HOUR));
    expect(issued.code.slice(1, 4)).toBe('999');
    expect(verifyCode(secret, issued.code, new Date((startHour + 100) * HOUR))).toMatchObject({ ok: true, kind: 'timed' });
  });

  it('offers windows up to seven days', () => {
    expect([1, 2, 3, 4, 8, 9, 24, 25, 48, 72, 100, 168].map(timedKindFor)).toEqual([2, 3, 4, 4, 5, 6, 6, 7, 7, 8, 9, 9]);
    expect(timedKindFor(169)).toBeUndefined();
  });
});
