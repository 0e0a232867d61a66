import { serviceKey } from '../../core/services.js';
import type { DeviceGateway } from './gateway/gateway.js';

/**
 * The device gateway (MQTT): areas register their handlers on it while they mount (`onUplink(['ota'], …)`); it
 * starts once the app is ready. Mode `off` when MQTT_PORT=off (and in tests unless asked for).
 */
export const GATEWAY = serviceKey<DeviceGateway>('device.gateway');

/** The OTA scheduler, once the device runtime has started: `wake()` runs it now (a task was made). */
export const OTA = serviceKey<{ wake(): void }>('device.ota');
