import { createHmac } from 'node:crypto';

/**
 * Emergency unlock codes a lock verifies offline (domain.md "Emergency unlock"). A code is ten digits:
 *
 *   K SSS MMMMMM
 *   K       the kind: 1 one-time, 2–9 timed for 1, 2, 4, 8 hours, 1, 2, 3 or 7 days
 *   SSS     the hour its window starts, as hours since 1970 modulo 1000 (the lock takes the latest such hour
 *           not after now: 1,000 hours are 41 days, longer than any window)
 *   MMMMMM  six digits of HMAC-SHA256(device secret, "EU1|kind|start hour|hours"), truncated as RFC 4226 does
 *
 * The kind and the start are in the clear and bound by the MAC, so the lock computes one MAC a code (two when
 * it may be a code issued ahead): a guess is right with odds of one in a million (the keypad's lockout does
 * the rest). A one-time code
 * is valid once within its day; the lock remembers the one-time codes it accepted until their window ends.
 * The device secret never leaves the server in clear (sealed at rest) except to the lock at production.
 */

export const CODE_DIGITS = 10;
const MAC_DIGITS = 6;
const HOUR_MS = 3_600_000;
/** the window's hours by kind digit; 1 is the one-time kind (one day to use it in) */
export const KIND_HOURS: Readonly<Record<number, number>> = { 1: 24, 2: 1, 3: 2, 4: 4, 5: 8, 6: 24, 7: 48, 8: 72, 9: 168 };
/** how far the lock's clock may be off either way */
export const CLOCK_TOLERANCE_MS = 5 * 60_000;

/**
 * HOTP (RFC 4226): HMAC over the message, dynamic truncation, `digits` decimal digits. RFC 4226 uses SHA-1 and
 * an 8-byte counter; RFC 6238 allows SHA-256; the emergency codes use SHA-256 over their own message.
 */
export function hotp(secret: Buffer, message: Buffer, digits: number, algorithm: 'sha1' | 'sha256' = 'sha256'): string {
  const mac = createHmac(algorithm, secret).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** an 8-byte big-endian counter, as RFC 4226 and RFC 6238 feed HOTP */
export function counterBytes(counter: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(counter));
  return b;
}

const macOf = (secret: Buffer, kind: number, startHour: number, hours: number) =>
  hotp(secret, Buffer.from(`EU1|${kind}|${startHour}|${hours}`), MAC_DIGITS);

export interface IssuedCode {
  code: string;
  kind: 'one-time' | 'timed';
  validFrom: Date;
  validTo: Date;
}

/** The kind digit for a window of at least `hours` (the shortest that covers it); timed windows up to 7 days. */
export function timedKindFor(hours: number): number | undefined {
  const fits = Object.entries(KIND_HOURS).filter(([k, h]) => Number(k) >= 2 && h >= hours).sort((a, b) => a[1] - b[1]);
  return fits[0] ? Number(fits[0][0]) : undefined;
}

/** A code for the device whose secret is given: one-time (a day from `from`'s hour) or timed (`kind` 2–9). */
export function issueCode(secret: Buffer, kind: number, from: Date): IssuedCode {
  const hours = KIND_HOURS[kind];
  if (!hours) throw new Error(`emergency code: no kind ${kind}`);
  const startHour = Math.floor(from.getTime() / HOUR_MS);
  const code = `${kind}${String(startHour % 1000).padStart(3, '0')}${macOf(secret, kind, startHour, hours)}`;
  return { code, kind: kind === 1 ? 'one-time' : 'timed', validFrom: new Date(startHour * HOUR_MS), validTo: new Date((startHour + hours) * HOUR_MS) };
}

export type Verdict =
  | { ok: true; kind: 'one-time' | 'timed'; validTo: Date; /** one-time: what the lock keeps until validTo to refuse it again */ remember?: string }
  | { ok: false; reason: 'malformed' | 'invalid' | 'notYet' | 'expired' | 'used' };

/**
 * What the lock runs: a pure function of its secret, the typed digits, its clock and the one-time codes it
 * accepted whose window has not ended. A tampered code, another device's, one outside its window (beyond the
 * clock tolerance) or a one-time code used before is refused.
 */
export function verifyCode(secret: Buffer, typed: string, now: Date, used: ReadonlySet<string> = new Set()): Verdict {
  if (!/^\d{10}$/.test(typed)) return { ok: false, reason: 'malformed' };
  const kind = Number(typed[0]);
  const hours = KIND_HOURS[kind];
  if (!hours) return { ok: false, reason: 'malformed' };
  const t = now.getTime();
  // the latest hour ≡ SSS (mod 1000) not after now (+ tolerance): the window's start
  const latest = Math.floor((t + CLOCK_TOLERANCE_MS) / HOUR_MS);
  const startHour = latest - ((((latest - Number(typed.slice(1, 4))) % 1000) + 1000) % 1000);
  if (!timingSafeEqualText(macOf(secret, kind, startHour, hours), typed.slice(4))) {
    // a code whose window starts later (issued ahead): the next such hour
    const later = startHour + 1000;
    return { ok: false, reason: timingSafeEqualText(macOf(secret, kind, later, hours), typed.slice(4)) ? 'notYet' : 'invalid' };
  }
  // the start is never after now (plus the tolerance): it was chosen so
  const to = (startHour + hours) * HOUR_MS;
  if (t - CLOCK_TOLERANCE_MS >= to) return { ok: false, reason: 'expired' };
  if (kind === 1) {
    if (used.has(typed)) return { ok: false, reason: 'used' };
    return { ok: true, kind: 'one-time', validTo: new Date(to), remember: typed };
  }
  return { ok: true, kind: 'timed', validTo: new Date(to) };
}

function timingSafeEqualText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
