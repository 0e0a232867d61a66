import { REGION_TREE, type TreeNode } from '@console/contract';
import { useQueries } from '@tanstack/react-query';
import { Cascader } from 'antd';
import { useMemo, useState } from 'react';
import { request } from '../api/client';
import { resourceKeys } from './api';
import { useDefinitionLookup } from './definitionLookup';
import { joinPath, levelsOf, pathMatches, REGION_ROOT, regionOptions, splitPath, type RegionOption } from './regionPath';

export interface RegionCascaderProps {
  /** the path, comma-joined (the wire's value) */
  value?: string | null;
  onChange?: (value: string | undefined) => void;
  placeholder?: string;
  disabled?: boolean;
  id?: string;
}

/** One level of the tree: the children of `parent`, or null when they could not be read. */
interface Level {
  parent: string;
  nodes: readonly TreeNode[] | null;
}

const toLevels = (results: ReadonlyArray<{ data?: Level }>): Map<string, readonly TreeNode[] | null> =>
  new Map(results.flatMap((r) => (r.data ? [[r.data.parent, r.data.nodes] as const] : [])));

/** A region changes seldom: a level read once serves the page a while. */
const LEVEL_STALE_MS = 5 * 60_000;

/**
 * A region path (`FieldDef.regionPath`) picked from the region tree, level by level (`lazy-tree`), a province or a
 * city alone as good as a district. The levels load when the list is first opened, or, for a value already there,
 * along its path so that it shows by name. The search looks through the levels loaded.
 */
export function RegionCascader({ value, onChange, placeholder, disabled, id }: RegionCascaderProps) {
  const def = useDefinitionLookup().byCode(REGION_TREE);
  const path = useMemo(() => splitPath(value), [value]);
  const [active, setActive] = useState(false);
  const [opened, setOpened] = useState<readonly string[]>([]);
  const parents = useMemo(() => [...new Set([...levelsOf(path), ...opened])], [path, opened]);
  const levels = useQueries({
    queries: parents.map((parent) => ({
      queryKey: [...resourceKeys.all(def?.path ?? ''), 'lazy-tree', parent],
      // a level that cannot be read shows as having nothing under it (the cascader stops waiting for it)
      queryFn: (): Promise<Level> => request<TreeNode[]>(`${def!.path}/lazy-tree`, { query: { parentId: parent }, silent: true })
        .then((nodes) => ({ parent, nodes }), () => ({ parent, nodes: null })),
      enabled: def !== undefined && (active || path.length > 0),
      staleTime: LEVEL_STALE_MS,
    })),
    combine: toLevels,
  });
  const options = useMemo(() => regionOptions(levels), [levels]);

  return (
    <Cascader<RegionOption>
      id={id}
      value={path.length ? path : undefined}
      options={options}
      loadData={(selected) => {
        const last = selected.at(-1);
        if (last) setOpened((o) => (o.includes(last.value) ? o : [...o, last.value]));
      }}
      onChange={(codes) => onChange?.(joinPath(codes))}
      onOpenChange={(open) => {
        if (open) setActive(true);
      }}
      changeOnSelect
      showSearch={{ filter: pathMatches }}
      allowClear
      loading={active && !levels.has(REGION_ROOT)}
      placeholder={placeholder}
      disabled={disabled}
      style={{ width: '100%' }}
    />
  );
}
