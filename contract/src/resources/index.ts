import { deptResource } from './dept.js';
import { noticeResource } from './notice.js';
import { paramResource } from './param.js';
import { postResource } from './post.js';
import { regionResource } from './region.js';

export { deptResource, noticeResource, paramResource, postResource, regionResource };
export { deptOption } from './dept.js';
export { postOption } from './post.js';

/** Every resource mounted by the engine, keyed by menu code. */
export const resources = {
  param: paramResource,
  notice: noticeResource,
  dept: deptResource,
  post: postResource,
  region: regionResource,
} as const;
