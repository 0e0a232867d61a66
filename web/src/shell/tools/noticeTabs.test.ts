import { describe, expect, it } from 'vitest';
import { categoriesByTab, tabOfCategory, withRead } from './noticeTabs';

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

describe('withRead', () => {
  it('adds new ids once', () => {
    expect(withRead(['a'], ['a', 'b', 'b'])).toEqual(['a', 'b']);
    expect(withRead(['a'], ['a'])).toEqual(['a']);
  });

  it('forgets the oldest beyond the cap', () => {
    expect(withRead(['a', 'b', 'c'], ['d'], 3)).toEqual(['b', 'c', 'd']);
  });
});
