import { describe, expect, it, vi } from 'vitest';
import { useSettings } from '../store/settings';

// the i18n setup (imported by pageTitle) sets the page's language on load
vi.stubGlobal('document', { documentElement: { lang: '' } });
const { addRouteLabels, pageLabel } = await import('./pageTitle');

describe('labels of the areas\' pages at fixed paths', () => {
  it('names a page by its path, or by the segments before its parameters, in the UI language', () => {
    addRouteLabels([
      { path: '/some-area/index', title: { zh: '甲', en: 'A' } },
      { path: '/some-area/form/:id/:other', title: { zh: '乙', en: 'B' } },
    ]);
    useSettings.setState({ lang: 'zh' });
    expect(pageLabel('/some-area/index')).toBe('甲');
    expect(pageLabel('/some-area/form/1/2')).toBe('乙');
    useSettings.setState({ lang: 'en' });
    expect(pageLabel('/some-area/form/1/2')).toBe('B');
    expect(pageLabel('/some-area/other')).toBeUndefined();
  });
});
