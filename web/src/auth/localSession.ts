import { queryClient } from '../api/queryClient';
import { usePermissions } from '../store/permissions';
import { useSession } from '../store/session';

/** Forgets the signed-in user on this browser: tokens, menu, permissions and cached server data. */
export function clearLocalSession(): void {
  useSession.getState().clear();
  usePermissions.getState().clear();
  queryClient.clear();
}
