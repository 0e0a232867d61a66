import { beforeEach, describe, expect, it } from 'vitest';

// the lock store persists to sessionStorage: a minimal one for node
const data = new Map<string, string>();
globalThis.sessionStorage = {
  getItem: (k: string) => data.get(k) ?? null,
  setItem: (k: string, v: string) => void data.set(k, v),
  removeItem: (k: string) => void data.delete(k),
  clear: () => data.clear(),
  key: (i: number) => [...data.keys()][i] ?? null,
  get length() {
    return data.size;
  },
};
const { useLock } = await import('./lock');

describe('screen lock store', () => {
  beforeEach(() => useLock.getState().clear());

  it('locks with a digest and where the user was, and persists both in sessionStorage', () => {
    useLock.getState().lock('d1', '/system/param?x=1');
    expect(useLock.getState()).toMatchObject({ locked: true, passwordDigest: 'd1', returnTo: '/system/param?x=1' });
    expect(JSON.parse(data.get('saber-lock') ?? '{}').state).toMatchObject({ locked: true, passwordDigest: 'd1' });
  });

  it('unlocks only with the same digest', () => {
    useLock.getState().lock('d1', '/wel/index');
    expect(useLock.getState().unlock('d2')).toBe(false);
    expect(useLock.getState().locked).toBe(true);
    expect(useLock.getState().unlock('d1')).toBe(true);
    expect(useLock.getState()).toMatchObject({ locked: false, passwordDigest: null, returnTo: null });
  });

  it('clear forgets the lock (sign-in, sign-out)', () => {
    useLock.getState().lock('d1', '/wel/index');
    useLock.getState().clear();
    expect(useLock.getState().locked).toBe(false);
    expect(useLock.getState().unlock('anything')).toBe(true);
  });
});
