import { Navigate, useLocation } from 'react-router';
import { pageFor } from '../modules/registry';
import { useSession } from '../store/session';
import { menuTrail } from './layout/menuTree';

/**
 * Every route that comes from the server's menu: the path must be in the user's menu and have a
 * page (a definition's `menu.route`, modules/registry.ts), otherwise it is a 404.
 */
export function MenuPage() {
  const { pathname } = useLocation();
  const menu = useSession((s) => s.menu);
  const node = menuTrail(menu, pathname).at(-1);
  if (!node) return <Navigate to="/404" replace />;
  const Page = pageFor(pathname);
  return <Page key={pathname} />;
}
