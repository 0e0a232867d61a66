import type { AreaManifest, AreasMessages } from '../shell/area';
import { authorityArea } from './authority';
import { deviceArea } from './device';
import { flowArea } from './flow';
import { productArea } from './product';
import { productionArea } from './production';
import { systemArea } from './system';

/**
 * The business areas with web code, one line each, in the order of the menu tree. The page registry
 * (registry/), the router and the i18n types read them; nothing else names an area.
 */
export const areas = [
  systemArea,
  authorityArea,
  flowArea,
  productionArea,
  productArea,
  deviceArea,
] as const satisfies readonly AreaManifest[];

declare module '../i18n/lazy' {
  // the areas' string bundles, typed from their manifests
  interface LazyMessages extends AreasMessages<typeof areas> {}
}
