import type { ResourceDef } from '@console/contract';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from './context.js';
import type { Executor, Tx } from './db/index.js';
import type { RetentionGroup } from './db/partitions/retention.js';
import { mountResource, type ResourceHooks } from './resource/engine.js';
import type { Dependent } from './resource/registry.js';
import type { Config } from './config.js';
import { type ServiceKey, serviceKey } from './services.js';
import { TENANT_SETUP } from './tenants.js';

/** A resource of an area: its definition (contract), its table, and its hooks. */
export interface ResourceBinding {
  def: ResourceDef;
  table: PgTable;
  hooks?: (ctx: AppContext) => ResourceHooks;
}

export function bind<D extends ResourceDef>(def: D, table: PgTable, hooks?: (ctx: AppContext) => ResourceHooks): ResourceBinding {
  return { def, table, hooks };
}

/**
 * A data step: seed rows or the menus of an area. Each runs once per database, in order, in its own
 * transaction, and is recorded in app_data_step; so a database created by an older version gets the
 * steps of newer areas when it is upgraded, and nothing runs twice (seed/runner.ts).
 */
export interface DataStep {
  name: string;
  run(tx: Tx): Promise<void>;
}

/** Where an area's services and background work log: the app's logger (pino fits). */
export interface AreaLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** A service an area provides to the others (and to core), created before any area mounts. */
export interface AreaService<T = unknown> {
  key: ServiceKey<T>;
  create(ctx: AppContext, log: AreaLog): T;
  /** closes it once the app has closed (after the last request was answered) */
  close?(service: T): Promise<void>;
}

export function provide<T>(key: ServiceKey<T>, create: (ctx: AppContext, log: AreaLog) => T, close?: (service: T) => Promise<void>): AreaService<T> {
  return { key, create, close };
}

/** Background work an area started: stopped before the app closes. */
export interface AreaWork {
  stop(): Promise<void>;
}

/**
 * What a business area contributes to the server: its services, its resources (mounted by the engine, their menus
 * seeded from their definitions), its other routes, its data steps and its background work. The registry of
 * areas is server/src/areas/index.ts; the server iterates it and names no area.
 */
export interface AreaManifest {
  name: string;
  /** created in registry order before any area mounts (areas register their handlers on them while mounting) */
  services?: readonly AreaService[];
  resources?: readonly ResourceBinding[];
  routes?: (app: FastifyInstance, ctx: AppContext) => Promise<void> | void;
  /**
   * what uses other resources' rows from tables that are not resources (a device's field state uses its batch):
   * a remove of those rows counts them, refusing or releasing as each says (docs/decisions.md)
   */
  dependents?: (ctx: AppContext) => readonly Dependent[];
  dataSteps?: readonly DataStep[];
  /** its append-only tables partitioned by time, kept for a number of days (core's RetentionSchedule runs them) */
  retention?: (ctx: AppContext) => readonly RetentionGroup[];
  /** what a tenant created later gets of the area (what its data steps gave the seeded tenants), in the creating transaction */
  tenantSetup?: (tx: Executor, tenantId: string) => Promise<void>;
  /**
   * starts the area's background work once the app is ready (registry order); when it throws, it has stopped
   * what it started, and the areas started before it are stopped
   */
  start?: (ctx: AppContext, log: AreaLog) => Promise<AreaWork | void> | AreaWork | void;
  /** how its background work runs, for the server's start-up line (`device gateway off`) */
  status?: (ctx: AppContext) => string;
  /**
   * button codes of what this server is not set up for (a cloud without keys): left out of the callers' buttons
   * (`menu/buttons`), so the console does not offer them; their calls still refuse, naming the setting to make
   */
  idleButtons?: (config: Config) => readonly string[];
  /** other prefixes of the area's calls (BladeX names some under two): a request to `from…` is answered as `to…` */
  urlAliases?: readonly UrlAlias[];
}

export interface UrlAlias {
  from: string;
  to: string;
  /** paths under `from` that are calls of their own */
  own?: readonly string[];
}

/** the button codes the areas' `idleButtons` name for this server's settings */
export const IDLE_BUTTONS = serviceKey<ReadonlySet<string>>('core.idleButtons');

export function defineArea(area: AreaManifest): AreaManifest {
  return area;
}

/** Every area's services, created in order and provided on the context (with their tenant setups); answers them for closing. */
export function provideServices(ctx: AppContext, areas: readonly AreaManifest[], log: AreaLog): Array<() => Promise<void>> {
  const closers: Array<() => Promise<void>> = [];
  const setups = areas.flatMap((a) => (a.tenantSetup ? [a.tenantSetup] : []));
  ctx.services.provide(IDLE_BUTTONS, new Set(areas.flatMap((a) => a.idleButtons?.(ctx.config) ?? [])));
  ctx.services.provide(TENANT_SETUP, {
    async run(tx, tenantId) {
      for (const setup of setups) await setup(tx, tenantId);
    },
  });
  for (const area of areas) {
    for (const s of area.services ?? []) {
      const service = ctx.services.provide(s.key, s.create(ctx, log));
      if (s.close) closers.push(() => s.close!(service));
    }
  }
  return closers;
}

/** Mounts every area's resources, then its routes; then the extra resources; then checks that every reference resolves. */
export async function mountAreas(app: FastifyInstance, ctx: AppContext, areas: readonly AreaManifest[], extra: readonly ResourceBinding[] = []): Promise<void> {
  for (const area of areas) {
    for (const b of area.resources ?? []) mountResource(app, ctx, b.def, b.table, b.hooks?.(ctx));
    await area.routes?.(app, ctx);
  }
  for (const b of extra) mountResource(app, ctx, b.def, b.table, b.hooks?.(ctx));
  ctx.resources.checkReferences();
  for (const area of areas) for (const d of area.dependents?.(ctx) ?? []) ctx.resources.addDependent(d);
}

/** Starts every area's background work in order; a failure stops what started before it and is thrown. */
export async function startAreas(ctx: AppContext, areas: readonly AreaManifest[], log: AreaLog): Promise<AreaWork[]> {
  const started: AreaWork[] = [];
  try {
    for (const area of areas) {
      const work = await area.start?.(ctx, log);
      if (work) started.push(work);
    }
  } catch (e) {
    await stopAreas(started);
    throw e;
  }
  return started;
}

/** Stops background work in the reverse order it started. */
export async function stopAreas(started: readonly AreaWork[]): Promise<void> {
  for (const work of [...started].reverse()) await work.stop();
}
