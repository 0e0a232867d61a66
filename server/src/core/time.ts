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
  offsets.clear();
}

function formatWithIntl(d: Date): string {
  const parts: Record<string, string> = {};
  for (const p of formatter.formatToParts(d)) parts[p.type] = p.value;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/**
 * The zone's offset (ms) over a span of six hours, when it is the same at both ends (zones change their
 * offset a few times a year at most, never twice within six hours); null when it changes inside. Intl's
 * formatToParts costs ~10 µs a call, which made an export of 100,000 rows (three timestamps each) spend
 * seconds on it; with the offset known, a timestamp is formatted by arithmetic, and only spans that hold
 * a change of offset go through Intl.
 */
const SPAN = 6 * 3600_000;
const offsets = new Map<number, number | null>();
function quarterOffset(ms: number): number | null {
  const q = Math.floor(ms / SPAN);
  const known = offsets.get(q);
  if (known !== undefined) return known;
  const at = (t: number) => Date.parse(`${formatWithIntl(new Date(t)).replace(' ', 'T')}Z`) - Math.floor(t / 1000) * 1000;
  const start = at(q * SPAN);
  const offset = start === at(q * SPAN + SPAN - 1000) ? start : null;
  if (offsets.size > 50_000) offsets.clear();
  offsets.set(q, offset);
  return offset;
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

export function formatDateTime(d: Date | null | undefined): string | null {
  if (!d) return null;
  const ms = d.getTime();
  const offset = Number.isNaN(ms) ? null : quarterOffset(ms);
  if (offset === null) return formatWithIntl(d);
  const local = new Date(Math.floor(ms / 1000) * 1000 + offset);
  const year = local.getUTCFullYear();
  if (year < 1000 || year > 9999) return formatWithIntl(d);
  return `${year}-${pad2(local.getUTCMonth() + 1)}-${pad2(local.getUTCDate())} ${pad2(local.getUTCHours())}:${pad2(local.getUTCMinutes())}:${pad2(local.getUTCSeconds())}`;
}

/** Offset of the zone at an instant, in minutes east of UTC. */
function zoneOffsetMinutes(at: Date): number {
  const ms = at.getTime();
  const known = Number.isNaN(ms) ? null : quarterOffset(ms);
  if (known !== null) return Math.round(known / 60000);
  const text = formatWithIntl(at);
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
