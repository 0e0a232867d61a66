import { permissionCodes } from '../../resource.js';
import { deviceInfoResource, emergencyUnlockResource, otaProgressResource } from '../device/index.js';

/** `GET /api/blade-desk/dashboard/devices`: the device figures of the dashboard, each for whom may read its screen. */
export const DASHBOARD_DEVICES_PATH = '/api/blade-desk/dashboard/devices';

/** Days of OTA results the success rate covers. */
export const OTA_RATE_DAYS = 30;

/**
 * The permission (the menu of the screen the figure summarises) each device figure needs: a figure the caller may
 * not read is left out of the answer, and the console shows (and asks for) none of its card.
 */
export const DEVICE_FIGURE_CODES = {
  locks: permissionCodes(deviceInfoResource).menu,
  ota: permissionCodes(otaProgressResource).menu,
  emergency: permissionCodes(emergencyUnlockResource).menu,
} as const;

export type DeviceFigure = keyof typeof DEVICE_FIGURE_CODES;

/** The answer: only the figures the caller may read. Scoped like their screens (a tenant: the locks it owns, its own requests). */
export interface DashboardDevices {
  /** the locks known to the device screen (设备查询), and how many of them are online now */
  locks?: { online: number; total: number };
  /** device upgrades that ended in the last `days` days: succeeded, failed (failed or timed out); `rate` null when none ended */
  ota?: { days: number; succeeded: number; failed: number; rate: number | null };
  /** emergency unlock requests waiting for approval */
  emergency?: { pending: number };
}
