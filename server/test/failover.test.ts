import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { msg } from '@console/contract';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/core/config.js';
import { FailoverClient } from '../src/core/db/hosts.js';
import { nextId } from '../src/core/ids.js';
import { createServer, type Server } from '../src/server.js';
import { canRunFormation, type Formation, startFormation } from './fleet/pgAutoFailover.js';
import { BASIC, md5 } from './harness.js';

interface Write {
  title: string;
  lang: 'zh' | 'en';
  status: number;
  msg: string;
  retryAfter: string | undefined;
  sentAt: number;
  answeredAt: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** settles within ms, whatever `p` does: a teardown must not hang the run */
const within = <T>(p: Promise<T>, ms: number) => Promise.race([p.catch(() => undefined), sleep(ms)]);

async function rowsOn(url: string, text: string, values: unknown[] = []): Promise<Array<Record<string, unknown>>> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  c.on('error', () => undefined);
  await c.connect();
  try {
    return (await c.query(text, values)).rows;
  } finally {
    await c.end().catch(() => undefined);
  }
}

describe('the server on a pg_auto_failover formation', () => {
  // with the fleet's other tests, in the PostgreSQL pass (DATABASE_URL): the formation is its own, the embedded pass adds nothing
  it.runIf(Boolean(process.env.DATABASE_URL) && canRunFormation())('keeps every acknowledged write across a kill -9 of the primary and writes on to the promoted standby without a restart', async () => {
    let formation: Formation | undefined;
    let server: Server | undefined;
    const dataDir = await mkdtemp(join(tmpdir(), 'console-failover-'));
    try {
      formation = await startFormation();
      const primary = await formation.waitForPrimary();

      // pg_auto_failover's default with one standby: a commit waits for the standby to have it (quorum of one)
      const [sync] = await rowsOn(formation.nodeUrl(primary, 'postgres'), "select current_setting('synchronous_standby_names') as names, current_setting('synchronous_commit') as commit, (select string_agg(sync_state, ',') from pg_stat_replication) as states");
      expect(sync).toMatchObject({ names: expect.stringMatching(/^ANY 1 \(pgautofailover_standby_\d+\)$/), commit: 'on', states: expect.stringMatching(/^(quorum|sync)$/) });

      // a client of both hosts, the standby first, keeps the primary's session when it asks for read-write and closes
      // the standby's; asking for any session, it keeps the standby's
      const standby = formation.nodes.find((n) => n.name !== primary.name)!;
      const both = `postgres://postgres@127.0.0.1:${standby.port},127.0.0.1:${primary.port}/postgres?application_name=failover-probe`;
      for (const [attrs, port] of [['read-write', primary.port], ['any', standby.port]] as const) {
        const probe = new FailoverClient({ connectionString: `${both}&target_session_attrs=${attrs}` });
        probe.on('error', () => undefined);
        try {
          await probe.connect();
          expect(probe.port).toBe(port);
        } finally {
          await probe.end();
        }
      }
      const standbyUrl = formation.nodeUrl(standby, 'postgres');
      const probes = async () => (await rowsOn(standbyUrl, "select count(*)::int as n from pg_stat_activity where application_name = 'failover-probe'"))[0]?.n;
      for (let i = 0; i < 20 && await probes() !== 0; i++) await sleep(50);
      expect(await probes()).toBe(0);

      await rowsOn(formation.nodeUrl(primary, 'postgres'), 'create database console');
      const url = formation.url('console');
      server = await createServer(loadConfig(
        { NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: url, REDIS_URL: process.env.REDIS_URL ?? '', REDIS_PREFIX: `console-test:${nextId()}:` },
        { dataDir },
      ));
      const app = server.app;
      const login = await app.inject({
        method: 'POST', url: '/api/blade-auth/oauth/token', headers: { authorization: BASIC },
        query: { grant_type: 'password', tenantId: '000000', username: 'admin', password: md5('admin') },
      });
      expect(login.statusCode).toBe(200);
      const token = login.json().access_token as string;

      const writes: Write[] = [];
      let seq = 0;
      let stop = false;
      let killedAt = 0;
      const writer = async (lang: 'zh' | 'en') => {
        while (!stop) {
          const title = `failover ${++seq}`;
          const sentAt = Date.now();
          const res = await app.inject({
            method: 'POST', url: '/api/blade-desk/notice/submit',
            headers: { authorization: BASIC, 'blade-auth': `bearer ${token}`, 'accept-language': lang },
            payload: { title, category: 1, releaseTime: '2026-05-01 08:30:00', content: 'x' },
          });
          const body = res.json() as { msg: string };
          writes.push({ title, lang, status: res.statusCode, msg: body.msg, retryAfter: res.headers['retry-after'] as string | undefined, sentAt, answeredAt: Date.now() });
          // a refused write is tried again soon, as a client told Retry-After would, only sooner: to time the switch
          if (res.statusCode !== 200) await sleep(50);
        }
      };
      const acked = () => writes.filter((w) => w.status === 200);
      const running = [writer('zh'), writer('en'), writer('zh')];
      try {
        const end = Date.now() + 20_000;
        while (acked().length < 30 && Date.now() < end) await sleep(20);
        expect(acked().length).toBeGreaterThanOrEqual(30);

        const pool = (server.ctx.db as unknown as { $client: pg.Pool }).$client;
        const held = await pool.connect();
        killedAt = Date.now();
        formation.kill(primary);
        const promoted = await formation.waitForPrimary({ not: primary.name, timeoutMs: 45_000 });
        const promotedAt = Date.now();
        // writes go on until enough succeeded on the promoted node
        const until = Date.now() + 30_000;
        while (writes.filter((w) => w.sentAt > promotedAt && w.status === 200).length < 30 && Date.now() < until) await sleep(20);
        stop = true;
        await Promise.all(running);

        const afterKill = writes.filter((w) => w.sentAt >= killedAt);
        const firstOk = afterKill.find((w) => w.status === 200);
        const refused = writes.filter((w) => w.status !== 200);
        console.log(`failover: ${writes.length} writes, ${acked().length} acknowledged, ${refused.length} answered ${[...new Set(refused.map((w) => w.status))].join('/') || '-'}; ` +
          `monitor saw ${promoted.name} primary ${promotedAt - killedAt} ms after the kill, first acknowledged write ${firstOk ? firstOk.answeredAt - killedAt : '-'} ms after it`);

        // never a 500: a write is acknowledged, or refused as retryable
        expect(new Set(writes.map((w) => w.status))).toEqual(new Set(refused.length ? [200, 503] : [200]));
        for (const w of refused) {
          expect(w.msg).toBe(msg('databaseSwitching', w.lang));
          expect(w.retryAfter).toMatch(/^\d+$/);
        }
        // the refusals are the switch, not a lasting failure: the server writes again without a restart
        expect(firstOk).toBeDefined();
        expect(afterKill.filter((w) => w.status === 200).length).toBeGreaterThanOrEqual(30);
        expect(writes.at(-1)?.status).toBe(200);

        // no connection the kill broke stays lent out, even one its holder never gives back (drizzle's transaction
        // does not when its BEGIN fails): the pool would be short of it for good
        const settled = Date.now() + 5000;
        while (pool.totalCount !== pool.idleCount && Date.now() < settled) await sleep(50);
        expect(pool.totalCount - pool.idleCount, 'connections still lent out').toBe(0);
        held.release();

        // every acknowledged write is on the promoted node (a write refused mid-commit may be there too)
        const stored = new Set((await rowsOn(formation.nodeUrl(promoted, 'console'), "select title from blade_notice where title like 'failover %'")).map((r) => r.title));
        const lost = acked().filter((w) => !stored.has(w.title)).map((w) => w.title);
        expect(lost).toEqual([]);
        console.log(`failover: ${refused.filter((w) => stored.has(w.title)).length} of the writes answered 503 were committed nonetheless`);
      } finally {
        stop = true;
        await within(Promise.all(running), 10_000);
      }
    } catch (e) {
      if (formation) console.error(formation.logs());
      throw e;
    } finally {
      await within(server?.close() ?? Promise.resolve(), 10_000);
      await formation?.dispose();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 150_000);
});
