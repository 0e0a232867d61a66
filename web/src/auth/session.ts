import { queryClient } from '../api/queryClient';
import { fetchMenuButtons, fetchMenuRoutes, passwordGrant, revokeSession, type PasswordCredentials } from '../api/auth';
import { usePermissions } from '../store/permissions';
import { useSession } from '../store/session';
import { clearLocalSession } from './localSession';

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

/** Signs in with a password; resolves once the navigation is loaded (a failure there is toasted, not fatal). */
export async function signIn(credentials: PasswordCredentials): Promise<void> {
  const answer = await passwordGrant(credentials);
  useSession.getState().setToken(answer);
  await queryClient.fetchQuery(navigationQuery).catch(() => undefined);
}

/** Revokes the session on the server, then forgets it locally. */
export async function signOut(): Promise<void> {
  await revokeSession().catch(() => undefined);
  clearLocalSession();
}
