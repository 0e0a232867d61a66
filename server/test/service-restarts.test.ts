import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { GATEWAY } from '../src/areas/device/index.js';
import { freePort, waitFor } from './fleet/processes.js';
import { md5, useServer } from './harness.js';

/**
 * Redis and the device broker restarting under a running server (issue 29's faults): while Redis is away a call
 * that needs it is answered 503 (retry), never 500, and readiness says which dependency is missing; when it is
 * back everything answers again without a restart, and the caches that may have missed an invalidation are
 * dropped. The gateway's link to an external broker comes back by itself. Each service is a private one on a
 * port of its own, so the machine's shared ones are never disturbed.
 */
const has = (bin: string) => spawnSync('sh', ['-c', `command -v ${bin}`], { stdio: 'ignore' }).status === 0;

function serve(bin: string, args: string[]): { child: ChildProcess; stop: () => Promise<void> } {
  const child = spawn(bin, args, { stdio: 'ignore' });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    child,
    async stop() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

const redisPort = await freePort();
const brokerPort = await freePort();
const startRedis = () => serve('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']);
const startBroker = () => serve('mosquitto', ['-p', String(brokerPort)]);
// with the fleet's other tests, in the PostgreSQL pass (DATABASE_URL), where the server runs as a fleet member does
const runs = Boolean(process.env.DATABASE_URL) && has('redis-server') && has('mosquitto');

describe.runIf(runs)('Redis and the broker restarting under a running server', () => {
  let redis = startRedis();
  let broker = startBroker();
  const listening = (port: number) => waitFor(`port ${port}`, 10_000, () => new Promise<boolean>((resolve) => {
    const c = connect(port, '127.0.0.1', () => { c.end(); resolve(true); });
    c.on('error', () => resolve(false));
  }));
  beforeAll(async () => {
    await listening(redisPort);
    await listening(brokerPort);
  });
  const h = useServer({
    REDIS_URL: `redis://127.0.0.1:${redisPort}`, MQTT_URL: `mqtt://127.0.0.1:${brokerPort}`, MQTT_TOPIC_ROOT: `rs${randomBytes(3).toString('hex')}`,
    READINESS_GRACE_MS: '1500',
  });
  let token: string;

  beforeAll(async () => {
    token = (await h.login('000000', 'admin', 'admin')).access_token;
  });
  afterAll(async () => {
    await redis.stop();
    await broker.stop();
  });

  const ready = async () => (await h.server.app.inject({ method: 'GET', url: '/readyz' })).json() as { status: string; checks: Record<string, { ok: boolean; reason?: string }> };

  it('answers 503, not 500, while Redis is away, and is not ready; all comes back when it returns', async () => {
    expect((await ready()).status).toBe('ready');
    await redis.stop();
    // a blip is 'degraded' (still in the proxy's rotation), a longer outage 'not ready'
    const blip = await ready();
    expect(blip.status).toBe('degraded');
    expect(blip.checks.cache?.ok).toBe(false);
    await waitFor('not ready after the grace', 10_000, async () => (await ready()).status === 'not ready');
    const away = await ready();
    expect(away.checks.cache).toMatchObject({ ok: false, failingMs: expect.any(Number) });
    expect(away.checks.database?.ok).toBe(true);
    const signIn = await h.tokenRequest({ grant_type: 'password', tenantId: '000000', username: 'admin', password: md5('wrong'), scope: 'all', type: 'account' }, { 'accept-language': 'en' });
    expect(signIn.statusCode).toBe(503);
    expect(signIn.json().error_description).toMatch(/cache service is unavailable/);
    expect(signIn.headers['retry-after']).toBe('2');
    redis = startRedis();
    await waitFor('ready again', 20_000, async () => (await ready()).status === 'ready');
    const again = await h.call('GET', '/api/blade-system/menu/routes', { token });
    expect(again.status).toBe(200);
    expect((await h.login('000000', 'admin', 'admin')).access_token).toBeTruthy();
  });

  it('drops the caches that may have missed an invalidation when Redis comes back', async () => {
    const { ctx } = h.server;
    await ctx.dicts.labels('notice', 'zh');
    expect(await ctx.dicts.held('notice', 'zh')).toBeDefined();
    await redis.stop();
    redis = startRedis();
    // the subscriber's connection comes back on its own (ioredis), and with it the caches are dropped
    await waitFor('the cache dropped', 20_000, async () => (await ctx.dicts.held('notice', 'zh')) === undefined);
    await waitFor('ready again', 20_000, async () => (await ready()).status === 'ready');
  });

  it('reconnects the gateway to the broker after a broker restart, without a restart of its own', async () => {
    const gw = h.server.ctx.services.get(GATEWAY);
    expect(gw.stats().brokerConnected).toBe(true);
    await broker.stop();
    await waitFor('the broker missed', 10_000, async () => (await ready()).checks.broker?.ok === false);
    broker = startBroker();
    await waitFor('the broker back', 20_000, async () => (await ready()).status === 'ready');
    // a device's message through the new broker reaches the gateway
    const before = gw.stats().received;
    const device = await mqtt.connectAsync(`mqtt://127.0.0.1:${brokerPort}`, { clientId: `rs-device-${Date.now()}` });
    await device.publishAsync(`${h.server.ctx.config.mqtt.topicRoot}/up/property/PRODUCT0001/dev1`, '{}', { qos: 1 });
    await device.endAsync();
    await waitFor('the message received', 10_000, async () => gw.stats().received > before);
  });
});
