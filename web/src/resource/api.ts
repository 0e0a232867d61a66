import { crudPaths, type Page, type RemoveImpact, removeImpactPath, type ResourceDef } from '@console/contract';
import { request, type Query } from '../api/client';
import type { ResourceRecord } from './types';

/** The four engine calls of a resource (api.md section 2). */
export interface ResourceApi<Rec> {
  list: (query: Query) => Promise<Page<Rec>>;
  detail: (id: string) => Promise<Rec>;
  /**
   * no id creates, an id updates; `confirm` names the warnings the user accepted (a warning is not toasted: the
   * form asks about it)
   */
  submit: (body: Record<string, unknown>, opts?: { confirm?: readonly string[] }) => Promise<unknown>;
  remove: (ids: readonly string[]) => Promise<unknown>;
  /** what removing them would do (refused, or what goes with them), in the user's language; nothing changes */
  removeImpact: (ids: readonly string[]) => Promise<RemoveImpact>;
  /** a tree with `unpagedList`: every matching row, nested in `children` */
  treeList: (query: Query) => Promise<Rec[]>;
  /** a tree: the roots, paged */
  parentList: (query: Query) => Promise<Page<Rec>>;
  /** a tree: the children of `parentId` ('0': the roots), unpaged, with `hasChildren`; with filters it searches every level */
  lazyList: (parentId: string, query?: Query) => Promise<Rec[]>;
}

export function resourceApi<Rec extends ResourceRecord>(def: Pick<ResourceDef, 'path' | 'routes'>, listPath?: string): ResourceApi<Rec> {
  const paths = crudPaths(def);
  return {
    list: (query) => request<Page<Rec>>(listPath ?? paths.list, { query }),
    detail: (id) => request<Rec>(paths.detail, { query: { id } }),
    submit: (body, opts = {}) => request<unknown>(paths.submit, {
      method: 'POST', json: body, query: opts.confirm?.length ? { confirm: opts.confirm.join(',') } : undefined,
    }),
    remove: (ids) => request<unknown>(paths.remove, { method: 'POST', query: { ids: ids.join(',') } }),
    removeImpact: (ids) => request<RemoveImpact>(removeImpactPath(def), { query: { ids: ids.join(',') }, silent: true }),
    treeList: (query) => request<Rec[]>(paths.list, { query }),
    parentList: (query) => request<Page<Rec>>(`${def.path}/parent-list`, { query }),
    lazyList: (parentId, query = {}) => request<Rec[]>(`${def.path}/lazy-list`, { query: { ...query, parentId } }),
  };
}

/** Query keys: everything of a resource sits under its path, so one invalidation refreshes it all. */
export const resourceKeys = {
  all: (path: string) => ['resource', path] as const,
  detail: (path: string, id: string) => ['resource', path, 'detail', id] as const,
};

export function detailQuery<Rec extends ResourceRecord>(def: Pick<ResourceDef, 'path' | 'routes'>, id: string) {
  return {
    queryKey: resourceKeys.detail(def.path, id),
    queryFn: () => resourceApi<Rec>(def).detail(id),
    staleTime: 0,
  };
}
