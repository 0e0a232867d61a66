import { refreshGrant, type Identity } from '../api/auth';
import { queryClient } from '../api/queryClient';
import { useSession } from '../store/session';
import { navigationQuery } from './session';
import { withTokenLock } from './tokenRefresh';

/**
 * Switches the department and role the user acts as (switch mode): new tokens for them, then the menu
 * and permissions of the role. A refusal (an id the user does not hold) rejects with the server's
 * ApiError and leaves the session as it was.
 */
export async function switchIdentity(identity: Identity): Promise<void> {
  await withTokenLock(async () => {
    // another tab may have refreshed meanwhile: use the newest refresh token
    await useSession.persist.rehydrate();
    const { refreshToken, userInfo } = useSession.getState();
    if (!refreshToken || !userInfo) throw new Error('not signed in');
    useSession.getState().setToken(await refreshGrant(refreshToken, userInfo, identity));
  });
  await queryClient.fetchQuery({ ...navigationQuery, staleTime: 0 });
  // whatever else is cached was fetched as the previous role
  await queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== navigationQuery.queryKey[0] });
}
