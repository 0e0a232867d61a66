/**
 * Month partitions of a time-partitioned table: UTC calendar months, named `<table>_pYYYY_MM` as pg_partman (4.x)
 * names a monthly set, so either can create a month the other then manages; rows outside them go to
 * `<table>_default`. Migration 0036 made the first ones with the same rules.
 */

/** the months after the current one that always have their partition */
export const PREMAKE_MONTHS = 3;

export interface MonthRange {
  name: string;
  from: Date;
  to: Date;
}

/** the start (UTC) of the month holding `at` */
export function monthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

/** the start of the month `n` months after the one starting at `month` */
export function addMonths(month: Date, n: number): Date {
  return new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + n, 1));
}

/** the partition of `table` holding the month that starts at `month` */
export function monthRange(table: string, month: Date): MonthRange {
  const suffix = `${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
  return { name: `${table}_p${suffix}`, from: month, to: addMonths(month, 1) };
}

export const defaultPartitionName = (table: string) => `${table}_default`;

/**
 * the months that must have their partition at `now`: the previous one (so a list of the last days, which may reach
 * into it, is never left to the default partition), this one and PREMAKE_MONTHS after it
 */
export function monthsToHave(now: Date): Date[] {
  const first = addMonths(monthStart(now), -1);
  return Array.from({ length: PREMAKE_MONTHS + 2 }, (_, i) => addMonths(first, i));
}
