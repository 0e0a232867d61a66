/**
 * The page a visitor wanted when the guard sent them to /login: carried in the login entry's history
 * state (`{ from }`), so the login URL stays `/login`, nothing outlives that entry, and a fresh visit to
 * /login goes home as usual. A deliberate sign-out carries nothing: signing in again starts at home.
 */

export interface LoginState {
  from?: string;
  /** the server ended the session (a 401, a refused refresh token): the login page says so */
  expired?: boolean;
}

let signedOutDeliberately = false;
let endedByServer = false;
/** the token of the session the server ended */
let endedToken: string | null = null;

/** Called by sign-out, before the session is cleared; sign-in resets it. */
export function noteDeliberateSignOut(deliberate: boolean): void {
  signedOutDeliberately = deliberate;
  if (deliberate) endedByServer = false;
}

/**
 * Called when the server ends the session (a 401 to a call sent with the current token, a refused
 * refresh token), before the session is cleared; sign-in and a deliberate sign-out reset it.
 */
export function noteSessionExpired(expired: boolean, token: string | null = null): void {
  endedByServer = expired && !signedOutDeliberately;
  endedToken = expired ? token : null;
}

/**
 * A session is here (signed in, here or in another tab): it starts with no sign-out and no expiry noted. The
 * session the server just ended does not count: a read of the stored session that raced its clearing may put
 * it back for a moment, and must not erase the expiry the login page is about to show.
 */
export function noteSession(token: string): void {
  if (token === endedToken) return;
  signedOutDeliberately = false;
  endedByServer = false;
  endedToken = null;
}

/** The history state for the guard's redirect to /login. */
export function loginStateFor(wanted: string): LoginState | undefined {
  if (signedOutDeliberately) return undefined;
  return endedByServer ? { from: wanted, expired: true } : { from: wanted };
}

/** Whether a login entry's state says the server ended the session. */
export function sessionExpiredIn(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as LoginState).expired === true;
}

/**
 * A same-origin path to go to after sign-in, or null. Rejects other origins (`//evil`, `https://…`,
 * `/\evil`), other schemes and the login page itself.
 */
export function safeReturnPath(raw: unknown, origin: string): string | null {
  if (typeof raw !== 'string' || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return null;
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin || url.pathname === '/login') return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The validated `from` of a login entry's state, or null. */
export function wantedPathOf(state: unknown, origin: string): string | null {
  const from = typeof state === 'object' && state !== null ? (state as LoginState).from : undefined;
  return safeReturnPath(from, origin);
}
