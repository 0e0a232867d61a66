import { appVersionHooks, registerAppVersionActions } from './appVersion.js';
import {
  appLogResource, appVersionResource, deviceControlResource, deviceInfoResource, deviceNoticeResource,
  emergencyCodeResource, emergencyUnlockResource, faceLogResource, firmwareResource, otaLogResource,
  otaProgressResource, otaTaskResource,
} from '@console/contract/areas/device/index';
import { bind, type DataStep, defineArea, provide } from '../../core/area.js';
import { type DictSeed, seedDicts } from '../../seed/steps.js';
import { bySnColumn } from '../production/index.js';
import { deviceControlHooks, registerControlActions } from './control.js';
import { emergencyUnlockHooks, registerEmergencyActions } from './emergency.js';
import { firmwareHooks, registerFirmwareActions } from './firmware.js';
import { deviceDependents } from './dependents.js';
import { createGateway } from './gateway/gateway.js';
import { mountSimulatorSessions } from './gateway/sessions.js';
import { registerFirmwareCloud } from './firmwareCloud.js';
import { deviceStatusHooks, noticeConfigHooks, registerDeviceLookup } from './lookup.js';
import { otaProgressHooks, otaTaskHooks, registerOtaActions } from './ota.js';
import { startDeviceRuntime } from './runtime.js';
import { watchGateway } from './gateway/watch.js';
import { APP_LOG_RETENTION, deviceRetention, FACE_LOG_RETENTION, OTA_LOG_RETENTION } from './retention.js';
import { seedRetentionParam } from '../system/index.js';
import { GATEWAY } from './services.js';
import {
  appLog, appVersion, deviceControl, deviceNoticeConfig, deviceStatus, emergencyCode, emergencyUnlock, faceLog, firmware, otaLog, otaProgress, otaTask,
} from './tables.js';

const OTA_STATE_NAMES: Array<[string, string, string]> = [
  ['queued', '排队中', 'Queued'], ['notified', '已通知', 'Notified'], ['downloading', '下载中', 'Downloading'], ['downloaded', '已下载', 'Downloaded'],
  ['verified', '已校验', 'Verified'], ['installing', '安装中', 'Installing'], ['succeeded', '成功', 'Succeeded'], ['failed', '失败', 'Failed'],
  ['timed_out', '超时', 'Timed out'], ['cancelled', '已取消', 'Cancelled'],
];

const DEVICE_DICTS: DictSeed[] = [
  { code: 'firmware_module', name: '固件模块', nameEn: 'Firmware module', items: [['mcu', '主控 MCU', 'MCU'], ['wifi', 'Wi-Fi 模组', 'Wi-Fi module'], ['camera', '摄像头', 'Camera']] },
  { code: 'release_state', name: '发布状态', nameEn: 'Release state', items: [['1', '草稿', 'Draft'], ['2', '已发布', 'Published'], ['3', '已撤回', 'Withdrawn']] },
  { code: 'ota_scope', name: '升级范围', nameEn: 'OTA scope', items: [['all', '产品全部设备', 'All devices of the product'], ['selected', '指定 SN', 'Selected SNs'], ['batch', '指定批次', 'A batch']] },
  { code: 'ota_task_state', name: '升级任务状态', nameEn: 'OTA task state', items: [['running', '进行中', 'Running'], ['finished', '已完成', 'Finished'], ['cancelled', '已取消', 'Cancelled']] },
  { code: 'ota_state', name: '升级状态', nameEn: 'OTA state', items: OTA_STATE_NAMES },
  { code: 'app_platform', name: 'APP 平台', nameEn: 'App platform', items: [['android', 'Android', 'Android'], ['ios', 'iOS', 'iOS']] },
  { code: 'face_event', name: '人脸事件', nameEn: 'Face event', items: [['enrol', '录入', 'Enrolled'], ['match', '识别成功', 'Matched'], ['reject', '识别失败', 'Rejected']] },
  {
    code: 'device_action', name: '管控操作', nameEn: 'Control action',
    items: [['disable', '禁用', 'Disable'], ['enable', '启用', 'Enable'], ['unbind', '解绑', 'Unbind'], ['factory_reset', '恢复出厂', 'Factory reset'], ['lock_firmware', '锁定固件', 'Lock firmware']],
  },
  { code: 'control_state', name: '管控状态', nameEn: 'Control state', items: [['pending', '待执行', 'Pending'], ['applied', '已生效', 'Applied'], ['failed', '失败', 'Failed']] },
  {
    code: 'device_notice', name: '设备通知类型', nameEn: 'Device notice',
    items: [['low_battery', '低电量', 'Low battery'], ['tamper', '防撬报警', 'Tamper alarm'], ['doorbell', '门铃', 'Doorbell'], ['unlock_record', '开锁记录', 'Unlock record'],
      ['door_open_too_long', '门未关', 'Door left open'], ['duress', '胁迫报警', 'Duress alarm'], ['wrong_attempts', '多次试错', 'Repeated wrong attempts']],
  },
  { code: 'notice_channel', name: '通知渠道', nameEn: 'Notice channel', items: [['push', 'APP 推送', 'App push'], ['sms', '短信', 'SMS']] },
  {
    code: 'emergency_kind', name: '开锁码类型', nameEn: 'Emergency code kind',
    items: [['1', '一次性 (24 小时内)', 'One-time (within 24 hours)'], ['2', '限时 1 小时', 'Timed, 1 hour'], ['3', '限时 2 小时', 'Timed, 2 hours'], ['4', '限时 4 小时', 'Timed, 4 hours'],
      ['5', '限时 8 小时', 'Timed, 8 hours'], ['6', '限时 1 天', 'Timed, 1 day'], ['7', '限时 2 天', 'Timed, 2 days'], ['8', '限时 3 天', 'Timed, 3 days'], ['9', '限时 7 天', 'Timed, 7 days']],
  },
  {
    code: 'emergency_state', name: '应急开锁状态', nameEn: 'Emergency unlock state',
    items: [['pending', '待审批', 'Pending'], ['approved', '已批准', 'Approved'], ['rejected', '已驳回', 'Rejected'], ['issued', '已生成', 'Codes issued']],
  },
];

const DEVICE_DATA_STEPS: DataStep[] = [
  { name: '0601-device-dicts', run: (tx) => seedDicts(tx, DEVICE_DICTS) },
  {
    name: '0602-device-log-retention-params',
    run: async (tx) => {
      for (const p of [OTA_LOG_RETENTION, FACE_LOG_RETENTION, APP_LOG_RETENTION]) await seedRetentionParam(tx, p);
    },
  },
];

export { GATEWAY, OTA } from './services.js';
export type { DeviceGateway } from './gateway/gateway.js';
export type { Uplink } from './gateway/types.js';
export { appLog, appVersion, deviceStatus } from './tables.js';
export { deviceFigures } from './figures.js';

/**
 * Devices in the field: firmware and OTA, app versions and logs, device control and notices, emergency unlock. A tenant
 * reaches the devices delivered to it (production/ownership.ts), the catalogue rows of its authorised product types.
 * Its background work: the device gateway (MQTT), created before the areas mount (they register their handlers on it)
 * and closed after the app; the device runtime (the gateway's reports folded into the tables, the OTA scheduler),
 * started before the gateway so that the first device to connect finds its handlers.
 */
export const deviceArea = defineArea({
  name: 'device',
  // firmware this server stores itself has no cloud to be uploaded to (上传云端)
  idleButtons: (config) => (config.firmwareCloud === 'own' ? ['firmware_cloud'] : []),
  services: [provide(GATEWAY, (ctx, log) => createGateway(ctx, { log }), (gateway) => gateway.close())],
  dependents: deviceDependents,
  resources: [
    bind(firmwareResource, firmware, firmwareHooks),
    bind(otaTaskResource, otaTask, otaTaskHooks),
    bind(otaProgressResource, otaProgress, otaProgressHooks),
    bind(otaLogResource, otaLog, () => ({ scope: bySnColumn(otaLog.deviceSn) })),
    bind(appVersionResource, appVersion, appVersionHooks),
    bind(appLogResource, appLog),
    bind(faceLogResource, faceLog, () => ({ scope: bySnColumn(faceLog.deviceSn) })),
    bind(deviceControlResource, deviceControl, deviceControlHooks),
    bind(deviceNoticeResource, deviceNoticeConfig, noticeConfigHooks),
    bind(deviceInfoResource, deviceStatus, deviceStatusHooks),
    bind(emergencyUnlockResource, emergencyUnlock, emergencyUnlockHooks),
    // issued codes follow the lock: a tenant reads those of the locks it owns now (decisions.md, issue 23)
    bind(emergencyCodeResource, emergencyCode, () => ({ scope: bySnColumn(emergencyCode.deviceSn) })),
  ],
  routes: async (app, ctx) => {
    registerFirmwareActions(app, ctx);
    registerAppVersionActions(app, ctx);
    await registerFirmwareCloud(app, ctx);
    registerOtaActions(app, ctx);
    registerControlActions(app, ctx);
    registerDeviceLookup(app, ctx);
    registerEmergencyActions(app, ctx);
    // the gateway's own routes (the simulator's sessions)
    mountSimulatorSessions(app, ctx);
  },
  dataSteps: DEVICE_DATA_STEPS,
  retention: deviceRetention,
  async start(ctx, log) {
    const runtime = startDeviceRuntime(ctx, (e) => log.error({ err: e }, 'device runtime failed'));
    try {
      await ctx.services.get(GATEWAY).start();
    } catch (e) {
      await runtime.close();
      throw e;
    }
    watchGateway(ctx, ctx.services.get(GATEWAY));
    return { stop: () => runtime.close() };
  },
  status(ctx) {
    const g = ctx.services.find(GATEWAY);
    if (!g || g.mode === 'off') return 'device gateway off';
    return g.mode === 'embedded' ? `device gateway embedded MQTT on port ${g.port}` : `device gateway on ${g.deviceUrl()}`;
  },
});
