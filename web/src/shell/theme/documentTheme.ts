import { useMemo } from 'react';
import type { ThemeConfig } from 'antd';
import { useSettings } from '../../store/settings';
import { usePrefersReducedMotion } from './reducedMotion';
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

/** The antd theme of the chosen theme and colour, for the root ConfigProvider; still when less motion is asked for. */
export function useAppTheme(): ThemeConfig {
  const theme = useSettings((s) => s.theme);
  const primary = useSettings((s) => s.primaryColor);
  const reducedMotion = usePrefersReducedMotion();
  return useMemo(() => {
    const config = appTheme(theme, primary);
    return reducedMotion ? { ...config, token: { ...config.token, motion: false } } : config;
  }, [theme, primary, reducedMotion]);
}
