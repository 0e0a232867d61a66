import type { Lang, MenuRoute } from '@console/contract';
import { useQuery } from '@tanstack/react-query';
import { fetchMenuRoutes, fetchTopMenus } from '../../../api/auth';
import { useLang } from '../../../i18n';
import { useSession, useSignedIn } from '../../../store/session';
import { useTopMenuChoice } from '../../../store/topMenu';

/** Top menus are named in the request's language, so the list is cached per language. */
export const topMenusQuery = (lang: Lang) => ({
  queryKey: ['top-menus', lang] as const,
  queryFn: fetchTopMenus,
  staleTime: Infinity,
});

export const topMenuRoutesQuery = (topMenuId: string) => ({
  queryKey: ['navigation', 'top-menu', topMenuId] as const,
  queryFn: () => fetchMenuRoutes(topMenuId),
  staleTime: Infinity,
});

/** The server's top menus for the signed-in user ([] while loading or when there are none). */
export function useTopMenus() {
  const lang = useLang();
  const signedIn = useSignedIn();
  return useQuery({ ...topMenusQuery(lang), enabled: signedIn });
}

/**
 * The tree the sidebar shows: the whole menu on "home", else the chosen top menu's part of it. A top
 * menu that no longer exists counts as "home". The full menu stays the source of access and titles.
 */
export function useSidebarMenu(): MenuRoute[] {
  const menu = useSession((s) => s.menu);
  const chosen = useTopMenuChoice((s) => s.topMenuId);
  const topMenus = useTopMenus();
  const valid = chosen !== null && (topMenus.data ?? []).some((m) => m.id === chosen);
  const routes = useQuery({ ...topMenuRoutesQuery(chosen ?? ''), enabled: valid });
  if (!valid) return menu;
  return routes.data ?? menu;
}
