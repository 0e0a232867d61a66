import { noticeResource } from './notice.js';
import { paramResource } from './param.js';

export { noticeResource, paramResource };

/** Every resource mounted by the engine, keyed by menu code. */
export const resources = {
  param: paramResource,
  notice: noticeResource,
} as const;
