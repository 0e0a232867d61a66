import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { useSession, type UserInfo } from '../../store/session';
import {
  closeAll,
  closeOthers,
  closeTab,
  dropKeptExcept,
  initialTabList,
  MAX_OPEN_TABS,
  refreshPage,
  retainTabs,
  visit,
  withHomeRule,
  type TabList,
  type TabRules,
} from './tabList';
import { forgetUnsavedExcept, pageHasUnsavedChanges } from '../../resource/unsavedChanges';

/** Tab preferences, kept across reloads and sign-out like the other shell settings. */
interface TabPrefs extends TabRules {
  setHomeFixed: (homeFixed: boolean) => void;
}

export const useTabPrefs = create<TabPrefs>()(
  persist(
    (set) => ({
      homeFixed: true,
      setHomeFixed: (homeFixed) => {
        set({ homeFixed });
        useTabs.setState((s) => withHomeRule(s, { homeFixed }));
      },
    }),
    { name: 'saber-tabs-prefs', version: 1, partialize: ({ homeFixed }) => ({ homeFixed }) },
  ),
);

interface TabsState extends TabList {
  /** whose tabs these are (`tenant:user`); another user, or none, starts again from the home tab */
  owner: string | null;
  visit: (key: string, asTab: boolean) => void;
  /** The closing actions answer the key to navigate to when the page on screen was closed. */
  close: (key: string, current: string) => string | null;
  closeOthers: (key: string, current: string) => string | null;
  closeAll: (current: string) => string | null;
  refresh: (key: string) => void;
  dropKeptExcept: (current: string) => void;
  retain: (keep: (key: string) => boolean, current: string) => void;
}

const rules = (): TabRules => ({ homeFixed: useTabPrefs.getState().homeFixed });

/**
 * The tab bar's state. The tab list lives in sessionStorage: it survives a reload of the page but
 * belongs to one browser tab, so two windows of the console (or one opened with target=_blank) do not
 * overwrite each other's tabs, and a closed window takes its tabs with it. The kept pages are
 * in-memory only: a reload starts every page fresh.
 */
export const useTabs = create<TabsState>()(
  persist(
    (set, get) => {
      const apply = (result: { list: TabList; goTo: string | null }) => {
        set(result.list);
        forgetUnsavedExcept(result.list.tabs);
        return result.goTo;
      };
      return {
        ...initialTabList(),
        owner: null,
        visit: (key, asTab) => set((s) => visit(s, key, asTab, { max: MAX_OPEN_TABS, unsaved: pageHasUnsavedChanges })),
        close: (key, current) => apply(closeTab(get(), key, current, rules())),
        closeOthers: (key, current) => apply(closeOthers(get(), key, current, rules())),
        closeAll: (current) => apply(closeAll(get(), current)),
        refresh: (key) => {
          // the page remounts: its forms start again
          forgetUnsavedExcept(get().tabs.filter((k) => k !== key));
          set((s) => refreshPage(s, key));
        },
        dropKeptExcept: (current) => set((s) => dropKeptExcept(s, current)),
        retain: (keep, current) => set((s) => retainTabs(s, keep, current)),
      };
    },
    {
      name: 'saber-tabs',
      version: 1,
      storage: createJSONStorage(() => sessionStorage),
      partialize: ({ tabs, owner, clock, lastUsed }) => ({ tabs, owner, clock, lastUsed }),
      merge: (persisted, current) => ({ ...current, ...(persisted as Partial<TabsState>) }),
    },
  ),
);

function ownerOf(user: UserInfo | null): string | null {
  // a department/role switch is a new identity too: its menu differs, so its tabs start again
  return user ? `${user.tenant_id}:${user.user_id}:${user.dept_id}:${user.role_id}` : null;
}

/**
 * Signing out, and signing in (spec 4), start again from the home tab. Following the session store
 * covers every way in and out (sign-out, a 401, another browser tab) without those places knowing
 * about tabs; comparing owners keeps the tabs of the same user across a reload and a token refresh.
 */
function followSession(): void {
  const sync = () => {
    const owner = ownerOf(useSession.getState().userInfo);
    if (owner !== useTabs.getState().owner) useTabs.setState({ ...withHomeRule(initialTabList(), rules()), owner });
  };
  sync();
  useSession.subscribe(sync);
}

followSession();
