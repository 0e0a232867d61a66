import type { SaveContext } from './hooks.js';

/** The after-commit steps of a call: single steps, and steps run once over the items collected under a key. */
export function afterCommitQueue(steps: Array<() => Promise<void> | void>): Pick<SaveContext, 'afterCommit' | 'afterCommitWith'> {
  const collected = new Map<string, unknown[]>();
  return {
    afterCommit: (fn) => void steps.push(fn),
    afterCommitWith: <T>(key: string, item: T, fn: (items: T[]) => Promise<void> | void) => {
      let items = collected.get(key) as T[] | undefined;
      if (!items) {
        const all: T[] = [];
        collected.set(key, all);
        steps.push(() => fn(all));
        items = all;
      }
      items.push(item);
    },
  };
}
