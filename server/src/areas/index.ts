import type { AreaManifest, DataStep, ResourceBinding } from '../core/area.js';
import { authArea } from './auth/index.js';
import { authorityArea } from './authority/index.js';
import { baseArea } from './base/index.js';
import { deskArea } from './desk/index.js';
import { deviceArea } from './device/index.js';
import { flowArea } from './flow/index.js';
import { monitorArea } from './monitor/index.js';
import { postsaleArea } from './postsale/index.js';
import { productArea } from './product/index.js';
import { productionArea } from './production/index.js';
import { resourceArea } from './resource/index.js';
import { settingArea } from './setting/index.js';
import { storageArea } from './storage/index.js';
import { supplierArea } from './supplier/index.js';
import { systemArea } from './system/index.js';

export { bind, type AreaManifest, type ResourceBinding } from '../core/area.js';

/**
 * Every business area, one line each, in order: their services are created, their resources and routes mounted,
 * their data steps run and their background work started in this order (stopped in reverse).
 */
export const AREAS: readonly AreaManifest[] = [
  authArea,
  systemArea,
  baseArea,
  authorityArea,
  deskArea,
  resourceArea,
  monitorArea,
  productArea,
  productionArea,
  deviceArea,
  postsaleArea,
  flowArea,
  supplierArea,
  settingArea,
  storageArea,
];

export function areaResources(): ResourceBinding[] {
  return AREAS.flatMap((a) => a.resources ?? []);
}

export function areaDataSteps(): DataStep[] {
  return AREAS.flatMap((a) => a.dataSteps ?? []);
}
