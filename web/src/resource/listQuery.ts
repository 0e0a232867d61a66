import type { Query } from '../api/client';

/** ProTable's sort state: column key → order. */
export type SortState = Record<string, 'ascend' | 'descend' | null | undefined>;

/** ProTable's request params: paging plus the (already transformed) search values. */
export interface TableParams {
  current?: number;
  pageSize?: number;
  [key: string]: unknown;
}

export const DEFAULT_PAGE_SIZE = 10;

/** A search value as sent, or undefined when it must be dropped (empty or blank). */
function queryValue(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    const parts = value.map(queryValue).filter((v): v is string => v !== undefined);
    return parts.length > 0 ? parts.join(',') : undefined;
  }
  return undefined;
}

/**
 * The query of a `list` call (api.md section 2): `current`, `size`, the filters with blank values
 * dropped, and `ascs` / `descs` from the sorted column.
 */
export function buildListQuery(params: TableParams, sort: SortState = {}): Query {
  const { current, pageSize, ...filters } = params;
  const query: Query = { current: current ?? 1, size: pageSize ?? DEFAULT_PAGE_SIZE };
  for (const [key, raw] of Object.entries(filters)) {
    const value = queryValue(raw);
    if (value !== undefined) query[key] = value;
  }
  for (const [field, order] of Object.entries(sort)) {
    if (order === 'ascend') query.ascs = field;
    else if (order === 'descend') query.descs = field;
  }
  return query;
}
