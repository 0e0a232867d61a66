import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';

// With the timezone plugin loaded, antd's date pickers take "now" (the 此刻/Now button, today's cell)
// from `dayjs().tz()`, i.e. in the default zone set below: the server's display zone.
dayjs.extend(utc);
dayjs.extend(timezone);

let zone: string | undefined;

/** A valid IANA zone name, or undefined. */
function validZone(tz: string | undefined): string | undefined {
  if (!tz) return undefined;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return tz;
  } catch {
    return undefined;
  }
}

/**
 * The zone of the server's `yyyy-MM-dd HH:mm:ss` timestamps (`timeZone` of the console config). Times
 * the console makes up (the pickers' "now", the error log) are written in it, not in the browser's zone.
 */
export function setDisplayZone(tz: string | undefined): void {
  zone = validZone(tz);
  if (zone) dayjs.tz.setDefault(zone);
  else dayjs.tz.setDefault();
}

/** The server's display zone once known (undefined before: the browser's own zone is used). */
export function displayZone(): string | undefined {
  return zone;
}

/** `YYYY-MM-DD HH:mm:ss` of an instant in a zone (default: the display zone, else the browser's). */
export function formatInZone(at: Date, tz: string | undefined = zone): string {
  const valid = validZone(tz);
  if (!valid) return dayjs(at).format('YYYY-MM-DD HH:mm:ss');
  const parts: Record<string, string> = {};
  const format = new Intl.DateTimeFormat('en-CA', {
    timeZone: valid, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  });
  for (const p of format.formatToParts(at)) parts[p.type] = p.value;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}
