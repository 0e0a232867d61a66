import { useCallback } from 'react';
import { useLang } from '../../i18n';
import { useSession } from '../../store/session';
import { pageLabel } from '../pageTitle';
import { pathOf } from './tabList';

/**
 * A tab's label: the page's label in the UI language (the same one the document title uses), or
 * undefined for a path that is neither a fixed page nor in the user's menu. Re-renders on a change of
 * language or menu.
 */
export function useTabLabel(): (key: string) => string | undefined {
  const lang = useLang();
  const menu = useSession((s) => s.menu);
  // pageLabel reads the language and the menu from their stores: a new function when either changes
  return useCallback((key: string) => pageLabel(pathOf(key)), [lang, menu]);
}
