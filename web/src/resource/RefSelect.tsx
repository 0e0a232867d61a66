import { crudPaths, nameFieldOf, type Page, type ResourceDef, type TreeNode } from '@console/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Select, TreeSelect } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { request } from '../api/client';
import { resourceKeys } from './api';
import { useDefinitionLookup } from './definitionLookup';
import { TREE_ROOT } from './fieldsOf';
import { joinIds, refOptions, splitIds, treeOptions, type RefOption } from './refOptions';

/** How many rows a reference select loads at once; a resource with more is searched on the server. */
export const REF_PAGE_SIZE = 50;
const SEARCH_DELAY_MS = 300;

/** The definition of a referenced resource, by code, from the page's caller (resource/definitionLookup.ts). */
export function useResourceDef(code: string | undefined): ResourceDef | undefined {
  const lookup = useDefinitionLookup();
  return code === undefined ? undefined : lookup.byCode(code);
}

/** The whole tree of a tree resource (`{path}/tree`), under the resource's query key so saves refresh it. */
export function useTreeNodes(def: ResourceDef | undefined) {
  return useQuery({
    queryKey: [...resourceKeys.all(def?.path ?? ''), 'tree'],
    queryFn: () => request<TreeNode[]>(`${def!.path}/tree`, { silent: true }),
    enabled: def?.tree !== undefined,
    staleTime: 30_000,
  });
}

export interface RefSelectProps {
  /** the referenced resource by code (`field.ref`), or its definition itself (a tree's own parent field) */
  refCode?: string;
  refDef?: ResourceDef;
  /** `ids`: several values, comma-joined on the wire ('1,2') */
  multiple?: boolean;
  value?: string | number | null;
  onChange?: (value: string) => void;
  /** the record's `<field>Name`: labels the current value(s) before the options are in */
  currentLabel?: unknown;
  /** a tree's parent field: a top-level option (value '0') with this label */
  rootLabel?: string;
  /** a tree's parent field on an edit: this row and its subtree cannot be picked */
  exclude?: string;
  placeholder?: string;
  disabled?: boolean;
  id?: string;
}

/**
 * A reference field: a TreeSelect over `{path}/tree` for a tree resource, else a searchable Select over
 * `{path}/list` labelled by the resource's name field. A resource with more rows than one load holds is
 * searched on the server as the user types (like on the name field); a smaller one is filtered here.
 */
export function RefSelect(props: RefSelectProps) {
  const { refCode, multiple = false, value, onChange, currentLabel, rootLabel, exclude, placeholder, disabled, id } = props;
  const looked = useResourceDef(props.refDef ? undefined : refCode);
  const def = props.refDef ?? looked;
  const isTree = def?.tree !== undefined;
  const ids = useMemo(() => splitIds(value), [value]);
  const current = useMemo(() => currentOptions(ids, currentLabel), [ids, currentLabel]);

  const tree = useTreeNodes(isTree ? def : undefined);
  const treeData = useMemo(() => {
    const nodes = treeOptions(tree.data ?? [], exclude);
    return rootLabel !== undefined ? [{ title: rootLabel, value: TREE_ROOT, key: TREE_ROOT }, ...nodes] : nodes;
  }, [tree.data, exclude, rootLabel]);

  const [typed, setTyped] = useState('');
  const [term, setTerm] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setTerm(typed.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const nameField = def ? nameFieldOf(def) : 'id';
  const first = useQuery({
    queryKey: [...resourceKeys.all(def?.path ?? ''), 'options', ''],
    queryFn: () => request<Page<Record<string, unknown>>>(crudPaths(def!).list, { query: { current: 1, size: REF_PAGE_SIZE }, silent: true }),
    enabled: def !== undefined && !isTree,
    staleTime: 30_000,
  });
  // every row is in the first load: filter here; else search on the server
  const remote = first.data !== undefined && first.data.total > first.data.records.length;
  const searched = useQuery({
    queryKey: [...resourceKeys.all(def?.path ?? ''), 'options', term],
    queryFn: () => request<Page<Record<string, unknown>>>(crudPaths(def!).list, { query: { current: 1, size: REF_PAGE_SIZE, [nameField]: term }, silent: true }),
    enabled: def !== undefined && !isTree && remote && term !== '',
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const rows = remote && term !== '' ? searched.data?.records : first.data?.records;
  const options = useMemo(() => refOptions(rows ?? [], nameField, current), [rows, nameField, current]);

  const emit = (next: unknown) => onChange?.(multiple ? joinIds(next) : next === undefined || next === null ? '' : String(next));

  if (isTree) {
    return (
      <TreeSelect
        id={id}
        value={multiple ? ids : (ids[0] ?? undefined)}
        onChange={emit}
        treeData={treeData}
        multiple={multiple}
        showSearch
        treeNodeFilterProp="title"
        allowClear
        loading={tree.isPending}
        placeholder={placeholder}
        disabled={disabled}
        treeDefaultExpandedKeys={treeData.slice(0, 1).map((n) => n.key)}
        style={{ width: '100%' }}
        popupMatchSelectWidth
      />
    );
  }
  return (
    <Select
      id={id}
      mode={multiple ? 'multiple' : undefined}
      value={multiple ? ids : (ids[0] ?? undefined)}
      onChange={emit}
      options={options}
      showSearch
      filterOption={remote ? false : (input, option) => String(option?.label ?? '').toLowerCase().includes(input.toLowerCase())}
      onSearch={remote ? setTyped : undefined}
      onDropdownVisibleChange={(open) => {
        if (!open) setTyped('');
      }}
      allowClear
      loading={def === undefined || first.isPending || searched.isFetching}
      placeholder={placeholder}
      disabled={disabled}
      style={{ width: '100%' }}
    />
  );
}

/** The current value(s) as options, labelled by the record's `<field>Name` when it names each of them. */
function currentOptions(ids: string[], label: unknown): RefOption[] {
  const names = typeof label === 'string' && label !== '' ? (ids.length === 1 ? [label] : label.split(',')) : [];
  return ids.map((id, i) => ({ value: id, label: names.length === ids.length ? (names[i] ?? id) : id }));
}
