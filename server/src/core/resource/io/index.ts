import { type Lang, type ResourceDef } from '@console/contract';
import type { SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext, AuthUser } from '../../context.js';
import type { Executor } from '../../db/index.js';
import type { FieldLabels } from '../../validation.js';
import type { ResourceHooks } from '../engine.js';
import type { MountedResource } from '../registry.js';
import type { TreeRules } from '../tree.js';
import { mountExport } from './export.js';
import { mountImport } from './import.js';

export type Row = Record<string, unknown>;

/**
 * What the engine hands to import/export: its own rules for one resource, so that an export reads exactly
 * the rows the list shows and an import writes exactly what `submit` would (no copies of either).
 */
export interface EngineRules {
  hooks: ResourceHooks;
  tree: TreeRules | undefined;
  labels: FieldLabels;
  run<T>(user: AuthUser, fn: (tx: Executor) => Promise<T>): Promise<T>;
  /** live rows of the caller's tenant */
  visible(user: AuthUser): SQL[];
  /** live rows the caller may see: the tenant's, narrowed by the data scope */
  visibleTo(tx: Executor, user: AuthUser): Promise<SQL[]>;
  /** the tenant a read is for (platform administrators may name one with `tenantId`) */
  readTenant(req: FastifyRequest, user: AuthUser): AuthUser;
  /** a submit body checked like `submit` does; throws the AppError `submit` would answer */
  validateSubmit(body: Row, mode: 'create' | 'update', lang: Lang): { input: Row; values: Row };
  /** a new row with id, audit columns and tenant */
  newRow(values: Row, user: AuthUser, now: Date): Row;
  columnValues(values: Row): Row;
  /** refuses `ref`/`ids` values naming rows the caller cannot see (AppError naming the fields) */
  checkReferences(tx: Executor, values: Row, user: AuthUser, lang: Lang): Promise<void>;
}

/** Mounts what `def.io` declares: export, and import with its template and progress calls. */
export function mountImportExport(app: FastifyInstance, ctx: AppContext, mounted: MountedResource, rules: EngineRules): void {
  const def: ResourceDef = mounted.def;
  if (def.io?.export) mountExport(app, ctx, mounted, rules);
  if (def.io?.import) mountImport(app, ctx, mounted, rules);
}
