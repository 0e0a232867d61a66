import type { ResourceDef } from '@console/contract';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { mountDetail } from './calls/detail.js';
import { mountExport } from './calls/export.js';
import { mountImport } from './calls/import.js';
import { mountList } from './calls/list.js';
import { mountRemove } from './calls/remove.js';
import { mountSubmit } from './calls/submit.js';
import { mountTree } from './calls/tree.js';
import type { ResourceHooks } from './hooks.js';
import { buildMount, type ResourceMount } from './mount/resourceMount.js';
import type { MountedResource } from './registry.js';

export type { MountedResource } from './registry.js';
export type { RemoveContext, ResourceHooks, SaveContext } from './hooks.js';
export { treeReaders } from './calls/tree.js';

const mounts = new WeakMap<MountedResource, ResourceMount>();

/** The engine's own mount of a mounted resource (its hooks, columns, presenting): what a test drives directly. */
export function mountOf(mounted: MountedResource): ResourceMount | undefined {
  return mounts.get(mounted);
}

/**
 * Mounts list / detail / submit / remove (and the tree calls of a tree resource, the xlsx export and import a
 * definition declares) for a resource definition over its table, with the query conventions of api.md, tenant
 * scope (data layer + row-level security), audit columns, soft delete, uniqueness, references, permission
 * checks and OpenAPI descriptions. Each call is its own module under calls/, over the one ResourceMount.
 */
export function mountResource(app: FastifyInstance, ctx: AppContext, def: ResourceDef, table: PgTable, hooks: ResourceHooks = {}): MountedResource {
  const m = buildMount(ctx, def, table, hooks);
  mountList(app, m);
  if (m.tree) mountTree(app, m);
  mountDetail(app, m);
  mountSubmit(app, m);
  if (m.removable) mountRemove(app, m);

  const mounted: MountedResource = { def, table, columns: m.columns, present: m.present, releases: m.hooks.releases, softDeleted: m.softDeleted };
  mounts.set(mounted, m);
  ctx.resources.add(mounted);
  if (def.io?.export) mountExport(app, m);
  if (def.io?.import) mountImport(app, m);
  return mounted;
}
