import { describe, expect, it } from 'vitest';
import { leaveDays } from './leaveDays';

const at = (s: string) => new Date(s);

describe('leaveDays', () => {
  it('counts every started day', () => {
    expect(leaveDays(at('2030-01-01T09:00:00'), at('2030-01-01T18:00:00'))).toBe(1);
    expect(leaveDays(at('2030-01-01T09:00:00'), at('2030-01-02T18:00:00'))).toBe(2);
    expect(leaveDays(at('2030-01-01T00:00:00'), at('2030-01-03T00:00:00'))).toBe(2);
    expect(leaveDays(at('2030-01-01T00:00:00'), at('2030-01-03T00:00:01'))).toBe(3);
  });

  it('asks for at least one day', () => {
    expect(leaveDays(at('2030-01-01T09:00:00'), at('2030-01-01T09:00:00'))).toBe(1);
  });

  it('has no answer for a missing or reversed range', () => {
    expect(leaveDays(null, at('2030-01-01T09:00:00'))).toBeNull();
    expect(leaveDays(at('2030-01-01T09:00:00'), undefined)).toBeNull();
    expect(leaveDays(at('2030-01-02T09:00:00'), at('2030-01-01T09:00:00'))).toBeNull();
    expect(leaveDays(at('nonsense'), at('2030-01-01T09:00:00'))).toBeNull();
  });
});
