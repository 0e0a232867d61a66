import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { deviceUnlockSecret } from '../src/areas/production/index.js';
import { verifyCode } from '../src/areas/device/emergencyCode.js';
import { deliverFleet, type Fleet, makeFleet } from './device-fixture.js';
import { useServer } from './harness.js';
import { grantCodes } from './io-resource.js';

/**
 * Emergency unlock (issue 11): a request, approved by a second person, then codes a lock verifies offline with
 * the secret derived for it; every issue recorded; another tenant sees nothing.
 */

type Row = Record<string, unknown> & { id: string };
const UNLOCK = '/api/omc-device/emergency-unlock';
const CODE = '/api/omc-device/emergency-code';
const CODES = ['emergency_unlock', 'emergency_unlock_add', 'emergency_unlock_edit', 'emergency_unlock_delete', 'emergency_unlock_view', 'emergency_approve', 'emergency_generate'];

const h = useServer();
let admin: string;
let clerk: string;
let manager: string;
let otherTenant: string;
let fleet: Fleet;

const request = (token: string, over: Record<string, unknown> = {}) => h.call<Row>('POST', `${UNLOCK}/submit`, {
  token, body: { deviceSn: fleet.devices[0]!.sn, applicant: '张三', phone: '13800138000', reason: '钥匙丢失, 门外等候', codeKind: 3, validFrom: '2026-11-28 10:20:00', codeCount: 2, ...over },
});

beforeAll(async () => {
  admin = (await h.login('000000', 'admin', 'admin')).access_token;
  fleet = await makeFleet(h, admin, { count: 2, tag: 'eu' });
  // the tenant sees the product's type, and two of its administrators hold the screen's codes
  await h.server.ctx.db.execute(sql`insert into ymy_product_auth (id, tenant_id, type_id) values (${String(Date.now())}::bigint, '541742', ${fleet.typeId}::bigint)`);
  // the fleet is delivered to the tenant: its devices are the tenant's
  await deliverFleet(h, admin, fleet, '541742');
  await grantCodes(h.server, CODES, ['admin']);
  await h.createUser('541742', 'clerk', 'Clerk#2026', ['admin']);
  await h.createUser('541742', 'manager', 'Manager#2026', ['admin']);
  clerk = (await h.login('541742', 'clerk', 'Clerk#2026')).access_token;
  manager = (await h.login('541742', 'manager', 'Manager#2026')).access_token;
  otherTenant = admin;
});

describe('an emergency unlock request', () => {
  it('is approved by someone else, then issues codes once, which the lock accepts inside their windows only', async () => {
    const made = await request(clerk);
    expect(made.status, made.body.msg).toBe(200);
    const id = made.body.data.id;
    // two 2-hour windows from 10:00 (the code's window starts on the hour)
    expect(made.body.data).toMatchObject({ state: 'pending', validTo: '2026-11-28 14:00:00' });

    expect((await h.call('POST', `${CODE}/generate`, { token: clerk, body: { id } })).status).toBe(400);
    const own = await h.call('POST', `${UNLOCK}/approve`, { token: clerk, query: { id }, lang: 'en' });
    expect(own.status).toBe(403);
    expect(own.body.msg).toContain('another colleague');
    const approved = await h.call('POST', `${UNLOCK}/approve`, { token: manager, body: { id, comment: '已核实身份' } });
    expect(approved.status, approved.body.msg).toBe(200);
    const detail = (await h.call<Row>('GET', `${UNLOCK}/detail`, { token: clerk, query: { id } })).body.data;
    expect(detail).toMatchObject({ state: 'approved', approverName: 'manager', comment: '已核实身份' });
    expect(detail.approvalTime).toBeTruthy();
    expect((await h.call('POST', `${UNLOCK}/reject`, { token: manager, query: { id } })).status).toBe(400);
    expect((await request(clerk, { id, reason: '改' })).status).toBe(400);

    const issued = await h.call<Array<{ code: string; kind: number; validFrom: string; validTo: string }>>('POST', `${CODE}/generate`, { token: clerk, body: { id } });
    expect(issued.status, issued.body.msg).toBe(200);
    expect(issued.body.data.map((c) => [c.validFrom, c.validTo])).toEqual([['2026-11-28 10:00:00', '2026-11-28 12:00:00'], ['2026-11-28 12:00:00', '2026-11-28 14:00:00']]);
    const again = await h.call('POST', `${CODE}/generate`, { token: clerk, body: { id } });
    expect(again.status).toBe(400);

    // the lock's check, with the secret derived for this lock alone
    const secret = deviceUnlockSecret(h.server.ctx.config.encryptionKey, fleet.devices[0]!.sn);
    const [first, second] = issued.body.data as unknown as [{ code: string; validFrom: string }, { code: string }];
    const at = (text: string) => new Date(`${text.replace(' ', 'T')}+08:00`);
    expect(verifyCode(secret, first.code, at('2026-11-28 11:00:00'))).toMatchObject({ ok: true, kind: 'timed' });
    expect(verifyCode(secret, first.code, at('2026-11-28 12:30:00'))).toEqual({ ok: false, reason: 'expired' });
    expect(verifyCode(secret, second.code, at('2026-11-28 10:30:00'))).toEqual({ ok: false, reason: 'notYet' });
    expect(verifyCode(secret, second.code, at('2026-11-28 13:59:00'))).toMatchObject({ ok: true });
    const otherLock = deviceUnlockSecret(h.server.ctx.config.encryptionKey, fleet.devices[1]!.sn);
    expect(verifyCode(otherLock, first.code, at('2026-11-28 11:00:00'))).toEqual({ ok: false, reason: 'invalid' });

    // the issued codes are kept sealed and answered masked; every issue names who issued it
    const listed = await h.call<{ records: Row[] }>('GET', `${CODE}/list`, { token: manager, query: { unlockId: id } });
    expect(listed.body.data.records.map((r) => [r.code, r.issuerName])).toEqual([['******', 'clerk'], ['******', 'clerk']]);
    const stored = (await h.server.ctx.db.execute(sql`select code from ymy_emergency_code where unlock_id = ${id}::bigint`) as unknown as { rows: Array<{ code: string }> }).rows;
    for (const r of stored) expect(r.code).not.toMatch(/^\d{10}$/);
    expect((await h.call<Row>('GET', `${UNLOCK}/detail`, { token: clerk, query: { id } })).body.data.state).toBe('issued');
    expect((await h.call('POST', `${UNLOCK}/remove`, { token: clerk, query: { ids: id } })).status).toBe(400);
    // the API log is written in batches: what was logged is flushed before it is read
    await h.server.ctx.logs.flush();
    const audit = (await h.server.ctx.db.execute(sql`select title from blade_log_api where tenant_id = '541742' and request_uri like ${'%emergency-code/generate%'}`) as unknown as { rows: Array<{ title: string }> }).rows;
    expect(audit.length).toBeGreaterThanOrEqual(2);
  });

  it('a one-time code opens once within its day', async () => {
    const made = await request(clerk, { codeKind: 1, codeCount: 1, validFrom: '2026-12-01 08:00:00' });
    expect(made.body.data.validTo).toBe('2026-12-02 08:00:00');
    await h.call('POST', `${UNLOCK}/approve`, { token: manager, query: { id: made.body.data.id } });
    const [code] = (await h.call<Array<{ code: string }>>('POST', `${CODE}/generate`, { token: manager, body: { id: made.body.data.id } })).body.data;
    const secret = deviceUnlockSecret(h.server.ctx.config.encryptionKey, fleet.devices[0]!.sn);
    const noon = new Date('2026-12-01T12:00:00+08:00');
    const first = verifyCode(secret, code!.code, noon);
    expect(first).toMatchObject({ ok: true, kind: 'one-time' });
    const used = new Set([(first as { remember: string }).remember]);
    expect(verifyCode(secret, code!.code, noon, used)).toEqual({ ok: false, reason: 'used' });
  });

  it('a rejected request issues nothing', async () => {
    const made = await request(clerk);
    expect((await h.call('POST', `${UNLOCK}/reject`, { token: manager, body: { id: made.body.data.id, comment: '身份不符' } })).status).toBe(200);
    expect((await h.call('POST', `${CODE}/generate`, { token: manager, body: { id: made.body.data.id } })).status).toBe(400);
  });

  it('refuses a delete outside the states the definition offers 删除 on, as the list does (the engine, not the screen)', async () => {
    const made = await request(clerk);
    const id = String(made.body.data.id);
    // a state no button offers 删除 on (written behind the server's back: no call leads there)
    await h.server.ctx.db.execute(sql`update ymy_emergency_unlock set state = 'expired' where id = ${id}::bigint`);
    const refused = await h.call('POST', `${UNLOCK}/remove`, { token: manager, query: { ids: id } });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toContain('在当前状态 (expired) 下不能删除');
    const preview = await h.call<{ refused: boolean; message: string }>('GET', `${UNLOCK}/remove-impact`, { token: manager, query: { ids: id } });
    expect(preview.body.data.refused).toBe(true);
    expect((await h.call('GET', `${UNLOCK}/detail`, { token: manager, query: { id } })).status).toBe(200);
    await h.server.ctx.db.execute(sql`update ymy_emergency_unlock set state = 'pending' where id = ${id}::bigint`);
    expect((await h.call('POST', `${UNLOCK}/remove`, { token: manager, query: { ids: id } })).status).toBe(200);
  });

  it('refuses a device the tenant does not see, a bad kind or count, and a missing reason, naming the field', async () => {
    const hidden = await makeFleet(h, admin, { count: 1, tag: 'euh' });
    const unseen = await request(clerk, { deviceSn: hidden.devices[0]!.sn });
    expect(unseen.status).toBe(400);
    expect(Object.keys(unseen.body.data as object)).toEqual(['deviceSn']);
    expect(Object.keys((await request(clerk, { codeKind: 12 })).body.data as object)).toEqual(['codeKind']);
    expect(Object.keys((await request(clerk, { codeCount: 11 })).body.data as object)).toEqual(['codeCount']);
    expect(Object.keys((await request(clerk, { reason: ' ' })).body.data as object)).toEqual(['reason']);
    expect(Object.keys((await request(clerk, { validFrom: '2026-13-40 25:00' })).body.data as object)).toEqual(['validFrom']);
  });

  it('another tenant neither sees nor decides the requests; without the codes nothing is allowed', async () => {
    const made = await request(clerk);
    const id = made.body.data.id;
    expect((await h.call('GET', `${UNLOCK}/detail`, { token: otherTenant, query: { id } })).status).toBe(404);
    expect((await h.call('POST', `${UNLOCK}/approve`, { token: otherTenant, query: { id } })).status).toBe(404);
    expect((await h.call('POST', `${CODE}/generate`, { token: otherTenant, body: { id } })).status).toBe(404);
    expect((await h.call<{ records: Row[] }>('GET', `${CODE}/list`, { token: otherTenant, query: { size: 100 } })).body.data.records).toEqual([]);
    await h.createUser('541742', 'nobody', 'Nobody#2026', []);
    const nobody = (await h.login('541742', 'nobody', 'Nobody#2026')).access_token;
    expect((await h.call('POST', `${UNLOCK}/approve`, { token: nobody, query: { id } })).status).toBe(403);
    expect((await h.call('POST', `${CODE}/generate`, { token: nobody, body: { id } })).status).toBe(403);
    expect((await h.call('POST', `${UNLOCK}/approve`, { query: { id } })).status).toBe(401);
  });
});
