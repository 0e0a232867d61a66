import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../src/core/config.js';
import { appInstance } from '../src/core/db/schema.js';
import { createServer } from '../src/server.js';
import { createTestDb } from './db-template.js';
import { useServer } from './harness.js';

const METRICS_TOKEN = 'metrics-token-0123456789';

describe('health, readiness, metrics and request ids', () => {
  const h = useServer({ METRICS_TOKEN });

  it('answers /healthz, and /readyz with each dependency checked', async () => {
    const live = await h.server.app.inject({ method: 'GET', url: '/healthz' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    const ready = await h.server.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    const body = ready.json() as { status: string; checks: Record<string, { ok: boolean; ms: number }> };
    expect(body.status).toBe('ready');
    expect(Object.keys(body.checks).sort()).toEqual(expect.arrayContaining(['cache', 'database', 'lease']));
    expect(Object.values(body.checks).every((c) => c.ok)).toBe(true);
  });

  it('is not ready while a migration of this build is missing from the database, and names no host or credential', async () => {
    const { db } = h.server.ctx;
    const [last] = ((await db.execute(sql`select id, hash, created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`)) as unknown as { rows: Array<{ id: number; hash: string; created_at: string }> }).rows;
    await db.execute(sql`delete from drizzle.__drizzle_migrations where id = ${last!.id}`);
    try {
      const res = await h.server.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 'not ready', checks: { database: { ok: false, reason: 'MIGRATIONS_PENDING' } } });
    } finally {
      await db.execute(sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${last!.id}, ${last!.hash}, ${last!.created_at})`);
    }
    expect((await h.server.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('serves Prometheus metrics to the holder of METRICS_TOKEN only', async () => {
    await h.call('GET', '/api/blade-system/menu/routes'); // a 401 by route, counted
    expect((await h.server.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    expect((await h.server.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer wrong-token-0123456789' } })).statusCode).toBe(401);
    const res = await h.server.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    const text = res.body;
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/api\/blade-system\/menu\/routes",status="401"\} [1-9]/);
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/api\/blade-system\/menu\/routes"\}/);
    expect(text).toMatch(/process_resident_memory_bytes \d+/);
    expect(text).toMatch(/console_work_slots\{kind="password_hashing",state="waiting"\} 0/);
    expect(text).toMatch(/console_jobs\{state="running"\} 0/);
    expect(text).toMatch(/db_pool_connections\{state="total"\} [1-9]/);
    expect(text).toMatch(/workflow_step_duration_seconds/);
  });

  it('counts an unknown path as unmatched, so a scan cannot grow the series', async () => {
    for (const n of [1, 2, 3]) await h.server.app.inject({ method: 'GET', url: `/api/scan-${n}-${Date.now()}` });
    const text = (await h.server.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;
    expect(text).not.toMatch(/scan-/);
    expect(text).toMatch(/route="unmatched"/);
  });

  it('answers every request with a request id: the proxy\'s when it is a safe token, else a new one', async () => {
    const own = await h.server.app.inject({ method: 'GET', url: '/healthz' });
    expect(own.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const other = await h.server.app.inject({ method: 'GET', url: '/healthz' });
    expect(other.headers['x-request-id']).not.toBe(own.headers['x-request-id']);
    const kept = await h.server.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'haproxy-7f3a9c01:42' } });
    expect(kept.headers['x-request-id']).toBe('haproxy-7f3a9c01:42');
    const forged = await h.server.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'x\n{"level":60}' } });
    expect(forged.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const failed = await h.call('GET', '/api/blade-system/menu/routes', { headers: { 'x-request-id': 'trace-0000000001' } });
    expect(failed.status).toBe(401);
    expect(failed.raw.headers['x-request-id']).toBe('trace-0000000001');
  });

  it('holds a worker id by lease, renewed by its heartbeat', async () => {
    const { ctx } = h.server;
    const [row] = await ctx.db.select().from(appInstance).where(sql`${appInstance.instanceId} = ${ctx.instance.instanceId}`);
    expect(row?.workerId).toBe(ctx.instance.workerId);
    expect(row?.pid).toBe(process.pid);
    const before = row!.heartbeatTime.getTime();
    await new Promise((r) => setTimeout(r, 20));
    await ctx.instance.renew();
    const [after] = await ctx.db.select().from(appInstance).where(sql`${appInstance.instanceId} = ${ctx.instance.instanceId}`);
    expect(after!.heartbeatTime.getTime()).toBeGreaterThan(before);
  });
});

describe('readiness and a shared dependency', () => {
  const h = useServer({ READINESS_GRACE_MS: '400' });
  it('stays ready (degraded) while a dependency fails for less than the grace, then is not ready, and ready again when it answers', async () => {
    let up = false;
    h.server.ctx.health.add('test-dependency', async () => {
      if (!up) throw Object.assign(new Error('refused'), { code: 'ECONNREFUSED' });
    });
    const readyz = async () => {
      const res = await h.server.app.inject({ method: 'GET', url: '/readyz' });
      return { status: res.statusCode, body: res.json() as { status: string; checks: Record<string, { ok: boolean; reason?: string }> } };
    };
    const first = await readyz();
    expect(first).toMatchObject({ status: 200, body: { status: 'degraded', checks: { 'test-dependency': { ok: false, reason: 'ECONNREFUSED' } } } });
    await new Promise((r) => setTimeout(r, 500));
    expect(await readyz()).toMatchObject({ status: 503, body: { status: 'not ready' } });
    up = true;
    expect(await readyz()).toMatchObject({ status: 200, body: { status: 'ready' } });
  });
});

describe('metrics without the setting', () => {
  const h = useServer();
  it('are off: /metrics is a 404 saying which setting turns them on', async () => {
    const res = await h.server.app.inject({ method: 'GET', url: '/metrics', headers: { 'accept-language': 'en' } });
    expect(res.statusCode).toBe(404);
    expect(res.json().msg).toMatch(/METRICS_TOKEN/);
  });
  it('refuses a METRICS_TOKEN too short to be a secret, and a WORKER_ID out of range', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ WORKER_ID: '1024' })).toThrow(/WORKER_ID/);
    expect(() => loadConfig({ WORKER_ID: 'x' })).toThrow(/WORKER_ID/);
  });
});

describe('graceful shutdown', () => {
  it('fails readiness at once, lets a request in flight finish, and hands its lease back', async () => {
    const db = await createTestDb();
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: db.databaseUrl ?? '', REDIS_URL: process.env.REDIS_URL ?? '' }, { dataDir: db.dataDir });
    let release!: () => void;
    const held = new Promise<void>((r) => { release = r; });
    const server = await createServer(config, {
      extraRoutes: (app) => app.get('/test-slow', { config: { access: { public: true } } }, async () => {
        await held;
        return { done: true };
      }),
    });
    try {
      await server.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (server.app.server.address() as { port: number }).port;
      const base = `http://127.0.0.1:${port}`;
      const inFlight = fetch(`${base}/test-slow`).then(async (r) => ({ status: r.status, body: await r.json() as unknown }));
      await new Promise((r) => setTimeout(r, 100));
      const closing = server.close({ drainMs: 300, graceMs: 10_000 });
      const during = await fetch(`${base}/readyz`);
      expect(during.status).toBe(503);
      expect(await during.json()).toMatchObject({ status: 'draining' });
      release();
      expect(await inFlight).toEqual({ status: 200, body: { done: true } });
      await closing;
      await expect(fetch(`${base}/healthz`)).rejects.toThrow();
    } finally {
      release();
      await server.close();
    }
    // the lease was handed back: the next instance finds no live lease
    const again = await createServer(config);
    try {
      expect(await again.ctx.instance.others()).toBe(0);
    } finally {
      await again.close();
      await db.dispose();
    }
  });

  it('cuts a request still running at the deadline', async () => {
    const db = await createTestDb();
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: db.databaseUrl ?? '', REDIS_URL: process.env.REDIS_URL ?? '' }, { dataDir: db.dataDir });
    const server = await createServer(config, {
      extraRoutes: (app) => app.get('/test-forever', { config: { access: { public: true } } }, () => new Promise(() => undefined)),
    });
    try {
      await server.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (server.app.server.address() as { port: number }).port;
      const stuck = fetch(`http://127.0.0.1:${port}/test-forever`).then((r) => r.status, () => 'cut');
      await new Promise((r) => setTimeout(r, 100));
      const started = Date.now();
      await server.close({ drainMs: 0, graceMs: 500 });
      expect(Date.now() - started).toBeLessThan(8_000);
      expect(await stuck).toBe('cut');
    } finally {
      await db.dispose();
    }
  });
});
