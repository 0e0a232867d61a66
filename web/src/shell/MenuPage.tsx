import { Navigate, useLocation } from 'react-router';
import { pageFor } from '../modules/registry';
import { useSession } from '../store/session';
import { menuTrail } from './layout/menuTree';

/**
 * Every route that comes from the server's menu: the path must be in the user's menu and have a
 * page in the registry, otherwise it is a 404.
 */
export function MenuPage() {
  const { pathname } = useLocation();
  const menu = useSession((s) => s.menu);
  const node = menuTrail(menu, pathname).at(-1);
  const Page = node ? pageFor(pathname) : undefined;
  if (!Page) return <Navigate to="/404" replace />;
  return <Page key={pathname} />;
}
