import type { FileStorage } from './storage/index.js';
import type { I18nText, Lang } from '@console/contract';
import type { Config } from './config.js';
import type { Permissions } from './auth/permissions.js';
import type { UserDirectory } from './auth/directory.js';
import type { Sessions } from './auth/sessions.js';
import type { TokenSigner } from './auth/tokens.js';
import type { Db } from './db/index.js';
import type { DictLabels } from './dicts.js';
import type { SignInGuard } from './auth/signInGuard.js';
import type { Semaphore } from './semaphore.js';
import type { Kv } from './kv.js';
import type { Logs } from './logs.js';
import type { FieldLabels } from './validation.js';
import type { ResourceRegistry } from './resource/registry.js';
import type { TableUpkeep } from './db/upkeep.js';
import type { Services } from './services.js';
import type { AppCaller, AuthUser, ClientInfo } from './callers.js';
import type { BackgroundWork } from './fleet/background.js';
import type { Health } from './fleet/health.js';
import type { InstanceLease } from './fleet/instance.js';
import type { Metrics } from './fleet/metrics.js';

/** The server's shared services, created once at start and handed to every area. */
export interface AppContext {
  config: Config;
  db: Db;
  dbKind: 'pglite' | 'postgres';
  kv: Kv;
  signer: TokenSigner;
  sessions: Sessions;
  permissions: Permissions;
  /** what each signed-in user holds now (roles, departments, status), invalidated on every instance */
  users: UserDirectory;
  /** lockout, captcha and per-address budgets of password sign-ins */
  signIns: SignInGuard;
  /** bounds concurrent password hashing (argon2), so sign-in bursts leave CPU for everything else */
  hashing: Semaphore;
  /** bounds concurrent searches that no index can serve (a short substring over millions of rows) */
  heavyQueries: Semaphore;
  /** display values of dictionary keys, for `<field>Name` */
  dicts: DictLabels;
  logs: Logs;
  storage: FileStorage;
  /** the build's version, as /version.json answers */
  version: string;
  /** every resource the engine mounted, by code (references resolve through it) */
  resources: ResourceRegistry;
  /** the planner's statistics (and, embedded, dead rows) tended after bulk writes */
  upkeep: TableUpkeep;
  /**
   * what the areas provide one another (the device gateway, the workflow engine, uploads, …), by typed key:
   * `ctx.services.get(UPLOADS)` (core/services.ts)
   */
  services: Services;
  /** this process among the instances sharing the database: its worker id lease, who else is alive */
  instance: InstanceLease;
  /** readiness: what the process needs reachable (each part registers its check), and whether it is stopping */
  health: Health;
  /** the Prometheus metrics (`/metrics`): core's and the areas' */
  metrics: Metrics;
  /** work that outlives its request (imports): a graceful stop waits for it */
  background: BackgroundWork;
}

export type { AppCaller, AuthUser, ClientInfo } from './callers.js';

/**
 * Who may call a route. Every route must say so (startup fails otherwise):
 * - public: anyone, no credentials (captcha, version, server status)
 * - client: a valid OAuth client in Basic auth, no user (the token endpoint, guest registration)
 * - permission: a signed-in user; a code means the user's roles must be granted that menu/button code
 *   (several: any one of them), null means any signed-in user; platformWrite also needs the platform tenant, platformAdmin the
 *   platform tenant and its administrator role
 * - app: a user of the vendor's phone app with a valid app token (`Blade-Auth: bearer …`); console tokens are refused
 */
export type Access =
  /**
   * anyone; `ownBudget`: the route limits its callers itself instead of the shared budget of public calls per
   * address (a payment provider's notifications come from a few addresses, each a signed message)
   */
  | { public: true; ownBudget?: true }
  | { client: true }
  | { app: true }
  | { permission: string | readonly string[] | null; platformWrite?: boolean; platformAdmin?: boolean };

declare module 'fastify' {
  interface FastifyRequest {
    lang: Lang;
    user?: AuthUser;
    appUser?: AppCaller;
    client?: ClientInfo;
    startTime: number;
  }
  interface FastifyContextConfig {
    access?: Access;
    /** labels of the accepted fields, for validation messages */
    fieldLabels?: FieldLabels;
    /** title written to the API log for writes (in Chinese; each reader sees it in their language) */
    title?: I18nText;
    /** failures carry OAuth's `error` / `error_description` beside the envelope (the token endpoint) */
    oauthErrors?: boolean;
  }
}
