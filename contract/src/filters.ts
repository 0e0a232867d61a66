/**
 * List query conventions (api.md section 2): reserved paging keys and the filter suffixes.
 * Suffixes are matched longest first so `_notlike` is not read as `_like`.
 */
export const RESERVED_QUERY_KEYS = ['current', 'size', 'ascs', 'descs', 'blade-auth'] as const;

export const FILTER_OPS = [
  'equal', 'notequal', 'like', 'likeleft', 'likeright', 'notlike',
  'ge', 'le', 'gt', 'lt',
  'datege', 'datele', 'dategt', 'datelt', 'dateequal',
  'null', 'notnull', 'in',
] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

const SUFFIXES = [...FILTER_OPS].sort((a, b) => b.length - a.length);

export interface ParsedFilterKey {
  field: string;
  /** `default` means the key had no suffix */
  op: FilterOp | 'default';
}

export function parseFilterKey(key: string): ParsedFilterKey {
  for (const op of SUFFIXES) {
    const suffix = `_${op}`;
    if (key.length > suffix.length && key.endsWith(suffix)) {
      return { field: key.slice(0, -suffix.length), op };
    }
  }
  return { field: key, op: 'default' };
}

export const PAGE_SIZES = [10, 30, 50, 100, 200] as const;
export const MAX_PAGE_SIZE = 500;
export const MAX_IDS_PER_CALL = 1000;

export function snakeToCamel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

export function camelToSnake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
