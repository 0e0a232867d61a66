import { APP_API, crudPaths, removeImpactPath } from '@console/contract';
import { batchResource } from '@console/contract/areas/production/index';
import {
  FEEDBACK_PATH, FEEDBACK_REPLY_PATH, POSTSALE_APP_API, POSTSALE_DEVICE_PATH, POSTSALE_RECORD_PATH, POSTSALE_USER_PATH,
} from '@console/contract/areas/postsale/index';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { SMS } from '../src/areas/resource/index.js';
import { appSide } from './app-users.js';
import { deliverFleet, type Fleet, makeFleet } from './device-fixture.js';
import { md5, useServer } from './harness.js';

/**
 * After-sales (issue 28): app users registered with an SMS code, reset and disabled from the console; their locks
 * (one owner, members shared by the owner); service records, a replacement moving the bindings; feedback and
 * replies read back by the app. Each against another tenant, without the permission, and with bad input.
 */
type Row = Record<string, unknown> & { id: string };
const h = useServer();
const TENANT = '541742';
let admin: string;
let platform: string;
let fleet: Fleet;
let otherFleet: Fleet;
const side = appSide(h, TENANT);
const { sent, recordingSms, register, newPhone } = side;
const app = side.call;

async function userIdOf(phone: string, token = admin): Promise<string> {
  const res = await h.call<{ records: Row[] }>('GET', `${POSTSALE_USER_PATH}/list`, { token, query: { phone } });
  return res.body.data.records.find((r) => r.phone === phone)!.id;
}

beforeAll(async () => {
  admin = (await h.login(TENANT, 'admin', 'admin')).access_token;
  platform = (await h.login('000000', 'admin', 'admin')).access_token;
  side.listen();
  fleet = await makeFleet(h, platform, { count: 6, tag: 'ps' });
  await deliverFleet(h, platform, fleet, TENANT);
  // locks still the platform's: not the tenant's to bind
  otherFleet = await makeFleet(h, platform, { count: 1, tag: 'px' });
});

describe('app users', () => {
  it('register with an SMS code, then sign in; the code is single-use and a second sign-up of the phone is refused', async () => {
    const phone = newPhone();
    const token = await register(phone);
    expect(token.split('.')).toHaveLength(3);
    expect((await app('GET', POSTSALE_APP_API.devices, token)).status).toBe(200);
    const signIn = await app('POST', APP_API.token, undefined, { tenantId: TENANT, phone, password: md5('Lock#2026') });
    expect(signIn.status).toBe(200);
    // the same code again, and the phone again
    const code = sent.filter((s) => s.phone === phone).at(-1)!.code;
    const again = await app('POST', POSTSALE_APP_API.register, undefined, { tenantId: TENANT, phone, smsCode: code, password: md5('x') });
    expect(again.status).toBe(400);
    const asked = await app('POST', POSTSALE_APP_API.smsCode, undefined, { tenantId: TENANT, phone, purpose: 'register' }, 'en');
    expect(asked.status).toBe(400);
    expect(asked.body.msg).toContain(`${phone} is already registered`);
    const list = await h.call<{ records: Row[] }>('GET', `${POSTSALE_USER_PATH}/list`, { token: admin, query: { phone } });
    expect(list.body.data.records).toEqual([expect.objectContaining({ phone, nickname: `n${phone.slice(-4)}`, status: 1, passwordReset: 0 })]);
    expect(list.body.data.records[0]!.registerTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(JSON.stringify(list.body)).not.toMatch(/password"|\$argon2/);
  });

  it('refuses a wrong code, voids it after five wrong tries, and sends one code a minute per phone', async () => {
    const phone = newPhone();
    expect((await app('POST', POSTSALE_APP_API.smsCode, undefined, { tenantId: TENANT, phone, purpose: 'register' })).status).toBe(200);
    const code = sent.at(-1)!.code;
    const soon = await app('POST', POSTSALE_APP_API.smsCode, undefined, { tenantId: TENANT, phone, purpose: 'register' }, 'en');
    expect(soon.status).toBe(429);
    expect(soon.body.msg).toMatch(/try again in \d+ s/);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 5; i++) {
      const res = await app('POST', POSTSALE_APP_API.register, undefined, { tenantId: TENANT, phone, smsCode: wrong, password: md5('x') }, 'en');
      expect(res.status).toBe(400);
      expect(res.body.msg).toContain('SMS code is wrong');
    }
    // the right code, too late: voided by the fifth wrong one
    expect((await app('POST', POSTSALE_APP_API.register, undefined, { tenantId: TENANT, phone, smsCode: code, password: md5('x') })).status).toBe(400);
  });

  it('refuses bad input field by field, and asks for SMS to be set up when the tenant has none', async () => {
    const bad = await app('POST', POSTSALE_APP_API.smsCode, undefined, { tenantId: TENANT, phone: 'abc', purpose: 'login' }, 'en');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.data as Row).sort()).toEqual(['phone', 'purpose']);
    const noCode = await app('POST', POSTSALE_APP_API.register, undefined, { tenantId: TENANT, phone: newPhone(), smsCode: '12ab', password: 'plain' }, 'en');
    expect(Object.keys(noCode.body.data as Row).sort()).toEqual(['password', 'smsCode']);
    h.server.ctx.services.replace(SMS, { send: async () => undefined });
    try {
      const phone = newPhone();
      const res = await app('POST', POSTSALE_APP_API.smsCode, undefined, { tenantId: TENANT, phone, purpose: 'register' }, 'en');
      expect(res.status).toBe(400);
      expect(res.body.msg).toContain('SMS is not set up');
    } finally {
      h.server.ctx.services.replace(SMS, recordingSms);
    }
  });

  it('a reset by the console signs the app out and refuses the old password until a new one is set with a code', async () => {
    const phone = newPhone();
    const token = await register(phone, 'Old#2026');
    const id = await userIdOf(phone);
    const reset = await h.call('POST', `${POSTSALE_USER_PATH}/reset-pass`, { token: admin, query: { id } });
    expect(reset.status, reset.body.msg).toBe(200);
    expect((await app('GET', POSTSALE_APP_API.devices, token)).status).toBe(401);
    const old = await app('POST', APP_API.token, undefined, { tenantId: TENANT, phone, password: md5('Old#2026') }, 'en');
    expect(old.status).toBe(400);
    expect(old.body.msg).toContain('set a new one with an SMS code');
    expect((await app('POST', POSTSALE_APP_API.smsCode, undefined, { tenantId: TENANT, phone, purpose: 'reset' })).status).toBe(200);
    const code = sent.at(-1)!.code;
    // a register code is not a reset code
    expect((await app('POST', POSTSALE_APP_API.register, undefined, { tenantId: TENANT, phone, smsCode: code, password: md5('x') })).status).toBe(400);
    expect((await app('POST', POSTSALE_APP_API.resetPassword, undefined, { tenantId: TENANT, phone, smsCode: code, password: md5('New#2026') })).status).toBe(200);
    expect((await app('POST', APP_API.token, undefined, { tenantId: TENANT, phone, password: md5('New#2026') })).status).toBe(200);
    const listed = await h.call<{ records: Row[] }>('GET', `${POSTSALE_USER_PATH}/list`, { token: admin, query: { phone } });
    expect(listed.body.data.records[0]!.passwordReset).toBe(0);
    // a reset of a phone nobody registered
    const nobody = await app('POST', POSTSALE_APP_API.smsCode, undefined, { tenantId: TENANT, phone: newPhone(), purpose: 'reset' }, 'en');
    expect(nobody.body.msg).toContain('is not registered');
  });

  it('disabling a user ends their app session at once; the console cannot create app users', async () => {
    const phone = newPhone();
    const token = await register(phone);
    const id = await userIdOf(phone);
    const off = await h.call('POST', `${POSTSALE_USER_PATH}/submit`, { token: admin, body: { id, status: 0 } });
    expect(off.status, off.body.msg).toBe(200);
    expect((await app('GET', POSTSALE_APP_API.devices, token)).status).toBe(401);
    expect((await app('POST', APP_API.token, undefined, { tenantId: TENANT, phone, password: md5('Lock#2026') })).status).toBe(400);
    // the screen has no add button, so no role holds its code: app users register in the app
    const made = await h.call('POST', `${POSTSALE_USER_PATH}/submit`, { token: admin, body: { phone: newPhone(), status: 1 }, lang: 'en' });
    expect(made.status).toBe(403);
  });

  it('answers under BladeX\'s other paths, and exports the users as a sheet', async () => {
    const phone = newPhone();
    await register(phone);
    const other = await h.call<{ records: Row[] }>('GET', '/api/ymy-user/users/list', { token: admin, query: { phone } });
    expect(other.status).toBe(200);
    expect(other.body.data.records.map((r) => r.phone)).toEqual([phone]);
    const file = await h.server.app.inject({ method: 'GET', url: `${POSTSALE_USER_PATH}/export-user?phone=${phone}`, headers: { 'blade-auth': `bearer ${admin}`, authorization: 'Basic c2FiZXI6c2FiZXJfc2VjcmV0' } });
    expect(file.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const rows = book.worksheets[0]!.getSheetValues().filter(Boolean) as unknown[][];
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain(phone);
  });
});

describe('locks and members', () => {
  it('the owner binds a lock by SN; one owner per lock; members are shared by the owner; unbinding the owner unbinds the members', async () => {
    const [owner, member, stranger] = [newPhone(), newPhone(), newPhone()];
    const [ownerToken, memberToken, strangerToken] = [await register(owner), await register(member), await register(stranger)];
    const sn = fleet.devices[0]!.sn;
    expect((await app('POST', POSTSALE_APP_API.bind, ownerToken, { deviceSn: sn.toLowerCase(), nickname: '前门' })).status).toBe(200);
    const taken = await app('POST', POSTSALE_APP_API.bind, strangerToken, { deviceSn: sn }, 'en');
    expect(taken.status).toBe(400);
    expect(taken.body.msg).toContain('already bound by another user');
    // only the owner shares
    expect((await app('POST', POSTSALE_APP_API.share, strangerToken, { deviceSn: sn, phone: member })).status).toBe(400);
    expect((await app('POST', POSTSALE_APP_API.share, ownerToken, { deviceSn: sn, phone: owner })).status).toBe(400);
    expect((await app('POST', POSTSALE_APP_API.share, ownerToken, { deviceSn: sn, phone: member })).status).toBe(200);
    expect((await app('POST', POSTSALE_APP_API.share, memberToken, { deviceSn: sn, phone: stranger })).status).toBe(400);
    const mine = await app<Array<Row & { members: Row[] }>>('GET', POSTSALE_APP_API.devices, ownerToken);
    expect(mine.body.data).toEqual([expect.objectContaining({ deviceSn: sn, role: 'owner', nickname: '前门', productId: fleet.productId })]);
    expect(mine.body.data[0]!.members.map((m) => m.phone)).toEqual([member]);
    const theirs = await app<Row[]>('GET', POSTSALE_APP_API.devices, memberToken);
    expect(theirs.body.data).toEqual([expect.objectContaining({ deviceSn: sn, role: 'member', members: [] })]);
    // the console sees both bindings, with the user's phone and the product's name
    const listed = await h.call<{ records: Row[] }>('GET', `${POSTSALE_DEVICE_PATH}/list`, { token: admin, query: { deviceSn_likeright: sn } });
    expect(listed.body.data.records.map((r) => [r.role, r.appUserIdName]).sort()).toEqual([['member', member], ['owner', owner]]);
    expect(listed.body.data.records[0]!.productIdName).toBeTruthy();
    // the owner lets go: the member goes with them
    expect((await app('POST', POSTSALE_APP_API.unbind, ownerToken, { deviceSn: sn })).status).toBe(200);
    expect((await app<Row[]>('GET', POSTSALE_APP_API.devices, memberToken)).body.data).toEqual([]);
    expect((await app('POST', POSTSALE_APP_API.unbind, ownerToken, { deviceSn: sn }, 'en')).body.msg).toContain('do not hold the lock');
  });

  it('a lock of another tenant, or no lock at all, is refused; of two owners binding at once exactly one wins', async () => {
    const [a, b] = [await register(newPhone()), await register(newPhone())];
    const foreign = await app('POST', POSTSALE_APP_API.bind, a, { deviceSn: otherFleet.devices[0]!.sn }, 'en');
    expect(foreign.status).toBe(400);
    expect(foreign.body.msg).toContain('does not exist or is not one of this brand');
    expect((await app('POST', POSTSALE_APP_API.bind, a, { deviceSn: 'NOPE0000' })).status).toBe(400);
    const sn = fleet.devices[1]!.sn;
    const raced = await Promise.all([app('POST', POSTSALE_APP_API.bind, a, { deviceSn: sn }), app('POST', POSTSALE_APP_API.bind, b, { deviceSn: sn })]);
    expect(raced.map((r) => r.status).sort()).toEqual([200, 400]);
    const owners = await h.call<{ records: Row[] }>('GET', `${POSTSALE_DEVICE_PATH}/list`, { token: admin, query: { deviceSn_likeright: sn, role: 'owner' } });
    expect(owners.body.data.records).toHaveLength(1);
  });

  it('the console binds for an owner under the same rules, and its unbinding of an owner takes the members too', async () => {
    const [owner, member] = [newPhone(), newPhone()];
    const memberToken = await register(member);
    await register(owner);
    const [ownerId, memberId] = [await userIdOf(owner), await userIdOf(member)];
    const sn = fleet.devices[2]!.sn;
    const early = await h.call('POST', `${POSTSALE_DEVICE_PATH}/submit`, { token: admin, body: { deviceSn: sn, appUserId: memberId, role: 'member' }, lang: 'en' });
    expect(early.status).toBe(400);
    expect(early.body.msg).toContain('needs an owner');
    const bound = await h.call<Row>('POST', `${POSTSALE_DEVICE_PATH}/submit`, { token: admin, body: { deviceSn: sn, appUserId: ownerId, role: 'owner' } });
    expect(bound.status, bound.body.msg).toBe(200);
    expect((await h.call('POST', `${POSTSALE_DEVICE_PATH}/submit`, { token: admin, body: { deviceSn: sn, appUserId: memberId, role: 'member' } })).status).toBe(200);
    expect((await h.call('POST', `${POSTSALE_DEVICE_PATH}/submit`, { token: admin, body: { deviceSn: sn, appUserId: memberId, role: 'owner' } })).status).toBe(400);
    expect((await app<Row[]>('GET', POSTSALE_APP_API.devices, memberToken)).body.data).toHaveLength(1);
    const removed = await h.call('POST', `${POSTSALE_DEVICE_PATH}/remove`, { token: admin, query: { ids: bound.body.data.id } });
    expect(removed.status, removed.body.msg).toBe(200);
    expect((await app<Row[]>('GET', POSTSALE_APP_API.devices, memberToken)).body.data).toEqual([]);
  });

  it('a batch whose locks are bound in the app is not removed: the refusal names the bound locks', async () => {
    // a batch not burned nor delivered (either refuses its removal already): its locks are the platform's, bound by an
    // app user of the platform's own app
    const [{ factory_id: factoryId }] = ((await h.server.ctx.db.execute(sql`select factory_id from ymy_batch where id = ${fleet.batchId}::bigint`)) as unknown as { rows: Array<{ factory_id: string }> }).rows as [{ factory_id: string }];
    const made = await h.call<Row>('POST', crudPaths(batchResource).submit, {
      token: platform, body: { batchNo: `PB${Date.now() % 1e6}`, factoryId: String(factoryId), productId: fleet.productId, cloudVendor: 1, quantity: 2, snPrefix: 'PBX' },
    });
    expect(made.status, made.body.msg).toBe(200);
    const small = { batchId: made.body.data.id, devices: [{ sn: String(made.body.data.snStart) }, { sn: String(made.body.data.snStart) }] };
    const platformApp = appSide(h, '000000');
    platformApp.listen();
    let token: string;
    try {
      token = await platformApp.register(newPhone());
    } finally {
      side.listen();
    }
    expect((await app('POST', POSTSALE_APP_API.bind, token, { deviceSn: small.devices[1]!.sn })).status).toBe(200);
    const refused = await h.call('POST', crudPaths(batchResource).remove, { token: platform, query: { ids: small.batchId }, lang: 'en' });
    expect(refused.status, refused.body.msg).toBe(409);
    expect(refused.body.msg).toContain(small.devices[1]!.sn);
    const impact = await h.call<{ refused: boolean; message: string }>('GET', removeImpactPath(batchResource), { token: platform, query: { ids: small.batchId } });
    expect(impact.status).toBe(200);
    expect(impact.body.data.refused).toBe(true);
    // unbound, the batch goes
    expect((await app('POST', POSTSALE_APP_API.unbind, token, { deviceSn: small.devices[1]!.sn })).status).toBe(200);
    const removed = await h.call('POST', crudPaths(batchResource).remove, { token: platform, query: { ids: small.batchId } });
    expect(removed.status, removed.body.msg).toBe(200);
  });

  it('removing an app user removes their bindings and their locks\' members; their feedback stays', async () => {
    const [owner, member] = [newPhone(), newPhone()];
    const [ownerToken, memberToken] = [await register(owner), await register(member)];
    const sn = fleet.devices[3]!.sn;
    await app('POST', POSTSALE_APP_API.bind, ownerToken, { deviceSn: sn });
    await app('POST', POSTSALE_APP_API.share, ownerToken, { deviceSn: sn, phone: member });
    const sentFeedback = await app<{ id: string }>('POST', POSTSALE_APP_API.feedbackSubmit, ownerToken, { content: '门锁离线' });
    const impact = await h.call<{ refused: boolean; uses: Row[] }>('GET', `${POSTSALE_USER_PATH}/remove-impact`, { token: admin, query: { ids: await userIdOf(owner) } });
    expect(impact.body.data.refused).toBe(false);
    expect((await h.call('POST', `${POSTSALE_USER_PATH}/remove`, { token: admin, query: { ids: await userIdOf(owner) } })).status).toBe(200);
    const left = await h.call<{ records: Row[] }>('GET', `${POSTSALE_DEVICE_PATH}/list`, { token: admin, query: { deviceSn_likeright: sn } });
    expect(left.body.data.records).toEqual([]);
    expect((await app<Row[]>('GET', POSTSALE_APP_API.devices, memberToken)).body.data).toEqual([]);
    const kept = await h.call<Row>('GET', `${FEEDBACK_PATH}/detail`, { token: admin, query: { id: sentFeedback.body.data.id } });
    expect(kept.status).toBe(200);
    expect(kept.body.data.content).toBe('门锁离线');
  });
});

describe('service records', () => {
  it('take, then finish a replacement: the bindings move to the new lock; an ended record can no longer change', async () => {
    const [owner, member] = [newPhone(), newPhone()];
    const [ownerToken, memberToken] = [await register(owner), await register(member)];
    const [oldSn, newSn] = [fleet.devices[4]!.sn, fleet.devices[5]!.sn];
    await app('POST', POSTSALE_APP_API.bind, ownerToken, { deviceSn: oldSn });
    await app('POST', POSTSALE_APP_API.share, ownerToken, { deviceSn: oldSn, phone: member });
    const made = await h.call<Row>('POST', `${POSTSALE_RECORD_PATH}/submit`, { token: admin, body: { deviceSn: oldSn, kind: 'replace', description: '电机损坏' } });
    expect(made.status, made.body.msg).toBe(200);
    const id = made.body.data.id;
    const detail = await h.call<Row>('GET', `${POSTSALE_RECORD_PATH}/detail`, { token: admin, query: { id } });
    expect(detail.body.data).toMatchObject({ state: 0, appUserIdName: owner });
    expect((await h.call('POST', `${POSTSALE_RECORD_PATH}/finish`, { token: admin, query: { id } })).status).toBe(400);
    expect((await h.call('POST', `${POSTSALE_RECORD_PATH}/accept`, { token: admin, query: { id } })).status).toBe(200);
    expect((await h.call('POST', `${POSTSALE_RECORD_PATH}/accept`, { token: admin, query: { id } })).status).toBe(400);
    const noSn = await h.call('POST', `${POSTSALE_RECORD_PATH}/finish`, { token: admin, query: { id }, lang: 'en' });
    expect(noSn.status).toBe(400);
    expect(noSn.body.msg).toContain('new lock\'s SN first');
    expect((await h.call('POST', `${POSTSALE_RECORD_PATH}/submit`, { token: admin, body: { id, newDeviceSn: oldSn } })).status).toBe(400);
    expect((await h.call('POST', `${POSTSALE_RECORD_PATH}/submit`, { token: admin, body: { id, newDeviceSn: newSn.toLowerCase() } })).status).toBe(200);
    const done = await h.call('POST', `${POSTSALE_RECORD_PATH}/finish`, { token: admin, query: { id } });
    expect(done.status, done.body.msg).toBe(200);
    expect((await app<Row[]>('GET', POSTSALE_APP_API.devices, ownerToken)).body.data).toEqual([expect.objectContaining({ deviceSn: newSn, role: 'owner' })]);
    expect((await app<Row[]>('GET', POSTSALE_APP_API.devices, memberToken)).body.data).toEqual([expect.objectContaining({ deviceSn: newSn, role: 'member' })]);
    const ended = await h.call<Row>('GET', `${POSTSALE_RECORD_PATH}/detail`, { token: admin, query: { id } });
    expect(ended.body.data).toMatchObject({ state: 2, handlerName: expect.any(String) });
    expect(ended.body.data.closedTime).toBeTruthy();
    expect((await h.call('POST', `${POSTSALE_RECORD_PATH}/close`, { token: admin, query: { id } })).status).toBe(400);
    expect((await h.call('POST', `${POSTSALE_RECORD_PATH}/submit`, { token: admin, body: { id, result: '已更换' } })).status).toBe(400);
  });

  it('a record names a lock of the tenant; a consultation closes without finishing', async () => {
    const foreign = await h.call('POST', `${POSTSALE_RECORD_PATH}/submit`, { token: admin, body: { deviceSn: otherFleet.devices[0]!.sn, kind: 'consult', description: '?' } });
    expect(foreign.status).toBe(400);
    const bare = await h.call('POST', `${POSTSALE_RECORD_PATH}/submit`, { token: admin, body: { deviceSn: fleet.devices[0]!.sn }, lang: 'en' });
    expect(bare.status).toBe(400);
    expect(Object.keys(bare.body.data as Row).sort()).toEqual(['description', 'kind']);
    const unknown = await h.call('POST', `${POSTSALE_RECORD_PATH}/submit`, { token: admin, body: { deviceSn: fleet.devices[0]!.sn, kind: 'teleport', description: '?' }, lang: 'en' });
    expect(unknown.status).toBe(400);
    expect(Object.keys(unknown.body.data as Row)).toEqual(['kind']);
    // its state moves by the actions only: what a submit sends for it is dropped
    const made = await h.call<Row>('POST', `${POSTSALE_RECORD_PATH}/submit`, { token: admin, body: { deviceSn: fleet.devices[0]!.sn, kind: 'consult', description: '如何添加指纹', state: 2 } });
    expect(made.body.data.state).toBe(0);
    expect((await h.call<Row>('POST', `${POSTSALE_RECORD_PATH}/submit`, { token: admin, body: { id: made.body.data.id, state: 3 } })).body.data.state).toBe(0);
    expect((await h.call('POST', `${POSTSALE_RECORD_PATH}/close`, { token: admin, query: { id: made.body.data.id } })).status).toBe(200);
    const other = await h.call<{ records: Row[] }>('GET', `${POSTSALE_RECORD_PATH}/list`, { token: platform });
    expect(other.body.data.records.map((r) => r.id)).not.toContain(made.body.data.id);
    expect((await h.call('POST', `${POSTSALE_RECORD_PATH}/close`, { token: platform, query: { id: made.body.data.id } })).status).toBe(404);
  });
});

describe('feedback', () => {
  it('from the app with images; replied in the console (it moves to replied), read back by the app; closed explicitly', async () => {
    const phone = newPhone();
    const token = await register(phone);
    const bad = await app('POST', POSTSALE_APP_API.feedbackSubmit, token, { content: 'x', images: 'javascript:alert(1)' }, 'en');
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('An image must be');
    const many = await app('POST', POSTSALE_APP_API.feedbackSubmit, token, { content: 'x', images: Array.from({ length: 10 }, (_, i) => `https://img.example/${i}.jpg`) });
    expect(many.status).toBe(400);
    const made = await app<{ id: string }>('POST', POSTSALE_APP_API.feedbackSubmit, token, {
      content: '开锁很慢', kind: 'fault', images: ['https://img.example/1.jpg', '/files/abc/2.jpg'], deviceSn: fleet.devices[0]!.sn.toLowerCase(), appVersion: '3.2.1',
    });
    expect(made.status, made.body.msg).toBe(200);
    const id = made.body.data.id;
    const listed = await h.call<{ records: Row[] }>('GET', `${FEEDBACK_PATH}/list`, { token: admin, query: { phone } });
    expect(listed.body.data.records).toEqual([expect.objectContaining({ id, state: 0, kind: 'fault', deviceSn: fleet.devices[0]!.sn, appVersion: '3.2.1', replyCount: 0 })]);
    const reply = await h.call('POST', `${FEEDBACK_REPLY_PATH}/submit`, { token: admin, body: { feedbackId: id, content: '请更新固件到 2.0' } });
    expect(reply.status, reply.body.msg).toBe(200);
    const replies = await h.call<{ records: Row[] }>('GET', `${FEEDBACK_REPLY_PATH}/list`, { token: admin, query: { feedbackId: id } });
    expect(replies.body.data.records).toEqual([expect.objectContaining({ content: '请更新固件到 2.0', replierName: expect.any(String) })]);
    const read = await app<Row & { replies: Row[]; images: string[] }>('GET', POSTSALE_APP_API.feedbackDetail, token, { id });
    expect(read.body.data).toMatchObject({ state: 1, images: ['https://img.example/1.jpg', '/files/abc/2.jpg'], replies: [{ content: '请更新固件到 2.0' }] });
    expect((await app<Row[]>('GET', POSTSALE_APP_API.feedbackList, token)).body.data.map((f) => f.id)).toEqual([id]);
    // another user of the app does not read it
    const other = await register(newPhone());
    expect((await app('GET', POSTSALE_APP_API.feedbackDetail, other, { id })).status).toBe(404);
    expect((await h.call('POST', `${FEEDBACK_PATH}/close`, { token: admin, query: { id } })).status).toBe(200);
    const late = await h.call('POST', `${FEEDBACK_REPLY_PATH}/submit`, { token: admin, body: { feedbackId: id, content: '补充' }, lang: 'en' });
    expect(late.status).toBe(400);
    expect(late.body.msg).toContain('This feedback is closed');
    expect((await h.call('POST', `${FEEDBACK_PATH}/close`, { token: admin, query: { id } })).status).toBe(400);
    // another tenant neither lists nor replies
    expect((await h.call<{ records: Row[] }>('GET', `${FEEDBACK_PATH}/list`, { token: platform })).body.data.records.map((r) => r.id)).not.toContain(id);
    expect((await h.call('POST', `${FEEDBACK_REPLY_PATH}/submit`, { token: platform, body: { feedbackId: id, content: '!' } })).status).toBe(400);
  });

  it('app calls need an app token: a console token does not stand for one', async () => {
    expect((await app('GET', POSTSALE_APP_API.devices, undefined)).status).toBe(401);
    expect((await app('GET', POSTSALE_APP_API.devices, admin)).status).toBe(401);
    expect((await app('POST', POSTSALE_APP_API.feedbackSubmit, admin, { content: 'x' })).status).toBe(401);
  });
});

describe('permissions', () => {
  it('a user without the after-sales menus is refused every call', async () => {
    await h.createUser(TENANT, 'ps_plain', 'Plain#2026', ['user']);
    const plain = (await h.login(TENANT, 'ps_plain', 'Plain#2026')).access_token;
    for (const [method, url] of [
      ['GET', `${POSTSALE_USER_PATH}/list`], ['POST', `${POSTSALE_USER_PATH}/reset-pass?id=1`], ['GET', `${POSTSALE_USER_PATH}/export-user`],
      ['GET', `${POSTSALE_DEVICE_PATH}/list`], ['POST', `${POSTSALE_RECORD_PATH}/accept?id=1`], ['GET', `${FEEDBACK_PATH}/list`],
      ['POST', `${FEEDBACK_REPLY_PATH}/submit`], ['POST', `${FEEDBACK_PATH}/close?id=1`],
    ] as const) {
      const res = await h.call(method, url, { token: plain, body: method === 'POST' ? {} : undefined });
      expect(res.status, `${method} ${url}`).toBe(403);
    }
  });
});
