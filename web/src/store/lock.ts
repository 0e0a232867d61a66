import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/**
 * The screen lock (spec 2, 4, 9): the flag and the lock password live in sessionStorage, so a reload
 * stays locked and closing the tab forgets them. Only the password's digest is stored; the callers
 * (lock dialog, lock page) compute it, which keeps the hash out of the entry chunk.
 */
interface LockState {
  locked: boolean;
  passwordDigest: string | null;
  /** where the user was when locking; unlocking returns there */
  returnTo: string | null;
  lock: (passwordDigest: string, returnTo: string) => void;
  /** unlocks when the digest matches; tells whether it did */
  unlock: (passwordDigest: string) => boolean;
  clear: () => void;
}

const UNLOCKED = { locked: false, passwordDigest: null, returnTo: null };

export const useLock = create<LockState>()(
  persist(
    (set, get) => ({
      ...UNLOCKED,
      lock: (passwordDigest, returnTo) => set({ locked: true, passwordDigest, returnTo }),
      unlock: (passwordDigest) => {
        const state = get();
        if (!state.locked) return true;
        if (state.passwordDigest === null || passwordDigest !== state.passwordDigest) return false;
        set(UNLOCKED);
        return true;
      },
      clear: () => set(UNLOCKED),
    }),
    { name: 'saber-lock', version: 1, storage: createJSONStorage(() => sessionStorage) },
  ),
);

export const LOCK_PATH = '/lock';
