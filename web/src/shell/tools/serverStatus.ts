import type { ServerStatus } from '@console/contract';
import { API } from '@console/contract/paths';
import { ApiError, request } from '../../api/client';
import { verdictOf, type ServerVerdict } from './serverVerdict';

/** How long the check waits for an answer. */
export const SERVER_CHECK_TIMEOUT_MS = 10_000;

/** Asks `check-server-status` (public) whether the server is online. */
export async function checkServer(): Promise<ServerVerdict> {
  try {
    const status = await request<ServerStatus>(API.serverStatus, { silent: true, signal: AbortSignal.timeout(SERVER_CHECK_TIMEOUT_MS) });
    return verdictOf({ online: status.online === true });
  } catch (error) {
    // ApiError code 0 is a network failure; a timeout rejects with the signal's TimeoutError
    return verdictOf({ answered: error instanceof ApiError && error.code !== 0 });
  }
}
