import { AppError } from './errors.js';

/**
 * Small key-value store with expiry and a broadcast channel: in-process for one instance, Redis when
 * REDIS_URL is set so that several instances share revocations and cache invalidations.
 */
export interface Kv {
  readonly kind: 'memory' | 'redis';
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  del(key: string): Promise<void>;
  /** Adds 1 and answers the new count with the seconds left; the window starts at the first hit. */
  hit(key: string, windowSeconds: number): Promise<{ count: number; resetSeconds: number }>;
  /** The count of a `hit` window without adding to it; null when no window is open. */
  peek(key: string): Promise<{ count: number; resetSeconds: number } | null>;
  /** Takes back one `hit` of an open window (never below zero, never opening a window). */
  unhit(key: string): Promise<void>;
  publish(channel: string, message: string): Promise<void>;
  /**
   * `missed` runs when messages of the channel may have been lost (the connection to Redis broke and came back):
   * a cache drops what it holds, since an invalidation may have gone by meanwhile
   */
  subscribe(channel: string, handler: (message: string) => void, missed?: () => void): Promise<void>;
  /** resolves while the store answers */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function memoryKv(): Kv {
  const values = new Map<string, { value: string; expires: number }>();
  const handlers = new Map<string, Array<(m: string) => void>>();
  return {
    kind: 'memory',
    async get(key) {
      const e = values.get(key);
      if (!e) return null;
      if (e.expires <= Date.now()) {
        values.delete(key);
        return null;
      }
      return e.value;
    },
    async set(key, value, ttl) {
      values.set(key, { value, expires: Date.now() + ttl * 1000 });
    },
    async del(key) {
      values.delete(key);
    },
    async hit(key, windowSeconds) {
      const now = Date.now();
      const e = values.get(key);
      const live = e && e.expires > now ? e : { value: '0', expires: now + windowSeconds * 1000 };
      live.value = String(Number(live.value) + 1);
      values.set(key, live);
      return { count: Number(live.value), resetSeconds: Math.ceil((live.expires - now) / 1000) };
    },
    async peek(key) {
      const now = Date.now();
      const e = values.get(key);
      if (!e || e.expires <= now) return null;
      return { count: Number(e.value), resetSeconds: Math.ceil((e.expires - now) / 1000) };
    },
    async unhit(key) {
      const e = values.get(key);
      if (e && e.expires > Date.now() && Number(e.value) > 0) e.value = String(Number(e.value) - 1);
    },
    async publish(channel, message) {
      for (const h of handlers.get(channel) ?? []) h(message);
    },
    async subscribe(channel, handler) {
      handlers.set(channel, [...(handlers.get(channel) ?? []), handler]);
    },
    async ping() {},
    async close() {
      values.clear();
    },
  };
}

/** Decrements a counter that exists and is positive, keeping its expiry. */
const UNHIT = "local v = tonumber(redis.call('get', KEYS[1]) or '0') if v > 0 then redis.call('decr', KEYS[1]) end return 0";

/** a command Redis could not answer (restarting, unreachable): the caller may retry (503), nothing is half done */
function unavailable(e: unknown): never {
  throw new AppError(503, 'cacheUnavailable', { seconds: 2, cause: e instanceof Error ? e.message : String(e) });
}

/** `onError`: the connection's failures (Redis away, reconnecting); once per outage, not per retry */
export async function redisKv(url: string, prefix = 'console:', onError: (e: Error) => void = () => undefined): Promise<Kv> {
  // commands wait for a reconnect a short while only: a request is answered 503 rather than held
  const options = { lazyConnect: true, maxRetriesPerRequest: 2, connectTimeout: 5_000 };
  // loaded here, not at start: a server without Redis never needs it (bench/RESULTS.md, "The embedded database's idle memory")
  const { Redis } = await import('ioredis');
  const cmd = new Redis(url, options);
  const sub = new Redis(url, options);
  let away = false;
  const failed = (e: Error) => {
    if (!away) onError(e);
    away = true;
  };
  cmd.on('error', failed);
  sub.on('error', failed);
  cmd.on('ready', () => { away = false; });
  await cmd.connect();
  await sub.connect();
  const handlers = new Map<string, Array<(m: string) => void>>();
  const missedBy: Array<() => void> = [];
  sub.on('message', (channel: string, message: string) => {
    for (const h of handlers.get(channel.slice(prefix.length)) ?? []) h(message);
  });
  // after the first connection, every 'ready' is a reconnection: ioredis subscribes again, and what was
  // published meanwhile is lost
  sub.on('ready', () => {
    for (const missed of missedBy) missed();
  });
  return {
    kind: 'redis',
    get: (key) => cmd.get(prefix + key).catch(unavailable),
    async set(key, value, ttl) {
      await cmd.set(prefix + key, value, 'EX', Math.max(1, Math.ceil(ttl))).catch(unavailable);
    },
    async del(key) {
      await cmd.del(prefix + key).catch(unavailable);
    },
    async hit(key, windowSeconds) {
      const k = prefix + key;
      const [[, count], , [, ttl]] = (await cmd.multi().incr(k).expire(k, windowSeconds, 'NX').ttl(k).exec().catch(unavailable)) as [[null, number], unknown, [null, number]];
      return { count, resetSeconds: ttl > 0 ? ttl : windowSeconds };
    },
    async unhit(key) {
      await cmd.eval(UNHIT, 1, prefix + key).catch(unavailable);
    },
    async peek(key) {
      const k = prefix + key;
      const [[, value], [, ttl]] = (await cmd.multi().get(k).ttl(k).exec().catch(unavailable)) as [[null, string | null], [null, number]];
      return value === null ? null : { count: Number(value), resetSeconds: ttl > 0 ? ttl : 1 };
    },
    async publish(channel, message) {
      await cmd.publish(prefix + channel, message).catch(unavailable);
    },
    async subscribe(channel, handler, missed) {
      if (!handlers.has(channel)) await sub.subscribe(prefix + channel);
      handlers.set(channel, [...(handlers.get(channel) ?? []), handler]);
      if (missed) missedBy.push(missed);
    },
    async ping() {
      await cmd.ping();
    },
    async close() {
      sub.disconnect();
      await cmd.quit().catch(() => cmd.disconnect());
    },
  };
}
