import type { IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';

/** what a proxy's request id may look like to be kept: short, and nothing a log line could be forged with */
const SAFE_ID = /^[A-Za-z0-9._:-]{8,64}$/;

/**
 * The request's id, in every log line of the request and answered in `X-Request-Id`: the proxy's when it sent a
 * plausible one (so its access log and ours meet), else a new one.
 */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && SAFE_ID.test(given) ? given : randomUUID();
}
