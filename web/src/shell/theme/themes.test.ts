import { theme as antdTheme } from 'antd';
import { describe, expect, it } from 'vitest';
import { fade, normaliseHex, resolvePaint } from './paint';
import { appTheme, siderTheme, themeCssVars } from './themeStyle';
import { DEFAULT_PRIMARY, DEFAULT_THEME, isThemeName, THEME_NAMES, THEMES } from './themes';

describe('theme table', () => {
  it('has the eleven themes of spec 2 and defaults to d2 with #52D577 (spec 9)', () => {
    expect(THEME_NAMES).toEqual(['default', 'white', 'dark', 'star', 'smart', 'iview', 'vip', 'cool', 'd2', 'hey', 'lte']);
    expect(Object.keys(THEMES).sort()).toEqual([...THEME_NAMES].sort());
    expect(DEFAULT_THEME).toBe('d2');
    expect(DEFAULT_PRIMARY).toBe('#52D577');
    expect(isThemeName('hey')).toBe(true);
    expect(isThemeName('theme-hey')).toBe(false);
    expect(isThemeName(undefined)).toBe(false);
  });

  it('gives every theme its own frame: no two share sidebar, header and page colours', () => {
    const looks = THEME_NAMES.map((n) => {
      const v = themeCssVars(n, DEFAULT_PRIMARY);
      return [v['--shell-sider-bg'], v['--shell-header-bg'], v['--shell-page-bg'], v['--shell-backdrop']].join('|');
    });
    expect(new Set(looks).size).toBe(THEME_NAMES.length);
  });

  it('sets the same CSS variables for every theme', () => {
    const keys = Object.keys(themeCssVars(DEFAULT_THEME, DEFAULT_PRIMARY)).sort();
    for (const name of THEME_NAMES) expect(Object.keys(themeCssVars(name, '#123456')).sort()).toEqual(keys);
  });

  it('puts the primary colour into antd and into the palette entries that ask for it', () => {
    const config = appTheme('white', '#1677FF');
    expect(config.token?.colorPrimary).toBe('#1677FF');
    expect(config.components?.Layout?.headerBg).toBe('#1677FF');
    expect(siderTheme('white', '#1677FF').components?.Menu?.itemSelectedBg).toBe('#1677FF');
    expect(siderTheme('hey', '#1677FF').components?.Menu?.itemSelectedBg).toBe('rgba(22,119,255,0.1)');
    expect(themeCssVars('d2', '#FA541C')['--shell-logo-text']).toBe('#FA541C');
  });

  it('uses the dark algorithm for the dark theme only', () => {
    for (const name of THEME_NAMES) {
      const algorithm = appTheme(name, DEFAULT_PRIMARY).algorithm;
      expect(algorithm).toBe(name === 'dark' ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm);
    }
  });

  it('marks the selected item with a bar on the side the theme asks for', () => {
    expect(themeCssVars('default', DEFAULT_PRIMARY)['--shell-menu-bar-left']).toBe('4px');
    expect(siderTheme('default', DEFAULT_PRIMARY).components?.Menu?.activeBarWidth).toBe(0);
    expect(themeCssVars('hey', DEFAULT_PRIMARY)['--shell-menu-bar-left']).toBe('0px');
    expect(siderTheme('hey', DEFAULT_PRIMARY).components?.Menu?.activeBarWidth).toBe(3);
  });
});

describe('paint', () => {
  it('normalises hex colours and rejects anything else', () => {
    expect(normaliseHex('#52d577')).toBe('#52D577');
    expect(normaliseHex('52d577')).toBe('#52D577');
    expect(normaliseHex('#abc')).toBe('#AABBCC');
    expect(normaliseHex('red')).toBeNull();
    expect(normaliseHex('#12345')).toBeNull();
    expect(normaliseHex(42)).toBeNull();
  });

  it('fades a colour to an opacity', () => {
    expect(fade('#52D577', 1)).toBe('#52D577');
    expect(fade('#000000', 0.5)).toBe('rgba(0,0,0,0.5)');
    expect(fade('#ff8000', 0.25)).toBe('rgba(255,128,0,0.25)');
    expect(() => fade('blue', 0.5)).toThrow();
  });

  it('resolves palette entries', () => {
    expect(resolvePaint('#fff', '#52D577')).toBe('#fff');
    expect(resolvePaint({ primary: 1 }, '#52D577')).toBe('#52D577');
    expect(resolvePaint({ primary: 0.1 }, '#52D577')).toBe('rgba(82,213,119,0.1)');
    // an ink readable on the primary colour: dark on the light default green, white on a dark blue
    expect(resolvePaint({ inkOnPrimary: true }, '#52D577')).toBe('rgba(0,0,0,0.65)');
    expect(resolvePaint({ inkOnPrimary: true }, '#2F54EB')).toBe('rgba(255,255,255,0.9)');
  });
});
