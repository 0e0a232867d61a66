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
import { type AreaLog, mountAreas, provideServices, type ResourceBinding, startAreas, stopAreas } from './core/area.js';
import { Services } from './core/services.js';
import { AREAS, areaDataSteps, areaResources } from './areas/index.js';
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
  /** resources mounted beside the areas' own (tests and benches: a definition of their own over a table) */
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
    await runDataSteps(database.db, [...DATA_STEPS, ...areaDataSteps()]);
    await syncResourceMenus(database.db, areaResources().map((b) => b.def));
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
      services: new Services(),
    };
    const log: AreaLog = {
      info: (o, m) => app?.log.info(o, m), warn: (o, m) => app?.log.warn(o, m), error: (o, m) => app?.log.error(o, m),
    };
    // created before the areas mount (they register their handlers on them); closed once the app has closed
    const closers = provideServices(ctx, AREAS, log);
    const closeServices = async () => {
      for (const close of [...closers].reverse()) await close();
    };
    app = await buildApp(ctx, {
      version: ctx.version,
      urlAliases: AREAS.flatMap((a) => a.urlAliases ?? []),
      routes: async (a, c, extras) => {
        a.decorate('clients', extras.clients);
        await mountAreas(a, c, AREAS, opts.extraResources);
      },
    });
    await app.ready();
    let work: Awaited<ReturnType<typeof startAreas>>;
    try {
      work = await startAreas(ctx, AREAS, log);
    } catch (e) {
      await app.close();
      await closeServices();
      throw e;
    }
    ctx.upkeep.start();
    const kvRef = kv;
    return {
      app,
      ctx,
      async close() {
        await stopAreas(work);
        await app.close();
        await closeServices();
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
