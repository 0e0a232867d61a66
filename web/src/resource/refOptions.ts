import type { TreeNode } from '@console/contract';

export interface RefOption {
  label: string;
  value: string;
}

export interface TreeOption {
  title: string;
  value: string;
  key: string;
  disabled?: boolean;
  children?: TreeOption[];
}

/** An `ids` value ('1,2', or a list) as a list of ids; a `ref` value as a list of at most one. */
export function splitIds(value: unknown): string[] {
  if (value === undefined || value === null || value === '') return [];
  const parts = Array.isArray(value) ? value.map(String) : String(value).split(',');
  return parts.map((s) => s.trim()).filter(Boolean);
}

/** A multi-select's value as the wire has it: '1,2' ('' for none). */
export function joinIds(value: unknown): string {
  return splitIds(value).join(',');
}

/**
 * Select options of referenced rows, labelled by their name field; the current values the rows do
 * not include (not on the loaded page) come first, labelled as the record names them.
 */
export function refOptions(rows: readonly Record<string, unknown>[], nameField: string, current: readonly RefOption[] = []): RefOption[] {
  const options: RefOption[] = rows.map((row) => {
    const id = String(row.id);
    const name = row[nameField];
    return { value: id, label: name === undefined || name === null || name === '' ? id : String(name) };
  });
  const known = new Set(options.map((o) => o.value));
  return [...current.filter((o) => !known.has(o.value)), ...options];
}

/**
 * TreeSelect options from tree nodes (`{path}/tree`); the node `exclude` and its subtree are disabled
 * (a row cannot move under itself).
 */
export function treeOptions(nodes: readonly TreeNode[], exclude?: string, inExcluded = false): TreeOption[] {
  return nodes.map((node) => {
    const disabled = inExcluded || (exclude !== undefined && node.id === exclude);
    const option: TreeOption = { title: node.title, value: node.value, key: node.key };
    if (disabled) option.disabled = true;
    if (node.children?.length) option.children = treeOptions(node.children, exclude, disabled);
    return option;
  });
}
