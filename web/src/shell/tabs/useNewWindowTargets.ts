import { useEffect, useRef } from 'react';
import { useBlocker, useLocation, useNavigate, type Location } from 'react-router';
import { useSession } from '../../store/session';
import { newWindowUrl, withoutNewWindowOption } from './newWindow';

/**
 * Opening a page (a push navigation: links, the sidebar, the tab menu, `navigate()`) whose query
 * carries `target=_blank`, or that is a menu entry marked to open in a new window, opens a new window
 * instead of a tab here. A router blocker sees every such navigation wherever it starts; redirects
 * (replace) and back/forward stay here. Note: react-router supports one blocker at a time.
 *
 * A URL loaded with the option (typed, bookmarked) shows the page here, without the option.
 */
export function useNewWindowTargets(): void {
  const blocker = useBlocker(
    ({ nextLocation, historyAction }) =>
      historyAction === 'PUSH' && newWindowUrl(nextLocation, useSession.getState().menu) !== null,
  );
  // the blocked navigation being handled: effects may run twice for one (StrictMode)
  const handled = useRef<Location | null>(null);
  useEffect(() => {
    if (blocker.state !== 'blocked' || handled.current === blocker.location) return;
    handled.current = blocker.location;
    const url = newWindowUrl(blocker.location, useSession.getState().menu);
    blocker.reset();
    if (url) window.open(url, '_blank', 'noopener');
  }, [blocker]);

  const location = useLocation();
  const navigate = useNavigate();
  const search = withoutNewWindowOption(location.search);
  useEffect(() => {
    if (search !== null) void navigate({ pathname: location.pathname, search, hash: location.hash }, { replace: true });
  }, [navigate, location.pathname, location.hash, search]);
}
