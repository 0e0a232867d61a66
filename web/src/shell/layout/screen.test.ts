import { describe, expect, it } from 'vitest';
import { collapsesAt, screenLevel } from './screen';

describe('screen level (spec 9)', () => {
  it('maps widths to levels at the 768 / 992 / 1200 breakpoints', () => {
    expect(screenLevel(0)).toBe(0);
    expect(screenLevel(767)).toBe(0);
    expect(screenLevel(768)).toBe(1);
    expect(screenLevel(991)).toBe(1);
    expect(screenLevel(992)).toBe(2);
    expect(screenLevel(1199)).toBe(2);
    expect(screenLevel(1200)).toBe(3);
    expect(screenLevel(2560)).toBe(3);
  });

  it('collapses the menu at level 1 or less', () => {
    expect([0, 1, 2, 3].map((l) => collapsesAt(l as 0 | 1 | 2 | 3))).toEqual([true, true, false, false]);
    expect(collapsesAt(screenLevel(900))).toBe(true);
    expect(collapsesAt(screenLevel(1300))).toBe(false);
  });
});
