import { z } from 'zod';
import { defineActions } from '../../action.js';

/** Most SNs one `simulator/sessions` call answers. */
export const MAX_SIMULATOR_SNS = 10_000;

/**
 * One simulated device's MQTT session (docs/device-protocol.md): Tencent-format connect credentials valid 24 h
 * and the session key its uplinks are signed with. The device key itself never leaves the server.
 */
export const simulatorSession = z.object({
  sn: z.string(),
  clientId: z.string(),
  username: z.string(),
  password: z.string(),
  /** hex HMAC-SHA256(deviceKey, 'session\n' + username) */
  sessionKey: z.string(),
  cloudProductId: z.string(),
  deviceName: z.string(),
  topicRoot: z.string(),
  /** where to connect (absent when the gateway is off) */
  mqttUrl: z.string().nullable(),
});

/** The device gateway's calls: sessions for the fleet simulator (platform administrators, DEVICE_SIMULATOR on). */
export const deviceGatewayActions = defineActions('/api/omc-device/simulator', {
  sessions: {
    method: 'POST', permission: null, platform: 'admin', title: { zh: '模拟设备会话', en: 'Device simulator: sessions' },
    input: z.object({
      /** SNs, comma separated */
      sns: z.string().trim().max(MAX_SIMULATOR_SNS * 33).optional(),
      batchNo: z.string().trim().max(32).optional(),
      /** without SNs or a batch: the first `count` devices (by SN) with a live certificate */
      count: z.coerce.number().int().min(1).max(MAX_SIMULATOR_SNS).optional(),
    }),
    output: z.object({
      sessions: z.array(simulatorSession),
      /** SNs asked for that have no device with a live certificate (allocated or burned) */
      unknown: z.array(z.string()),
    }),
  },
});
