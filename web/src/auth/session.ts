import { fetchMenuButtons, fetchMenuRoutes, revokeSession } from '../api/auth';
import { usePermissions } from '../store/permissions';
import { useSession } from '../store/session';
import { clearLocalSession } from './localSession';
import { noteDeliberateSignOut } from './wantedPath';

/** The menu tree and the button permissions, loaded after sign-in and once per page load. */
export const navigationQuery = {
  queryKey: ['navigation'] as const,
  queryFn: async () => {
    const [menu, buttons] = await Promise.all([fetchMenuRoutes(), fetchMenuButtons()]);
    useSession.getState().setMenu(menu);
    usePermissions.getState().setFromButtons(buttons);
    return { menu, buttons };
  },
  staleTime: Infinity,
};

/**
 * Revokes the session on the server, then forgets it locally (signing in again starts at home). Marked
 * deliberate first, so a call answered 401 meanwhile (its session just revoked) does not pass for an
 * expired session.
 */
export async function signOut(): Promise<void> {
  noteDeliberateSignOut(true);
  await revokeSession().catch(() => undefined);
  clearLocalSession();
}
