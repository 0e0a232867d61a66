import { Activity, Suspense, useEffect, useLayoutEffect, useMemo, useRef, type ContextType, type ReactNode } from 'react';
import { useLocation, useNavigationType, useOutlet, UNSAFE_LocationContext as LocationContext } from 'react-router';
import { useSession } from '../../store/session';
import { PageLoading } from '../PageLoading';
import { withoutNewWindowOption } from './newWindow';
import { useNewWindowTargets } from './useNewWindowTargets';
import { tabKeyOf } from './tabList';
import { useTabLabel } from './tabLabels';
import { useTabs } from './tabsStore';

type LocationValue = ContextType<typeof LocationContext>;

/** What a page needs to render while another one is on screen: its route element and its location. */
interface Snapshot {
  element: ReactNode;
  location: LocationValue;
}

/**
 * The layout's page area with keep-alive, in place of `<Outlet/>` (docs/keep-alive.md). The router
 * still matches, lazy-loads and renders the page on screen; every page with a tab stays mounted inside
 * its own `<Activity>`, hidden while another tab is shown, with the element and location it had when it
 * was last on screen, so `useLocation` inside a hidden page still sees its own path and query.
 */
export function KeptPages() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const outlet = useOutlet();
  const key = tabKeyOf(location);
  const labelOf = useTabLabel();
  // a URL loaded with the new-window option is shown without it (useNewWindowTargets): no tab for it
  const hasTab = labelOf(key) !== undefined && withoutNewWindowOption(location.search) === null;
  const kept = useTabs((s) => s.kept);
  const visit = useTabs((s) => s.visit);
  const retain = useTabs((s) => s.retain);
  const menu = useSession((s) => s.menu);

  const revision = kept.find((p) => p.key === key)?.revision ?? 0;
  // one context value per location, so a hidden page is not re-rendered by the next navigation
  const locationValue = useMemo<LocationValue>(() => ({ location, navigationType }), [location, navigationType]);
  const snapshots = useRef(new Map<string, Snapshot>());
  /** the document's scroll offset per page, for the revision of the page it was measured on */
  const scrolls = useRef(new Map<string, { revision: number; top: number }>());
  const shown = useRef({ key, revision });

  useNewWindowTargets();

  useLayoutEffect(() => visit(key, hasTab), [visit, key, hasTab]);

  // a page that left the menu (another role, a menu change) loses its tab
  useEffect(() => {
    if (menu.length > 0) retain((k) => labelOf(k) !== undefined, shown.current.key);
  }, [menu, labelOf, retain]);

  useLayoutEffect(() => {
    snapshots.current.set(key, { element: outlet, location: locationValue });
    for (const k of snapshots.current.keys()) {
      if (k !== key && !kept.some((p) => p.key === k)) {
        snapshots.current.delete(k);
        scrolls.current.delete(k);
      }
    }
  });

  // Scroll: the document scrolls the content area; remember where each page was and go back there
  // (a refreshed page starts at the top).
  useLayoutEffect(() => {
    shown.current = { key, revision };
    const saved = scrolls.current.get(key);
    window.scrollTo({ top: saved?.revision === revision ? saved.top : 0, behavior: 'instant' });
  }, [key, revision]);
  useEffect(() => {
    const onScroll = () => scrolls.current.set(shown.current.key, { revision: shown.current.revision, top: window.scrollY });
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  // Before the visit lands (and for a page without a tab) the page on screen is not kept yet: it goes
  // last, where it will stay once kept, so that nothing is remounted or moved.
  const pages = kept.some((p) => p.key === key) ? kept : [...kept, { key, used: 0, revision: 0 }];
  return pages.map(({ key: k, revision: r }) => {
    const onScreen = k === key;
    const snapshot = onScreen ? { element: outlet, location: locationValue } : snapshots.current.get(k);
    if (!snapshot) return null;
    return (
      <Activity key={k} mode={onScreen ? 'visible' : 'hidden'}>
        <div key={r} data-testid="kept-page" data-key={k}>
          <LocationContext.Provider value={snapshot.location}>
            <Suspense fallback={<PageLoading />}>{snapshot.element}</Suspense>
          </LocationContext.Provider>
        </div>
      </Activity>
    );
  });
}
