import { Redis } from 'ioredis';

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
  subscribe(channel: string, handler: (message: string) => void): Promise<void>;
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
    async close() {
      values.clear();
    },
  };
}

/** Decrements a counter that exists and is positive, keeping its expiry. */
const UNHIT = "local v = tonumber(redis.call('get', KEYS[1]) or '0') if v > 0 then redis.call('decr', KEYS[1]) end return 0";

export async function redisKv(url: string, prefix = 'console:'): Promise<Kv> {
  const cmd = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  const sub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await cmd.connect();
  await sub.connect();
  const handlers = new Map<string, Array<(m: string) => void>>();
  sub.on('message', (channel: string, message: string) => {
    for (const h of handlers.get(channel.slice(prefix.length)) ?? []) h(message);
  });
  return {
    kind: 'redis',
    get: (key) => cmd.get(prefix + key),
    async set(key, value, ttl) {
      await cmd.set(prefix + key, value, 'EX', Math.max(1, Math.ceil(ttl)));
    },
    async del(key) {
      await cmd.del(prefix + key);
    },
    async hit(key, windowSeconds) {
      const k = prefix + key;
      const [[, count], , [, ttl]] = (await cmd.multi().incr(k).expire(k, windowSeconds, 'NX').ttl(k).exec()) as [[null, number], unknown, [null, number]];
      return { count, resetSeconds: ttl > 0 ? ttl : windowSeconds };
    },
    async unhit(key) {
      await cmd.eval(UNHIT, 1, prefix + key);
    },
    async peek(key) {
      const k = prefix + key;
      const [[, value], [, ttl]] = (await cmd.multi().get(k).ttl(k).exec()) as [[null, string | null], [null, number]];
      return value === null ? null : { count: Number(value), resetSeconds: ttl > 0 ? ttl : 1 };
    },
    async publish(channel, message) {
      await cmd.publish(prefix + channel, message);
    },
    async subscribe(channel, handler) {
      if (!handlers.has(channel)) await sub.subscribe(prefix + channel);
      handlers.set(channel, [...(handlers.get(channel) ?? []), handler]);
    },
    async close() {
      sub.disconnect();
      await cmd.quit().catch(() => cmd.disconnect());
    },
  };
}
