import { describe, expect, it } from 'vitest';
import { verdictOf } from './serverVerdict';

describe('server check verdict', () => {
  it('is online when the server says so', () => {
    expect(verdictOf({ online: true })).toBe('online');
  });

  it('is offline when the server answers but is not online', () => {
    expect(verdictOf({ online: false })).toBe('offline');
    expect(verdictOf({ answered: true })).toBe('offline');
  });

  it('is a failed request without an answer', () => {
    expect(verdictOf({ answered: false })).toBe('failed');
  });
});
