import { formatMoney } from '@console/contract';
import { POSTSALE_APP_API, POSTSALE_RECORD_PATH } from '@console/contract/areas/postsale/index';
import { PAYMENT_SETTING_PATH, TC_PAYMENT_OPTION_PATH } from '@console/contract/areas/setting/index';
import { PAY_NOTIFY_PATH, STORAGE_APP_API, STORAGE_ORDER_PATH, STORAGE_PRICE_PATH, TC_STORAGE_ORDER_PATH } from '@console/contract/areas/storage/index';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTenant } from '../src/core/db/index.js';
import { formatDateTime } from '../src/core/time.js';
import { addMonths } from '../src/areas/storage/period.js';
import { appSide } from './app-users.js';
import { deliverFleet, type Fleet, makeFleet } from './device-fixture.js';
import { useServer } from './harness.js';
import { type PaymentStandIn, startPaymentStandIn } from './payment-standin.js';

/**
 * Cloud storage and payment (issue 28): plans priced in minor units, orders placed in the app and paid through
 * WeChat Pay (API v3) and Alipay against an in-process stand-in of their APIs with keys made here; notifications
 * verified, credited once, refused when forged or not what was ordered; transfers between an owner's locks, one
 * winner of two at once; payment settings sealed and masked everywhere; another tenant, no permission.
 */
type Row = Record<string, unknown> & { id: string };
const TENANT = '541742';
const h = useServer();
const side = appSide(h, TENANT);
let admin: string;
let platform: string;
let stand: PaymentStandIn;
let fleet: Fleet;
let owner: string;
let ownerToken: string;
let planId: string;
const lockA = () => fleet.devices[0]!.sn;
const lockB = () => fleet.devices[1]!.sn;
const lockC = () => fleet.devices[2]!.sn;

async function settingRow(channel: string, token = admin): Promise<Row> {
  const res = await h.call<{ records: Row[] }>('GET', `${PAYMENT_SETTING_PATH}/list`, { token });
  return res.body.data.records.find((r) => r.channel === channel)!;
}

async function placeOrder(payChannel: 'wechat' | 'alipay', deviceSn = lockA(), token = ownerToken) {
  return side.call<{ orderNo: string; amount: number; currency: string; payment: Row }>('POST', STORAGE_APP_API.placeOrder, token, { priceId: planId, deviceSn, payChannel });
}

async function orderRow(orderNo: string): Promise<Row> {
  const res = await h.call<{ records: Row[] }>('GET', `${STORAGE_ORDER_PATH}/list`, { token: admin, query: { orderNo } });
  return res.body.data.records.find((r) => r.orderNo === orderNo)!;
}

const notify = (channel: 'wechat' | 'alipay', notice: { headers: Record<string, string>; rawBody: string }, tenantId = TENANT) =>
  h.server.app.inject({ method: 'POST', url: `${PAY_NOTIFY_PATH}/${channel}/${tenantId}`, headers: notice.headers, payload: notice.rawBody });

/** places a WeChat order and pays it through the stand-in's notification; answers the order */
async function paidOrder(deviceSn = lockA()): Promise<Row> {
  const placed = await placeOrder('wechat', deviceSn);
  expect(placed.status, placed.body.msg).toBe(200);
  const res = await notify('wechat', stand.wechatNotice({ orderNo: placed.body.data.orderNo, amount: 1990 }));
  expect(res.statusCode, res.body).toBe(200);
  return orderRow(placed.body.data.orderNo);
}

beforeAll(async () => {
  stand = await startPaymentStandIn();
  h.server.ctx.config.paymentEndpoints.wechat = stand.baseUrl;
  h.server.ctx.config.paymentEndpoints.alipay = stand.gateway;
  admin = (await h.login(TENANT, 'admin', 'admin')).access_token;
  platform = (await h.login('000000', 'admin', 'admin')).access_token;
  side.listen();
  fleet = await makeFleet(h, platform, { count: 4, tag: 'st' });
  await deliverFleet(h, platform, fleet, TENANT, 3);
  owner = side.newPhone();
  ownerToken = await side.register(owner);
  for (const sn of [lockA(), lockB()]) expect((await side.call('POST', POSTSALE_APP_API.bind, ownerToken, { deviceSn: sn })).status).toBe(200);
  const plan = await h.call<Row>('POST', `${STORAGE_PRICE_PATH}/submit`, {
    token: admin, body: { planName: '月卡 7 天循环', productTypeId: fleet.typeId, months: 1, storageDays: 7, price: 1990, originalPrice: 2990, currency: 'CNY' },
  });
  expect(plan.status, plan.body.msg).toBe(200);
  planId = plan.body.data.id;
  const w = stand.wechat;
  const saved = await h.call('POST', `${PAYMENT_SETTING_PATH}/submit`, {
    token: admin,
    body: { id: (await settingRow('wechat')).id, enabled: 1, appId: w.appId, mchId: w.mchId, apiKey: w.apiV3Key, certSerial: w.merchantSerial, privateKey: w.merchantPrivateKey, merchantCert: w.merchantCert, publicKey: w.platformCert },
  });
  expect(saved.status, saved.body.msg).toBe(200);
  const a = stand.alipay;
  const alipay = await h.call('POST', `${PAYMENT_SETTING_PATH}/submit`, {
    token: admin, body: { id: (await settingRow('alipay')).id, enabled: 1, appId: a.appId, privateKey: a.appPrivateKey, publicKey: a.alipayPublicKey },
  });
  expect(alipay.status, alipay.body.msg).toBe(200);
});

afterAll(async () => {
  await stand?.close();
});

describe('plans', () => {
  it('are priced in minor units: a decimal or a negative amount is refused, the list answers integers', async () => {
    for (const price of [19.9, -1, '19.90', 2 ** 53]) {
      const res = await h.call('POST', `${STORAGE_PRICE_PATH}/submit`, { token: admin, body: { planName: 'x', productTypeId: fleet.typeId, months: 1, storageDays: 1, price, currency: 'CNY' }, lang: 'en' });
      expect(res.status, `price ${price}`).toBe(400);
      expect(Object.keys(res.body.data as Row)).toContain('price');
    }
    const list = await h.call<{ records: Row[] }>('GET', `${STORAGE_PRICE_PATH}/list`, { token: admin });
    expect(list.body.data.records.find((r) => r.id === planId)).toMatchObject({ price: 1990, originalPrice: 2990, currency: 'CNY', months: 1, storageDays: 7 });
    const plans = await side.call<Row[]>('GET', STORAGE_APP_API.plans, ownerToken, { deviceSn: lockA() });
    expect(plans.body.data).toEqual([expect.objectContaining({ id: planId, price: 1990, priceText: '19.90' })]);
  });
});

describe('payment settings', () => {
  it('are sealed at rest and masked in every answer: no call answers a seeded secret', async () => {
    const secrets = [stand.wechat.apiV3Key, stand.wechat.merchantPrivateKey.split('\n')[1]!, stand.alipay.appPrivateKey.split('\n')[1]!];
    const answers = await Promise.all([
      h.call('GET', `${PAYMENT_SETTING_PATH}/list`, { token: admin }),
      h.call('GET', `${PAYMENT_SETTING_PATH}/detail`, { token: admin, query: { id: (await settingRow('wechat')).id } }),
      h.call('GET', PAYMENT_SETTING_PATH, { token: admin }),
      h.call('GET', TC_PAYMENT_OPTION_PATH, { token: admin }),
      h.call('GET', `${PAYMENT_SETTING_PATH}/list`, { token: platform }),
    ]);
    for (const a of answers) {
      expect(a.status).toBe(200);
      for (const s of secrets) expect(JSON.stringify(a.body)).not.toContain(s);
    }
    expect((answers[2]!.body.data as Row[]).find((r) => r.channel === 'wechat')).toMatchObject({ apiKey: '******', privateKey: '******', enabled: 1 });
    const stored = await inTenant(h.server.ctx.db, { tenantId: TENANT }, (tx) => tx.execute(sql`select api_key, private_key from ymy_payment_setting where channel = 'wechat'`));
    const row = (stored as unknown as { rows: Array<{ api_key: string; private_key: string }> }).rows[0]!;
    expect(row.api_key).not.toContain(stand.wechat.apiV3Key);
    expect(row.private_key).not.toContain('PRIVATE KEY');
    // another tenant's rows are its own: not enabled, nothing of these
    expect((answers[4]!.body.data as { records: Row[] }).records.map((r) => [r.channel, r.enabled, r.appId ?? ''])).toEqual([['wechat', 0, ''], ['alipay', 0, '']]);
  });

  it('refuse a key that does not parse, a short APIv3 key and a key of the other pair, naming the field; keep the stored ones', async () => {
    const id = (await settingRow('wechat')).id;
    const bad = await h.call('POST', `${PAYMENT_SETTING_PATH}/submit`, { token: admin, body: { id, privateKey: '-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----', apiKey: 'short' }, lang: 'en' });
    expect(bad.status).toBe(400);
    expect(bad.body.data).toMatchObject({ privateKey: expect.stringContaining('does not parse'), apiKey: expect.stringContaining('32 characters') });
    const mismatch = await h.call('POST', `${PAYMENT_SETTING_PATH}/submit`, { token: admin, body: { id, privateKey: stand.alipay.appPrivateKey }, lang: 'en' });
    expect(mismatch.status).toBe(400);
    // a save that sends the mask keeps the keys: payment still works
    expect((await h.call('POST', `${PAYMENT_SETTING_PATH}/submit`, { token: admin, body: { id, apiKey: '******', privateKey: '******', mchId: stand.wechat.mchId } })).status).toBe(200);
    expect((await placeOrder('wechat')).status).toBe(200);
  });
});

describe('payment settings through BladeX\'s calls', () => {
  it('save one channel by its name (the engine\'s checks, the keys kept) and read every channel masked, under both prefixes', async () => {
    const saved = await h.call('POST', TC_PAYMENT_OPTION_PATH, { token: admin, body: { channel: 'wechat', mchId: stand.wechat.mchId, apiKey: '******' } });
    expect(saved.status, saved.body.msg).toBe(200);
    const bad = await h.call('POST', PAYMENT_SETTING_PATH, { token: admin, body: { channel: 'wechat', apiKey: 'short' }, lang: 'en' });
    expect(bad.status).toBe(400);
    expect(bad.body.data).toMatchObject({ apiKey: expect.stringContaining('32 characters') });
    expect((await h.call('POST', PAYMENT_SETTING_PATH, { token: admin, body: { channel: 'paypal' } })).status).toBe(400);
    const read = await h.call<Row[]>('GET', TC_PAYMENT_OPTION_PATH, { token: admin });
    expect(read.body.data.map((r) => [r.channel, r.apiKey === '' || r.apiKey === '******'])).toEqual([['alipay', true], ['wechat', true]]);
    expect((await placeOrder('wechat')).status).toBe(200);
  });
});

describe('orders and payment', () => {
  it('WeChat Pay: the app gets a prepay request signed for the app; the notification pays the order for its months, once', async () => {
    const before = stand.prepayRequests.length;
    const placed = await placeOrder('wechat');
    expect(placed.status, placed.body.msg).toBe(200);
    const { orderNo, payment } = placed.body.data;
    expect(placed.body.data).toMatchObject({ amount: 1990, currency: 'CNY', payment: { channel: 'wechat', package: 'Sign=WXPay', partnerId: stand.wechat.mchId } });
    expect(payment.prepayId).toBeTruthy();
    const prepay = stand.prepayRequests.slice(before);
    expect(prepay).toHaveLength(1);
    expect(prepay[0]!.verified).toBe(true);
    expect(JSON.parse(prepay[0]!.rawBody)).toMatchObject({ out_trade_no: orderNo, amount: { total: 1990, currency: 'CNY' }, notify_url: expect.stringContaining(`${PAY_NOTIFY_PATH}/wechat/${TENANT}`) });
    expect(await orderRow(orderNo)).toMatchObject({ payState: 'unpaid', amount: 1990, deviceSn: lockA(), appUserIdName: owner, planName: '月卡 7 天循环' });

    const notice = stand.wechatNotice({ orderNo, amount: 1990, transactionId: `4200${Date.now()}` });
    const res = await notify('wechat', notice);
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'SUCCESS' });
    const paid = await orderRow(orderNo);
    expect(paid).toMatchObject({ payState: 'paid', payChannel: 'wechat' });
    expect(paid.endTime).toBe(formatDateTime(addMonths(new Date(`${String(paid.startTime).replace(' ', 'T')}+08:00`), 1)));
    // the same notice again (WeChat resends until answered): nothing changes, one payment in the history
    expect((await notify('wechat', notice)).statusCode).toBe(200);
    expect(await orderRow(orderNo)).toEqual(paid);
    const detail = await h.call<{ order: Row; events: Row[] }>('GET', `${STORAGE_ORDER_PATH}/order-detail`, { token: admin, query: { id: paid.id } });
    expect(detail.body.data.events.map((e) => e.action)).toEqual(['created', 'paid']);
    expect(JSON.stringify(detail.body)).not.toContain('tokenHash');
  });

  it('refuses a forged, a tampered, a stale and an underpaid notification, and one for an order it does not have; nothing changes', async () => {
    const { orderNo } = (await placeOrder('wechat')).body.data;
    const forged = await notify('wechat', stand.wechatNotice({ orderNo, amount: 1990 }, { forge: true }));
    expect(forged.statusCode).toBe(400);
    expect(JSON.parse(forged.body)).toMatchObject({ code: 'FAIL' });
    const good = stand.wechatNotice({ orderNo, amount: 1990 });
    expect((await notify('wechat', { headers: good.headers, rawBody: good.rawBody.replace('"', ' "') })).statusCode).toBe(400);
    expect((await notify('wechat', stand.wechatNotice({ orderNo, amount: 1990 }, { timestamp: Math.floor(Date.now() / 1000) - 3600 }))).statusCode).toBe(400);
    expect((await notify('wechat', stand.wechatNotice({ orderNo, amount: 1 }))).statusCode).toBe(400);
    expect((await notify('wechat', stand.wechatNotice({ orderNo: 'SO1', amount: 1990 }))).statusCode).toBe(400);
    // to another tenant's address: its settings are not these
    expect((await notify('wechat', good, '000000')).statusCode).toBe(400);
    expect((await notify('wechat', { headers: { 'content-type': 'application/json' }, rawBody: '{"x":' })).statusCode).toBe(400);
    expect(await orderRow(orderNo)).toMatchObject({ payState: 'unpaid', payTime: null });
    // the genuine one still pays it
    expect((await notify('wechat', good)).statusCode).toBe(200);
    expect((await orderRow(orderNo)).payState).toBe('paid');
  });

  it('Alipay: an order string for the exact yuan amount; its notification pays the order, a forged one is refused', async () => {
    const placed = await placeOrder('alipay');
    expect(placed.status, placed.body.msg).toBe(200);
    const orderString = String(placed.body.data.payment.orderString);
    const biz = JSON.parse(new URLSearchParams(orderString).get('biz_content')!);
    expect(biz).toMatchObject({ out_trade_no: placed.body.data.orderNo, total_amount: formatMoney(1990, 'CNY') });
    const { orderNo } = placed.body.data;
    const forged = await notify('alipay', stand.alipayNotice({ orderNo, amount: 1990 }, { forge: true }));
    expect(forged.body).toBe('failure');
    expect((await notify('alipay', stand.alipayNotice({ orderNo, totalAmount: '19.901' }))).body).toBe('failure');
    const ok = await notify('alipay', stand.alipayNotice({ orderNo, amount: 1990 }));
    expect(ok.body).toBe('success');
    expect(await orderRow(orderNo)).toMatchObject({ payState: 'paid', payChannel: 'alipay' });
  });

  it('a renewal starts when the running period ends', async () => {
    const first = await paidOrder(lockB());
    const second = await paidOrder(lockB());
    expect(second.startTime).toBe(first.endTime);
  });

  it('refuses an order for a lock the caller does not own, a plan of another product type, a channel not set up', async () => {
    const stranger = await side.register(side.newPhone());
    const res = await placeOrder('wechat', lockA(), stranger);
    expect(res.status).toBe(400);
    const other = await makeFleet(h, platform, { count: 1, tag: 'so' });
    await deliverFleet(h, platform, other, TENANT);
    expect((await side.call('POST', POSTSALE_APP_API.bind, stranger, { deviceSn: other.devices[0]!.sn })).status).toBe(200);
    const wrongType = await placeOrder('wechat', other.devices[0]!.sn, stranger);
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.msg).toContain('不适用于');
    const id = (await settingRow('alipay')).id;
    expect((await h.call('POST', `${PAYMENT_SETTING_PATH}/submit`, { token: admin, body: { id, enabled: 0 } })).status).toBe(200);
    try {
      const off = await side.call('POST', STORAGE_APP_API.placeOrder, ownerToken, { priceId: planId, deviceSn: lockA(), payChannel: 'alipay' }, 'en');
      expect(off.status).toBe(400);
      expect(off.body.msg).toContain('Alipay is not set up');
    } finally {
      await h.call('POST', `${PAYMENT_SETTING_PATH}/submit`, { token: admin, body: { id, enabled: 1 } });
    }
  });
});

describe('transfers', () => {
  it('move the remaining period to another lock of the same owner, audited; refused for a lock not the owner\'s', async () => {
    const order = await paidOrder(lockA());
    const foreign = await h.call('POST', `${STORAGE_ORDER_PATH}/order-transfer`, { token: admin, body: { id: order.id, deviceSn: lockC() }, lang: 'en' });
    expect(foreign.status).toBe(400);
    expect(foreign.body.msg).toContain('is not one the order\'s user owns');
    const same = await h.call('POST', `${STORAGE_ORDER_PATH}/order-transfer`, { token: admin, body: { id: order.id, deviceSn: lockA() } });
    expect(same.status).toBe(400);
    const moved = await h.call<{ deviceSn: string; endTime: string }>('POST', `${TC_STORAGE_ORDER_PATH}/order-transfer`, { token: admin, body: { id: order.id, deviceSn: lockB().toLowerCase() } });
    expect(moved.status, moved.body.msg).toBe(200);
    const after = await orderRow(String(order.orderNo));
    expect(after).toMatchObject({ deviceSn: lockB(), transferredFrom: lockA(), endTime: moved.body.data.endTime });
    const detail = await h.call<{ events: Row[] }>('GET', `${STORAGE_ORDER_PATH}/order-detail`, { token: admin, query: { id: order.id } });
    expect(detail.body.data.events.at(-1)).toMatchObject({ action: 'transferred', fromSn: lockA(), toSn: lockB() });
  });

  it('of two transfers of one order at once, exactly one wins', async () => {
    const order = await paidOrder(lockA());
    const both = await Promise.all([lockB(), lockB()].map((to, i) => h.call('POST', `${STORAGE_ORDER_PATH}/order-transfer`, {
      token: admin, body: { id: order.id, deviceSn: i === 0 ? to : lockB(), fromSn: lockA() },
    })));
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const detail = await h.call<{ events: Row[] }>('GET', `${STORAGE_ORDER_PATH}/order-detail`, { token: admin, query: { id: order.id } });
    expect(detail.body.data.events.filter((e) => e.action === 'transferred')).toHaveLength(1);
  });

  it('are refused for an unpaid or a refunded order', async () => {
    const unpaid = await placeOrder('wechat');
    const row = await orderRow(unpaid.body.data.orderNo);
    const res = await h.call('POST', `${STORAGE_ORDER_PATH}/order-transfer`, { token: admin, body: { id: row.id, deviceSn: lockB() }, lang: 'en' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain('is not paid');
    const paid = await paidOrder(lockA());
    await inTenant(h.server.ctx.db, { tenantId: TENANT }, (tx) => tx.execute(sql`update ymy_storage_order set pay_state = 'refunded' where id = ${paid.id}::bigint`));
    const refunded = await h.call('POST', `${STORAGE_ORDER_PATH}/order-transfer`, { token: admin, body: { id: paid.id, deviceSn: lockB() }, lang: 'en' });
    expect(refunded.body.msg).toContain('was refunded');
    // the console writes an order's remark, nothing else: not its state, amount, lock or period
    const edited = await h.call('POST', `${STORAGE_ORDER_PATH}/submit`, {
      token: admin, body: { id: row.id, remark: '客户来电确认', payState: 'paid', amount: 1, deviceSn: lockB(), endTime: '2099-01-01 00:00:00' },
    });
    expect(edited.status, edited.body.msg).toBe(200);
    expect(await orderRow(String(row.orderNo))).toMatchObject({ remark: '客户来电确认', payState: 'unpaid', amount: 1990, deviceSn: row.deviceSn, endTime: null });
    // a paid order is not removed; an unpaid one is
    expect((await h.call('POST', `${STORAGE_ORDER_PATH}/remove`, { token: admin, query: { ids: paid.id } })).status).toBe(400);
    expect((await h.call('POST', `${STORAGE_ORDER_PATH}/remove`, { token: admin, query: { ids: row.id } })).status).toBe(200);
  });

  it('a replaced lock takes its running plan to the new lock', async () => {
    const order = await paidOrder(lockA());
    const rec = await h.call<Row>('POST', `${POSTSALE_RECORD_PATH}/submit`, { token: admin, body: { deviceSn: lockA(), kind: 'replace', description: '换新', newDeviceSn: lockC() } });
    expect(rec.status, rec.body.msg).toBe(200);
    expect((await h.call('POST', `${POSTSALE_RECORD_PATH}/accept`, { token: admin, query: { id: rec.body.data.id } })).status).toBe(200);
    const done = await h.call('POST', `${POSTSALE_RECORD_PATH}/finish`, { token: admin, query: { id: rec.body.data.id } });
    expect(done.status, done.body.msg).toBe(200);
    expect(await orderRow(String(order.orderNo))).toMatchObject({ deviceSn: lockC(), transferredFrom: lockA() });
  });

  it('a token reset answers the new token once; the list and the detail never hold it', async () => {
    const order = await paidOrder(lockB());
    const res = await h.call<{ token: string }>('GET', `${STORAGE_ORDER_PATH}/reset-token`, { token: admin, query: { id: order.id } });
    expect(res.status).toBe(200);
    expect(res.body.data.token).toMatch(/^[\w-]{32}$/);
    const detail = await h.call('GET', `${STORAGE_ORDER_PATH}/order-detail`, { token: admin, query: { id: order.id } });
    expect(JSON.stringify(detail.body)).not.toContain(res.body.data.token);
  });
});

describe('tenants and permissions', () => {
  it('another tenant sees none of the orders or plans and cannot move one', async () => {
    const order = await paidOrder(lockB());
    const list = await h.call<{ records: Row[] }>('GET', `${STORAGE_ORDER_PATH}/list`, { token: platform });
    expect(list.body.data.records.map((r) => r.id)).not.toContain(order.id);
    expect((await h.call<{ records: Row[] }>('GET', `${STORAGE_PRICE_PATH}/list`, { token: platform })).body.data.records.map((r) => r.id)).not.toContain(planId);
    expect((await h.call('POST', `${STORAGE_ORDER_PATH}/order-transfer`, { token: platform, body: { id: order.id, deviceSn: lockA() } })).status).toBe(404);
  });

  it('a user without the menus is refused', async () => {
    await h.createUser(TENANT, 'st_plain', 'Plain#2026', ['user']);
    const plain = (await h.login(TENANT, 'st_plain', 'Plain#2026')).access_token;
    for (const [method, url] of [
      ['GET', `${STORAGE_ORDER_PATH}/list`], ['GET', `${STORAGE_PRICE_PATH}/list`], ['POST', `${STORAGE_ORDER_PATH}/order-transfer`],
      ['GET', `${STORAGE_ORDER_PATH}/reset-token?id=1`], ['GET', PAYMENT_SETTING_PATH], ['POST', `${PAYMENT_SETTING_PATH}/submit`],
    ] as const) {
      expect((await h.call(method, url, { token: plain, body: method === 'POST' ? {} : undefined })).status, `${method} ${url}`).toBe(403);
    }
  });
});
