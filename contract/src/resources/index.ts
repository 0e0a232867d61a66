import { deptResource } from './dept.js';
import { noticeResource } from './notice.js';
import { paramResource } from './param.js';
import { postResource } from './post.js';
import { regionResource } from './region.js';
import { attachResource } from './attach.js';
import { logApiResource } from './logApi.js';
import { logErrorResource } from './logError.js';
import { logUsualResource } from './logUsual.js';
import { ossResource } from './oss.js';
import { smsResource } from './sms.js';

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
  log_usual: logUsualResource,
  log_api: logApiResource,
  log_error: logErrorResource,
  attach: attachResource,
  sms: smsResource,
  oss: ossResource,
} as const;
export { attachResource } from './attach.js';
export { logApiResource } from './logApi.js';
export { logErrorResource } from './logError.js';
export { LOG_BUTTONS, logRequestFields, logUsualResource } from './logUsual.js';
export { OSS_CATEGORY, ossResource } from './oss.js';
export { RESOURCE_STATUS, SMS_CATEGORY, smsResource, smsSendResult } from './sms.js';
