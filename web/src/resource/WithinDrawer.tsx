import { t as text, type ResourceDef } from '@console/contract';
import { Drawer } from 'antd';
import { useMemo, type ReactNode } from 'react';
import { useLang } from '../i18n';

export interface WithinTarget {
  /** the resource whose rows belong to the parent row (`within`) */
  def: ResourceDef;
  /** the parent row's id and name */
  parentId: string;
  parentName: string;
}

/**
 * The rows of a resource shown within another's screen (a factory's stations, a batch's devices): its
 * own generic list in a drawer (`list`, from the list page that opens it), fixed to the parent row (listed,
 * created and searched under it).
 */
export function WithinDrawer({ target, onClose, list }: {
  target: WithinTarget | null;
  onClose: () => void;
  list: (def: ResourceDef, fixed: Record<string, string>) => ReactNode;
}) {
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
          {list(target.def, fixed)}
        </div>
      )}
    </Drawer>
  );
}
