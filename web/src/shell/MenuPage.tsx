import { Navigate, useLocation } from 'react-router';
import { areas } from '../areas';
import { customPagesOf } from '../registry/customPages';
import { pageFor } from '../registry/pageFor';
import { useSession } from '../store/session';
import { menuTrail } from './layout/menuTree';

/** The areas' own pages of their `page: 'custom'` definitions, by resource code (loaded with the first menu page). */
export const loadCustomPages = () => customPagesOf(areas);

/**
 * Every route that comes from the server's menu: the path must be in the user's menu and have a
 * page (a definition's `menu.route`, registry/pageFor.ts), otherwise it is a 404.
 */
export function MenuPage() {
  const { pathname } = useLocation();
  const menu = useSession((s) => s.menu);
  const node = menuTrail(menu, pathname).at(-1);
  if (!node) return <Navigate to="/404" replace />;
  const Page = pageFor(pathname, node.code, loadCustomPages);
  return <Page key={pathname} />;
}
