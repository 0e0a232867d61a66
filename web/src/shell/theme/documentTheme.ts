import { useMemo } from 'react';
import type { ThemeConfig } from 'antd';
import { useSettings } from '../../store/settings';
import { appTheme, applyThemeToDocument } from './themeStyle';

/** Keeps <html data-theme> and the theme's CSS variables on the chosen theme and colour. */
export function followThemeSettings(): () => void {
  const apply = () => {
    const { theme, primaryColor } = useSettings.getState();
    applyThemeToDocument(theme, primaryColor);
  };
  apply();
  return useSettings.subscribe((s, prev) => {
    if (s.theme !== prev.theme || s.primaryColor !== prev.primaryColor) apply();
  });
}

/** The antd theme of the chosen theme and colour, for the root ConfigProvider. */
export function useAppTheme(): ThemeConfig {
  const theme = useSettings((s) => s.theme);
  const primary = useSettings((s) => s.primaryColor);
  return useMemo(() => appTheme(theme, primary), [theme, primary]);
}
