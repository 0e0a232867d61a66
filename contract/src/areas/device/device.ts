import { z } from 'zod';
import { defineActions, idsParamSchema, okOutput } from '../../action.js';
import { defineResource, idInput } from '../../resource.js';
import { IPC_PATH } from '../production/index.js';

/**
 * Devices in the field (domain.md "Firmware, apps and device operations"): firmware and OTA, app versions and
 * logs, device control, device notices, the device lookup and emergency unlock. Firmware, OTA and device logs are
 * the vendor's (platform rows, read by tenants through their authorised product types); device control and
 * emergency unlock are each tenant's own.
 */

const SN = { type: 'string', label: { zh: '设备 SN', en: 'Device SN' }, max: 32, upperCase: true, width: 170 } as const;
const OMC_DEVICE = '/api/omc-device';

export const RELEASE_STATE = { draft: 1, published: 2, withdrawn: 3 } as const;

/** The OTA states of one device (api.md §7), in the order a good upgrade passes them. */
export const OTA_STATES = ['queued', 'notified', 'downloading', 'downloaded', 'verified', 'installing', 'succeeded', 'failed', 'timed_out', 'cancelled'] as const;
export type OtaState = (typeof OTA_STATES)[number];
export const OTA_FINAL_STATES: readonly OtaState[] = ['succeeded', 'failed', 'timed_out', 'cancelled'];

const cloudProductId = z.string().trim().min(1).max(64);
const cloudVersion = z.string().trim().min(1).max(32);
const cloudFwType = z.string().trim().min(1).max(16).optional();
/** the cloud's numbers; this server's ids are 64-bit and travel as strings */
const cloudNumberOrId = z.union([z.number(), z.string()]);

/** A firmware version as the firmware cloud lists it (Tencent IoT Explorer's `ListFirmwares` shape). */
export const cloudFirmwareSchema = z.object({
  Version: z.string(), Md5sum: z.string(), CreateTime: z.number(), ProductName: z.string(), Name: z.string(), Description: z.string(),
  ProductId: z.string(), FwType: z.string(), CreateUserId: cloudNumberOrId.optional(), CreatorNickName: z.string().optional(), UserDefined: z.string().optional(),
});

/**
 * The IPC cloud-vendor firmware operations (/sc/ymy-ipc/back/<Name>, Tencent IoT Explorer's names, parameters and
 * answers), served by the firmware cloud the server is set to (FIRMWARE_CLOUD): this server's own storage by
 * default, or Tencent IoT Explorer. `ProductID` is the product's cloud product id (the product's id here is
 * accepted too).
 */
function firmwareCloudActions() {
  const platform = 'write' as const;
  return defineActions(IPC_PATH, {
    getCosUrl: {
      segment: 'GetCOSURL', method: 'POST', permission: 'firmware_cloud', platform, title: { zh: '固件云：获取上传地址', en: 'Firmware cloud: an upload URL' },
      input: z.object({ ProductID: cloudProductId, FirmwareVersion: cloudVersion, FileSize: z.coerce.number().int().min(1).max(50 * 1024 * 1024).optional(), FwType: cloudFwType }),
      /** HTTP PUT the file's bytes to Url (valid for 15 minutes), then call UploadFirmware */
      output: z.object({ Url: z.string() }),
    },
    uploadFirmware: {
      segment: 'UploadFirmware', method: 'POST', permission: 'firmware_cloud', platform, title: { zh: '固件云：登记固件', en: 'Firmware cloud: register a version' },
      input: z.object({
        ProductID: cloudProductId, FirmwareVersion: cloudVersion, Md5sum: z.string().trim().regex(/^[0-9a-fA-F]{32}$/), FileSize: z.coerce.number().int().min(1).max(50 * 1024 * 1024),
        FirmwareName: z.string().trim().max(64).optional(), FirmwareDescription: z.string().trim().max(2000).optional(), FwType: cloudFwType,
        FirmwareUserDefined: z.string().max(500).optional(),
      }),
      /** FirmwareId: the version's id here (own storage); the cloud answers nothing more */
      output: z.object({ FirmwareId: z.string().optional() }),
    },
    listFirmwares: {
      segment: 'ListFirmwares', method: 'POST', permission: 'firmware_cloud', platform, title: { zh: '固件云：固件列表', en: 'Firmware cloud: versions' },
      input: z.object({
        PageNum: z.coerce.number().int().min(1).max(100_000).default(1), PageSize: z.coerce.number().int().min(1).max(100).default(10), ProductID: cloudProductId.optional(),
        Filters: z.array(z.object({ Name: z.string().max(32), Values: z.array(z.string().max(64)).max(10) })).max(5).optional(),
      }),
      output: z.object({ TotalCount: z.number(), Firmwares: z.array(cloudFirmwareSchema) }),
    },
    describeFirmwareTask: {
      segment: 'DescribeFirmwareTask', method: 'POST', permission: 'firmware_cloud', platform, title: { zh: '固件云：升级任务详情', en: 'Firmware cloud: an upgrade task' },
      input: z.object({ ProductID: cloudProductId, FirmwareVersion: cloudVersion, TaskId: idInput }),
      output: z.object({
        TaskId: cloudNumberOrId.optional(), Status: z.number().optional(), CreateTime: z.number().optional(), Type: z.number().optional(), ProductName: z.string().optional(),
        UpgradeMode: z.string().optional(), ProductId: z.string().optional(), OriginalVersion: z.string().optional(), CreateUserId: cloudNumberOrId.optional(),
        CreatorNickName: z.string().optional(), TimeoutInterval: z.number().optional(), MaxRetryNum: z.number().optional(), RateLimit: z.number().optional(),
        /** this server's own storage also answers the task's devices and its counts */
        Total: z.number().optional(), Succeeded: z.number().optional(), Failed: z.number().optional(),
      }),
    },
    updateFirmware: {
      segment: 'UpdateFirmware', method: 'POST', permission: 'firmware_cloud', platform, title: { zh: '固件云：升级单台设备', en: 'Firmware cloud: upgrade one device' },
      input: z.object({
        ProductID: cloudProductId, DeviceName: z.string().trim().min(1).max(64), FirmwareVersion: cloudVersion, FirmwareOriVersion: z.string().trim().min(1).max(32),
        UpgradeMethod: z.coerce.number().int().min(0).max(1).optional(), FwType: cloudFwType,
      }),
      /** TaskId: the one-device OTA task this server started (own storage) */
      output: z.object({ TaskId: z.string().optional() }),
    },
  });
}

export const firmwareResource = defineResource({
  code: 'firmware',
  path: '/api/ymy-firmware/firmware',
  title: { zh: '固件管理', en: 'Firmware' },
  scope: 'platform',
  nameField: 'version',
  menu: {
    parent: 'device', route: '/device/firmware', name: { zh: '固件管理', en: 'Firmware' }, sort: 1, icon: 'iconfont iconicon_cloud_history',
    buttons: [
      {
        code: 'firmware_publish', name: { zh: '发布', en: 'Publish' }, alias: 'publish', placement: 'row', action: 'publish',
        shownWhen: { field: 'state', values: [RELEASE_STATE.draft] },
      },
      {
        code: 'firmware_withdraw', name: { zh: '撤回', en: 'Withdraw' }, alias: 'withdraw', placement: 'row', action: 'withdraw',
        shownWhen: { field: 'state', values: [RELEASE_STATE.published] },
      },
      {
        code: 'firmware_cloud', name: { zh: '上传云端', en: 'Upload to cloud' }, alias: 'cloud', placement: 'row', action: 'cloudUpload',
        shownWhen: { field: 'state', values: [RELEASE_STATE.draft, RELEASE_STATE.published] },
        confirm: { zh: '把该版本的固件文件上传到固件云 (FIRMWARE_CLOUD) 并登记?', en: 'Upload this version\'s file to the firmware cloud (FIRMWARE_CLOUD) and register it there?' },
        done: { zh: '已上传到{cloud}: {cloudFirmwareId}', en: 'Uploaded to {cloud}: {cloudFirmwareId}' },
      },
    ],
  },
  fields: {
    productId: {
      type: 'ref', ref: 'product_info', label: { zh: '产品', en: 'Product' }, required: { zh: '请选择产品', en: 'Please select the product' },
      search: 'equal', immutable: true, width: 150,
    },
    moduleType: {
      type: 'string', label: { zh: '模块', en: 'Module' }, dict: 'firmware_module', required: { zh: '请选择模块', en: 'Please select the module' },
      max: 16, search: 'equal', immutable: true, width: 100,
    },
    version: {
      type: 'string', label: { zh: '版本号', en: 'Version' }, required: { zh: '请输入版本号', en: 'Please enter the version' },
      max: 32, search: 'like', sortable: true, immutable: true, width: 120,
    },
    file: { type: 'file', label: { zh: '固件文件', en: 'Firmware file' }, required: { zh: '请上传固件文件', en: 'Please upload the firmware file' }, max: 1000, list: false },
    fileSize: { type: 'int', label: { zh: '文件大小', en: 'Size' }, bytes: true, form: false, width: 110 },
    sha256: { type: 'string', label: { zh: 'SHA-256', en: 'SHA-256' }, max: 64, form: false, list: false },
    md5: { type: 'string', label: { zh: 'MD5', en: 'MD5' }, max: 32, form: false, list: false },
    releaseNotes: { type: 'text', label: { zh: '更新说明', en: 'Release notes' }, max: 2000 },
    cloudVendor: { type: 'int', label: { zh: '云平台', en: 'IoT cloud' }, dict: 'cloud_vendor', search: 'equal', width: 150 },
    cloudFirmwareId: { type: 'string', label: { zh: '云端固件', en: 'Cloud firmware' }, max: 128, form: false, list: false },
    state: { type: 'int', label: { zh: '状态', en: 'State' }, dict: 'release_state', form: false, search: 'equal', width: 90 },
    publishTime: { type: 'datetime', label: { zh: '发布时间', en: 'Published at' }, form: false },
  },
  actions: {
    ...defineActions('/api/ymy-firmware/firmware', {
      publish: {
        method: 'POST', permission: 'firmware_publish', platform: 'write', title: { zh: '固件：发布', en: 'Firmware: publish' },
        input: z.object({ id: idInput }), output: okOutput,
      },
      withdraw: {
        method: 'POST', permission: 'firmware_withdraw', platform: 'write', title: { zh: '固件：撤回', en: 'Firmware: withdraw' },
        input: z.object({ id: idInput }), output: okOutput,
      },
      /** pushes the version's file to the firmware cloud the server uses (FIRMWARE_CLOUD) and registers it there */
      cloudUpload: {
        segment: 'cloud-upload', method: 'POST', permission: 'firmware_cloud', platform: 'write', title: { zh: '固件：上传云端', en: 'Firmware: upload to the cloud' },
        input: z.object({ id: idInput }), output: z.object({ cloud: z.string(), cloudFirmwareId: z.string() }),
      },
    }),
    ...firmwareCloudActions(),
  },
});

export const otaTaskSubmit = z.object({
  firmwareId: idInput,
  scope: z.enum(['all', 'selected', 'batch']),
  deviceSns: z.union([z.string(), z.array(z.string())]).optional(),
  batchId: idInput.optional(),
  rateLimit: z.coerce.number().int().min(1).max(100_000),
});

export const otaTaskResource = defineResource({
  code: 'ota_task',
  path: `${OMC_DEVICE}/ota-task`,
  title: { zh: '升级任务', en: 'OTA tasks' },
  scope: 'platform',
  nameField: 'taskName',
  createOnly: true,
  codes: { menu: 'ota_progress', add: 'ota_task_add', edit: 'ota_task_add', delete: 'ota_task_cancel', view: 'ota_progress' },
  fields: {
    taskName: { type: 'string', label: { zh: '任务名称', en: 'Task name' }, required: { zh: '请输入任务名称', en: 'Please enter the task name' }, max: 64, search: 'like', width: 160 },
    // a task is history: it keeps naming a removed firmware (the firmware's own rule refuses a running task's)
    firmwareId: { type: 'ref', ref: 'firmware', label: { zh: '固件', en: 'Firmware' }, required: { zh: '请选择固件', en: 'Please select the firmware' }, search: 'equal', width: 140, onRemove: 'keep' },
    productId: { type: 'ref', ref: 'product_info', label: { zh: '产品', en: 'Product' }, form: false, search: 'equal', width: 140 },
    scope: {
      type: 'string', label: { zh: '升级范围', en: 'Scope' }, dict: 'ota_scope', required: { zh: '请选择升级范围', en: 'Please select the scope' },
      max: 16, search: 'equal', width: 100,
    },
    deviceSns: { type: 'text', label: { zh: '设备 SN', en: 'Device SNs' }, max: 200_000, list: false, help: { zh: '每行一个 SN，或以逗号分隔', en: 'One SN a line, or comma-separated' } },
    batchId: { type: 'ref', ref: 'batch', label: { zh: '批次', en: 'Batch' }, search: 'equal', width: 140 },
    rateLimit: {
      type: 'int', label: { zh: '速率 (台/分钟)', en: 'Rate (devices/min)' }, required: { zh: '请输入升级速率', en: 'Please enter the rate' },
      min: 1, max: 100_000, defaultValue: 600, width: 120,
    },
    timeoutMinutes: { type: 'int', label: { zh: '超时 (分钟)', en: 'Timeout (min)' }, min: 1, max: 1440, defaultValue: 30, width: 110 },
    maxRetries: { type: 'int', label: { zh: '重试次数', en: 'Retries' }, min: 0, max: 10, defaultValue: 1, width: 90 },
    toVersion: { type: 'string', label: { zh: '目标版本', en: 'Target version' }, max: 32, form: false, width: 110 },
    state: { type: 'string', label: { zh: '任务状态', en: 'State' }, dict: 'ota_task_state', max: 16, form: false, search: 'equal', key: true, width: 90 },
    total: { type: 'int', label: { zh: '设备数', en: 'Devices' }, form: false, key: true, width: 90 },
    succeeded: { type: 'int', label: { zh: '成功', en: 'Succeeded' }, form: false, key: true, width: 80 },
    failed: { type: 'int', label: { zh: '失败', en: 'Failed' }, form: false, key: true, width: 80 },
    finishTime: { type: 'datetime', label: { zh: '结束时间', en: 'Finished at' }, form: false },
  },
  actions: defineActions(`${OMC_DEVICE}/ota-task`, {
    cancel: {
      method: 'POST', permission: 'ota_task_cancel', platform: 'write', title: { zh: '升级任务：取消', en: 'OTA tasks: cancel' },
      input: z.object({ id: idInput }), output: okOutput,
    },
    summary: {
      method: 'GET', permission: 'ota_progress', title: { zh: '升级任务：各状态设备数', en: 'OTA tasks: devices per state' },
      input: z.object({ id: idInput }),
      output: z.object({ state: z.string(), total: z.number(), counts: z.record(z.string(), z.number()), stuck: z.number(), flagged: z.number() }),
    },
    /** the task's failed and timed-out devices queued again for one new attempt each (the task reopens if it finished) */
    retry: {
      method: 'POST', permission: 'ota_task_retry', platform: 'write', title: { zh: '升级任务：重试失败设备', en: 'OTA tasks: retry the failed devices' },
      input: z.object({ id: idInput }),
      /** retried: devices queued again; superseded: failed devices left alone because a newer task took them */
      output: z.object({ retried: z.number(), superseded: z.number() }),
    },
  }),
});

export const otaProgressResource = defineResource({
  code: 'ota_progress',
  path: `${OMC_DEVICE}/ota-progress`,
  title: { zh: '升级进度', en: 'OTA progress' },
  scope: 'platform',
  readOnly: true,
  nameField: 'deviceSn',
  page: 'custom',
  defaultSort: { field: 'lastReportTime', order: 'desc' },
  menu: {
    parent: 'device', route: '/device/ota', name: { zh: '升级进度', en: 'OTA progress' }, sort: 2, icon: 'iconfont iconicon_exchange',
    buttons: [
      { code: 'ota_task_add', name: { zh: '新建升级任务', en: 'New OTA task' }, alias: 'add', placement: 'toolbar' },
      { code: 'ota_task_cancel', name: { zh: '取消任务', en: 'Cancel task' }, alias: 'cancel', placement: 'row' },
      { code: 'ota_task_retry', name: { zh: '重试失败设备', en: 'Retry failed devices' }, alias: 'retry', placement: 'row' },
      { code: 'ota_progress_export', name: { zh: '导出进度', en: 'Export progress' }, alias: 'export', placement: 'toolbar' },
    ],
  },
  // named after the task it is filtered to, among the tasks the caller sees (hooks.exportName)
  io: { export: { permission: 'ota_progress_export' } },
  fields: {
    taskId: { type: 'ref', ref: 'ota_task', label: { zh: '升级任务', en: 'Task' }, search: 'equal', width: 150 },
    // a million rows and more: an SN is found by its start, which the (task_id, device_sn) and device_sn indexes answer
    deviceSn: { ...SN, search: 'prefix' },
    productId: { type: 'ref', ref: 'product_info', label: { zh: '产品', en: 'Product' }, list: false },
    fromVersion: { type: 'string', label: { zh: '原版本', en: 'From' }, max: 32, width: 100 },
    toVersion: { type: 'string', label: { zh: '目标版本', en: 'To' }, max: 32, width: 100 },
    state: { type: 'string', label: { zh: '状态', en: 'State' }, dict: 'ota_state', max: 16, search: 'equal', width: 100 },
    percent: { type: 'int', label: { zh: '进度 (%)', en: 'Progress (%)' }, width: 100 },
    attempt: { type: 'int', label: { zh: '尝试次数', en: 'Attempt' }, width: 90 },
    errorCode: { type: 'string', label: { zh: '错误码', en: 'Error code' }, max: 32, width: 90 },
    errorMessage: { type: 'string', label: { zh: '错误信息', en: 'Error' }, max: 255, width: 180 },
    flagged: { type: 'boolean', label: { zh: '版本回退', en: 'Version regressed' }, search: 'equal', width: 100 },
    lastReportTime: { type: 'datetime', label: { zh: '最近上报', en: 'Last report' }, sortable: true, search: 'dateRange' },
  },
});

export const otaLogResource = defineResource({
  code: 'ota_log',
  path: '/api/omc-log/ota',
  title: { zh: '升级日志', en: 'OTA log' },
  scope: 'platform',
  readOnly: true,
  nameField: 'deviceSn',
  defaultSort: { field: 'reportTime', order: 'desc' },
  // partitioned by month of reportTime (decisions.md, "Time-partitioned logs"): the screen opens on the last days
  recent: { field: 'reportTime', days: 7 },
  buttons: { add: false, edit: false, delete: false },
  menu: { parent: 'device', route: '/device/otalog', name: { zh: '升级日志', en: 'OTA log' }, sort: 3, icon: 'iconfont icon-rizhi' },
  fields: {
    deviceSn: { ...SN, search: 'like' },
    taskId: { type: 'ref', ref: 'ota_task', label: { zh: '升级任务', en: 'Task' }, search: 'equal', width: 150 },
    productId: { type: 'ref', ref: 'product_info', label: { zh: '产品', en: 'Product' }, list: false },
    state: { type: 'string', label: { zh: '状态', en: 'State' }, dict: 'ota_state', max: 16, search: 'equal', width: 100 },
    percent: { type: 'int', label: { zh: '进度 (%)', en: 'Progress (%)' }, width: 90 },
    version: { type: 'string', label: { zh: '版本', en: 'Version' }, max: 32, width: 100 },
    message: { type: 'string', label: { zh: '说明', en: 'Message' }, max: 255, width: 220 },
    reportTime: { type: 'datetime', label: { zh: '上报时间', en: 'Reported at' }, sortable: true, search: 'dateRange' },
  },
});

export const appVersionResource = defineResource({
  code: 'app_version',
  path: '/api/ymy-app/version',
  title: { zh: 'APP 版本', en: 'App versions' },
  scope: 'platform',
  nameField: 'versionName',
  defaultSort: { field: 'versionCode', order: 'desc' },
  menu: {
    parent: 'device', route: '/device/appversion', name: { zh: 'APP 版本', en: 'App versions' }, sort: 4, icon: 'iconfont iconicon_phone',
    buttons: [
      {
        code: 'app_version_publish', name: { zh: '发布', en: 'Publish' }, alias: 'publish', placement: 'row', action: 'publish',
        shownWhen: { field: 'state', values: [RELEASE_STATE.draft, RELEASE_STATE.withdrawn] },
        confirm: { zh: '发布后, 该平台的 APP 会收到此版本的更新提示, 确定发布?', en: 'Once published, the app on this platform is offered this version. Publish it?' },
      },
      {
        code: 'app_version_withdraw', name: { zh: '撤回', en: 'Withdraw' }, alias: 'withdraw', placement: 'row', action: 'withdraw',
        shownWhen: { field: 'state', values: [RELEASE_STATE.published] },
        confirm: { zh: '撤回后, APP 不再收到此版本的更新提示, 确定撤回?', en: 'Once withdrawn, the app is no longer offered this version. Withdraw it?' },
      },
    ],
  },
  fields: {
    platform: {
      type: 'string', label: { zh: '平台', en: 'Platform' }, dict: 'app_platform', required: { zh: '请选择平台', en: 'Please select the platform' },
      max: 16, search: 'equal', immutable: true, width: 90,
    },
    versionName: { type: 'string', label: { zh: '版本名', en: 'Version name' }, required: { zh: '请输入版本名', en: 'Please enter the version name' }, max: 32, search: 'like', width: 110 },
    versionCode: {
      type: 'int', label: { zh: '版本号', en: 'Version code' }, required: { zh: '请输入版本号', en: 'Please enter the version code' },
      min: 1, sortable: true, immutable: true, width: 100,
    },
    package: { type: 'file', label: { zh: '安装包', en: 'Package' }, max: 1000, list: false },
    storeUrl: { type: 'string', format: 'url', label: { zh: '商店地址', en: 'Store link' }, max: 500, list: false },
    forceUpdate: { type: 'boolean', label: { zh: '强制更新', en: 'Force update' }, search: 'equal', defaultValue: 0, width: 90 },
    releaseNotes: { type: 'text', label: { zh: '更新说明', en: 'Release notes' }, max: 2000 },
    state: { type: 'int', label: { zh: '状态', en: 'State' }, dict: 'release_state', form: false, search: 'equal', width: 90 },
    publishTime: { type: 'datetime', label: { zh: '发布时间', en: 'Published at' }, form: false },
    publishUser: { type: 'id', label: { zh: '发布人', en: 'Published by' }, form: false, list: false },
    publishUserName: { type: 'string', label: { zh: '发布人', en: 'Published by' }, max: 64, form: false, width: 100 },
  },
  /** draft (or withdrawn) → published → withdrawn; only published versions are offered to the app (app-api.md) */
  actions: defineActions('/api/ymy-app/version', {
    publish: {
      method: 'POST', permission: 'app_version_publish', platform: 'write', title: { zh: 'APP 版本：发布', en: 'App versions: publish' },
      input: z.object({ id: idInput }), output: okOutput,
    },
    withdraw: {
      method: 'POST', permission: 'app_version_withdraw', platform: 'write', title: { zh: 'APP 版本：撤回', en: 'App versions: withdraw' },
      input: z.object({ id: idInput }), output: okOutput,
    },
  }),
});

export const appLogResource = defineResource({
  code: 'app_log',
  path: '/api/omc-log/app',
  title: { zh: 'APP 日志', en: 'App logs' },
  scope: 'tenant',
  readOnly: true,
  nameField: 'phone',
  defaultSort: { field: 'uploadTime', order: 'desc' },
  // partitioned by month of uploadTime (decisions.md, "Time-partitioned logs"): the screen opens on the last days
  recent: { field: 'uploadTime', days: 30 },
  buttons: { add: false, edit: false, delete: false },
  menu: { parent: 'device', route: '/device/applog', name: { zh: 'APP 日志', en: 'App logs' }, sort: 5, icon: 'iconfont icon-rizhi' },
  fields: {
    appUserId: { type: 'id', label: { zh: '用户', en: 'App user' }, list: false },
    phone: { type: 'string', label: { zh: '手机号', en: 'Phone' }, max: 32, search: 'like', width: 130 },
    appVersion: { type: 'string', label: { zh: 'APP 版本', en: 'App version' }, max: 32, search: 'equal', width: 100 },
    os: { type: 'string', label: { zh: '系统', en: 'OS' }, max: 32, width: 100 },
    phoneModel: { type: 'string', label: { zh: '机型', en: 'Phone model' }, max: 64, width: 140 },
    logFile: { type: 'file', label: { zh: '日志文件', en: 'Log file' }, max: 1000 },
    uploadTime: { type: 'datetime', label: { zh: '上传时间', en: 'Uploaded at' }, sortable: true, search: 'dateRange' },
  },
});

export const faceLogResource = defineResource({
  code: 'face_log',
  path: '/api/omc-log/face',
  title: { zh: '人脸日志', en: 'Face logs' },
  scope: 'platform',
  readOnly: true,
  nameField: 'deviceSn',
  defaultSort: { field: 'eventTime', order: 'desc' },
  // partitioned by month of eventTime (decisions.md, "Time-partitioned logs"): the screen opens on the last days
  recent: { field: 'eventTime', days: 7 },
  buttons: { add: false, edit: false, delete: false },
  menu: { parent: 'device', route: '/device/facelog', name: { zh: '人脸日志', en: 'Face logs' }, sort: 9, icon: 'iconfont icon-rizhi' },
  fields: {
    deviceSn: { ...SN, search: 'like' },
    productId: { type: 'ref', ref: 'product_info', label: { zh: '产品', en: 'Product' }, list: false },
    userId: { type: 'string', label: { zh: '用户', en: 'User' }, max: 64, search: 'equal', width: 120 },
    event: { type: 'string', label: { zh: '事件', en: 'Event' }, dict: 'face_event', max: 16, search: 'equal', width: 90 },
    snapshot: { type: 'image', label: { zh: '抓拍', en: 'Snapshot' }, max: 1000 },
    eventTime: { type: 'datetime', label: { zh: '时间', en: 'Time' }, sortable: true, search: 'dateRange' },
  },
});

export const deviceControlResource = defineResource({
  code: 'device_control',
  path: '/tc/omc-device/control',
  title: { zh: '设备管控', en: 'Device control' },
  scope: 'tenant',
  nameField: 'deviceSn',
  // a command sent is never edited; its record may be removed
  createOnly: true,
  removable: true,
  buttons: { edit: false },
  menu: {
    parent: 'device', route: '/device/control', name: { zh: '设备管控', en: 'Device control' }, sort: 6, icon: 'iconfont iconicon_lock',
    buttons: [
      { code: 'device_control_import', name: { zh: '导入', en: 'Import' }, alias: 'import', placement: 'toolbar' },
      {
        code: 'device_control_sync', name: { zh: '同步状态', en: 'Sync state' }, alias: 'sync', placement: 'both', action: 'syncStatus',
        done: { zh: '已向 {sent} 台设备下发, {offline} 台离线', en: 'Sent to {sent} devices, {offline} offline' },
      },
    ],
  },
  io: { import: { permission: 'device_control_import' } },
  fields: {
    deviceSn: { ...SN, required: { zh: '请输入设备 SN', en: 'Please enter the device SN' }, search: 'like' },
    action: {
      type: 'string', label: { zh: '管控操作', en: 'Control action' }, dict: 'device_action', required: { zh: '请选择管控操作', en: 'Please select the control action' },
      max: 16, search: 'equal', width: 110,
    },
    reason: { type: 'string', label: { zh: '原因', en: 'Reason' }, required: { zh: '请输入原因', en: 'Please enter the reason' }, max: 255, width: 200 },
    state: { type: 'string', label: { zh: '状态', en: 'State' }, dict: 'control_state', max: 16, form: false, search: 'equal', key: true, width: 90 },
    result: { type: 'string', label: { zh: '设备应答', en: 'Device answer' }, max: 255, form: false, width: 180 },
    syncTime: { type: 'datetime', label: { zh: '同步时间', en: 'Synced at' }, form: false },
  },
  actions: defineActions('/tc/omc-device/control', {
    syncStatus: {
      segment: 'sync-status', method: 'POST', permission: 'device_control_sync', title: { zh: '设备管控：同步状态', en: 'Device control: sync the state' },
      input: z.object({ ids: idsParamSchema }), output: z.object({ sent: z.number(), offline: z.number() }),
    },
  }),
});

export const deviceNoticeItem = z.object({
  noticeType: z.string().min(1).max(32),
  enabled: z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v) => (v === true || v === 1 ? 1 : 0)),
  channels: z.union([z.string(), z.array(z.string())]).transform((v) => [...new Set((Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean))].join(',')),
  template: z.string().trim().max(500).nullish(),
});

/** Device notices per product: which device events reach the app user, and how (push, SMS). */
export const deviceNoticeResource = defineResource({
  code: 'device_notice',
  path: '/tc/omc-device/device/notice/config',
  title: { zh: '设备通知配置', en: 'Device notices' },
  scope: 'platform',
  nameField: 'noticeType',
  page: 'custom',
  readOnly: true,
  menu: {
    parent: 'device', route: '/device/notice', name: { zh: '设备通知配置', en: 'Device notices' }, sort: 8, icon: 'iconfont iconicon_notice',
    buttons: [{ code: 'device_notice_sync', name: { zh: '同步通知类型', en: 'Sync notice types' }, alias: 'sync', placement: 'toolbar', action: 'dict', custom: true }],
  },
  fields: {
    productId: { type: 'ref', ref: 'product_info', label: { zh: '产品', en: 'Product' }, search: 'equal', width: 150 },
    noticeType: { type: 'string', label: { zh: '通知类型', en: 'Notice type' }, dict: 'device_notice', max: 32, search: 'equal', width: 140 },
    enabled: { type: 'boolean', label: { zh: '启用', en: 'Enabled' }, search: 'equal', width: 80 },
    channels: { type: 'string', label: { zh: '通知渠道', en: 'Channels' }, max: 64, width: 120 },
    template: { type: 'string', label: { zh: '消息模板', en: 'Template' }, max: 500, width: 240 },
  },
  actions: defineActions('/tc/omc-device', {
    configSave: {
      segment: 'device/notice/config/save', method: 'POST', permission: 'device_notice', platform: 'write', title: { zh: '设备通知配置：保存', en: 'Device notices: save' },
      input: z.object({ productId: idInput, items: z.array(deviceNoticeItem).min(1).max(200) }), output: okOutput,
    },
    dict: {
      segment: 'device/notice/dict', method: 'GET', permission: 'device_notice', title: { zh: '设备通知配置：通知类型', en: 'Device notices: notice types' },
      input: z.object({ sync: z.union([z.boolean(), z.enum(['0', '1', 'true', 'false'])]).optional() }),
      output: z.array(z.object({ dictKey: z.string(), dictValue: z.string(), added: z.number().optional() })),
    },
    productList: {
      segment: 'product/list', method: 'GET', permission: 'device_notice', title: { zh: '设备通知配置：产品', en: 'Device notices: products' },
      input: z.object({}), output: z.array(z.object({ id: z.string(), productName: z.string(), noticeCount: z.number() })),
    },
  }),
});

export const deviceInfoAnswer = z.object({
  sn: z.string(),
  productId: z.string(),
  productName: z.string().nullable(),
  batchNo: z.string().nullable(),
  /** the MAC written at production */
  mac: z.string().nullable(),
  /** what the device itself reports (`report_info`) */
  reportedMac: z.string().nullable(),
  imei: z.string().nullable(),
  cloudVendorName: z.string().nullable(),
  deviceName: z.string().nullable(),
  online: z.number(),
  lastSeenTime: z.string().nullable(),
  address: z.string().nullable(),
  versions: z.record(z.string(), z.string()),
  properties: z.record(z.string(), z.unknown()),
  activationTime: z.string().nullable(),
  activationLocation: z.object({ lat: z.number(), lng: z.number(), regionCode: z.string().nullable() }).nullable(),
  burnTime: z.string().nullable(),
  lastOta: z.object({ taskId: z.string(), state: z.string(), toVersion: z.string().nullable(), lastReportTime: z.string().nullable() }).nullable(),
  controls: z.array(z.object({ action: z.string(), state: z.string(), createTime: z.string() })),
});

/** One view of a device: `device/info?deviceSn=` (no rows of its own: a screen over the device tables). */
export const deviceInfoResource = defineResource({
  code: 'device_info',
  path: '/tc/omc-device/device',
  title: { zh: '设备查询', en: 'Device lookup' },
  scope: 'platform',
  readOnly: true,
  page: 'custom',
  nameField: 'sn',
  menu: { parent: 'device', route: '/device/info', name: { zh: '设备查询', en: 'Device lookup' }, sort: 7, icon: 'iconfont iconicon_search' },
  fields: {
    sn: { ...SN, search: 'like' },
    productId: { type: 'ref', ref: 'product_info', label: { zh: '产品', en: 'Product' }, search: 'equal', width: 150 },
    online: { type: 'boolean', label: { zh: '在线', en: 'Online' }, search: 'equal', width: 80 },
    firmwareVersion: { type: 'string', label: { zh: '固件版本', en: 'Firmware' }, max: 32, search: 'equal', width: 110 },
    mac: { type: 'string', label: { zh: 'MAC 地址', en: 'MAC' }, max: 17, search: 'equal', width: 150 },
    imei: { type: 'string', label: { zh: 'IMEI', en: 'IMEI' }, max: 16, search: 'equal', width: 150 },
    lastSeenTime: { type: 'datetime', label: { zh: '最近在线', en: 'Last seen' }, sortable: true },
    activationTime: { type: 'datetime', label: { zh: '激活时间', en: 'Activated at' }, sortable: true, search: 'dateRange' },
  },
  actions: defineActions('/tc/omc-device/device', {
    info: {
      method: 'GET', permission: 'device_info', title: { zh: '设备查询', en: 'Device lookup' },
      input: z.object({ deviceSn: z.string().trim().min(1).max(32).transform((s) => s.toUpperCase()) }), output: deviceInfoAnswer,
    },
  }),
});

const issuedCode = z.object({ id: z.string(), code: z.string(), kind: z.number(), validFrom: z.string(), validTo: z.string() });

export const emergencyUnlockResource = defineResource({
  code: 'emergency_unlock',
  path: `${OMC_DEVICE}/emergency-unlock`,
  title: { zh: '应急开锁', en: 'Emergency unlock' },
  scope: 'tenant',
  nameField: 'deviceSn',
  page: 'custom',
  // a decided request is no longer changed; one whose codes were issued stays on record
  rowButtons: { edit: { field: 'state', values: ['pending'] }, delete: { field: 'state', values: ['pending', 'approved', 'rejected'] } },
  menu: {
    parent: 'device', route: '/device/emergency', name: { zh: '应急开锁', en: 'Emergency unlock' }, sort: 10, icon: 'iconfont iconicon_lock',
    buttons: [
      { code: 'emergency_approve', name: { zh: '审批', en: 'Approve' }, alias: 'approve', placement: 'row', action: 'approve', custom: true },
      { code: 'emergency_generate', name: { zh: '生成开锁码', en: 'Generate codes' }, alias: 'generate', placement: 'row', action: 'generate', custom: true },
    ],
  },
  fields: {
    deviceSn: { ...SN, required: { zh: '请输入设备 SN', en: 'Please enter the device SN' }, search: 'like' },
    applicant: { type: 'string', label: { zh: '申请人', en: 'Applicant' }, required: { zh: '请输入申请人', en: 'Please enter the applicant' }, max: 32, search: 'like', width: 100 },
    phone: { type: 'string', label: { zh: '联系电话', en: 'Phone' }, required: { zh: '请输入联系电话', en: 'Please enter the phone number' }, max: 32, format: 'phone', width: 130 },
    reason: { type: 'text', label: { zh: '申请原因', en: 'Reason' }, required: { zh: '请输入申请原因', en: 'Please enter the reason' }, max: 500 },
    codeKind: {
      type: 'int', label: { zh: '开锁码类型', en: 'Code kind' }, dict: 'emergency_kind', required: { zh: '请选择开锁码类型', en: 'Please select the code kind' },
      search: 'equal', width: 130,
    },
    validFrom: { type: 'datetime', label: { zh: '生效时间', en: 'Valid from' }, required: { zh: '请选择生效时间', en: 'Please select when it starts' }, sortable: true },
    codeCount: { type: 'int', label: { zh: '开锁码数量', en: 'Codes' }, min: 1, max: 10, defaultValue: 1, key: true, width: 90 },
    validTo: { type: 'datetime', label: { zh: '失效时间', en: 'Valid to' }, form: false },
    state: { type: 'string', label: { zh: '状态', en: 'State' }, dict: 'emergency_state', max: 16, form: false, search: 'equal', key: true, width: 90 },
    approver: { type: 'id', label: { zh: '审批人', en: 'Approver' }, form: false, list: false },
    approverName: { type: 'string', label: { zh: '审批人', en: 'Approver' }, max: 64, form: false, width: 100 },
    approvalTime: { type: 'datetime', label: { zh: '审批时间', en: 'Approved at' }, form: false },
    comment: { type: 'string', label: { zh: '审批意见', en: 'Comment' }, max: 255, form: false, width: 160 },
  },
  actions: {
    ...defineActions(`${OMC_DEVICE}/emergency-code`, {
      generate: {
        method: 'POST', permission: 'emergency_generate', title: { zh: '应急开锁：生成开锁码', en: 'Emergency unlock: generate codes' },
        input: z.object({ id: idInput }), output: z.array(issuedCode),
      },
    }),
    ...defineActions(`${OMC_DEVICE}/emergency-unlock`, {
    approve: {
      method: 'POST', permission: 'emergency_approve', title: { zh: '应急开锁：批准', en: 'Emergency unlock: approve' },
      input: z.object({ id: idInput, comment: z.string().trim().max(255).optional() }), output: okOutput,
    },
    reject: {
      method: 'POST', permission: 'emergency_approve', title: { zh: '应急开锁：驳回', en: 'Emergency unlock: reject' },
      input: z.object({ id: idInput, comment: z.string().trim().max(255).optional() }), output: okOutput,
    },
    }),
  },
});

export const emergencyCodeResource = defineResource({
  code: 'emergency_code',
  path: `${OMC_DEVICE}/emergency-code`,
  title: { zh: '应急开锁码', en: 'Emergency codes' },
  scope: 'tenant',
  readOnly: true,
  nameField: 'deviceSn',
  // read on the emergency unlock screen; written only by its generate action
  codes: { menu: 'emergency_unlock', view: 'emergency_unlock', add: 'emergency_generate', edit: 'emergency_generate', delete: 'emergency_generate' },
  fields: {
    unlockId: { type: 'ref', ref: 'emergency_unlock', label: { zh: '申请', en: 'Request' }, search: 'equal', width: 150 },
    deviceSn: { ...SN, search: 'equal' },
    code: { type: 'string', label: { zh: '开锁码', en: 'Code' }, max: 16, secret: true, width: 130 },
    kind: { type: 'int', label: { zh: '类型', en: 'Kind' }, dict: 'emergency_kind', search: 'equal', width: 120 },
    validFrom: { type: 'datetime', label: { zh: '生效时间', en: 'Valid from' }, sortable: true },
    validTo: { type: 'datetime', label: { zh: '失效时间', en: 'Valid to' }, sortable: true },
    issuerName: { type: 'string', label: { zh: '签发人', en: 'Issued by' }, max: 64, width: 100 },
  },
});
