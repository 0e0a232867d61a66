import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/** The chosen top menu (null: "home", the whole menu); per browser tab, kept across reloads. */
interface TopMenuChoice {
  topMenuId: string | null;
  choose: (id: string | null) => void;
}

export const useTopMenuChoice = create<TopMenuChoice>()(
  persist((set) => ({ topMenuId: null, choose: (topMenuId) => set({ topMenuId }) }), {
    name: 'saber-top-menu',
    version: 1,
    storage: createJSONStorage(() => sessionStorage),
  }),
);
