import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../core/context.js';
import { mountResource } from '../core/resource/engine.js';
import type { DataStep } from '../seed/runner.js';
import { appModule } from './system/public.js';
import { authModule } from './auth/index.js';
import { authorityFeature } from './authority/index.js';
import { deskFeature } from './desk/index.js';
import { deviceGatewayFeature } from './device/gateway/index.js';
import { flowFeature } from './flow/index.js';
import { logFeature } from './monitor/index.js';
import { postsaleFeature } from './postsale/index.js';
import { productFeature } from './product/index.js';
import { productionFeature } from './production/index.js';
import { deviceFeature } from './device/index.js';
import { resourceFeature } from './resource/index.js';
import { systemFeature } from './system/index.js';
import type { FeatureModule, ResourceBinding } from '../core/area.js';

export { bind, type FeatureModule, type ResourceBinding } from '../core/area.js';

/** Every module, in mount order. */
export const MODULES: readonly FeatureModule[] = [
  { name: 'auth', routes: authModule },
  systemFeature,
  authorityFeature,
  deskFeature,
  { name: 'app', routes: appModule },
  resourceFeature,
  logFeature,
  productFeature,
  productionFeature,
  deviceFeature,
  deviceGatewayFeature,
  postsaleFeature,
  flowFeature,
];

export function moduleResources(): ResourceBinding[] {
  return MODULES.flatMap((m) => m.resources ?? []);
}

export function moduleDataSteps(): DataStep[] {
  return MODULES.flatMap((m) => m.dataSteps ?? []);
}

/** Mounts every module's resources, then its routes; then checks that every reference resolves. */
export async function mountModules(app: FastifyInstance, ctx: AppContext, extra: readonly ResourceBinding[] = []): Promise<void> {
  for (const m of MODULES) {
    for (const b of m.resources ?? []) mountResource(app, ctx, b.def, b.table, b.hooks?.(ctx));
    await m.routes?.(app, ctx);
  }
  for (const b of extra) mountResource(app, ctx, b.def, b.table, b.hooks?.(ctx));
  ctx.resources.checkReferences();
}
