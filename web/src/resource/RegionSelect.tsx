import { Select } from 'antd';
import { Suspense } from 'react';
import { lazy } from '../shell/chunkLoad';
import type { RegionCascaderProps } from './RegionCascader';

// the cascader is a chunk of its own: only the screens holding a region path load it
const RegionCascader = lazy(() => import('./RegionCascader').then((m) => ({ default: m.RegionCascader })));

/** A region path's input (`FieldDef.regionPath`), in the add/edit form and the search form: see RegionCascader. */
export function RegionSelect(props: RegionCascaderProps) {
  return (
    <Suspense fallback={<Select id={props.id} disabled placeholder={props.placeholder} style={{ width: '100%' }} />}>
      <RegionCascader {...props} />
    </Suspense>
  );
}
