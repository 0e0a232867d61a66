import type { TreeNode } from '@console/contract';

/**
 * Region paths (`FieldDef.regionPath`): codes of the region tree from the province down, comma-joined on the wire
 * (`330000,330100,330106`), picked in a cascader that loads the tree level by level.
 */

/** The parent of the top level in `lazy-tree` (the provinces). */
export const REGION_ROOT = '0';

/** A path's codes ('330000,330100' → ['330000', '330100']); blanks dropped. */
export function splitPath(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String).filter((c) => c.trim() !== '');
  if (typeof value !== 'string' && typeof value !== 'number') return [];
  return String(value).split(',').map((c) => c.trim()).filter(Boolean);
}

/** The wire value of picked codes: comma-joined, or undefined for none (cleared). */
export function joinPath(codes: readonly unknown[] | null | undefined): string | undefined {
  const parts = (codes ?? []).map(String).filter((c) => c !== '');
  return parts.length ? parts.join(',') : undefined;
}

/** The region a path names: its last code (what a region search sends). */
export function lastCode(value: unknown): string | undefined {
  return splitPath(value).at(-1);
}

/** The levels to load for a path to show by name: the top one and those under each of its codes but the last. */
export function levelsOf(path: readonly string[]): string[] {
  return [REGION_ROOT, ...path.slice(0, -1)];
}

export interface RegionOption {
  value: string;
  label: string;
  isLeaf: boolean;
  /** loaded: the level under it (empty: none, or it could not be loaded) */
  children?: RegionOption[];
}

/**
 * The cascader's options from the loaded levels (parent code → its children; null: the level could not be loaded).
 * A node the server says has no children is a leaf; one whose level is not loaded yet is opened by loading it.
 */
export function regionOptions(levels: ReadonlyMap<string, readonly TreeNode[] | null>, parent: string = REGION_ROOT): RegionOption[] {
  return (levels.get(parent) ?? []).map((n) => {
    const option: RegionOption = { value: n.id, label: n.title, isLeaf: n.hasChildren === false };
    if (!option.isLeaf && levels.has(n.id)) option.children = regionOptions(levels, n.id);
    return option;
  });
}

/** Whether a path of options matches a search: one of its names holds the text (any case). */
export function pathMatches(input: string, path: ReadonlyArray<{ label?: unknown }>): boolean {
  const q = input.trim().toLowerCase();
  return q !== '' && path.some((o) => String(o.label ?? '').toLowerCase().includes(q));
}
