import { deptResource } from './dept.js';
import { noticeResource } from './notice.js';
import { paramResource } from './param.js';
import { postResource } from './post.js';
import { regionResource } from './region.js';
import { dictBizResource, dictResource } from './dict.js';
import { clientResource } from './client.js';

export { deptResource, noticeResource, paramResource, postResource, regionResource };
export { deptOption } from './dept.js';
export { postOption } from './post.js';
export { dictBizResource, dictResource, DICT_HEADER_KEY, dictItemSchema } from './dict.js';
export { clientResource, CLIENT_GRANT_TYPES, CLIENT_ID_PATTERN, clientSecretAnswer, type ClientGrantType } from './client.js';

/** Every resource mounted by the engine, keyed by menu code. */
export const resources = {
  param: paramResource,
  notice: noticeResource,
  dept: deptResource,
  post: postResource,
  region: regionResource,
  dict: dictResource,
  dictbiz: dictBizResource,
  client: clientResource,
} as const;
