import { useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation, useMatches } from 'react-router';
import { HOME_PATH } from '../shell/paths';
import { LOCK_PATH, useLock } from '../store/lock';
import { useSession, useSignedIn, type StoredToken } from '../store/session';
import { clearLocalSession } from './localSession';
import { loginStateFor, noteSession, wantedPathOf } from './wantedPath';

/** Spec 2: with a token, while the screen is locked, every navigation is forced to /lock. */
export function LockGate() {
  const locked = useLock((s) => s.locked);
  const signedIn = useSignedIn();
  const { pathname } = useLocation();
  return locked && signedIn && pathname !== LOCK_PATH ? <Navigate to={LOCK_PATH} replace /> : <Outlet />;
}

/** Route `handle` fields the guard reads. */
export interface RouteHandle {
  /** reachable without a token (spec 2 "meta marks them as not needing authentication") */
  public?: boolean;
}

/** A token object whose content is empty: spec 2 logs out locally. */
export function isEmptyToken(token: StoredToken | null): boolean {
  return token !== null && !token.content?.trim();
}

/**
 * The route guard of spec 2, around every route. An empty token logs out locally and goes to /login.
 * Without a token only routes whose handle is `public` pass; the others go to /login, carrying the
 * wanted page for after sign-in. It follows the session, so a 401 anywhere (which clears the session in
 * api/client.ts) lands on /login too, with `expired` in the login entry's state.
 */
export function RouteGuard() {
  const token = useSession((s) => s.token);
  const matches = useMatches();
  const location = useLocation();
  const empty = isEmptyToken(token);
  const isPublic = matches.some((m) => (m.handle as RouteHandle | undefined)?.public === true);

  useEffect(() => {
    if (empty) clearLocalSession();
  }, [empty]);
  // signed in again (here or in another tab): a later loss of the session is neither a deliberate
  // sign-out nor, until the server says so, an expiry
  useEffect(() => {
    if (token?.content) noteSession(token.content);
  }, [token]);

  if (empty) return <Navigate to="/login" replace />;
  if (!token && !isPublic) {
    const wanted = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to="/login" replace state={loginStateFor(wanted)} />;
  }
  return <Outlet />;
}

/** Where to go once signed in: the page the guard sent the visitor away from (same origin only), else home. */
export function afterSignInPath(loginState: unknown): string {
  return wantedPathOf(loginState, window.location.origin) ?? HOME_PATH;
}

/**
 * The login page is for signed-out users: arriving with a token goes home (or to the wanted page).
 * Checked on arrival only, so that the login page itself decides where to go once its sign-in completes
 * (after the menu has loaded).
 */
export function GuestOnly() {
  const { state } = useLocation();
  const [signedInOnArrival] = useState(() => {
    const { token } = useSession.getState();
    return token !== null && !isEmptyToken(token);
  });
  return signedInOnArrival ? <Navigate to={afterSignInPath(state)} replace /> : <Outlet />;
}
