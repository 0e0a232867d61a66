import { t as text, type ResourceDef } from '@console/contract';
import { Drawer } from 'antd';
import { useMemo } from 'react';
import { useLang } from '../i18n';
import { ResourcePage } from './ResourcePage';

export interface WithinTarget {
  /** the resource whose rows belong to the parent row (`within`) */
  def: ResourceDef;
  /** the parent row's id and name */
  parentId: string;
  parentName: string;
}

/**
 * The rows of a resource shown within another's screen (a factory's stations, a batch's devices): its
 * own generic list in a drawer, fixed to the parent row (listed, created and searched under it).
 */
export function WithinDrawer({ target, onClose }: { target: WithinTarget | null; onClose: () => void }) {
  const lang = useLang();
  const fixed = useMemo(() => (target ? { [target.def.within!.field]: target.parentId } : undefined), [target]);
  return (
    <Drawer
      open={target !== null}
      onClose={onClose}
      title={target ? `${target.parentName} · ${text(target.def.title, lang)}` : ''}
      width="min(1200px, 92vw)"
      destroyOnHidden
    >
      {target && fixed && (
        <div data-testid={`within-${target.def.code}`}>
          <ResourcePage def={target.def} fixed={fixed} fitWindow={false} />
        </div>
      )}
    </Drawer>
  );
}
