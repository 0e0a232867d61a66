/**
 * Timer texts as Flowable reads them (ISO 8601): a duration `P1DT2H30M` / `PT10S`, a date
 * `2026-12-01T09:00:00Z`, a cycle `R3/PT10H` or `R/PT1H` (repeating) or `R2/<start>/PT1H`. A cron cycle is not
 * supported, and is named as such.
 */

const DURATION = /^P(?:(\d+(?:[.,]\d+)?)Y)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)W)?(?:(\d+(?:[.,]\d+)?)D)?(?:T(?:(\d+(?:[.,]\d+)?)H)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)S)?)?$/i;

export class TimerTextError extends Error {}

/** adds an ISO 8601 duration to a time (years and months by the calendar) */
export function addDuration(from: Date, text: string): Date {
  const m = DURATION.exec(text.trim());
  if (!m || text.trim() === 'P' || /T$/i.test(text.trim())) throw new TimerTextError(`"${text}" is not an ISO 8601 duration (such as PT10M or P1DT2H)`);
  const n = (i: number) => Number((m[i] ?? '0').replace(',', '.'));
  const d = new Date(from.getTime());
  d.setUTCFullYear(d.getUTCFullYear() + Math.trunc(n(1)));
  d.setUTCMonth(d.getUTCMonth() + Math.trunc(n(2)));
  const ms = ((n(3) * 7 + n(4)) * 86_400 + n(5) * 3600 + n(6) * 60 + n(7)) * 1000;
  return new Date(d.getTime() + ms);
}

export function parseDate(text: string): Date {
  const d = new Date(text.trim());
  if (!/^\d{4}-\d{2}-\d{2}/.test(text.trim()) || Number.isNaN(d.getTime())) throw new TimerTextError(`"${text}" is not an ISO 8601 date (such as 2026-12-01T09:00:00Z)`);
  return d;
}

export interface Cycle {
  first: Date;
  /** repetitions left after the first; null: without end */
  repeat: number | null;
  every: string;
}

export function parseCycle(now: Date, text: string): Cycle {
  const parts = text.trim().split('/');
  const r = /^R(\d*)$/i.exec(parts[0] ?? '');
  if (!r || parts.length < 2 || parts.length > 3) {
    throw new TimerTextError(`"${text}" is not an ISO 8601 repeating interval (such as R3/PT10H); cron cycles are not supported`);
  }
  const times = r[1] === '' ? null : Number(r[1]);
  const every = parts[parts.length - 1]!;
  const start = parts.length === 3 ? parseDate(parts[1]!) : now;
  const first = addDuration(start, every);
  // a cycle that does not move would fire at every tick of the scheduler, forever
  if (first.getTime() <= start.getTime()) throw new TimerTextError(`"${text}" repeats without time passing: a repeating interval is longer than zero`);
  return { first, repeat: times === null ? null : Math.max(0, times - 1), every };
}

/** the moment a timer fires, from its kind and its (resolved) text */
export function dueOf(now: Date, type: 'duration' | 'date' | 'cycle', value: unknown): { due: Date; repeat?: number | null; every?: string } {
  if (value instanceof Date) return { due: value };
  const text = typeof value === 'number' && type === 'duration' ? `PT${value / 1000}S` : String(value ?? '');
  if (type === 'duration') return { due: addDuration(now, text) };
  if (type === 'date') return { due: parseDate(text) };
  const c = parseCycle(now, text);
  return { due: c.first, repeat: c.repeat, every: c.every };
}
