import { readFileSync } from 'node:fs';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@console/contract';
import { setCaptchaGenerator } from '../src/areas/auth/captcha.js';
import { FLOW_ENGINE } from '../src/areas/flow/index.js';
import { flowInstance, flowTask } from '../src/areas/flow/tables.js';
import { type Config, loadConfig } from '../src/core/config.js';
import type { AuthUser } from '../src/core/context.js';
import { inTenant, schema } from '../src/core/db/index.js';
import { appInstance } from '../src/core/db/schema.js';
import { jobKey } from '../src/core/resource/io/import.js';
import { nextId } from '../src/core/ids.js';
import { createServer } from '../src/server.js';
import { createTestDb, type TestDb } from './db-template.js';
import { attachCalls, type Harness, md5 } from './harness.js';
import { importCsv } from './importSheet.js';
import { grantCodes, ioNoticeBinding } from './io-resource.js';

/**
 * Two instances on one PostgreSQL and one Redis (issue 29, "coherent as a fleet"): what one instance changes or
 * counts, the other sees at once; background work runs once and is taken over when its instance stops.
 */
const fleet = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
const SYS = '/api/blade-system';
const within = async (ms: number, check: () => Promise<boolean>, what: string) => {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`${what} not seen within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe.runIf(fleet)('two instances on one PostgreSQL and Redis', () => {
  let db: TestDb;
  let config: Config;
  const a = {} as Harness;
  const b = {} as Harness;
  const env = () => ({
    NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: db.databaseUrl ?? '', REDIS_URL: process.env.REDIS_URL ?? '',
    REDIS_PREFIX: `console-fleet:${nextId()}:`, JWT_SECRET: 'f'.repeat(40), ENCRYPTION_KEY: 'ab'.repeat(32), PUBLIC_RATE_PER_MINUTE: '40',
  });

  beforeAll(async () => {
    db = await createTestDb();
    config = loadConfig(env(), { dataDir: db.dataDir });
    a.server = await createServer(config, { extraResources: [ioNoticeBinding] });
    b.server = await createServer(config, { extraResources: [ioNoticeBinding] });
    attachCalls(a);
    attachCalls(b);
  });
  afterAll(async () => {
    await a.server?.close();
    await b.server?.close();
    await db?.dispose();
  });

  it('each holds its own worker id by lease, and sees the other alive', async () => {
    expect(a.server.ctx.instance.workerId).not.toBe(b.server.ctx.instance.workerId);
    expect(await a.server.ctx.instance.others()).toBe(1);
    expect(await a.server.ctx.instance.isAlive(b.server.ctx.instance.instanceId)).toBe(true);
  });

  it('refuses a third instance given other keys, and one without Redis beside another process', async () => {
    await expect(createServer(loadConfig({ ...env(), JWT_SECRET: 'g'.repeat(40) }, { dataDir: db.dataDir })))
      .rejects.toThrow(/JWT_SECRET or ENCRYPTION_KEY differs from the running instance/);
    // a live lease of another host, as another machine of the fleet holds
    const digest = (await a.server.ctx.db.select().from(appInstance).where(eq(appInstance.instanceId, a.server.ctx.instance.instanceId)))[0]!.keysDigest;
    await a.server.ctx.db.insert(appInstance).values({ workerId: 1000, instanceId: 'elsewhere', host: 'another-host', pid: 1, version: 'x', keysDigest: digest });
    try {
      await expect(createServer(loadConfig({ ...env(), REDIS_URL: '' }, { dataDir: db.dataDir })))
        .rejects.toThrow(/several instances need REDIS_URL/);
    } finally {
      await a.server.ctx.db.delete(appInstance).where(eq(appInstance.instanceId, 'elsewhere'));
    }
  });

  it('a sign-out on one stops the token on the other', async () => {
    const token = (await a.login('000000', 'admin', 'admin')).access_token;
    expect((await b.call('GET', `${SYS}/menu/routes`, { token })).status).toBe(200);
    expect((await a.call('GET', '/api/blade-auth/oauth/logout', { token })).status).toBe(200);
    await within(1000, async () => (await b.call('GET', `${SYS}/menu/routes`, { token })).status === 401, 'the sign-out');
  });

  it('a grant on one takes effect on the other within a second (permission caches)', async () => {
    await a.createUser('000000', 'fleet-grantee', 'pw', ['user']);
    const token = (await b.login('000000', 'fleet-grantee', 'pw')).access_token;
    expect((await b.call('GET', `${SYS}/param/list`, { token })).status).toBe(403);
    const admin = (await a.login('000000', 'admin', 'admin')).access_token;
    const { ctx } = a.server;
    const [role] = await inTenant(ctx.db, { tenantId: '000000' }, (tx) => tx.select().from(schema.role).where(and(eq(schema.role.tenantId, '000000'), eq(schema.role.roleAlias, 'user'))));
    const held = await inTenant(ctx.db, { tenantId: '000000' }, (tx) => tx.select({ menuId: schema.roleMenu.menuId }).from(schema.roleMenu).where(eq(schema.roleMenu.roleId, role!.id)));
    const added = await ctx.db.select({ id: schema.menu.id }).from(schema.menu).where(inArray(schema.menu.code, ['system', 'param']));
    const menuIds = [...new Set([...held.map((m) => m.menuId), ...added.map((m) => m.id)])].join(',');
    expect((await a.call('POST', `${SYS}/role/grant`, { token: admin, query: { roleIds: role!.id, menuIds } })).status).toBe(200);
    await within(1000, async () => (await b.call('GET', `${SYS}/param/list`, { token })).status === 200, 'the grant');
  });

  it('a dictionary label changed on one is shown by the other within a second', async () => {
    const admin = (await a.login('000000', 'admin', 'admin')).access_token;
    const created = await a.call<{ id: string }>('POST', '/api/blade-desk/notice/submit', { token: admin, body: { title: 'fleet-dict', category: 1, releaseTime: '2026-01-01 08:00:00', content: 'x' } });
    expect(created.status).toBe(200);
    const categoryName = async () => (await b.call<Page<{ title: string; categoryName: string }>>('GET', '/api/blade-desk/notice/list', { token: admin, query: { title: 'fleet-dict' } })).body.data.records[0]?.categoryName;
    const before = await categoryName();
    expect(before).toBeTruthy();
    const [item] = await a.server.ctx.db.select().from(schema.dict).where(and(eq(schema.dict.code, 'notice'), eq(schema.dict.dictKey, '1')));
    expect(item?.dictValue).toBe(before);
    const res = await a.call('POST', `${SYS}/dict/submit`, { token: admin, body: { ...item, dictValue: `${before}-改` } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await within(1000, async () => (await categoryName()) === `${before}-改`, 'the new label');
  });

  it('failed sign-ins on both count toward one lockout', async () => {
    await a.createUser('000000', 'fleet-locked', 'right-pass', ['user']);
    const attempt = (h: Harness, password: string) => h.tokenRequest({ grant_type: 'password', tenantId: '000000', username: 'fleet-locked', password: md5(password), scope: 'all', type: 'account' }, { 'tenant-id': '000000', 'accept-language': 'en' });
    for (const h of [a, b, a, b, a]) expect((await attempt(h, 'wrong')).statusCode).toBe(400);
    const refused = await attempt(b, 'right-pass');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error_description).toMatch(/locked/);
  });

  it('the public calls of one address are budgeted across both', async () => {
    const ip = '198.51.100.7';
    const call = (h: Harness) => h.server.app.inject({ method: 'GET', url: '/api/app/pub/console-config', remoteAddress: ip });
    let answered = 0;
    for (let i = 0; i < 40; i++) if ((await call(i % 2 ? a : b)).statusCode === 200) answered++;
    expect(answered).toBe(40);
    expect((await call(a)).statusCode).toBe(429);
    expect((await call(b)).statusCode).toBe(429);
  });

  it('a captcha made by one is checked by the other, once', async () => {
    setCaptchaGenerator(() => 'F7L3T');
    const { key } = (await a.call('GET', '/api/blade-auth/oauth/captcha', { noClient: true })).raw.json<{ key: string }>();
    const query = { grant_type: 'captcha', tenantId: '000000', username: 'admin', password: md5('admin') };
    expect((await b.tokenRequest(query, { 'captcha-key': key, 'captcha-code': 'F7L3T' })).statusCode).toBe(200);
    expect((await a.tokenRequest(query, { 'captcha-key': key, 'captcha-code': 'F7L3T' })).statusCode).toBe(400);
  });

  it('an import started on one is followed on the other; one whose instance died is reported failed', async () => {
    await grantCodes(a.server, ['notice_io', 'notice_io_add', 'notice_io_view', 'notice_io_import'], ['administrator']);
    await b.server.ctx.permissions.invalidate();
    const admin = (await a.login('000000', 'admin', 'admin')).access_token;
    // the harness polls on whichever server `call` uses: start on a, poll on b
    const mixed = { ...a, call: b.call } as Harness;
    const job = await importCsv(mixed, admin, '/api/blade-desk/notice-io/import', 'title,category,releaseTime\nfleet-import-1,1,2026-01-02 08:00:00\nfleet-import-2,2,2026-01-02 09:00:00\n');
    expect(job).toMatchObject({ status: 'done', succeeded: 2, failed: 0 });
    const [me] = await a.server.ctx.db.select().from(schema.user).where(and(eq(schema.user.tenantId, '000000'), eq(schema.user.account, 'admin')));
    const id = nextId();
    await a.server.ctx.kv.set(jobKey(id), JSON.stringify({
      id, status: 'running', total: 10, processed: 5, succeeded: 0, failed: 0, errors: [], tenantId: '000000', userId: me!.id, instanceId: 'an-instance-that-died',
    }), 60);
    const orphan = await b.call<{ status: string; errors: Array<{ message: string }> }>('GET', '/api/blade-desk/notice-io/get-upload-progress', { token: admin, query: { id }, lang: 'en' });
    expect(orphan.body.data).toMatchObject({ status: 'failed', errors: [{ message: expect.stringMatching(/instance running this import stopped; nothing was written/) }] });
    expect(orphan.body.data).not.toHaveProperty('instanceId');
  });

  describe('workflow timers', () => {
    const T = '541742';
    // the escalation of flow-engine.test.ts, its process key its own
    const ESCALATION = readFileSync(new URL('./fixtures/flow/escalation.bpmn20.xml', import.meta.url), 'utf8').replace('id="escalate"', 'id="fleetEscalate"');
    let starter: AuthUser;
    let definitionId: string;
    const tasksOf = (h: Harness, instanceId: string) => inTenant(h.server.ctx.db, { tenantId: T }, (tx) =>
      tx.select().from(flowTask).where(eq(flowTask.instanceId, instanceId)).orderBy(asc(flowTask.createTime), asc(flowTask.id)));
    const escalated = async (h: Harness, ids: string[]) => {
      for (const id of ids) if (!(await tasksOf(h, id)).some((t) => t.taskDefinitionKey === 'hrReview')) return false;
      return true;
    };

    beforeAll(async () => {
      const userId = await a.createUser(T, 'fleet-flow', 'pw', ['admin']);
      starter = { tenantId: T, userId, deptId: '', roleIds: [], roleAliases: ['admin'], account: 'fleet-flow', userName: 'fleet-flow', clientId: 'saber', sessionId: '' };
      const [def] = await a.server.ctx.services.get(FLOW_ENGINE).deploy(starter, { xml: ESCALATION, tenantIds: [T], source: 'upload' });
      definitionId = def!.definitionId;
    });

    it('fire once with both schedulers running', async () => {
      const flowA = a.server.ctx.services.get(FLOW_ENGINE);
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) ids.push((await flowA.start(starter, definitionId, { taskUser: starter.userId })).instanceId);
      await within(15_000, () => escalated(b, ids), 'every escalation');
      for (const id of ids) {
        expect((await tasksOf(b, id)).map((t) => [t.taskDefinitionKey, t.status])).toEqual([['review', 'cancelled'], ['hrReview', 'open']]);
      }
    });

    it('are fired by the other instance once theirs has stopped', async () => {
      const flowA = a.server.ctx.services.get(FLOW_ENGINE);
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) ids.push((await flowA.start(starter, definitionId, { taskUser: starter.userId })).instanceId);
      await a.server.close();
      await within(15_000, () => escalated(b, ids), 'the escalations after the first instance stopped');
      const due = await inTenant(b.server.ctx.db, { tenantId: T }, (tx) => tx.select({ dueAt: flowInstance.dueAt }).from(flowInstance).where(inArray(flowInstance.id, ids)));
      expect(due.every((r) => r.dueAt === null)).toBe(true);
    });
  });
});
