import { formatDateTime, parseDateTime } from '../../core/time.js';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** days in a month of the proleptic Gregorian calendar (month 1–12) */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** the wall-clock fields of an instant in the display zone */
function wallClock(at: Date) {
  const [date, time] = formatDateTime(at)!.split(' ') as [string, string];
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return { y, m, d, time, ms: at.getTime() % 1000 };
}

function instant(y: number, m: number, d: number, time: string, ms: number): Date {
  const at = parseDateTime(`${pad(y, 4)}-${pad(m)}-${pad(d)} ${time}`);
  if (!at) throw new RangeError(`no such time: ${y}-${m}-${d} ${time}`);
  return new Date(at.getTime() + ms);
}

/**
 * `months` calendar months after `start`, on the wall clock of the display zone: the same day of the month and time
 * of day, or the month's last day when it is shorter (31 January + 1 month = 28 or 29 February; 29 February 2028 +
 * 12 months = 28 February 2029). A plan of N months paid at an instant ends here.
 */
export function addMonths(start: Date, months: number): Date {
  if (!Number.isInteger(months) || months < 0) throw new RangeError(`months: ${months}`);
  const { y, m, d, time, ms } = wallClock(start);
  const index = (m - 1) + months;
  const year = y + Math.floor(index / 12);
  const month = (index % 12) + 1;
  return instant(year, month, Math.min(d, daysInMonth(year, month)), time, ms);
}

/** `days` calendar days after (or, negative, before) `start`, on the display zone's wall clock */
export function addDays(start: Date, days: number): Date {
  if (!Number.isInteger(days)) throw new RangeError(`days: ${days}`);
  const { y, m, d, time, ms } = wallClock(start);
  const day = new Date(Date.UTC(y, m - 1, d + days));
  return instant(day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate(), time, ms);
}

/**
 * The earliest recording a plan keeping `storageDays` days (rolling) still holds at `now`: the start of the day
 * `storageDays - 1` days before today, in the display zone: on 2 March a 7-day plan keeps what was recorded from 24
 * February on, or from 25 February in a leap year.
 */
export function keptSince(now: Date, storageDays: number): Date {
  if (!Number.isInteger(storageDays) || storageDays < 1) throw new RangeError(`storageDays: ${storageDays}`);
  const { y, m, d } = wallClock(now);
  const day = new Date(Date.UTC(y, m - 1, d - (storageDays - 1)));
  return instant(day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate(), '00:00:00', 0);
}

/**
 * When a new paid period of `months` starts and ends: after the lock's latest paid period when that one is still
 * running (a renewal is appended), else at `paidAt`.
 */
export function periodOf(paidAt: Date, months: number, runningUntil: Date | null): { startTime: Date; endTime: Date } {
  const startTime = runningUntil && runningUntil > paidAt ? runningUntil : paidAt;
  return { startTime, endTime: addMonths(startTime, months) };
}
