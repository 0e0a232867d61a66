import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { tabKeyOf } from '../../shell/tabs/tabList';
import { useTabs } from '../../shell/tabs/tabsStore';

/**
 * Goes to `path` and closes the tab of the page on screen: a business form is done once submitted (a kept
 * form would still show the request it sent, a kept handle page a task that is gone).
 */
export function useCloseAndGo(): (path: string) => Promise<void> {
  const navigate = useNavigate();
  const here = tabKeyOf(useLocation());
  return useCallback(async (path: string) => {
    await navigate(path);
    useTabs.getState().close(here, path);
  }, [navigate, here]);
}
