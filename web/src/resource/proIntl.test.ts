import { describe, expect, it } from 'vitest';
import { proIntl } from './proIntl';

describe('proIntl', () => {
  it('gives ProComponents the console\'s words for the toolbar, density and column settings', () => {
    const en = proIntl('en');
    expect(en.getMessage('tableToolBar.densityMiddle', '中等')).toBe('Standard');
    expect(en.getMessage('tableToolBar.noFixedTitle', '不固定')).toBe('Not pinned');
    expect(en.getMessage('tableToolBar.reload', '刷新')).toBe('Refresh');
    const zh = proIntl('zh');
    expect(zh.getMessage('tableToolBar.noFixedTitle', '不固定')).toBe('未固定');
    expect(zh.getMessage('tableToolBar.columnSetting', '列设置')).toBe('列设置');
  });

  it('falls back to ProComponents\' own locale of the language for the rest', () => {
    expect(proIntl('en').getMessage('tableForm.search', '查询')).toBe('Query');
    expect(proIntl('zh').getMessage('tableForm.search', '查询')).toBe('查询');
    expect(proIntl('en').locale).toBe('en_US');
  });
});
