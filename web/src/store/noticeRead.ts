import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { withRead } from '../shell/tools/noticeTabs';

/** Which notices each user of this browser has opened (the server keeps no read state), keyed `tenant:user`. */
interface NoticeReadState {
  byUser: Record<string, string[]>;
  markRead: (userKey: string, ids: readonly string[]) => void;
}

export const useNoticeRead = create<NoticeReadState>()(
  persist(
    (set) => ({
      byUser: {},
      markRead: (userKey, ids) =>
        set((s) => ({ byUser: { ...s.byUser, [userKey]: withRead(s.byUser[userKey] ?? [], ids) } })),
    }),
    { name: 'saber-notice-read', version: 1 },
  ),
);
