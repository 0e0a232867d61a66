import type { CustomPageLoader } from '../../shell/area';

/** The device area's custom pages by resource code (its manifest loads this list when the first menu page resolves). */
export const pages: Readonly<Record<string, CustomPageLoader>> = {
  ota_progress: () => import('./OtaPage').then((m) => ({ default: m.OtaPage })),
  emergency_unlock: () => import('./EmergencyPage').then((m) => ({ default: m.EmergencyPage })),
  device_info: () => import('./DeviceInfoPage').then((m) => ({ default: m.DeviceInfoPage })),
  device_notice: () => import('./DeviceNoticePage').then((m) => ({ default: m.DeviceNoticePage })),
};
