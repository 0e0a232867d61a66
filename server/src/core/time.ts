/**
 * Wire timestamps are `yyyy-MM-dd HH:mm:ss` in the configured zone (default Asia/Shanghai); requests may
 * also use ISO 8601. Formatting goes through Intl so any IANA zone works, including DST zones.
 */
let zone = 'Asia/Shanghai';
let formatter = makeFormatter(zone);

function makeFormatter(tz: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit',
    hour: '2-digit', minute: '2-digit', second: '2-digit',
  });
}

export function setTimeZone(tz: string): void {
  zone = tz;
  formatter = makeFormatter(tz);
}

export function formatDateTime(d: Date | null | undefined): string | null {
  if (!d) return null;
  const parts: Record<string, string> = {};
  for (const p of formatter.formatToParts(d)) parts[p.type] = p.value;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/** Offset of the zone at an instant, in minutes east of UTC. */
function zoneOffsetMinutes(at: Date): number {
  const text = formatDateTime(at)!;
  const asUtc = Date.parse(`${text.replace(' ', 'T')}Z`);
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60000);
}

/** Years a wire timestamp may name: four digits on the way out in every zone (9999-12-31 east of UTC is year 10000). */
const MIN_YEAR = 1000;
const MAX_YEAR = 9998;

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/** Parses a wire timestamp; null when it is not a real date/time. */
export function parseDateTime(text: string): Date | null {
  const s = text.trim();
  const m = LOCAL.exec(s);
  if (m) {
    const [y, mo, d, h = '0', mi = '0', se = '0'] = m.slice(1) as string[];
    const fields = [Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(se)] as const;
    const guess = Date.UTC(fields[0], fields[1] - 1, fields[2], fields[3], fields[4], fields[5]);
    const check = new Date(guess);
    if (check.getUTCFullYear() !== fields[0] || check.getUTCMonth() !== fields[1] - 1 || check.getUTCDate() !== fields[2]
      || fields[3] > 23 || fields[4] > 59 || fields[5] > 59) return null;
    if (fields[0] < MIN_YEAR || fields[0] > MAX_YEAR) return null;
    // Two passes settle the offset across DST changes.
    let instant = guess - zoneOffsetMinutes(new Date(guess)) * 60000;
    instant = guess - zoneOffsetMinutes(new Date(instant)) * 60000;
    return Number.isNaN(instant) ? null : new Date(instant);
  }
  if (/^\d{4}-\d{2}-\d{2}T/.test(s)) {
    const ms = Date.parse(s);
    if (Number.isNaN(ms)) return null;
    const year = new Date(ms).getUTCFullYear();
    return year < MIN_YEAR || year > MAX_YEAR ? null : new Date(ms);
  }
  return null;
}

export function currentZone(): string {
  return zone;
}
