import { useState } from 'react';
import { Navigate, Outlet } from 'react-router';
import { useSession, useSignedIn } from '../store/session';

/** Routes that need a signed-in user; without a token everything goes to /login. */
export function RequireAuth() {
  return useSignedIn() ? <Outlet /> : <Navigate to="/login" replace />;
}

/**
 * Routes for signed-out users only (the login page): arriving with a token goes home. Checked on
 * arrival only, so that the login page itself decides where to go once its sign-in completes.
 */
export function GuestOnly() {
  const [signedInOnArrival] = useState(() => useSession.getState().token !== null);
  return signedInOnArrival ? <Navigate to="/" replace /> : <Outlet />;
}
