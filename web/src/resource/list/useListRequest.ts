import type { ActionType } from '@ant-design/pro-components';
import type { ResourceDef } from '@console/contract';
import { useCallback, useRef, useState, type Key, type RefObject } from 'react';
import type { Query } from '../../api/client';
import type { ResourceApi } from '../api';
import { buildListQuery, type SortState, type TableParams } from '../listQuery';
import { childrenPending, insertChildren, isSearching, parentIds, reopen, treeIds, withoutPaging, withPlaceholders } from '../treeRows';
import type { ResourceRecord } from '../types';

type PageAnswer<Rec> = { records: Rec[]; total: number; totalExact?: boolean };
type TableAnswer<Rec> = { data: Rec[]; total: number; success: boolean };

/** A paged list call's answer for ProTable; the server estimates very large totals (the pager says "about"). */
function usePagedRequest<Rec>(actionRef: RefObject<ActionType | undefined>) {
  const [totalExact, setTotalExact] = useState(true);
  const pagedRequest = useCallback(
    async (query: Query, list: (q: Query) => Promise<PageAnswer<Rec>>): Promise<TableAnswer<Rec>> => {
      const page = await list(query);
      const current = Number(query.current);
      const last = Math.max(1, Math.ceil(page.total / Number(query.size)));
      if (page.records.length === 0 && current > 1 && current > last) {
        // The page shown became empty (its rows were deleted here or elsewhere): show the last page
        // instead. Changing ProTable's page makes it request that page; `success: false` keeps the
        // rows on screen meanwhile instead of flashing "no data".
        actionRef.current?.setPageInfo?.({ current: last });
        return { data: [], total: page.total, success: false };
      }
      setTotalExact(page.totalExact !== false);
      return { data: page.records, total: page.total, success: true };
    },
    [actionRef],
  );
  return { pagedRequest, totalExact };
}

/**
 * A tree's rows: the whole matching tree (unpaged), or the roots (paged) / every level's matches (a search),
 * lazily opened; the open rows are kept across reloads.
 */
function useTreeRows<Rec extends ResourceRecord>(api: ResourceApi<Rec>, unpagedTree: boolean, pagedRequest: ReturnType<typeof usePagedRequest<Rec>>['pagedRequest']) {
  const [expanded, setExpanded] = useState<readonly Key[]>([]);
  const expandedRef = useRef<ReadonlySet<string>>(new Set());
  expandedRef.current = new Set(expanded.map(String));
  const treeOpened = useRef(false);
  // a lazy tree's rows are held here (ProTable's own state has no setter outside): loaded children go in
  const [lazyRows, setLazyRows] = useState<Rec[]>([]);

  const treeRequest = useCallback(
    async (query: Query) => {
      if (unpagedTree) {
        const rows = await api.treeList(withoutPaging(query));
        // the first level opens with the first load; after that the tree keeps what the user opened
        if (!treeOpened.current) {
          treeOpened.current = true;
          setExpanded(parentIds(rows));
        }
        return { data: rows, total: rows.length, success: true };
      }
      const loadChildren = (parentId: string) => api.lazyList(parentId);
      // a search looks through every level at once (lazy-list); browsing pages through the roots
      const first = isSearching(query)
        ? await api.lazyList('0', withoutPaging(query)).then((records) => ({ records, total: records.length }))
        : await api.parentList(query);
      const rows = await reopen(withPlaceholders(first.records), expandedRef.current, loadChildren);
      const known = treeIds(rows);
      setExpanded((keys) => keys.filter((key) => known.has(String(key))));
      return pagedRequest(query, async () => ({ ...first, records: rows }));
    },
    [api, unpagedTree, pagedRequest],
  );

  /** A lazy tree's row opened for the first time: its children load from lazy-list. */
  const onExpand = useCallback(
    (open: boolean, record: Rec) => {
      if (!open || unpagedTree || !childrenPending(record)) return;
      api.lazyList(record.id).then(
        (children) => setLazyRows((rows) => insertChildren(rows, record.id, withPlaceholders(children))),
        () => setExpanded((keys) => keys.filter((key) => key !== record.id)),
      );
    },
    [api, unpagedTree],
  );
  return { treeRequest, expanded, setExpanded, onExpand, lazyRows, setLazyRows };
}

/**
 * The list page's `request`: a paged list, or a tree's rows (unpaged and nested, or loaded level by level),
 * remembering the last query (the export sends it).
 */
export function useListRequest<Rec extends ResourceRecord>(api: ResourceApi<Rec>, tree: ResourceDef['tree'], actionRef: RefObject<ActionType | undefined>) {
  const unpagedTree = tree?.unpagedList === true;
  const lastQuery = useRef<Query>({});
  const { pagedRequest, totalExact } = usePagedRequest<Rec>(actionRef);
  const treeRows = useTreeRows(api, unpagedTree, pagedRequest);
  const { treeRequest } = treeRows;
  const request = useCallback(
    async (tableParams: TableParams, sort: SortState) => {
      try {
        const query = buildListQuery(tableParams, sort);
        lastQuery.current = query;
        return tree ? await treeRequest(query) : await pagedRequest(query, api.list);
      } catch {
        return { data: [], total: 0, success: false };
      }
    },
    [api, tree, treeRequest, pagedRequest],
  );
  return { request, lastQuery, totalExact, unpagedTree, ...treeRows };
}
