import { Outlet } from 'react-router';
import { useSession } from '../../store/session';
import { MainLayout } from '../layout/MainLayout';
import { useVisitTracking } from './home/useVisitTracking';

/**
 * The frame of the console's pages: the main layout for a signed-in user. The public pages that live
 * here too (/test, /myiframe) show without it to a visitor, who has no menu to show. A lazy route of
 * its own, so the layout's code loads together with the page's, not after it.
 */
export function SessionFrame() {
  const signedIn = useSession((s) => Boolean(s.token?.content));
  useVisitTracking();
  return signedIn ? <MainLayout /> : <Outlet />;
}
