import { createPrivateKey, createSign, createVerify, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '@console/contract';
import {
  createPayment,
  noticeAnswer,
  PaymentSettingsError,
  queryPayment,
  validateAlipay,
  validateWechat,
  verifyNotification,
  type AlipaySettings,
  type PaymentOrder,
  type WechatSettings,
} from '../src/areas/setting/payment/index.js';
import { alipaySignContent, makeCertificate, rsaKeyPair, startPaymentStandIn, type PaymentStandIn } from './payment-standin.js';

let standIn: PaymentStandIn;

beforeAll(async () => {
  standIn = await startPaymentStandIn();
});

afterAll(async () => {
  await standIn?.close();
});

function wechatSettings(over: Partial<WechatSettings> = {}): WechatSettings {
  return standIn.wechatSettings(over);
}

function alipaySettings(over: Partial<AlipaySettings> = {}): AlipaySettings {
  return standIn.alipaySettings(over);
}

let orderCounter = 0;
function order(over: Partial<PaymentOrder> = {}): PaymentOrder {
  orderCounter += 1;
  return { orderNo: `CS${Date.now()}${String(orderCounter).padStart(4, '0')}`, amount: 1234, currency: 'CNY', description: '云存储 30 天 / cloud storage', ...over };
}

/** Alipay's order string back into its fields (each value was encodeURIComponent'ed) */
function orderStringFields(orderString: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const part of orderString.split('&')) {
    const at = part.indexOf('=');
    fields[part.slice(0, at)] = decodeURIComponent(part.slice(at + 1));
  }
  return fields;
}

function beijingNow(): number {
  return Date.now() + 8 * 3600_000;
}

describe('WeChat Pay APP payment', () => {
  it('creates the prepay order through a request the stand-in verifies, amount in fen, and signs the app parameters', async () => {
    const before = standIn.prepayRequests.length;
    const expiresAt = new Date(Date.now() + 30 * 60_000);
    const o = order({ expiresAt });
    const req = await createPayment('wechat', wechatSettings(), o);

    expect(standIn.prepayRequests.length).toBe(before + 1);
    const seen = standIn.prepayRequests.at(-1)!;
    expect(seen.problem).toBeUndefined();
    expect(seen.verified).toBe(true);
    expect(seen.path).toBe('/v3/pay/transactions/app');
    expect(seen.headers.authorization).toMatch(/^WECHATPAY2-SHA256-RSA2048 mchid="1900000109",nonce_str="[^"]+",timestamp="\d+",serial_no="[0-9A-F]{40}",signature="[^"]+"$/);
    const body = JSON.parse(seen.rawBody) as Record<string, unknown>;
    expect(body.amount).toEqual({ total: 1234, currency: 'CNY' });
    expect(body).toMatchObject({ appid: standIn.wechat.appId, mchid: standIn.wechat.mchId, out_trade_no: o.orderNo, notify_url: wechatSettings().notifyUrl });
    expect(body.time_expire).toBe(`${new Date(expiresAt.getTime() + 8 * 3600_000).toISOString().slice(0, 19)}+08:00`);

    if (req.channel !== 'wechat') throw new Error('not a WeChat request');
    expect(req).toMatchObject({ appId: standIn.wechat.appId, partnerId: standIn.wechat.mchId, package: 'Sign=WXPay' });
    expect(req.prepayId).toMatch(/^wx[0-9a-f]{32}$/);
    expect(Math.abs(Number(req.timeStamp) - Date.now() / 1000)).toBeLessThan(60);
    // the app-side signature of WeChat's APP pay doc, checked with the merchant's public key
    const message = `${req.appId}\n${req.timeStamp}\n${req.nonceStr}\n${req.prepayId}\n`;
    expect(createVerify('RSA-SHA256').update(message).verify(standIn.wechat.merchantPublicKey, req.sign, 'base64')).toBe(true);
    expect(createVerify('RSA-SHA256').update(`${message}x`).verify(standIn.wechat.merchantPublicKey, req.sign, 'base64')).toBe(false);
  });

  it('is refused by the stand-in (401) when signed with a key that is not the merchant certificate’s', async () => {
    const other = rsaKeyPair();
    const serial = '5A'.repeat(20);
    const settings = wechatSettings({ privateKey: other.privateKey, merchantCert: makeCertificate(other, 'someone else', serial), certSerial: serial });
    expect(validateWechat(settings)).toEqual({});
    const before = standIn.prepayRequests.length;
    await expect(createPayment('wechat', settings, order())).rejects.toThrow(/HTTP 401 \(SIGN_ERROR/);
    expect(standIn.prepayRequests.length).toBe(before + 1);
    expect(standIn.prepayRequests.at(-1)!.verified).toBe(false);
  });

  it('refuses an answer not signed by the platform key', async () => {
    standIn.forgeAnswers = true;
    try {
      await expect(createPayment('wechat', wechatSettings(), order())).rejects.toThrow(/signature does not verify with the platform key/);
    } finally {
      standIn.forgeAnswers = false;
    }
  });

  it('refuses an order that is not whole fen in CNY before sending anything', async () => {
    const before = standIn.requests.length;
    await expect(createPayment('wechat', wechatSettings(), order({ amount: 12.34 }))).rejects.toThrow(/whole number of fen/);
    await expect(createPayment('wechat', wechatSettings(), order({ amount: 0 }))).rejects.toThrow(/whole number of fen/);
    await expect(createPayment('wechat', wechatSettings(), order({ currency: 'USD' }))).rejects.toThrow(/CNY only/);
    await expect(createPayment('wechat', wechatSettings(), order({ orderNo: 'a/b' }))).rejects.toThrow(/order number/);
    await expect(createPayment('wechat', wechatSettings(), order({ expiresAt: new Date(Date.now() - 1000) }))).rejects.toThrow(/expiresAt/);
    await expect(createPayment('wechat', wechatSettings({ privateKey: 'nope' }), order())).rejects.toThrow(PaymentSettingsError);
    expect(standIn.requests.length).toBe(before);
  });

  it('queries an order: unpaid → null, paid → the payment in fen, unknown → null', async () => {
    const o = order({ amount: 990 });
    await createPayment('wechat', wechatSettings(), o);
    const before = standIn.requests.length;
    expect(await queryPayment('wechat', wechatSettings(), o.orderNo)).toBeNull();
    standIn.setTrade('wechat', o.orderNo, { amount: 990, transactionId: '4200000001202405011234567890' });
    const paid = await queryPayment('wechat', wechatSettings(), o.orderNo);
    expect(paid).toMatchObject({ channel: 'wechat', orderNo: o.orderNo, transactionId: '4200000001202405011234567890', amount: 990, currency: 'CNY' });
    expect(paid!.paidAt).toBeInstanceOf(Date);
    expect(await queryPayment('wechat', wechatSettings(), 'CSUNKNOWN0001')).toBeNull();
    const queries = standIn.requests.slice(before);
    expect(queries).toHaveLength(3);
    expect(queries.every((r) => r.method === 'GET' && r.verified && r.path.startsWith('/v3/pay/transactions/out-trade-no/'))).toBe(true);
    expect(queries[0]!.path).toBe(`/v3/pay/transactions/out-trade-no/${o.orderNo}?mchid=${standIn.wechat.mchId}`);
  });
});

describe('WeChat Pay notifications', () => {
  const verify = (n: { headers: Record<string, string | string[] | undefined>; rawBody: string }, settings = wechatSettings()) => verifyNotification('wechat', settings, n);

  it('accepts a signed, sealed notice: paid with the exact amount', async () => {
    const n = standIn.wechatNotice({ orderNo: 'CS2024050100001', amount: 1234, transactionId: '4200000002202405019999' });
    const result = await verify(n);
    expect(result).toEqual({
      ok: true,
      paid: { channel: 'wechat', orderNo: 'CS2024050100001', transactionId: '4200000002202405019999', amount: 1234, currency: 'CNY', paidAt: expect.any(Date) },
    });
    if (!result.ok || !result.paid) throw new Error('not paid');
    expect(Math.abs(result.paid.paidAt.getTime() - Date.now())).toBeLessThan(5_000);
    // headers in any case, and as node gives repeated-once headers
    const upper = Object.fromEntries(Object.entries(n.headers).map(([k, v]) => [k.toUpperCase(), [v]]));
    expect((await verify({ headers: upper, rawBody: n.rawBody })).ok).toBe(true);
  });

  it('takes a notice of another state as valid but not paid', async () => {
    expect(await verify(standIn.wechatNotice({ orderNo: 'CS2024050100002', amount: 1234, tradeState: 'CLOSED' }))).toEqual({ ok: true, paid: null });
  });

  it('refuses a forged signature, a tampered body, another serial and a resource sealed with another key', async () => {
    expect(await verify(standIn.wechatNotice({ orderNo: 'CS2024050100003', amount: 1234 }, { forge: true }))).toEqual({ ok: false, reason: 'signature' });
    const n = standIn.wechatNotice({ orderNo: 'CS2024050100003', amount: 1234 });
    expect(await verify({ ...n, rawBody: n.rawBody.replace('"summary":"支付成功"', '"summary":"支付成功 "') })).toEqual({ ok: false, reason: 'signature' });
    const event = JSON.parse(n.rawBody) as { resource: { ciphertext: string } };
    const flipped = Buffer.from(event.resource.ciphertext, 'base64');
    flipped[3] = flipped[3]! ^ 1;
    expect(await verify({ ...n, rawBody: n.rawBody.replace(event.resource.ciphertext, flipped.toString('base64')) })).toEqual({ ok: false, reason: 'signature' });
    expect(await verify({ ...n, headers: { ...n.headers, 'wechatpay-serial': '7'.repeat(40) } })).toEqual({ ok: false, reason: 'signature' });
    expect(await verify({ ...n, headers: { ...n.headers, 'wechatpay-signature': 'not base64!' } })).toEqual({ ok: false, reason: 'signature' });
    expect(await verify({ ...n, headers: { ...n.headers, 'wechatpay-signature': `WECHATPAY/SIGNTEST/${n.headers['wechatpay-signature']}` } })).toEqual({ ok: false, reason: 'signature' });
    const otherKey = standIn.wechatNotice({ orderNo: 'CS2024050100003', amount: 1234 }, { apiV3Key: randomBytes(16).toString('hex') });
    expect(await verify(otherKey)).toEqual({ ok: false, reason: 'signature' });
    // the untouched notice still passes: the refusals above are the tampering's
    expect((await verify(n)).ok).toBe(true);
  });

  it('refuses a notice signed more than five minutes away', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(await verify(standIn.wechatNotice({ orderNo: 'CS2024050100004', amount: 1234 }, { timestamp: now - 301 }))).toEqual({ ok: false, reason: 'stale' });
    expect(await verify(standIn.wechatNotice({ orderNo: 'CS2024050100004', amount: 1234 }, { timestamp: now + 400 }))).toEqual({ ok: false, reason: 'stale' });
    expect((await verify(standIn.wechatNotice({ orderNo: 'CS2024050100004', amount: 1234 }, { timestamp: now - 240 }))).ok).toBe(true);
  });

  it('refuses garbage as malformed without throwing', async () => {
    const n = standIn.wechatNotice({ orderNo: 'CS2024050100005', amount: 1234 });
    const signed = (rawBody: string) => {
      const timestamp = String(Math.floor(Date.now() / 1000));
      const signature = createSign('RSA-SHA256').update(`${timestamp}\n${n.headers['wechatpay-nonce']}\n${rawBody}\n`).sign(standIn.wechat.platformPrivateKey, 'base64');
      return { headers: { ...n.headers, 'wechatpay-timestamp': timestamp, 'wechatpay-signature': signature }, rawBody };
    };
    const malformed = { ok: false, reason: 'malformed' };
    expect(await verify({ headers: {}, rawBody: '' })).toEqual(malformed);
    expect(await verify({ headers: {}, rawBody: n.rawBody })).toEqual(malformed);
    expect(await verify({ headers: { ...n.headers, 'wechatpay-nonce': undefined }, rawBody: n.rawBody })).toEqual(malformed);
    expect(await verify({ headers: { ...n.headers, 'wechatpay-timestamp': ['1', '2'] }, rawBody: n.rawBody })).toEqual(malformed);
    expect(await verify({ headers: { ...n.headers, 'wechatpay-timestamp': 'soon' }, rawBody: n.rawBody })).toEqual(malformed);
    expect(await verify({ headers: n.headers, rawBody: 'x'.repeat(200_000) })).toEqual(malformed);
    expect(await verify(null as never)).toEqual(malformed);
    expect(await verify({ headers: null as never, rawBody: 42 as never })).toEqual(malformed);
    // signed by WeChat's key, but not a notice
    expect(await verify(signed('not json'))).toEqual(malformed);
    expect(await verify(signed('[]'))).toEqual(malformed);
    expect(await verify(signed('{"resource":{"algorithm":"AEAD_AES_256_GCM","ciphertext":"%%%","nonce":"abc"}}'))).toEqual(malformed);
    expect(await verify(signed('{"resource":{"algorithm":"AES_128_CBC","ciphertext":"AAAA","nonce":"abc"}}'))).toEqual(malformed);
  });

  it('refuses an amount that is not whole fen, and a notice for another merchant', async () => {
    expect(await verify(standIn.wechatNotice({ orderNo: 'CS2024050100006', amount: 12.34 }))).toEqual({ ok: false, reason: 'amount' });
    expect(await verify(standIn.wechatNotice({ orderNo: 'CS2024050100006', amount: '1234' as never }))).toEqual({ ok: false, reason: 'amount' });
    expect(await verify(standIn.wechatNotice({ orderNo: 'CS2024050100006', amount: 1234, currency: 'XYZ' }))).toEqual({ ok: false, reason: 'amount' });
    expect(await verify(standIn.wechatNotice({ orderNo: 'CS2024050100006', amount: 1234, mchId: '1900000999' }))).toEqual({ ok: false, reason: 'merchant' });
  });

  it('answers WeChat Pay as it expects', () => {
    expect(noticeAnswer('wechat', true)).toEqual({ status: 200, contentType: 'application/json', body: '{"code":"SUCCESS","message":"成功"}' });
    const fail = noticeAnswer('wechat', false);
    expect(fail.status).toBeGreaterThanOrEqual(400);
    expect(fail.status).toBeLessThan(500);
    expect(JSON.parse(fail.body)).toMatchObject({ code: 'FAIL', message: expect.any(String) });
  });
});

describe('Alipay APP payment', () => {
  it('signs an order string the app public key verifies, total_amount in yuan text, without any request', async () => {
    const before = standIn.requests.length;
    const expiresAt = new Date(Date.now() + 15 * 60_000);
    const o = order({ expiresAt });
    const req = await createPayment('alipay', alipaySettings(), o);
    if (req.channel !== 'alipay') throw new Error('not an Alipay request');
    expect(standIn.requests.length).toBe(before);

    const fields = orderStringFields(req.orderString);
    expect(fields).toMatchObject({ app_id: standIn.alipay.appId, method: 'alipay.trade.app.pay', charset: 'utf-8', sign_type: 'RSA2', version: '1.0', notify_url: alipaySettings().notifyUrl });
    const signed = createVerify('RSA-SHA256').update(alipaySignContent(fields, false)).verify(standIn.alipay.appPublicKey, fields.sign!, 'base64');
    expect(signed).toBe(true);
    const biz = JSON.parse(fields.biz_content!) as Record<string, string>;
    expect(biz).toEqual({
      out_trade_no: o.orderNo,
      total_amount: '12.34',
      // Alipay takes no / = & in a subject
      subject: '云存储 30 天 cloud storage',
      product_code: 'QUICK_MSECURITY_PAY',
      time_expire: new Date(expiresAt.getTime() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' '),
    });
    // the request timestamp is Beijing time whatever the machine's zone
    expect(Math.abs(Date.parse(`${fields.timestamp!.replace(' ', 'T')}Z`) - beijingNow())).toBeLessThan(60_000);
    // tampering with the amount breaks the signature
    const tampered = { ...fields, biz_content: fields.biz_content!.replace('"12.34"', '"0.01"') };
    expect(createVerify('RSA-SHA256').update(alipaySignContent(tampered, false)).verify(standIn.alipay.appPublicKey, fields.sign!, 'base64')).toBe(false);
  });

  it('writes every amount exactly as yuan text', async () => {
    for (const amount of [1, 5, 10, 100, 1234, 100_000_001, 10_000_000_000]) {
      const req = await createPayment('alipay', alipaySettings(), order({ amount }));
      if (req.channel !== 'alipay') throw new Error('not an Alipay request');
      const biz = JSON.parse(orderStringFields(req.orderString).biz_content!) as { total_amount: string };
      expect(biz.total_amount).toBe(formatMoney(amount, 'CNY'));
    }
    expect(formatMoney(5, 'CNY')).toBe('0.05');
    await expect(createPayment('alipay', alipaySettings(), order({ amount: 10_000_000_001 }))).rejects.toThrow(/between 1 and/);
    await expect(createPayment('alipay', alipaySettings(), order({ amount: 0.5 }))).rejects.toThrow(/whole number of fen/);
  });

  it('takes the private key as Alipay’s tool gives it: bare base64 of PKCS#1', async () => {
    const pkcs1 = createPrivateKey(standIn.alipay.appPrivateKey).export({ type: 'pkcs1', format: 'der' }).toString('base64');
    const bareSpki = standIn.alipay.alipayPublicKey.replace(/-----[^-]+-----|\s/g, '');
    const settings = alipaySettings({ privateKey: pkcs1, alipayPublicKey: bareSpki });
    expect(validateAlipay(settings)).toEqual({});
    const req = await createPayment('alipay', settings, order());
    if (req.channel !== 'alipay') throw new Error('not an Alipay request');
    const fields = orderStringFields(req.orderString);
    expect(createVerify('RSA-SHA256').update(alipaySignContent(fields, false)).verify(standIn.alipay.appPublicKey, fields.sign!, 'base64')).toBe(true);
  });

  it('queries a trade at the gateway, the request verified by the stand-in and the answer by the SDK', async () => {
    const before = standIn.requests.length;
    standIn.setTrade('alipay', 'CS2024050100100', { amount: 1234, transactionId: '2024050122001400001234567890' });
    const paid = await queryPayment('alipay', alipaySettings(), 'CS2024050100100');
    expect(paid).toMatchObject({ channel: 'alipay', orderNo: 'CS2024050100100', transactionId: '2024050122001400001234567890', amount: 1234, currency: 'CNY' });
    standIn.setTrade('alipay', 'CS2024050100101', { amount: 500, paid: false });
    expect(await queryPayment('alipay', alipaySettings(), 'CS2024050100101')).toBeNull();
    expect(await queryPayment('alipay', alipaySettings(), 'CS2024050100199')).toBeNull();
    const seen = standIn.requests.slice(before);
    expect(seen).toHaveLength(3);
    expect(seen.every((r) => r.path.startsWith('/gateway.do?') && r.verified)).toBe(true);

    standIn.forgeAnswers = true;
    try {
      await expect(queryPayment('alipay', alipaySettings(), 'CS2024050100100')).rejects.toThrow(/Alipay trade query of CS2024050100100 failed/);
    } finally {
      standIn.forgeAnswers = false;
    }
  });
});

describe('Alipay notifications', () => {
  const verify = (n: { headers: Record<string, string | string[] | undefined>; rawBody: string }, settings = alipaySettings()) => verifyNotification('alipay', settings, n);

  it('accepts a signed notice: paid with the exact amount', async () => {
    const n = standIn.alipayNotice({ orderNo: 'CS2024050100200', amount: 1234, tradeNo: '2024050122001400009999' });
    expect(n.rawBody).toContain('total_amount=12.34');
    expect(await verify(n)).toEqual({
      ok: true,
      paid: { channel: 'alipay', orderNo: 'CS2024050100200', transactionId: '2024050122001400009999', amount: 1234, currency: 'CNY', paidAt: expect.any(Date) },
    });
    expect((await verify(standIn.alipayNotice({ orderNo: 'CS2024050100200', amount: 1234, tradeStatus: 'TRADE_FINISHED' }))).ok).toBe(true);
  });

  it('takes a notice of another state, or of a partial refund, as valid but not paid', async () => {
    expect(await verify(standIn.alipayNotice({ orderNo: 'CS2024050100201', amount: 1234, tradeStatus: 'TRADE_CLOSED' }))).toEqual({ ok: true, paid: null });
    expect(await verify(standIn.alipayNotice({ orderNo: 'CS2024050100201', amount: 1234, tradeStatus: 'WAIT_BUYER_PAY' }))).toEqual({ ok: true, paid: null });
    expect(await verify(standIn.alipayNotice({ orderNo: 'CS2024050100201', amount: 1234, refundAmount: 200 }))).toEqual({ ok: true, paid: null });
  });

  it('refuses a forged signature, a tampered body and a weaker sign_type', async () => {
    expect(await verify(standIn.alipayNotice({ orderNo: 'CS2024050100202', amount: 1234 }, { forge: true }))).toEqual({ ok: false, reason: 'signature' });
    const n = standIn.alipayNotice({ orderNo: 'CS2024050100202', amount: 1234 });
    expect(await verify({ ...n, rawBody: n.rawBody.replace('total_amount=12.34', 'total_amount=1234.00') })).toEqual({ ok: false, reason: 'signature' });
    expect(await verify({ ...n, rawBody: n.rawBody.replace('out_trade_no=CS2024050100202', 'out_trade_no=CS2024050100203') })).toEqual({ ok: false, reason: 'signature' });
    expect(await verify({ ...n, rawBody: n.rawBody.replace('sign_type=RSA2', 'sign_type=RSA') })).toEqual({ ok: false, reason: 'signature' });
    expect(await verify({ ...n, rawBody: n.rawBody.replace('sign_type=RSA2', 'sign_type=XYZ') })).toEqual({ ok: false, reason: 'signature' });
    expect((await verify(n)).ok).toBe(true);
  });

  it('refuses an amount text that does not convert to fen exactly', async () => {
    for (const totalAmount of ['12.345', '12,34', '-12.34', '1e3', ' 12.34', '12.34 ', '']) {
      expect(await verify(standIn.alipayNotice({ orderNo: 'CS2024050100204', totalAmount })), totalAmount).toEqual({ ok: false, reason: 'amount' });
    }
    expect(await verify(standIn.alipayNotice({ orderNo: 'CS2024050100204', totalAmount: '12.3' }))).toMatchObject({ ok: true, paid: { amount: 1230 } });
  });

  it('refuses a notice for another app', async () => {
    expect(await verify(standIn.alipayNotice({ orderNo: 'CS2024050100205', amount: 1234, appId: '2021000000000001' }))).toEqual({ ok: false, reason: 'merchant' });
  });

  it('refuses garbage as malformed without throwing', async () => {
    const n = standIn.alipayNotice({ orderNo: 'CS2024050100206', amount: 1234 });
    const malformed = { ok: false, reason: 'malformed' };
    for (const rawBody of ['', 'hello', '%%%', '{"sign":"x"}', 'sign=&sign_type=RSA2', 'a'.repeat(100_000)]) {
      expect(await verify({ headers: {}, rawBody }), rawBody.slice(0, 20)).toEqual(malformed);
    }
    expect(await verify({ ...n, rawBody: `${n.rawBody}&trade_status=TRADE_SUCCESS` })).toEqual(malformed);
    expect(await verify(undefined as never)).toEqual(malformed);
    expect(await verify({ ...n, rawBody: n.rawBody.replace(/sign=[^&]+/, 'sign=%E0%A4%A') })).toEqual({ ok: false, reason: 'signature' });
  });

  it('answers Alipay as it expects', () => {
    expect(noticeAnswer('alipay', true)).toMatchObject({ status: 200, body: 'success' });
    expect(noticeAnswer('alipay', false)).toMatchObject({ status: 200, body: 'failure' });
    expect(noticeAnswer('alipay', true).contentType).toMatch(/^text\/plain/);
  });
});

describe('settings validation', () => {
  it('takes the stand-in merchants as they are', () => {
    expect(validateWechat(wechatSettings())).toEqual({});
    expect(validateWechat(wechatSettings({ merchantCert: undefined, platformCert: standIn.wechat.platformPublicKey, platformSerial: 'PUB_KEY_ID_0114232134912410000000000000' }))).toEqual({});
    expect(validateAlipay(alipaySettings())).toEqual({});
    expect(validateAlipay(alipaySettings({ appPublicKey: undefined, gateway: undefined }))).toEqual({});
  });

  it('names an unparsable key or certificate', () => {
    expect(validateWechat(wechatSettings({ privateKey: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----' }))).toEqual({ privateKey: 'keyUnparsable' });
    expect(validateWechat(wechatSettings({ privateKey: standIn.wechat.merchantPublicKey }))).toEqual({ privateKey: 'keyUnparsable' });
    expect(validateWechat(wechatSettings({ merchantCert: 'garbage' }))).toEqual({ merchantCert: 'certUnparsable' });
    expect(validateWechat(wechatSettings({ platformCert: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----' }))).toEqual({ platformCert: 'certUnparsable' });
    expect(validateAlipay(alipaySettings({ privateKey: 'bm90IGEga2V5' }))).toEqual({ privateKey: 'keyUnparsable' });
    expect(validateAlipay(alipaySettings({ alipayPublicKey: 'not base64 at all' }))).toEqual({ alipayPublicKey: 'keyUnparsable' });
    expect(validateAlipay(alipaySettings({ alipayPublicKey: standIn.alipay.alipayPrivateKey }))).toEqual({ alipayPublicKey: 'keyUnparsable' });
  });

  it('refuses mismatched key pairs and the merchant’s own key in the provider’s place', () => {
    const other = rsaKeyPair();
    expect(validateWechat(wechatSettings({ privateKey: other.privateKey }))).toEqual({ merchantCert: 'keyMismatch' });
    expect(validateWechat(wechatSettings({ platformCert: standIn.wechat.merchantCert }))).toEqual({ platformCert: 'ownKey' });
    expect(validateAlipay(alipaySettings({ privateKey: other.privateKey }))).toEqual({ appPublicKey: 'keyMismatch' });
    expect(validateAlipay(alipaySettings({ alipayPublicKey: standIn.alipay.appPublicKey }))).toEqual({ alipayPublicKey: 'ownKey' });
  });

  it('checks serials, validity and key sizes', () => {
    expect(validateWechat(wechatSettings({ certSerial: '1234ABCD' }))).toEqual({ certSerial: 'serialMismatch' });
    expect(validateWechat(wechatSettings({ certSerial: standIn.wechat.merchantSerial.toLowerCase() }))).toEqual({});
    expect(validateWechat(wechatSettings({ platformSerial: 'ABCDEF' }))).toEqual({ platformSerial: 'serialMismatch' });
    const old = rsaKeyPair();
    const expired = makeCertificate(old, 'expired', '3C'.repeat(20), { notAfter: new Date(Date.now() - 3600_000) });
    expect(validateWechat(wechatSettings({ platformCert: expired }))).toEqual({ platformCert: 'certExpired' });
    const weak = rsaKeyPair(1024);
    expect(validateAlipay(alipaySettings({ privateKey: weak.privateKey, appPublicKey: weak.publicKey }))).toEqual({ privateKey: 'keyType', appPublicKey: 'keyType' });
    expect(validateWechat(wechatSettings({ platformCert: weak.publicKey }))).toEqual({ platformCert: 'keyType' });
  });

  it('wants an APIv3 key of 32 bytes', () => {
    expect(validateWechat(wechatSettings({ apiV3Key: 'short' }))).toEqual({ apiV3Key: 'apiV3KeyLength' });
    expect(validateWechat(wechatSettings({ apiV3Key: 'x'.repeat(33) }))).toEqual({ apiV3Key: 'apiV3KeyLength' });
    expect(validateWechat(wechatSettings({ apiV3Key: '键'.repeat(11) }))).toEqual({ apiV3Key: 'apiV3KeyLength' });
  });

  it('wants an https notify URL (http only on this machine), without query', () => {
    for (const notifyUrl of ['http://console.example.com/notify', 'ftp://console.example.com/notify', 'https://console.example.com/notify?tenant=1', 'https://user:pw@console.example.com/n', 'notify']) {
      expect(validateWechat(wechatSettings({ notifyUrl })), notifyUrl).toEqual({ notifyUrl: 'notifyUrl' });
      expect(validateAlipay(alipaySettings({ notifyUrl })), notifyUrl).toEqual({ notifyUrl: 'notifyUrl' });
    }
    expect(validateWechat(wechatSettings({ notifyUrl: 'http://127.0.0.1:3000/notify' }))).toEqual({});
    expect(validateAlipay(alipaySettings({ notifyUrl: 'http://localhost:3000/notify' }))).toEqual({});
    expect(validateWechat(wechatSettings({ baseUrl: 'http://api.example.com' }))).toEqual({ baseUrl: 'url' });
    expect(validateWechat(wechatSettings({ baseUrl: `${standIn.baseUrl}/prefix` }))).toEqual({ baseUrl: 'url' });
    expect(validateAlipay(alipaySettings({ gateway: 'http://openapi.example.com/gateway.do' }))).toEqual({ gateway: 'url' });
  });

  it('names missing and mistyped fields, and survives garbage', () => {
    expect(validateWechat({})).toEqual({ appId: 'required', mchId: 'required', apiV3Key: 'required', certSerial: 'required', privateKey: 'required', platformCert: 'required', notifyUrl: 'required' });
    expect(validateAlipay({})).toEqual({ appId: 'required', privateKey: 'required', alipayPublicKey: 'required', notifyUrl: 'required' });
    expect(validateWechat(wechatSettings({ mchId: 12345 as never, appId: 'wx/1' }))).toEqual({ mchId: 'format', appId: 'format' });
    expect(validateAlipay(null as never)).toMatchObject({ appId: 'required' });
    expect(validateAlipay(alipaySettings({ privateKey: 'x'.repeat(1_000_000) }))).toEqual({ privateKey: 'keyUnparsable' });
  });

  it('makes every call refuse unusable settings with the fields named, before any request', async () => {
    const before = standIn.requests.length;
    const bad = wechatSettings({ apiV3Key: 'short', privateKey: 'nope' });
    const error = await createPayment('wechat', bad, order()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentSettingsError);
    expect((error as PaymentSettingsError).fields).toEqual({ apiV3Key: 'apiV3KeyLength', privateKey: 'keyUnparsable' });
    expect((error as Error).message).toBe('wechat payment settings are not usable: apiV3Key apiV3KeyLength, privateKey keyUnparsable');
    await expect(verifyNotification('alipay', alipaySettings({ alipayPublicKey: '' }), { headers: {}, rawBody: 'a=1' })).rejects.toThrow(/alipayPublicKey required/);
    await expect(queryPayment('alipay', alipaySettings({ gateway: 'http://10.0.0.1/gateway.do' }), 'CS1')).rejects.toThrow(/gateway url/);
    await expect(createPayment('paypal' as never, alipaySettings() as never, order())).rejects.toThrow(/unknown payment channel: "paypal"/);
    expect(standIn.requests.length).toBe(before);
  });
});
