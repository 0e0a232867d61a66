import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { formChanged } from './formDirty';

describe('formChanged', () => {
  it('is false for the values the form opened with, empty values alike', () => {
    expect(formChanged({ title: 'a', category: 1 }, { title: 'a', category: 1 })).toBe(false);
    expect(formChanged({ sort: 0 }, { sort: 0, title: undefined, content: '', tags: [] })).toBe(false);
    expect(formChanged({ title: 'a' }, { title: 'a', extra: null })).toBe(false);
  });

  it('is true once a value is typed, changed or cleared', () => {
    expect(formChanged({}, { title: 'x' })).toBe(true);
    expect(formChanged({ title: 'a' }, { title: 'ab' })).toBe(true);
    expect(formChanged({ title: 'a' }, { title: '' })).toBe(true);
    expect(formChanged({ sort: 0 }, { sort: 1 })).toBe(true);
  });

  it('compares picked times by their wire text', () => {
    expect(formChanged({ releaseTime: '2026-12-01 09:30:00' }, { releaseTime: dayjs('2026-12-01 09:30:00') })).toBe(false);
    expect(formChanged({ releaseTime: '2026-12-01 09:30:00' }, { releaseTime: dayjs('2026-12-01 09:31:00') })).toBe(true);
  });
});
