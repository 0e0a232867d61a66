import { passwordGrant, type PasswordCredentials } from '../api/passwordGrant';
import { queryClient } from '../api/queryClient';
import { useLock } from '../store/lock';
import { useSession } from '../store/session';
import { navigationQuery } from './session';
import { noteDeliberateSignOut } from './wantedPath';

/** Signs in with a password; resolves once the navigation is loaded (a failure there is toasted, not fatal). */
export async function signIn(credentials: PasswordCredentials): Promise<void> {
  const answer = await passwordGrant(credentials);
  noteDeliberateSignOut(false);
  useSession.getState().setToken(answer);
  // spec 4: signing in clears the lock
  useLock.getState().clear();
  await queryClient.fetchQuery(navigationQuery).catch(() => undefined);
}
