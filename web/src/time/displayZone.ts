/**
 * The zone of the server's `yyyy-MM-dd HH:mm:ss` timestamps (`timeZone` of the console config). Times the
 * console makes up (the pickers' "now", the error log) are written in it, not in the browser's zone.
 * Plain Intl here, so the first page carries no date library for it; the date pickers' dayjs set-up is in
 * pickerZone.ts, which loads with the forms.
 */
let zone: string | undefined;
const listeners = new Set<(zone: string | undefined) => void>();

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

export function setDisplayZone(tz: string | undefined): void {
  zone = validZone(tz);
  for (const fn of listeners) fn(zone);
}

/** Calls `fn` with the display zone now and whenever it changes. */
export function onDisplayZone(fn: (zone: string | undefined) => void): void {
  listeners.add(fn);
  fn(zone);
}

/** The server's display zone once known (undefined before: the browser's own zone is used). */
export function displayZone(): string | undefined {
  return zone;
}

/** `YYYY-MM-DD HH:mm:ss` of an instant in a zone (default: the display zone, else the browser's). */
export function formatInZone(at: Date, tz: string | undefined = zone): string {
  const valid = validZone(tz);
  const parts: Record<string, string> = {};
  const format = new Intl.DateTimeFormat('en-CA', {
    ...(valid ? { timeZone: valid } : {}), hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  });
  for (const p of format.formatToParts(at)) parts[p.type] = p.value;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}
