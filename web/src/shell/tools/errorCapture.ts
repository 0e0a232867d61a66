import { ApiError } from '../../api/client';
import { ERROR_LOG_STORAGE_KEY, useErrorLog } from '../../store/errorLog';
import { displayZone } from '../../time/displayZone';
import { errorRecordOf, isBenign, type ErrorDetails } from './errorRecord';

/** The same error object can reach us twice (an error boundary rendering twice in StrictMode, say). */
const seen = new WeakSet<object>();

/** Adds an unhandled UI error to the local error log. Failed API calls are left out: already toasted and logged by the server. */
export function recordError(details: ErrorDetails): void {
  const { error } = details;
  if (error instanceof ApiError) return;
  if (error instanceof DOMException && error.name === 'AbortError') return;
  if (typeof error === 'object' && error !== null) {
    if (seen.has(error)) return;
    seen.add(error);
  }
  const record = errorRecordOf(details, window.location.href, new Date(), displayZone());
  if (!isBenign(record)) useErrorLog.getState().add(record);
}

/** Captures uncaught errors and unhandled rejections of the page into the local error log; call once at start. */
export function installErrorCapture(): void {
  window.addEventListener('error', (e) => {
    const where = e.filename ? `${e.filename}:${e.lineno}:${e.colno}` : undefined;
    recordError({ error: e.error, message: e.message, info: where });
  });
  window.addEventListener('unhandledrejection', (e) => recordError({ error: e.reason, info: 'unhandledrejection' }));
  // another tab of the console logged or uploaded errors: show its list, and do not overwrite it with ours
  window.addEventListener('storage', (e) => {
    if (e.key === ERROR_LOG_STORAGE_KEY) void useErrorLog.persist.rehydrate();
  });
}
