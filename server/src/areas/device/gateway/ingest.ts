import type { Presence, PresenceHandler, Uplink, UplinkHandler, UplinkKind } from './types.js';
import type { RejectReason } from './envelope.js';

/** how many batches' worth a backlog is taken at once (`takeSize`), and at most how many messages */
const BACKLOG_BATCHES = 10;
/**
 * a handler's work between its statements runs without a pause of the event loop (sorting, folding, building the
 * statements' JSON, the events' answers): 20,000 messages held the loop for about a second on a busy machine, and
 * the broker dropped what it could not queue meanwhile; 5,000 cost PostgreSQL little more a message
 */
const MAX_TAKE = 5000;
/** waits before a failed batch is handed to its handler again */
const RETRY_DELAYS_MS = [200, 1000];

export interface IngestOptions {
  /** messages held (buffered and being verified) before transports slow down their acks */
  capacity?: number;
  batchSize?: number;
  intervalMs?: number;
  /** how many recent (SN, clientToken) pairs are remembered to drop duplicates */
  recentTokens?: number;
}

export interface IngestCounters {
  received: number;
  accepted: number;
  rejected: Partial<Record<RejectReason, number>>;
  flushed: number;
  /** lost: a handler failed on its batch three times */
  dropped: number;
  presence: number;
  handlerErrors: number;
}

interface Logger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * The bounded buffer between the transports and the device modules: uplinks are handed to the handlers of
 * their kind in batches (every `intervalMs`, or at once when `batchSize` are waiting), presence likewise.
 * Transports ask `full` and wait on `drained()` before acknowledging, so a slow handler slows the devices
 * rather than growing memory. Past `capacity` a message is still taken, never dropped: it is already read and
 * not yet acknowledged, and the overshoot is bounded by the transports (the embedded broker hands over at most
 * one socket read per connection before it waits; the external client one message at a time).
 */
export class Ingest {
  readonly counters: IngestCounters = { received: 0, accepted: 0, rejected: {}, flushed: 0, dropped: 0, presence: 0, handlerErrors: 0 };
  private uplinks: Uplink[] = [];
  private presences: Presence[] = [];
  private readonly handlers: Array<{ kinds: ReadonlySet<UplinkKind>; handler: UplinkHandler; repeats: ReadonlySet<UplinkKind> }> = [];
  /** kinds whose repeats some handler answers */
  private readonly answered = new Set<UplinkKind>();
  private readonly presenceHandlers: PresenceHandler[] = [];
  private readonly recent = new Set<string>();
  /** the keys of `recent` in the order they came, `recentAt` the oldest's place (the next to be replaced) */
  private readonly recentRing: Array<string | undefined>;
  private recentAt = 0;
  private pending = 0;
  /** taken out of the buffer by the running flush, not yet stored */
  private handling = 0;
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;
  private waiters: Array<() => void> = [];
  private closed = false;
  readonly capacity: number;
  private readonly batchSize: number;
  private readonly intervalMs: number;
  private readonly recentTokens: number;

  constructor(private readonly log: Logger, opts: IngestOptions = {}) {
    this.capacity = opts.capacity ?? 50_000;
    // a batch's statements cost the server more than its rows (an empty platform transaction ~1 ms of the server's
    // CPU): batches of 100 messages every 50 ms cost 50 µs of the server's and 90 µs of PostgreSQL's CPU a message,
    // of 2,000 13 and 17 µs (bench/ceilings/ingest.ts)
    this.batchSize = opts.batchSize ?? 2000;
    // a message is acknowledged when it enters the buffer: what an instance killed outright loses is at most this
    // long of acknowledged messages (and the write under way; a stop flushes first). 200 ms, not the 500 ms that
    // fills larger batches at a few thousand messages a second: devices resend events, OTA progress is asked again
    this.intervalMs = opts.intervalMs ?? 200;
    this.recentTokens = Math.max(1, opts.recentTokens ?? 50_000);
    this.recentRing = new Array<string | undefined>(this.recentTokens);
  }

  /**
   * `repeats`: the handler also gets the repeats of recent messages (marked `repeat`) of its kinds (`true`) or of
   * the kinds named, so it can answer a device that resends because its answer was lost; other handlers never see them
   */
  onUplink(kinds: readonly UplinkKind[], handler: UplinkHandler, opts: { repeats?: boolean | readonly UplinkKind[] } = {}): void {
    const named: readonly UplinkKind[] = opts.repeats === true ? kinds : opts.repeats || [];
    const repeats = new Set(kinds.filter((k) => named.includes(k)));
    this.handlers.push({ kinds: new Set(kinds), handler, repeats });
    for (const k of repeats) this.answered.add(k);
  }

  onPresence(handler: PresenceHandler): void {
    this.presenceHandlers.push(handler);
  }

  /** buffered, reserved (being verified) and being stored */
  get size(): number {
    return this.uplinks.length + this.presences.length + this.pending + this.handling;
  }

  get full(): boolean {
    return this.size >= this.capacity;
  }

  /** resolves once there is room again (at once when there is) */
  drained(): Promise<void> {
    if (!this.full || this.closed) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** a message received (before it is read): counted */
  received(): void {
    this.counters.received++;
  }

  /** holds a place for a message being verified asynchronously; `release` gives it back */
  reserve(): void {
    this.pending++;
  }

  release(): void {
    this.pending = Math.max(0, this.pending - 1);
    this.wake();
  }

  reject(reason: RejectReason): void {
    this.counters.rejected[reason] = (this.counters.rejected[reason] ?? 0) + 1;
  }

  /**
   * Queues an accepted uplink; false (and counted) when it is a duplicate of a recent one. A duplicate of a kind
   * that is answered is still handed to the handlers that answer repeats.
   */
  pushUplink(u: Uplink): boolean {
    if (u.clientToken && this.seen(`${u.device.sn}\n${u.kind}\n${u.clientToken}`)) {
      this.reject('duplicate');
      if (this.answered.has(u.kind)) {
        this.uplinks.push({ ...u, repeat: true });
        this.schedule();
      }
      return false;
    }
    this.counters.accepted++;
    this.uplinks.push(u);
    this.schedule();
    return true;
  }

  /** Queues a presence change; a repeat of a recent signed one (same device, state and session) is dropped. */
  pushPresence(p: Presence): void {
    if (p.session !== undefined && this.seen(`${p.device.sn}\nstatus-${p.online ? 'on' : 'off'}\n${p.session}`)) {
      this.reject('duplicate');
      return;
    }
    this.counters.presence++;
    this.presences.push(p);
    this.schedule();
  }

  /**
   * whether this key was seen recently; remembers it (the oldest of `recentTokens` is forgotten). The oldest is
   * found in a ring, not as the Set's first entry: a Set iterated from its start walks over every entry deleted
   * before it, which made this the gateway's costliest function (6.7 s of a 54 s ingestion run)
   */
  private seen(key: string): boolean {
    if (this.recent.has(key)) return true;
    this.recent.add(key);
    const oldest = this.recentRing[this.recentAt];
    if (oldest !== undefined) this.recent.delete(oldest);
    this.recentRing[this.recentAt] = key;
    this.recentAt = (this.recentAt + 1) % this.recentTokens;
    return false;
  }

  private schedule(): void {
    // a running flush drains everything, including what arrives meanwhile
    if (this.closed || this.flushing) return;
    if (this.uplinks.length >= this.batchSize) {
      void this.flush();
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.intervalMs);
  }

  /** Hands everything buffered to the handlers; resolves when they are done. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (!this.uplinks.length && !this.presences.length) return;
    this.flushing = this.run().finally(() => {
      this.flushing = undefined;
      if (this.uplinks.length || this.presences.length) this.schedule();
    });
    await this.flushing;
  }

  /**
   * What waited while the last batch was stored is taken at once, up to `BACKLOG_BATCHES` batches (`MAX_TAKE` messages): each handler's
   * round trips wait behind the sockets' reads while the event loop is busy, and are then paid once for more
   * messages (batches of 500 stored 500 msg/s while 8,000 msg/s arrived; bench/RESULTS.md, regional business)
   */
  private takeSize(): number {
    return Math.min(this.uplinks.length, this.batchSize * BACKLOG_BATCHES, Math.max(this.batchSize, MAX_TAKE));
  }

  private async run(): Promise<void> {
    while (this.uplinks.length || this.presences.length) {
      const presences = this.presences.splice(0, this.batchSize);
      const batch = this.uplinks.splice(0, this.takeSize());
      this.handling = presences.length + batch.length;
      if (presences.length) {
        await Promise.all(this.presenceHandlers.map((h) => this.guard(() => h(presences), presences.length, 'presence handler failed')));
      }
      if (batch.length) {
        await Promise.all(this.handlers.map(({ kinds, handler, repeats }) => {
          const mine = batch.filter((u) => kinds.has(u.kind) && (!u.repeat || repeats.has(u.kind)));
          return mine.length ? this.guard(() => handler(mine), mine.length, 'uplink handler failed') : undefined;
        }));
        this.counters.flushed += batch.filter((u) => !u.repeat).length;
      }
      this.handling = 0;
      this.wake();
    }
  }

  /**
   * Runs a handler over a batch; a failed batch is tried again (handlers are idempotent and transactional: a
   * failure wrote nothing) after 0.2 s and 1 s, and only then dropped and counted.
   */
  private async guard(fn: () => Promise<void>, n: number, msg: string): Promise<void> {
    for (const wait of [...RETRY_DELAYS_MS, -1]) {
      try {
        await fn();
        return;
      } catch (err) {
        this.counters.handlerErrors++;
        if (wait < 0) {
          this.counters.dropped += n;
          this.log.error({ err, messages: n }, `${msg}: dropped`);
          return;
        }
        this.log.warn({ err, messages: n }, `${msg}: trying again`);
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  private wake(): void {
    if (this.full && !this.closed) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  /** flushes what is buffered and stops scheduling; waiting transports are released */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    this.wake();
  }
}
