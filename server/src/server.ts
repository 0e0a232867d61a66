import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { Permissions } from './core/auth/permissions.js';
import { UserDirectory } from './core/auth/directory.js';
import { Sessions } from './core/auth/sessions.js';
import { TokenSigner } from './core/auth/tokens.js';
import { buildApp } from './core/app.js';
import type { Config } from './core/config.js';
import type { AppContext } from './core/context.js';
import { openDatabase, setStatementTimeout, setTransactionTimeout } from './core/db/index.js';
import { TableUpkeep } from './core/db/upkeep.js';
import { setWorkerId } from './core/ids.js';
import { type Kv, memoryKv, redisKv } from './core/kv.js';
import { Logs } from './core/logs.js';
import { DictLabels } from './core/dicts.js';
import { SignInGuard } from './core/auth/signInGuard.js';
import { Semaphore } from './core/semaphore.js';
import { availableParallelism } from 'node:os';
import { defaultStorage } from './core/storage/index.js';
import { ResourceRegistry } from './core/resource/registry.js';
import { setTimeZone } from './core/time.js';
import { createGateway } from './areas/device/gateway/gateway.js';
import type { GatewayLogger } from './areas/device/gateway/log.js';
import { moduleDataSteps, moduleResources, mountModules, type ResourceBinding } from './areas/index.js';
import { startDeviceRuntime } from './areas/device/runtime.js';
import { syncResourceMenus } from './seed/resourceMenus.js';
import { runDataSteps } from './seed/runner.js';
import { DATA_STEPS } from './seed/steps.js';

/**
 * Password hashing may use at most half of cores − 1 under a sign-in storm (each argon2 verification is
 * followed by as long a rest), so the storm slows sign-ins rather than every other request.
 */
const HASHING_REST_RATIO = 1;

export interface Server {
  app: FastifyInstance;
  ctx: AppContext;
  close(): Promise<void>;
}

function readVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    return process.env.BUILD_VERSION ?? pkg.version;
  } catch {
    return process.env.BUILD_VERSION ?? '0.0.0';
  }
}

/** Opens the database (migrating it and running pending data steps), connects Redis, builds the app. */
export interface ServerOptions {
  /** resources mounted beside the modules' own (tests and benches: a definition of their own over a table) */
  extraResources?: ResourceBinding[];
}

export async function createServer(config: Config, opts: ServerOptions = {}): Promise<Server> {
  setTimeZone(config.timeZone);
  setStatementTimeout(config.limits.statementTimeoutMs);
  setTransactionTimeout(config.limits.transactionTimeoutMs);
  setWorkerId(config.workerId);
  const database = await openDatabase(config);
  let kv: Kv | undefined;
  try {
    await runDataSteps(database.db, [...DATA_STEPS, ...moduleDataSteps()]);
    await syncResourceMenus(database.db, moduleResources().map((b) => b.def));
    kv = config.redisUrl ? await redisKv(config.redisUrl, config.redisPrefix) : memoryKv();
    const sessions = new Sessions(database.db, kv);
    const permissions = new Permissions(database.db, kv);
    const dicts = new DictLabels(database.db, kv);
    const users = new UserDirectory(database.db, kv);
    await users.start();
    await sessions.start();
    await permissions.start();
    await dicts.start();
    let app: FastifyInstance | undefined;
    const logs = new Logs(database.db, (e) => app?.log.error({ err: e }, 'log write failed'));
    const ctx: AppContext = {
      config, db: database.db, dbKind: database.kind, kv, signer: new TokenSigner(config.jwtSecret), sessions, permissions, users, dicts, logs,
      signIns: new SignInGuard(kv), hashing: new Semaphore(Math.max(1, availableParallelism() - 1), 500, 15_000, HASHING_REST_RATIO),
      heavyQueries: new Semaphore(config.limits.heavyQueries, 200, 5_000),
      storage: defaultStorage(config.dataDir), version: readVersion(), resources: new ResourceRegistry(),
      upkeep: new TableUpkeep(database.db, database.kind, (e) => app?.log.warn({ err: e }, 'table upkeep failed')),
    };
    // created before the modules mount (they register their handlers), started once the app is ready
    const gatewayLog: GatewayLogger = {
      info: (o, m) => app?.log.info(o, m), warn: (o, m) => app?.log.warn(o, m), error: (o, m) => app?.log.error(o, m),
    };
    const gateway = createGateway(ctx, { log: gatewayLog });
    ctx.gateway = gateway;
    app = await buildApp(ctx, {
      version: ctx.version,
      routes: async (a, c, extras) => {
        a.decorate('clients', extras.clients);
        await mountModules(a, c, opts.extraResources);
      },
    });
    await app.ready();
    // the device tables' handlers are registered before the first device can connect
    const devices = startDeviceRuntime(ctx, (e) => app?.log.error({ err: e }, 'device runtime failed'));
    try {
      await gateway.start();
    } catch (e) {
      await devices.close();
      await gateway.close();
      await app.close();
      throw e;
    }
    ctx.upkeep.start();
    // timers that came due while the server was down fire at once
    ctx.flow?.startScheduler((e) => app?.log.error({ err: e }, 'workflow timer failed'));
    const kvRef = kv;
    return {
      app,
      ctx,
      async close() {
        await devices.close();
        await ctx.flow?.stop();
        await app.close();
        await gateway.close();
        await ctx.upkeep.close();
        await logs.flush();
        await kvRef.close();
        await database.close();
      },
    };
  } catch (e) {
    await kv?.close();
    await database.close();
    throw e;
  }
}
