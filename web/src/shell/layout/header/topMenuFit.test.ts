import { describe, expect, it } from 'vitest';
import { topMenuOfPage, visibleCount } from './topMenuFit';

describe('visibleCount', () => {
  it('shows every item when they all fit', () => {
    expect(visibleCount([60, 90, 100], 70, 250)).toBe(3);
    expect(visibleCount([], 70, 0)).toBe(0);
  });
  it('keeps room for "more" when some do not fit', () => {
    expect(visibleCount([60, 90, 100], 70, 249)).toBe(2);
    expect(visibleCount([60, 90, 100], 70, 150)).toBe(1);
    expect(visibleCount([60, 90, 100], 70, 80)).toBe(0);
  });
});

describe('topMenuOfPage', () => {
  const holds = (ids: string[]) => (id: string) => ids.includes(id);
  it('prefers the chosen top menu when it holds the page', () => {
    expect(topMenuOfPage(['a', 'b'], 'b', holds(['a', 'b']))).toBe('b');
  });
  it('else finds the first that holds it, or none', () => {
    expect(topMenuOfPage(['a', 'b'], null, holds(['b']))).toBe('b');
    expect(topMenuOfPage(['a', 'b'], 'a', holds(['b']))).toBe('b');
    expect(topMenuOfPage(['a', 'b'], 'a', holds([]))).toBeNull();
  });
});
