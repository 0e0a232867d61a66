import { theme as antdTheme, type ThemeConfig } from 'antd';
import { inkOn, resolvePaint } from './paint';
import { THEMES, type ThemeName } from './themes';

/** How a theme and the primary colour reach antd (tokens) and the rest of the frame (CSS variables). */

export const HEADER_HEIGHT = 56;

/** The console-wide antd theme: primary colour, dark algorithm and the Layout component's colours. */
export function appTheme(name: ThemeName, primary: string): ThemeConfig {
  const p = THEMES[name];
  const paint = (v: Parameters<typeof resolvePaint>[0]) => resolvePaint(v, primary);
  return {
    algorithm: p.dark ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
    token: { colorPrimary: primary, colorLink: primary, ...p.tokens },
    components: {
      Layout: {
        bodyBg: paint(p.pageBg),
        headerBg: paint(p.header.bg),
        headerColor: paint(p.header.text),
        headerHeight: HEADER_HEIGHT,
        headerPadding: '0 12px',
        siderBg: paint(p.sider.bg),
        lightSiderBg: paint(p.sider.bg),
      },
    },
  };
}

/** The sidebar's own antd theme (nested, so that menus elsewhere keep antd's defaults). */
export function siderTheme(name: ThemeName, primary: string): ThemeConfig {
  const s = THEMES[name].sider;
  const paint = (v: Parameters<typeof resolvePaint>[0]) => resolvePaint(v, primary);
  return {
    components: {
      Menu: {
        itemBg: paint(s.bg),
        subMenuItemBg: paint(s.subBg),
        popupBg: paint(s.popupBg ?? s.bg),
        itemColor: paint(s.text),
        groupTitleColor: paint(s.text),
        itemHoverColor: paint(s.hoverText),
        itemHoverBg: paint(s.hoverBg),
        itemActiveBg: paint(s.hoverBg),
        itemSelectedBg: paint(s.selectedBg),
        itemSelectedColor: paint(s.selectedText),
        subMenuItemSelectedColor: paint(s.openText ?? s.selectedText),
        // antd draws its inline active bar on the right; the left one comes from the CSS variables
        activeBarWidth: s.bar === 'right' ? 3 : 0,
        activeBarBorderWidth: 0,
        itemBorderRadius: s.itemRadius,
        subMenuItemBorderRadius: s.itemRadius,
        itemMarginInline: s.itemRadius > 0 ? 8 : 0,
      },
    },
  };
}

/** The CSS variables set on <html> for what antd's tokens do not reach (logo, tag bar, backdrop, bars). */
export function themeCssVars(name: ThemeName, primary: string): Record<string, string> {
  const p = THEMES[name];
  const paint = (v: Parameters<typeof resolvePaint>[0]) => resolvePaint(v, primary);
  return {
    '--shell-primary': primary,
    '--shell-backdrop': p.backdrop ?? 'none',
    '--shell-page-bg': paint(p.pageBg),
    '--shell-logo-bg': paint(p.logo.bg),
    '--shell-logo-text': paint(p.logo.text),
    '--shell-sider-bg': paint(p.sider.bg),
    '--shell-sider-text': paint(p.sider.text),
    '--shell-sider-shadow': p.sider.shadow,
    '--shell-menu-bar-left': p.sider.bar === 'left' ? '4px' : '0px',
    '--shell-menu-bar-color': paint(p.sider.barColor),
    '--shell-header-bg': paint(p.header.bg),
    '--shell-header-text': paint(p.header.text),
    '--shell-header-shadow': p.header.shadow,
    '--shell-header-search-bg': paint(p.header.searchBg),
    '--shell-tags-bg': paint(p.tags.bg),
    '--shell-tag-bg': paint(p.tags.tagBg),
    '--shell-tag-text': paint(p.tags.tagText),
    '--shell-tag-active-bg': paint(p.tags.activeBg),
    '--shell-tag-active-text': paint(p.tags.activeText),
    '--shell-tag-active-border': paint(p.tags.activeBorder),
    // the active tab's close button: readable on the active tab whatever its text colour (white theme: white text bar, white tab)
    '--shell-tag-active-close': inkOn(paint(p.tags.activeBg), p.dark || p.backdrop ? '#1f1f2e' : '#ffffff'),
  };
}

/** Puts the theme on <html>: `data-theme`, the colour scheme and the CSS variables. */
export function applyThemeToDocument(name: ThemeName, primary: string, root: HTMLElement = document.documentElement): void {
  root.dataset.theme = name;
  root.style.colorScheme = THEMES[name].dark ? 'dark' : 'light';
  for (const [key, value] of Object.entries(themeCssVars(name, primary))) root.style.setProperty(key, value);
}
