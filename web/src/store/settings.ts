import { DEFAULT_LANG, type Lang } from '@console/contract/i18n';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';

/** Shell preferences that survive reloads and sign-out: language and the sidebar state. */
interface SettingsState {
  lang: Lang;
  collapsed: boolean;
  /** ids of the open sidebar submenus */
  openMenus: string[];
  setLang: (lang: Lang) => void;
  setCollapsed: (collapsed: boolean) => void;
  setOpenMenus: (ids: string[]) => void;
}

export const useSettings = create<SettingsState>()(
  persist(
    (set) => ({
      lang: DEFAULT_LANG,
      collapsed: false,
      openMenus: [],
      setLang: (lang) => set({ lang }),
      setCollapsed: (collapsed) => set({ collapsed }),
      setOpenMenus: (openMenus) => set({ openMenus }),
    }),
    { name: 'saber-settings', version: 1 },
  ),
);
