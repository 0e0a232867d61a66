import type { MenuRoute, TokenResponse } from '@console/contract/envelope';
import { PLATFORM_TENANT } from '@console/contract/paths';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';

/** The access token with the moment it was obtained (ms since epoch); its age drives the refresh. */
export interface StoredToken {
  content: string;
  datetime: number;
}

/** The token object minus the tokens themselves. */
export type UserInfo = Omit<TokenResponse, 'access_token' | 'refresh_token'>;

interface SessionState {
  token: StoredToken | null;
  refreshToken: string | null;
  userInfo: UserInfo | null;
  menu: MenuRoute[];
  /** Stores a fresh token answer (sign-in or refresh): both tokens and the user info. */
  setToken: (answer: TokenResponse) => void;
  setMenu: (menu: MenuRoute[]) => void;
  /** After the user edits their own profile: the header shows the new name and avatar at once. */
  updateUserInfo: (patch: Partial<UserInfo>) => void;
  clear: () => void;
}

const SIGNED_OUT = { token: null, refreshToken: null, userInfo: null, menu: [] };

export const useSession = create<SessionState>()(
  persist(
    (set) => ({
      ...SIGNED_OUT,
      setToken: ({ access_token, refresh_token, ...userInfo }) =>
        set({ token: { content: access_token, datetime: Date.now() }, refreshToken: refresh_token, userInfo }),
      setMenu: (menu) => set({ menu }),
      updateUserInfo: (patch) => set((s) => (s.userInfo ? { userInfo: { ...s.userInfo, ...patch } } : {})),
      clear: () => set(SIGNED_OUT),
    }),
    { name: 'saber-session', version: 1 },
  ),
);

/** The platform's administrators (the server's `isPlatformAdmin`): the role alias administrator in tenant 000000. */
export function isPlatformAdmin(info: UserInfo | null): boolean {
  return info?.tenant_id === PLATFORM_TENANT && info.role_name.split(',').includes('administrator');
}

export function useIsPlatformAdmin(): boolean {
  return useSession((s) => isPlatformAdmin(s.userInfo));
}

export function useSignedIn(): boolean {
  return useSession((s) => s.token !== null);
}

/** Another tab signing in, refreshing or signing out changes localStorage: follow it. */
export function followOtherTabs(): () => void {
  const onStorage = (e: StorageEvent) => {
    if (e.key === useSession.persist.getOptions().name) void useSession.persist.rehydrate();
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}
