import { createHmac, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { and, eq, gt, ne, sql } from 'drizzle-orm';
import { isAlive } from '../db/folderLock.js';
import type { Executor } from '../db/index.js';
import { appInstance } from '../db/schema.js';

/** how often an instance renews its lease */
export const HEARTBEAT_MS = 5_000;
/** a lease not renewed for this long is free: its instance is taken as dead */
export const LEASE_SECONDS = 30;
const WORKER_IDS = 1024;
/** one instance leases at a time: two starting together never pick the same free id */
const LEASE_LOCK = 72_707_002;

export class FleetConfigError extends Error {}

export interface InstanceOptions {
  version: string;
  /** a worker id the operator chose (WORKER_ID); leased like any other */
  workerId?: number;
  /** the keys an instance signs tokens and seals secrets with: all instances of a database must hold the same */
  jwtSecret: string;
  encryptionKey: Buffer;
  /** false when the instance's caches and budgets are its own (no Redis): it must then be the only one */
  sharedKv: boolean;
  /** the database is this process's alone (the embedded one, behind its folder lock): every lease left is stale */
  exclusive?: boolean;
}

interface LeaseRow { workerId: number; keysDigest: string; host: string; pid: number }

/** a lease whose heartbeat is fresh but whose process, on this host, is gone (killed, then restarted at once) */
const provablyDead = (row: LeaseRow) => row.host === hostname() && row.pid !== process.pid && !isAlive(row.pid);
/** another process's lease (servers of one process, as tests start them, share its memory and its fate) */
const anotherProcess = (row: LeaseRow) => row.host !== hostname() || row.pid !== process.pid;

/** what each instance records of its keys: an HMAC, so the keys cannot be read back from it */
function keysDigest(jwtSecret: string, encryptionKey: Buffer): string {
  return createHmac('sha256', encryptionKey).update('console instance keys\0').update(jwtSecret).digest('hex');
}

/**
 * This process's membership of the instances sharing a database: a snowflake worker id held by lease (renewed
 * every 5 s, free 30 s after its instance stopped renewing it, handed back at a clean stop). Starting refuses a
 * configuration that would make the fleet incoherent: other keys than the live instances', or a second instance
 * without a shared cache.
 */
export class InstanceLease {
  readonly instanceId = randomUUID();
  private workerId_ = -1;
  private timer?: NodeJS.Timeout;
  private renewing?: Promise<void>;
  private closed = false;

  constructor(
    private readonly db: Executor,
    private readonly opts: InstanceOptions,
    private readonly onLost: (workerId: number) => void,
  ) {}

  get workerId(): number {
    return this.workerId_;
  }

  /** leases a worker id (the operator's, or the lowest free one) and starts renewing it */
  async start(): Promise<number> {
    const digest = keysDigest(this.opts.jwtSecret, this.opts.encryptionKey);
    this.workerId_ = await this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${LEASE_LOCK})`);
      if (this.opts.exclusive) await tx.delete(appInstance);
      const fresh = await tx.select({ workerId: appInstance.workerId, keysDigest: appInstance.keysDigest, host: appInstance.host, pid: appInstance.pid })
        .from(appInstance).where(gt(appInstance.heartbeatTime, sql`now() - make_interval(secs => ${LEASE_SECONDS})`));
      const live = fresh.filter((row) => !provablyDead(row));
      const other = live.find((i) => i.keysDigest !== digest);
      if (other) {
        throw new FleetConfigError(`JWT_SECRET or ENCRYPTION_KEY differs from the running instance ${other.host}:${other.pid} (worker ${other.workerId}): every instance of a database must be given the same keys`);
      }
      const elsewhere = live.find(anotherProcess);
      if (!this.opts.sharedKv && elsewhere) {
        throw new FleetConfigError(`another instance (${elsewhere.host}:${elsewhere.pid}) runs on this database: several instances need REDIS_URL, so that revocations, caches and budgets are shared`);
      }
      const held = new Set(live.map((i) => i.workerId));
      let workerId = this.opts.workerId;
      if (workerId !== undefined && held.has(workerId)) throw new FleetConfigError(`WORKER_ID ${workerId} is held by a running instance`);
      if (workerId === undefined) {
        workerId = Array.from({ length: WORKER_IDS }, (_, i) => i).find((i) => !held.has(i));
        if (workerId === undefined) throw new FleetConfigError(`all ${WORKER_IDS} worker ids are held by running instances`);
      }
      const row = {
        workerId, instanceId: this.instanceId, host: hostname().slice(0, 255), pid: process.pid, version: this.opts.version.slice(0, 64),
        keysDigest: digest, startTime: sql`now()`, heartbeatTime: sql`now()`,
      };
      await tx.insert(appInstance).values(row as never).onConflictDoUpdate({ target: appInstance.workerId, set: row as never });
      return workerId;
    });
    this.timer = setInterval(() => void this.renew(), HEARTBEAT_MS);
    this.timer.unref();
    return this.workerId_;
  }

  /** renews the lease; a lease another instance took meanwhile (this process stalled past it) is reported lost */
  renew(): Promise<void> {
    this.renewing ??= (async () => {
      try {
        const kept = await this.db.update(appInstance).set({ heartbeatTime: sql`now()` })
          .where(and(eq(appInstance.workerId, this.workerId_), eq(appInstance.instanceId, this.instanceId))).returning({ workerId: appInstance.workerId });
        if (kept.length === 0 && !this.closed) this.onLost(this.workerId_);
      } catch {
        // the database is away (a failover): the next beat renews; the lease outlives a few missed beats
      } finally {
        this.renewing = undefined;
      }
    })();
    return this.renewing;
  }

  /** whether an instance (by its instance id) holds a live lease */
  async isAlive(instanceId: string): Promise<boolean> {
    if (instanceId === this.instanceId) return !this.closed;
    const [row] = await this.db.select({ workerId: appInstance.workerId }).from(appInstance)
      .where(and(eq(appInstance.instanceId, instanceId), gt(appInstance.heartbeatTime, sql`now() - make_interval(secs => ${LEASE_SECONDS})`)));
    return Boolean(row);
  }

  /** the other instances holding live leases */
  async others(): Promise<number> {
    const rows = await this.db.select({ workerId: appInstance.workerId }).from(appInstance)
      .where(and(ne(appInstance.instanceId, this.instanceId), gt(appInstance.heartbeatTime, sql`now() - make_interval(secs => ${LEASE_SECONDS})`)));
    return rows.length;
  }

  /** hands the lease back */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.renewing;
    await this.db.delete(appInstance).where(and(eq(appInstance.workerId, this.workerId_), eq(appInstance.instanceId, this.instanceId))).catch(() => undefined);
  }
}
