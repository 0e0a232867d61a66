import { defineArea } from '../../area.js';
import { appLogResource, appVersionResource, deviceControlResource, deviceInfoResource, deviceNoticeResource, emergencyCodeResource, emergencyUnlockResource, faceLogResource, firmwareResource, otaLogResource, otaProgressResource, otaTaskResource } from './device.js';
import { deviceMessages } from './messages.js';

export * from './device.js';
export * from './deviceGateway.js';
export * from './deviceValues.js';

/** The device area: devices in the field: firmware, OTA, app versions and logs, control, lookup, emergency unlock, the gateway. */
export default /* @__PURE__ */ defineArea({
  name: 'device',
  resources: {
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
  },
  messages: deviceMessages,
  menus: [{ code: 'device', name: { zh: '设备运维', en: 'Device operations' }, route: '/device', sort: 30, icon: 'iconfont iconicon_setting' }],
});
