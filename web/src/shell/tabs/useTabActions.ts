import { API } from '@console/contract';
import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { request } from '../../api/client';
import { useDiscardGuard } from '../../resource/unsavedChanges';
import { isPlatformAdmin, useSession } from '../../store/session';
import { testId } from '../../testId';
import { withNewWindowOption } from './newWindow';
import { tabKeyOf } from './tabList';
import { useTabs } from './tabsStore';

export interface TabActions {
  /** the key of the page on screen */
  current: string;
  show: (key: string) => void;
  /** remounts the page (and shows it) */
  refresh: (key: string) => void;
  close: (key: string) => void;
  closeOthers: (key: string) => void;
  closeAll: () => void;
  /** opens the page in a new window, through the `target=_blank` query option */
  openWindow: (key: string) => void;
  /** asks, then clears the server's cache, the query cache and the hidden pages */
  clearCache: () => void;
}

/** What the tab bar, its context menu and its dropdown can do; each action navigates where it must. */
export function useTabActions(): TabActions {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const current = tabKeyOf(useLocation());
  const store = useTabs.getState;
  // an action that frees pages holding unsaved input asks first
  const guard = useDiscardGuard();
  const go = (key: string | null) => {
    if (key !== null) void navigate(key);
  };

  const clearCache = () => {
    guard(store().kept.map((p) => p.key).filter((k) => k !== current), () => modal.confirm({
      title: t('common.tip'),
      content: t('tabs.clearCacheConfirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: testId('confirm-ok'),
      cancelButtonProps: testId('confirm-cancel'),
      onOk: async () => {
        // the server's caches (permissions, dictionaries, clients) are the platform administrators' to
        // drop; everyone else clears what this console holds
        if (isPlatformAdmin(useSession.getState().userInfo)) {
          try {
            await request<boolean>(API.clearCache);
          } catch {
            return; // the client has toasted the failure; nothing was cleared here either
          }
        }
        store().dropKeptExcept(current);
        // active queries (the page on screen, the menu) refetch; the others are emptied
        await queryClient.resetQueries();
        void message.success(t('tabs.cacheCleared'));
      },
    }));
  };

  return {
    current,
    show: (key) => go(key === current ? null : key),
    refresh: (key) => guard([key], () => {
      store().refresh(key);
      go(key === current ? null : key);
    }),
    close: (key) => guard([key], () => go(store().close(key, current))),
    closeOthers: (key) => guard(store().tabs.filter((k) => k !== key), () => go(store().closeOthers(key, current))),
    closeAll: () => guard(store().tabs, () => go(store().closeAll(current))),
    openWindow: (key) => go(withNewWindowOption(key)),
    clearCache,
  };
}
