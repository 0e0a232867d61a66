import { ApiError } from '../api/client';
import { refreshGrant } from '../api/auth';
import { toastError } from '../shell/feedback';
import { useSession } from '../store/session';
import { clearLocalSession } from './localSession';
import { noteSessionExpired } from './wantedPath';

/** How often the token's age is checked, and the age (seconds) at which it is refreshed (spec 9). */
export const REFRESH_CHECK_MS = 10_000;
export const TOKEN_REFRESH_AGE_S = 3000;

let inFlight: Promise<void> | null = null;
let tokenQueue: Promise<unknown> = Promise.resolve();

/**
 * Runs token work (refresh, department/role switch) one at a time, in this tab and across every tab of
 * this origin: refresh tokens are single-use.
 */
export function withTokenLock<T>(task: () => Promise<T>): Promise<T> {
  const run = (): Promise<T> => (navigator.locks ? navigator.locks.request('saber-token-refresh', task) : task());
  const result = tokenQueue.then(run, run);
  tokenQueue = result.catch(() => undefined);
  return result;
}

async function refreshIfStale(): Promise<void> {
  // Another tab may have refreshed while this one waited for the lock: read the stored session again.
  await useSession.persist.rehydrate();
  const { token, refreshToken, userInfo } = useSession.getState();
  if (!token || !refreshToken || !userInfo) return;
  if ((Date.now() - token.datetime) / 1000 < TOKEN_REFRESH_AGE_S) return;
  try {
    useSession.getState().setToken(await refreshGrant(refreshToken, userInfo));
  } catch (err) {
    // A refused refresh token cannot be retried: the session is over. Network trouble is retried later.
    if (err instanceof ApiError && err.code >= 400 && err.code < 500) {
      toastError(err.message);
      noteSessionExpired(true, token.content);
      clearLocalSession();
    }
  }
}

/** Refreshes the tokens when they are due; concurrent calls share one refresh. */
export function refreshTokenIfDue(): Promise<void> {
  inFlight ??= withTokenLock(refreshIfStale).finally(() => {
    inFlight = null;
  });
  return inFlight;
}

/** Starts the background check (at once, then every 10 s); returns its stop function. */
export function startTokenRefresh(): () => void {
  void refreshTokenIfDue();
  const timer = window.setInterval(() => void refreshTokenIfDue(), REFRESH_CHECK_MS);
  return () => window.clearInterval(timer);
}
