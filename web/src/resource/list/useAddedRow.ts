import type { TreeDef } from '@console/contract';
import { useCallback, useState, type Key, type RefObject } from 'react';

/** The id of a created row and of its parent (none for a root), from the submit's answer. */
export function createdRow(answer: unknown, tree: Pick<TreeDef, 'parentField'>): { id: string; parentId: string | null } | null {
  if (typeof answer !== 'object' || answer === null) return null;
  const rec = answer as Record<string, unknown>;
  if (typeof rec.id !== 'string' && typeof rec.id !== 'number') return null;
  const parent = rec[tree.parentField];
  const parentId = parent === undefined || parent === null || String(parent) === '0' || String(parent) === '' ? null : String(parent);
  return { id: String(rec.id), parentId };
}

/**
 * A tree's new row is not hidden under a collapsed parent: once created, its parent opens and the row is
 * marked and scrolled into view when the reloaded list arrives.
 */
export function useAddedRow(tree: TreeDef | undefined, setExpanded: (update: (keys: readonly Key[]) => readonly Key[]) => void, rootRef: RefObject<HTMLElement | null>) {
  const [added, setAdded] = useState<string | null>(null);
  const onCreated = useCallback((answer: unknown) => {
    const row = tree ? createdRow(answer, tree) : null;
    if (!row) return;
    if (row.parentId) {
      const parentId = row.parentId;
      setExpanded((keys) => (keys.map(String).includes(parentId) ? keys : [...keys, parentId]));
    }
    setAdded(row.id);
  }, [tree, setExpanded]);
  const rowClassName = useCallback((rec: { id: string }) => (rec.id === added ? 'resource-row-added' : ''), [added]);
  const onLoad = useCallback(() => {
    if (!added) return;
    requestAnimationFrame(() => rootRef.current?.querySelector('.resource-row-added')?.scrollIntoView({ block: 'nearest' }));
  }, [added, rootRef]);
  return { onCreated, rowClassName, onLoad };
}
