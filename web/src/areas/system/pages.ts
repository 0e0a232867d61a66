import type { CustomPageLoader } from '../../shell/area';

/** The system area's custom pages by resource code (its manifest loads this list when the first menu page resolves). */
export const pages: Readonly<Record<string, CustomPageLoader>> = {
  dict: () => import('./DictScreen').then((m) => ({ default: m.DictPage })),
  dictbiz: () => import('./DictScreen').then((m) => ({ default: m.DictBizPage })),
  client: () => import('./ClientPage').then((m) => ({ default: m.ClientPage })),
  tenant_package: () => import('./TenantPackagePage').then((m) => ({ default: m.TenantPackagePage })),
  tenant: () => import('./TenantPage').then((m) => ({ default: m.TenantPage })),
  topmenu: () => import('./TopMenuPage').then((m) => ({ default: m.TopMenuPage })),
  user: () => import('./UserPage').then((m) => ({ default: m.UserPage })),
};
