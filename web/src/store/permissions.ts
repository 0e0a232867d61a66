import type { MenuRoute } from '@console/contract/envelope';
import type { MenuButton } from '@console/contract/envelope';
import { useMemo } from 'react';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { useSession } from './session';

/** The button codes the signed-in user holds; kept for the browser session only. */
interface PermissionState {
  codes: string[];
  setFromButtons: (tree: MenuButton[]) => void;
  clear: () => void;
}

/** Menu category 2 marks a button; its code is a permission. */
const BUTTON_CATEGORY = 2;

function collectButtonCodes(nodes: MenuButton[], out: Set<string>): Set<string> {
  for (const node of nodes) {
    if (node.category === BUTTON_CATEGORY && node.code) out.add(node.code);
    if (node.children) collectButtonCodes(node.children, out);
  }
  return out;
}

export const usePermissions = create<PermissionState>()(
  persist(
    (set) => ({
      codes: [],
      setFromButtons: (tree) => set({ codes: [...collectButtonCodes(tree, new Set())] }),
      clear: () => set({ codes: [] }),
    }),
    { name: 'saber-permission', version: 1, storage: createJSONStorage(() => sessionStorage) },
  ),
);

/** A checker telling whether the user holds a button code. */
export function usePermissionCheck(): (code: string) => boolean {
  const codes = usePermissions((s) => s.codes);
  return useMemo(() => {
    const held = new Set(codes);
    return (code: string) => held.has(code);
  }, [codes]);
}

function collectMenuCodes(nodes: readonly MenuRoute[], out: Set<string>): Set<string> {
  for (const node of nodes) {
    if (node.code) out.add(node.code);
    if (node.children) collectMenuCodes(node.children, out);
  }
  return out;
}

/**
 * A checker telling whether the user holds a code, a menu's (from their menu) or a button's: what the server checks
 * before answering a call, so a screen asks for nothing the user may not read.
 */
export function useCodeCheck(): (code: string) => boolean {
  const codes = usePermissions((s) => s.codes);
  const menu = useSession((s) => s.menu);
  return useMemo(() => {
    const held = collectMenuCodes(menu, new Set(codes));
    return (code: string) => held.has(code);
  }, [codes, menu]);
}
