/** Spec 8: the server check says one of these. */
export type ServerVerdict = 'online' | 'offline' | 'failed';

/** What came back: the server's status, or an error that either carries the server's answer or none (network, timeout). */
export type CheckOutcome = { online: boolean } | { answered: boolean };

/**
 * online: the server answered that it is online; offline: it answered, but not online (its status says
 * so, or it answered with an error code); failed: no answer at all.
 */
export function verdictOf(outcome: CheckOutcome): ServerVerdict {
  if ('online' in outcome) return outcome.online ? 'online' : 'offline';
  return outcome.answered ? 'offline' : 'failed';
}
