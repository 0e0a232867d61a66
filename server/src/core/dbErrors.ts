import type { MessageKey } from '@console/contract';

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

/**
 * How a database error that reached the error handler is answered: never as a 500 when the cause is the
 * request (a value the column cannot hold, a race with another writer) or the load (a statement that ran
 * past its time limit). Returns undefined for errors that really are the server's fault.
 */
export function answerForDbError(e: unknown): { status: number; key: MessageKey } | undefined {
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
  if (state === '53300' || state === '53400' || state.startsWith('08') || state === '57P01' || state === '57P03') {
    return { status: 503, key: 'databaseUnavailable' };
  }
  return undefined;
}
