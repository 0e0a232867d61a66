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
import { RetentionSchedule } from './core/db/partitions/retention.js';
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
import { BackgroundWork } from './core/fleet/background.js';
import { Health, NotReady } from './core/fleet/health.js';
import { InstanceLease } from './core/fleet/instance.js';
import { Metrics } from './core/fleet/metrics.js';
import { migrationsApplied } from './core/fleet/migrations.js';
import { registerCoreMetrics } from './core/fleet/coreMetrics.js';
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
  /**
   * Stops gracefully: readiness fails at once; after `drainMs` the listener closes and in-flight requests finish;
   * then imports, the areas' background work and device sessions end, and the instance's lease is handed back.
   * What has not finished by `graceMs` is cut (its transactions roll back).
   */
  close(opts?: Partial<Config['shutdown']>): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** `work`, or at `deadline` (ms epoch) `cut()` and whatever `work` then settles to */
async function byDeadline(work: Promise<unknown>, deadline: number, cut: () => void): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((r) => { timer = setTimeout(() => r('late'), Math.max(0, deadline - Date.now())); });
  const first = await Promise.race([work.then(() => 'done' as const), late]);
  clearTimeout(timer);
  if (first === 'late') {
    cut();
    await work;
  }
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
  /** routes mounted beside the areas' (tests: a request that takes as long as the test wants) */
  extraRoutes?: (app: FastifyInstance) => void;
}

export async function createServer(config: Config, opts: ServerOptions = {}): Promise<Server> {
  setTimeZone(config.timeZone);
  setStatementTimeout(config.limits.statementTimeoutMs);
  setTransactionTimeout(config.limits.transactionTimeoutMs);
  const database = await openDatabase(config);
  let kv: Kv | undefined;
  let lease: InstanceLease | undefined;
  let app: FastifyInstance | undefined;
  try {
    kv = config.redisUrl ? await redisKv(config.redisUrl, config.redisPrefix, (e) => app?.log.warn({ err: e }, 'Redis unreachable; reconnecting')) : memoryKv();
    const kvRef = kv;
    const version = readVersion();
    lease = new InstanceLease(database.db, {
      version, workerId: config.workerId, jwtSecret: config.jwtSecret, encryptionKey: config.encryptionKey, sharedKv: kv.kind === 'redis', exclusive: database.kind === 'pglite',
    }, (lost) => {
      // this process stalled past its lease and another instance took the worker id: take another before the next id
      app?.log.error(`worker id ${lost} was taken over by another instance; leasing another`);
      void lease?.start().then(setWorkerId, (e: unknown) => app?.log.error({ err: e }, 'worker id lease failed'));
    });
    setWorkerId(await lease.start());
    await runDataSteps(database.db, [...DATA_STEPS, ...areaDataSteps()]);
    await syncResourceMenus(database.db, areaResources().map((b) => b.def));
    const sessions = new Sessions(database.db, kv);
    const permissions = new Permissions(database.db, kv);
    const dicts = new DictLabels(database.db, kv);
    const users = new UserDirectory(database.db, kv);
    await users.start();
    await sessions.start();
    await permissions.start();
    await dicts.start();
    const logs = new Logs(database.db, (e) => app?.log.error({ err: e }, 'log write failed'));
    const ctx: AppContext = {
      config, db: database.db, dbKind: database.kind, kv, signer: new TokenSigner(config.jwtSecret), sessions, permissions, users, dicts, logs,
      signIns: new SignInGuard(kv), hashing: new Semaphore(Math.max(1, availableParallelism() - 1), 500, 15_000, HASHING_REST_RATIO),
      heavyQueries: new Semaphore(config.limits.heavyQueries, 200, 5_000),
      storage: defaultStorage(config.dataDir), version, resources: new ResourceRegistry(),
      upkeep: new TableUpkeep(database.db, database.kind, (e) => app?.log.warn({ err: e }, 'table upkeep failed')),
      services: new Services(),
      instance: lease, health: new Health(config.readinessGraceMs), metrics: new Metrics(), background: new BackgroundWork(),
    };
    ctx.health.add('database', () => migrationsApplied(database.db));
    ctx.health.add('cache', () => kvRef.ping());
    ctx.health.add('lease', async () => {
      if (!(await lease!.isAlive(lease!.instanceId))) throw new NotReady('LEASE_LOST');
    });
    registerCoreMetrics(ctx, database);
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
        opts.extraRoutes?.(a);
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
    const retention = new RetentionSchedule(ctx.db, AREAS.flatMap((a) => a.retention?.(ctx) ?? []), log);
    retention.start();
    const started = app;
    let closing: Promise<void> | undefined;
    return {
      app,
      ctx,
      close(opts = {}) {
        closing ??= (async () => {
          const { drainMs, graceMs } = { ...config.shutdown, ...opts };
          ctx.health.drain();
          if (drainMs > 0) await sleep(drainMs);
          const deadline = Date.now() + graceMs;
          await byDeadline(started.close(), deadline, () => started.server.closeAllConnections());
          if (!(await ctx.background.settle(deadline))) started.log.warn(`${ctx.background.size} background jobs did not end within the shutdown's deadline; their transactions roll back`);
          await retention.close();
          await stopAreas(work);
          await closeServices();
          await ctx.upkeep.close();
          await logs.flush();
          await lease!.close();
          await kvRef.close();
          await database.close();
        })();
        return closing;
      },
    };
  } catch (e) {
    await lease?.close();
    await kv?.close();
    await database.close();
    throw e;
  }
}
