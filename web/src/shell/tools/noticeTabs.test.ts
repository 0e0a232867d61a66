import { describe, expect, it } from 'vitest';
import { categoriesByTab, countLabel, tabOfCategory, unreadByTab } from './noticeTabs';

describe('notice tabs', () => {
  it('sorts the notice dictionary into mail, message and notice', () => {
    expect(categoriesByTab(['1', '2', '3', '4', '5', '6'])).toEqual({ mail: ['2', '3'], message: ['4', '6'], notice: ['1', '5'] });
  });

  it('puts a category the mapping does not know under notices', () => {
    expect(tabOfCategory('9')).toBe('notice');
    expect(categoriesByTab(['9', '2'])).toEqual({ mail: ['2'], message: [], notice: ['9'] });
  });

  it('feeds a tab only with categories the dictionary has', () => {
    expect(categoriesByTab(['1'])).toEqual({ mail: [], message: [], notice: ['1'] });
  });
});

describe('unread per tab', () => {
  it('adds the categories of each tab', () => {
    const byTab = categoriesByTab(['1', '2', '3', '4', '5', '6']);
    expect(unreadByTab({ 1: 2, 2: 1, 3: 4, 6: 5 }, byTab)).toEqual({ mail: 5, message: 5, notice: 2 });
    expect(unreadByTab({}, byTab)).toEqual({ mail: 0, message: 0, notice: 0 });
  });

  it('labels counts as the badge does', () => {
    expect(countLabel(0)).toBe('');
    expect(countLabel(7)).toBe('7');
    expect(countLabel(100)).toBe('99+');
  });
});
