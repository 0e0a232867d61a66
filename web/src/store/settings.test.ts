import { describe, expect, it } from 'vitest';
import { sanitiseSettings } from './settings';

describe('stored settings', () => {
  it('keeps valid values', () => {
    expect(sanitiseSettings({ lang: 'en', collapsed: true, openMenus: ['1', '2'], theme: 'hey', primaryColor: '#1677ff' })).toEqual({
      lang: 'en', collapsed: true, openMenus: ['1', '2'], theme: 'hey', primaryColor: '#1677FF',
    });
  });

  it('drops what an older build or a hand edit left behind, value by value', () => {
    expect(sanitiseSettings({ lang: 'fr', collapsed: 'yes', openMenus: [1, 'a'], theme: 'theme-hey', primaryColor: 'green' })).toEqual({
      openMenus: ['a'],
    });
    expect(sanitiseSettings(null)).toEqual({});
    expect(sanitiseSettings('garbage')).toEqual({});
  });
});
