import type { WebErrorRecord } from '@console/contract/envelope';
import { formatInZone } from '../../time/displayZone';

/** How many records the local error log keeps (the oldest go first). */
export const ERROR_LOG_CAP = 200;

/** Field limits of the server's upload endpoint: longer texts are cut rather than refused. */
const LIMITS = { message: 20_000, stack: 100_000, info: 20_000, url: 2_000 } as const;

/** Noise the browser reports as errors without anything being broken. */
const BENIGN = [/^ResizeObserver loop/];

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Error) return value.message || value.name;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

export interface ErrorDetails {
  /** the thrown value (an Error, a rejection reason…) */
  error: unknown;
  /** the event's own message, when the thrown value carries none (e.g. cross-origin "Script error.") */
  message?: string;
  /** where it came from: source file and position, or the kind of capture */
  info?: string;
}

/**
 * A record of the local error log (type error), stamped with the page and the time in the server's
 * display zone (`zone`; the browser's own zone while it is not known).
 */
export function errorRecordOf({ error, message, info }: ErrorDetails, url: string, now: Date, zone?: string): WebErrorRecord {
  const text = (error instanceof Error ? `${error.name}: ${error.message}` : textOf(error ?? message)) || message || 'unknown error';
  const stack = error instanceof Error && error.stack ? error.stack : undefined;
  return {
    type: 'error',
    message: text.slice(0, LIMITS.message),
    ...(stack ? { stack: stack.slice(0, LIMITS.stack) } : {}),
    ...(info ? { info: info.slice(0, LIMITS.info) } : {}),
    url: url.slice(0, LIMITS.url),
    time: formatInZone(now, zone),
  };
}

export function isBenign(record: Pick<WebErrorRecord, 'message'>): boolean {
  return BENIGN.some((re) => re.test(record.message));
}

/** Appends, keeping only the newest `cap` records. */
export function appendCapped<T>(list: readonly T[], item: T, cap = ERROR_LOG_CAP): T[] {
  const next = [...list, item];
  return next.length > cap ? next.slice(next.length - cap) : next;
}
