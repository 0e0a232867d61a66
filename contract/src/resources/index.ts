import { deptResource } from './dept.js';
import { noticeResource } from './notice.js';
import { paramResource } from './param.js';
import { postResource } from './post.js';
import { regionResource } from './region.js';
import { menuResource, topMenuResource } from './menu.js';
import { roleResource } from './role.js';
import { apiScopeResource, dataScopeResource } from './scope.js';
import { tenantPackageResource, tenantResource } from './tenant.js';
import { userResource } from './user.js';
import { dictBizResource, dictResource } from './dict.js';
import { clientResource } from './client.js';
import { attachResource } from './attach.js';
import { logApiResource } from './logApi.js';
import { logErrorResource } from './logError.js';
import { logUsualResource } from './logUsual.js';
import { ossResource } from './oss.js';
import { smsResource } from './sms.js';
import { citDictResource, citResource, rewriteSnResource } from './cit.js';
import { batchResource, certResource, factoryDeviceResource, factoryResource, stationResource } from './production.js';
import { appLogResource, appVersionResource, deviceControlResource, deviceInfoResource, deviceNoticeResource, emergencyCodeResource, emergencyUnlockResource, faceLogResource, firmwareResource, otaLogResource, otaProgressResource, otaTaskResource } from './device.js';
import { flowFollowResource, flowManagerResource, flowModelResource, workClaimResource, workDoneResource, workSendResource, workStartResource, workTodoResource } from './flow.js';
import { brandResource, deliverResource, deviceColumnResource, explainResource, productAuthResource, productModelResource, productResource, productTypeResource, projectResource } from './product.js';

export * from './flow.js';
export { deptResource, noticeResource, paramResource, postResource, regionResource };
export { menuResource, topMenuResource, roleResource, apiScopeResource, dataScopeResource, tenantPackageResource, tenantResource, userResource };
export { roleOption } from './role.js';
export type { GrantNode } from './menu.js';
export { USER_PATH_ALIAS } from './user.js';
export { TREE_NODE } from './treeNode.js';
export { deptOption } from './dept.js';
export { postOption } from './post.js';
export { dictBizResource, dictResource, DICT_HEADER_KEY, dictItemSchema } from './dict.js';
export { clientResource, CLIENT_GRANT_TYPES, CLIENT_ID_PATTERN, clientSecretAnswer, type ClientGrantType } from './client.js';

/** Every resource mounted by the engine, keyed by menu code. */
export const resources = {
  flow_model: flowModelResource,
  flow_manager: flowManagerResource,
  flow_follow: flowFollowResource,
  work_start: workStartResource,
  work_claim: workClaimResource,
  work_todo: workTodoResource,
  work_send: workSendResource,
  work_done: workDoneResource,
  param: paramResource,
  notice: noticeResource,
  dept: deptResource,
  post: postResource,
  region: regionResource,
  menu: menuResource,
  topmenu: topMenuResource,
  role: roleResource,
  data_scope: dataScopeResource,
  api_scope: apiScopeResource,
  tenant_package: tenantPackageResource,
  tenant: tenantResource,
  user: userResource,
  dict: dictResource,
  dictbiz: dictBizResource,
  client: clientResource,
  log_usual: logUsualResource,
  log_api: logApiResource,
  log_error: logErrorResource,
  attach: attachResource,
  sms: smsResource,
  oss: ossResource,
  product_type: productTypeResource,
  product_model: productModelResource,
  project: projectResource,
  product_info: productResource,
  brand: brandResource,
  explain: explainResource,
  product_auth: productAuthResource,
  device_column: deviceColumnResource,
  deliver: deliverResource,
  factory: factoryResource,
  station: stationResource,
  batch: batchResource,
  factory_device: factoryDeviceResource,
  cert: certResource,
  cit_dict: citDictResource,
  cit: citResource,
  rewrite_sn: rewriteSnResource,
  firmware: firmwareResource,
  ota_task: otaTaskResource,
  ota_progress: otaProgressResource,
  ota_log: otaLogResource,
  app_version: appVersionResource,
  app_log: appLogResource,
  face_log: faceLogResource,
  device_control: deviceControlResource,
  device_notice: deviceNoticeResource,
  device_info: deviceInfoResource,
  emergency_unlock: emergencyUnlockResource,
  emergency_code: emergencyCodeResource,
} as const;
export * from './device.js';
export { brandResource, deliverResource, DEVICE_COLUMN_KEY, deviceColumnResource, explainResource, productAuthResource, productModelResource, productResource, productTypeResource, projectResource } from './product.js';
export { attachResource } from './attach.js';
export { logApiResource } from './logApi.js';
export { logErrorResource } from './logError.js';
export { LOG_BUTTONS, logRequestFields, logUsualResource } from './logUsual.js';
export { OSS_CATEGORY, ossResource } from './oss.js';
export { RESOURCE_STATUS, SMS_CATEGORY, smsResource, smsSendResult } from './sms.js';
export { batchResource, burnBundle, certResource, factoryDeviceResource, factoryResource, IPC_PATH, IPC_USERS_PATH, OPERATOR_ACCOUNT, MAX_BATCH_QUANTITY, SN_PREFIX_PATTERN, SN_SERIAL_DIGITS, STATION_API_PATH, stationResource } from './production.js';
export { deviceGatewayActions, MAX_SIMULATOR_SNS, simulatorSession } from './deviceGateway.js';
export { CIT_STANDARD, citDictResource, citItemResult, citResource, rewriteSnResource } from './cit.js';
