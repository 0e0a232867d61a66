import { describe, expect, it } from 'vitest';
import { addDays, addMonths, daysInMonth, keptSince, periodOf } from '../src/areas/storage/period.js';
import { formatDateTime, parseDateTime } from '../src/core/time.js';

/** Cloud-storage periods (issue 28) on the calendar of the display zone (Asia/Shanghai): month ends, leap years. */
const at = (text: string) => parseDateTime(text)!;
const shown = (d: Date) => formatDateTime(d);

describe('months', () => {
  it('keep the day of the month and the time of day', () => {
    expect(shown(addMonths(at('2026-03-15 10:20:30'), 1))).toBe('2026-04-15 10:20:30');
    expect(shown(addMonths(at('2026-11-30 23:59:59'), 2))).toBe('2027-01-30 23:59:59');
    expect(shown(addMonths(at('2026-05-01 00:00:00'), 12))).toBe('2027-05-01 00:00:00');
    expect(shown(addMonths(at('2026-05-01 00:00:00'), 0))).toBe('2026-05-01 00:00:00');
  });

  it('end on the last day of a shorter month, 29 February in a leap year', () => {
    expect(shown(addMonths(at('2027-01-31 08:00:00'), 1))).toBe('2027-02-28 08:00:00');
    expect(shown(addMonths(at('2028-01-31 08:00:00'), 1))).toBe('2028-02-29 08:00:00');
    expect(shown(addMonths(at('2026-08-31 12:00:00'), 1))).toBe('2026-09-30 12:00:00');
    expect(shown(addMonths(at('2028-02-29 12:00:00'), 12))).toBe('2029-02-28 12:00:00');
    expect(shown(addMonths(at('2028-02-29 12:00:00'), 48))).toBe('2032-02-29 12:00:00');
    // a month later from the clamped day is not the 31st again
    expect(shown(addMonths(addMonths(at('2027-01-31 08:00:00'), 1), 1))).toBe('2027-03-28 08:00:00');
    expect(shown(addMonths(at('2027-01-31 08:00:00'), 2))).toBe('2027-03-31 08:00:00');
  });

  it('count across year ends in the display zone, not in UTC', () => {
    // 00:30 on 1 January in Shanghai is still 31 December in UTC
    expect(shown(addMonths(at('2027-01-01 00:30:00'), 1))).toBe('2027-02-01 00:30:00');
    expect(shown(addMonths(at('2026-12-31 23:30:00'), 2))).toBe('2027-02-28 23:30:00');
    expect(shown(addMonths(at('2026-10-31 06:00:00'), 120))).toBe('2036-10-31 06:00:00');
  });

  it('refuse what is not a whole number of months', () => {
    expect(() => addMonths(new Date(), 1.5)).toThrow(RangeError);
    expect(() => addMonths(new Date(), -1)).toThrow(RangeError);
  });

  it('know the lengths of months', () => {
    expect([2026, 2027, 2028, 2100, 2000].map((y) => daysInMonth(y, 2))).toEqual([28, 28, 29, 28, 29]);
    expect(daysInMonth(2026, 12)).toBe(31);
  });
});

describe('rolling days', () => {
  it('count calendar days across month and year ends and 29 February', () => {
    expect(shown(addDays(at('2028-02-28 10:00:00'), 1))).toBe('2028-02-29 10:00:00');
    expect(shown(addDays(at('2027-02-28 10:00:00'), 1))).toBe('2027-03-01 10:00:00');
    expect(shown(addDays(at('2026-12-31 23:00:00'), 1))).toBe('2027-01-01 23:00:00');
    expect(shown(addDays(at('2026-03-01 00:00:00'), -1))).toBe('2026-02-28 00:00:00');
  });

  it('keep recordings from the start of the first of the last N days', () => {
    expect(shown(keptSince(at('2027-03-02 15:00:00'), 7))).toBe('2027-02-24 00:00:00');
    expect(shown(keptSince(at('2028-03-02 15:00:00'), 7))).toBe('2028-02-25 00:00:00');
    expect(shown(keptSince(at('2027-01-03 09:00:00'), 30))).toBe('2026-12-05 00:00:00');
    expect(shown(keptSince(at('2027-01-03 09:00:00'), 1))).toBe('2027-01-03 00:00:00');
    expect(() => keptSince(new Date(), 0)).toThrow(RangeError);
  });
});

describe('a paid period', () => {
  it('starts at the payment, or after the lock\'s running period (a renewal)', () => {
    const paid = at('2027-01-31 10:00:00');
    expect(periodOf(paid, 1, null)).toEqual({ startTime: paid, endTime: at('2027-02-28 10:00:00') });
    expect(periodOf(paid, 1, at('2027-01-01 00:00:00'))).toEqual({ startTime: paid, endTime: at('2027-02-28 10:00:00') });
    const running = at('2027-03-31 10:00:00');
    expect(periodOf(paid, 1, running)).toEqual({ startTime: running, endTime: at('2027-04-30 10:00:00') });
  });
});
