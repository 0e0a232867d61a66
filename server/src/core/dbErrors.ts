import type { MessageKey } from '@console/contract';
import { strandsSession } from './db/hosts.js';

/** The SQLSTATE of a database error, looked up through wrapping errors (drizzle wraps the driver's). */
export function sqlState(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 5 && cur && typeof cur === 'object'; i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

export function isUniqueViolation(e: unknown): boolean {
  return sqlState(e) === '23505';
}

/** socket errors of a connection to the database (the server went away under it, or refuses new ones) */
const SOCKET_LOST = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
/** node-postgres's own errors for a connection that ended: they carry no code */
const PG_LOST = /^Connection terminated\b|^Client has encountered a connection error and is not queryable$|^timeout expired$/;

/**
 * Whether a statement failed because its connection to the database was lost or its server can no longer take
 * writes: the primary went down, or a failover is under way (hosts.ts). What it did may or may not have been
 * committed: the caller is told to check and try again.
 */
export function isConnectionLost(e: unknown): boolean {
  let cur: unknown = e;
  for (let i = 0; i < 5 && cur && typeof cur === 'object'; i++) {
    const { code, message } = cur as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (strandsSession(code) || SOCKET_LOST.has(code))) return true;
    if (typeof message === 'string' && PG_LOST.test(message)) return true;
    cur = (cur as { cause?: unknown }).cause;
  }
  return false;
}

/** seconds a caller is asked to wait before retrying after a lost connection: a failover takes a few of them */
export const RETRY_AFTER_CONNECTION_LOST = 5;

/**
 * How a database error that reached the error handler is answered: never as a 500 when the cause is the
 * request (a value the column cannot hold, a race with another writer) or the load (a statement that ran
 * past its time limit). Returns undefined for errors that really are the server's fault. `retryAfter`: the
 * seconds for a Retry-After header.
 */
export function answerForDbError(e: unknown): { status: number; key: MessageKey; retryAfter?: number } | undefined {
  if (isConnectionLost(e)) return { status: 503, key: 'databaseSwitching', retryAfter: RETRY_AFTER_CONNECTION_LOST };
  const state = sqlState(e);
  if (!state) return undefined;
  if (state === '23505' || state === '23P01') return { status: 409, key: 'duplicateRecord' };
  if (state === '40001' || state === '40P01' || state === '55P03') return { status: 409, key: 'conflictRetry' };
  if (state === '23503' || state === '23502' || state === '23514') return { status: 400, key: 'valueInvalid' };
  // class 22: data exceptions (out of range, bad text representation, NUL, string too long, bad date…)
  if (state.startsWith('22')) return { status: 400, key: 'valueInvalid' };
  if (state === '57014') return { status: 400, key: 'queryTooBroad' };
  // a transaction past its deadline (TRANSACTION_TIMEOUT_MS), or a session PostgreSQL ended for idling in one
  if (state === '25P04' || state === '25P03') return { status: 503, key: 'transactionTimedOut' };
  if (state === '53300' || state === '53400') return { status: 503, key: 'databaseUnavailable' };
  return undefined;
}
