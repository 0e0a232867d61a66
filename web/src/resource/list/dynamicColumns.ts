import type { ProColumns } from '@ant-design/pro-components';
import type { DynamicColumn, ResourceDef } from '@console/contract';
import { useQuery } from '@tanstack/react-query';
import { useMemo, type ReactNode } from 'react';
import { request, type Query } from '../../api/client';
import { resourceKeys } from '../api';
import { textWidth } from '../columns';

/**
 * The columns of a definition's `dynamicColumns` for the list's parameters named in its `by` (a batch's
 * devices: its product type's attributes), each reading `<field>.<key>`; none until a `by` parameter is set.
 */
export function useDynamicColumns<Rec>(def: ResourceDef, params: Query | undefined): ProColumns<Rec>[] {
  const spec = def.dynamicColumns;
  const by = useMemo(() => {
    if (!spec || !params) return undefined;
    const picked = Object.fromEntries(spec.by.filter((k) => params[k] !== undefined && params[k] !== '').map((k) => [k, params[k]]));
    return Object.keys(picked).length ? picked : undefined;
  }, [spec, params]);
  const found = useQuery({
    queryKey: [...resourceKeys.all(def.path), 'dynamic-columns', by ?? {}],
    queryFn: () => request<DynamicColumn[]>(spec!.path, { query: by, silent: true }),
    enabled: by !== undefined,
  });
  return useMemo(() => (found.data ?? []).map((c) => ({
    title: c.label,
    key: `${spec!.field}.${c.key}`,
    dataIndex: [spec!.field, c.key],
    width: Math.max(110, textWidth(c.label) + 40),
    hideInSearch: true,
    ellipsis: true,
    render: (_dom: ReactNode, rec: Rec) => {
      const v = ((rec as Record<string, unknown>)[spec!.field] as Record<string, unknown> | null | undefined)?.[c.key];
      return v === undefined || v === null || v === '' ? '-' : String(v);
    },
  })), [found.data, spec]);
}
