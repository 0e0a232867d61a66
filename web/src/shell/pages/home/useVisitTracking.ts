import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useSession } from '../../../store/session';
import { menuPageOf, recordVisit, userKey } from './visits';

/** Counts each arrival on a menu page for the signed-in user (the home page's shortcuts). */
export function useVisitTracking(): void {
  const { pathname } = useLocation();
  const user = useSession((s) => (s.userInfo ? userKey(s.userInfo.tenant_id, s.userInfo.user_id) : null));
  const menu = useSession((s) => s.menu);
  const page = menuPageOf(menu, pathname)?.path;

  useEffect(() => {
    if (user && page) recordVisit(user, page);
  }, [user, page]);
}
