import { DEFAULT_LANG, type Lang, LANGS } from '@console/contract/i18n';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { normaliseHex } from '../shell/theme/paint';
import { DEFAULT_PRIMARY, DEFAULT_THEME, isThemeName, type ThemeName } from '../shell/theme/themes';

/** Shell preferences that survive reloads and sign-out: language, sidebar state, theme and colour. */
interface SettingsState {
  lang: Lang;
  collapsed: boolean;
  /** ids of the open sidebar submenus */
  openMenus: string[];
  theme: ThemeName;
  /** `#RRGGBB` */
  primaryColor: string;
  setLang: (lang: Lang) => void;
  setCollapsed: (collapsed: boolean) => void;
  setOpenMenus: (ids: string[]) => void;
  setTheme: (theme: ThemeName) => void;
  setPrimaryColor: (hex: string) => void;
}

type Persisted = Partial<Pick<SettingsState, 'lang' | 'collapsed' | 'openMenus' | 'theme' | 'primaryColor'>>;

/** Stored values from older builds or edited by hand fall back to the defaults one by one. */
export function sanitiseSettings(stored: unknown): Persisted {
  if (typeof stored !== 'object' || stored === null) return {};
  const s = stored as Record<string, unknown>;
  const out: Persisted = {};
  if ((LANGS as readonly unknown[]).includes(s.lang)) out.lang = s.lang as Lang;
  if (typeof s.collapsed === 'boolean') out.collapsed = s.collapsed;
  if (Array.isArray(s.openMenus)) out.openMenus = s.openMenus.filter((id): id is string => typeof id === 'string');
  if (isThemeName(s.theme)) out.theme = s.theme;
  const colour = normaliseHex(s.primaryColor);
  if (colour) out.primaryColor = colour;
  return out;
}

export const useSettings = create<SettingsState>()(
  persist(
    (set) => ({
      lang: DEFAULT_LANG,
      collapsed: false,
      openMenus: [],
      theme: DEFAULT_THEME,
      primaryColor: DEFAULT_PRIMARY,
      setLang: (lang) => set({ lang }),
      setCollapsed: (collapsed) => set({ collapsed }),
      setOpenMenus: (openMenus) => set({ openMenus }),
      setTheme: (theme) => set({ theme }),
      setPrimaryColor: (hex) => {
        const colour = normaliseHex(hex);
        if (colour) set({ primaryColor: colour });
      },
    }),
    {
      name: 'saber-settings',
      version: 1,
      partialize: ({ lang, collapsed, openMenus, theme, primaryColor }) => ({ lang, collapsed, openMenus, theme, primaryColor }),
      merge: (stored, current) => ({ ...current, ...sanitiseSettings(stored) }),
    },
  ),
);
