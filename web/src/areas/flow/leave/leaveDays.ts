const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The days of leave a range asks for, as the form proposes them: every started day counts (09:00 to 18:00 the
 * next day is 2), at least 1; null when the range is missing or ends before it starts. The applicant may still
 * change it (a weekend in between, half days).
 */
export function leaveDays(start: Date | null | undefined, end: Date | null | undefined): number | null {
  if (!start || !end) return null;
  const ms = end.getTime() - start.getTime();
  if (!Number.isFinite(ms) || ms < 0) return null;
  return Math.max(1, Math.ceil(ms / DAY_MS));
}

/** The wire format of the leave's dates (contract `leaveDate`: 'yyyy-MM-dd HH:mm:ss'). */
export const LEAVE_DATE_FORMAT = 'YYYY-MM-DD HH:mm:ss';
