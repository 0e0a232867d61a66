import { paramResource } from '@console/contract';
import { ResourcePage } from '../../resource/ResourcePage';

/** System parameters: the generic list page as it is. */
export function ParamPage() {
  return <ResourcePage def={paramResource} />;
}
