import type { ResourceDef } from '@console/contract';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../core/context.js';
import type { ResourceHooks } from '../core/resource/engine.js';
import type { DataStep } from '../seed/runner.js';

/** A resource of a module: its definition (contract), its table, and its hooks. */
export interface ResourceBinding {
  def: ResourceDef;
  table: PgTable;
  hooks?: (ctx: AppContext) => ResourceHooks;
}

/**
 * A feature folder: its resources (mounted by the engine, their menus seeded from their definitions), its
 * other routes and its data steps.
 */
export interface FeatureModule {
  name: string;
  resources?: ResourceBinding[];
  routes?: (app: FastifyInstance, ctx: AppContext) => Promise<void> | void;
  dataSteps?: DataStep[];
}

export function bind<D extends ResourceDef>(def: D, table: PgTable, hooks?: (ctx: AppContext) => ResourceHooks): ResourceBinding {
  return { def, table, hooks };
}
