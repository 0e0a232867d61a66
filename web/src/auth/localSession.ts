import { queryClient } from '../api/queryClient';
import { useLock } from '../store/lock';
import { usePermissions } from '../store/permissions';
import { useSession } from '../store/session';
import { useTopMenuChoice } from '../store/topMenu';

/**
 * Forgets the signed-in user on this browser: tokens, menu, permissions, the screen lock, the chosen
 * top menu and cached server data.
 */
export function clearLocalSession(): void {
  useSession.getState().clear();
  usePermissions.getState().clear();
  useLock.getState().clear();
  useTopMenuChoice.getState().choose(null);
  queryClient.clear();
}
