import type { ResourceDef } from '@console/contract';
import type { ComponentType } from 'react';

/** What a custom page gets: its resource's definition (it usually renders `ResourcePage` with props). */
export interface CustomPageProps {
  def: ResourceDef;
}

export type CustomPageLoader = () => Promise<{ default: ComponentType<CustomPageProps> }>;

/**
 * The console's own pages of the definitions marked `page: 'custom'`, by resource code, each its own
 * chunk (loaded when first visited). Every other definition with a `menu` gets the generic list page at
 * `menu.route` without a line here (modules/definitions.ts). pages.test.ts checks that every custom
 * definition has its page and that no entry here is stale.
 *
 *   user: () => import('./system/UserPage').then((m) => ({ default: m.UserPage })),
 */
export const customPages: Readonly<Record<string, CustomPageLoader>> = {
  dict: () => import('./system/DictScreen').then((m) => ({ default: m.DictPage })),
  dictbiz: () => import('./system/DictScreen').then((m) => ({ default: m.DictBizPage })),
  client: () => import('./system/ClientPage').then((m) => ({ default: m.ClientPage })),
  tenant_package: () => import('./system/TenantPackagePage').then((m) => ({ default: m.TenantPackagePage })),
  tenant: () => import('./system/TenantPage').then((m) => ({ default: m.TenantPage })),
  topmenu: () => import('./system/TopMenuPage').then((m) => ({ default: m.TopMenuPage })),
  user: () => import('./system/UserPage').then((m) => ({ default: m.UserPage })),
  role: () => import('./authority/RolePage').then((m) => ({ default: m.RolePage })),
  factory: () => import('./production/FactoryPage').then((m) => ({ default: m.FactoryPage })),
  cit: () => import('./production/CitPage').then((m) => ({ default: m.CitPage })),
  batch: () => import('./production/BatchPage').then((m) => ({ default: m.BatchPage })),
  product_info: () => import('./product/ProductPage').then((m) => ({ default: m.ProductPage })),
  product_auth: () => import('./product/ProductAuthPage').then((m) => ({ default: m.ProductAuthPage })),
  ota_progress: () => import('./device/OtaPage').then((m) => ({ default: m.OtaPage })),
  emergency_unlock: () => import('./device/EmergencyPage').then((m) => ({ default: m.EmergencyPage })),
  device_info: () => import('./device/DeviceInfoPage').then((m) => ({ default: m.DeviceInfoPage })),
  device_notice: () => import('./device/DeviceNoticePage').then((m) => ({ default: m.DeviceNoticePage })),
  flow_model: () => import('./flow/ModelPage').then((m) => ({ default: m.ModelPage })),
  flow_manager: () => import('./flow/ManagerPage').then((m) => ({ default: m.ManagerPage })),
  flow_follow: () => import('./flow/FollowPage').then((m) => ({ default: m.FollowPage })),
  work_start: () => import('./flow/WorkPages').then((m) => ({ default: m.WorkStartPage })),
  work_claim: () => import('./flow/WorkPages').then((m) => ({ default: m.WorkClaimPage })),
  work_todo: () => import('./flow/WorkPages').then((m) => ({ default: m.WorkTodoPage })),
  work_send: () => import('./flow/WorkPages').then((m) => ({ default: m.WorkSendPage })),
  work_done: () => import('./flow/WorkPages').then((m) => ({ default: m.WorkDonePage })),
};
