import { noticeResource } from '@console/contract';
import { ResourcePage } from '../../resource/ResourcePage';

/** Notices: the generic list page as it is (content is edited in the rich text editor). */
export function NoticePage() {
  return <ResourcePage def={noticeResource} />;
}
