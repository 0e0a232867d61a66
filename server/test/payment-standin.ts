import { createCipheriv, createSign, createVerify, generateKeyPairSync, randomBytes, X509Certificate } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import forge from 'node-forge';
import { formatMoney } from '@console/contract';
import type { AlipaySettings, WechatSettings } from '../src/areas/setting/payment/index.js';

/**
 * An in-process stand-in for the providers' HTTP APIs (node:http on 127.0.0.1, an ephemeral port), with keys and
 * certificates made here: RSA 2048 by node:crypto, the X.509 certificates by node-forge (node:crypto reads
 * certificates but cannot make one).
 *
 * WeChat Pay (baseUrl): POST /v3/pay/transactions/app and GET /v3/pay/transactions/out-trade-no/{no} verify the
 * merchant's `Authorization: WECHATPAY2-SHA256-RSA2048 …` against the merchant certificate as WeChat Pay does (401
 * otherwise) and answer with `Wechatpay-*` signature headers by the platform key.
 * Alipay (gateway, /gateway.do): alipay.trade.query, the request's RSA2 signature verified with the app public key,
 * the answer signed with Alipay's key in the `{"…_response":{…},"sign":"…"}` form.
 * Notifications are made the way the providers make them: wechatNotice seals the transaction with the APIv3 key
 * (AES-256-GCM) and signs the body with the platform key; alipayNotice signs the fields RSA2 with Alipay's key.
 */

export interface KeyPair {
  /** PKCS#8 PEM */
  privateKey: string;
  /** SPKI PEM */
  publicKey: string;
}

export interface WechatMerchantKeys {
  appId: string;
  mchId: string;
  apiV3Key: string;
  merchantPrivateKey: string;
  merchantPublicKey: string;
  merchantCert: string;
  merchantSerial: string;
  platformPrivateKey: string;
  platformPublicKey: string;
  platformCert: string;
  platformSerial: string;
}

export interface AlipayAppKeys {
  appId: string;
  appPrivateKey: string;
  appPublicKey: string;
  alipayPrivateKey: string;
  alipayPublicKey: string;
}

export interface ReceivedRequest {
  method: string;
  /** path and query as sent */
  path: string;
  headers: IncomingMessage['headers'];
  rawBody: string;
  /** whether the caller's signature verified (WeChat: Authorization; Alipay: sign) */
  verified: boolean;
  /** why it did not */
  problem?: string;
}

export interface StandInTrade {
  amount: number;
  paid: boolean;
  transactionId: string;
  paidAt: Date;
}

export interface SignedNotice {
  headers: Record<string, string>;
  rawBody: string;
}

export interface PaymentStandIn {
  /** WeChat Pay's origin */
  baseUrl: string;
  /** Alipay's gateway */
  gateway: string;
  wechat: WechatMerchantKeys;
  alipay: AlipayAppKeys;
  /** every request received, in order */
  requests: ReceivedRequest[];
  /** the POST /v3/pay/transactions/app requests received */
  prepayRequests: ReceivedRequest[];
  /** the trades the stand-in knows, by `${channel}:${orderNo}` (a WeChat prepay order lands here unpaid) */
  trades: Map<string, StandInTrade>;
  /** sign the answers with a key that is not the provider's (a man in the middle) */
  forgeAnswers: boolean;
  /** settings of the stand-in's WeChat Pay merchant, pointed at the stand-in */
  wechatSettings(over?: Partial<WechatSettings>): WechatSettings;
  /** settings of the stand-in's Alipay app, pointed at the stand-in */
  alipaySettings(over?: Partial<AlipaySettings>): AlipaySettings;
  setTrade(channel: 'wechat' | 'alipay', orderNo: string, trade: Partial<StandInTrade> & { amount: number }): void;
  wechatNotice(
    body: { orderNo: string; amount: number; tradeState?: string; transactionId?: string; appId?: string; mchId?: string; currency?: string },
    opts?: { forge?: boolean; timestamp?: number; apiV3Key?: string },
  ): SignedNotice;
  alipayNotice(
    fields: { orderNo: string; amount?: number; totalAmount?: string; tradeStatus?: string; tradeNo?: string; appId?: string; refundAmount?: number },
    opts?: { forge?: boolean },
  ): SignedNotice;
  close(): Promise<void>;
}

export function rsaKeyPair(bits = 2048): KeyPair {
  return generateKeyPairSync('rsa', {
    modulusLength: bits,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
}

/** a 40-hex serial, positive and of whole bytes (as the certificates WeChat Pay issues carry) */
function certSerial(): string {
  const bytes = randomBytes(20);
  bytes[0] = 0x10 + (bytes[0]! % 0x60);
  return bytes.toString('hex').toUpperCase();
}

/** an X.509 certificate of the pair's public key, issued by `issuer` (itself when absent) */
export function makeCertificate(pair: KeyPair, commonName: string, serial: string, opts: { issuer?: KeyPair; notAfter?: Date } = {}): string {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(pair.publicKey);
  cert.serialNumber = serial;
  cert.validity.notBefore = new Date(Date.now() - 86_400_000);
  cert.validity.notAfter = opts.notAfter ?? new Date(Date.now() + 5 * 365 * 86_400_000);
  const subject = [
    { name: 'commonName', value: commonName },
    { name: 'organizationName', value: 'stand-in' },
    { name: 'countryName', value: 'CN' },
  ];
  cert.setSubject(subject);
  cert.setIssuer(opts.issuer ? [{ name: 'commonName', value: 'stand-in CA' }] : subject);
  cert.sign(forge.pki.privateKeyFromPem((opts.issuer ?? pair).privateKey) as forge.pki.rsa.PrivateKey, forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}

function rsaSign(text: string, privateKey: string): string {
  return createSign('RSA-SHA256').update(text, 'utf8').sign(privateKey, 'base64');
}

function rsaVerify(text: string, signature: string, publicKey: string): boolean {
  try {
    return createVerify('RSA-SHA256').update(text, 'utf8').verify(publicKey, signature, 'base64');
  } catch {
    return false;
  }
}

/** Alipay's text to sign: the fields but `sign` (and, for notifications, `sign_type`), sorted, `k=v` joined by & */
export function alipaySignContent(fields: Record<string, string>, dropSignType: boolean): string {
  return Object.keys(fields)
    .filter((k) => k !== 'sign' && !(dropSignType && k === 'sign_type'))
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join('&');
}

/** Beijing time as `yyyy-MM-dd HH:mm:ss` */
function beijing(date: Date): string {
  return new Date(date.getTime() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
}

/** Beijing time as RFC 3339 */
function beijingRfc3339(date: Date): string {
  return `${new Date(date.getTime() + 8 * 3600_000).toISOString().slice(0, 19)}+08:00`;
}

function readBody(req: IncomingMessage, limit = 1024 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new Error('body too large'));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** the fields of a WeChat Pay Authorization header, or a reason */
function authorizationFields(header: string | undefined): Record<string, string> | string {
  const m = /^WECHATPAY2-SHA256-RSA2048 (.+)$/.exec(header ?? '');
  if (!m) return 'no WECHATPAY2-SHA256-RSA2048 authorization';
  const fields: Record<string, string> = {};
  for (const part of m[1]!.split(',')) {
    const kv = /^\s*(\w+)="([^"]*)"\s*$/.exec(part);
    if (!kv) return `unreadable authorization part ${part}`;
    fields[kv[1]!] = kv[2]!;
  }
  for (const name of ['mchid', 'nonce_str', 'signature', 'timestamp', 'serial_no']) if (!fields[name]) return `authorization lacks ${name}`;
  return fields;
}

export async function startPaymentStandIn(): Promise<PaymentStandIn> {
  const merchant = rsaKeyPair();
  const platform = rsaKeyPair();
  const intruder = rsaKeyPair();
  const app = rsaKeyPair();
  const alipayPair = rsaKeyPair();
  const merchantSerial = certSerial();
  const platformSerial = certSerial();
  const merchantCert = makeCertificate(merchant, '1900000109_stand-in merchant', merchantSerial);
  const platformCert = makeCertificate(platform, 'Tenpay.com stand-in platform', platformSerial);
  const merchantCertKey = new X509Certificate(merchantCert).publicKey;

  const wechat: WechatMerchantKeys = {
    appId: 'wx8888888888888888',
    mchId: '1900000109',
    apiV3Key: randomBytes(16).toString('hex'),
    merchantPrivateKey: merchant.privateKey,
    merchantPublicKey: merchant.publicKey,
    merchantCert,
    merchantSerial,
    platformPrivateKey: platform.privateKey,
    platformPublicKey: platform.publicKey,
    platformCert,
    platformSerial,
  };
  const alipay: AlipayAppKeys = {
    appId: '2021000122671080',
    appPrivateKey: app.privateKey,
    appPublicKey: app.publicKey,
    alipayPrivateKey: alipayPair.privateKey,
    alipayPublicKey: alipayPair.publicKey,
  };

  const requests: ReceivedRequest[] = [];
  const prepayRequests: ReceivedRequest[] = [];
  const trades = new Map<string, StandInTrade>();

  const standIn = {} as PaymentStandIn;

  function sendWechat(res: ServerResponse, status: number, body: unknown): void {
    const text = JSON.stringify(body);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const nonce = randomBytes(16).toString('hex');
    const key = standIn.forgeAnswers ? intruder.privateKey : platform.privateKey;
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'request-id': randomBytes(8).toString('hex'),
      'wechatpay-timestamp': timestamp,
      'wechatpay-nonce': nonce,
      'wechatpay-serial': platformSerial,
      'wechatpay-signature': rsaSign(`${timestamp}\n${nonce}\n${text}\n`, key),
    });
    res.end(text);
  }

  /** WeChat Pay's check of the merchant's request signature */
  function wechatAuthProblem(req: IncomingMessage, path: string, rawBody: string): string | undefined {
    const fields = authorizationFields(req.headers.authorization);
    if (typeof fields === 'string') return fields;
    if (fields.mchid !== wechat.mchId) return `mchid ${fields.mchid} is not the merchant`;
    if (fields.serial_no!.toUpperCase() !== merchantSerial) return `serial_no ${fields.serial_no} is not the merchant certificate's`;
    if (Math.abs(Date.now() / 1000 - Number(fields.timestamp)) > 300) return 'timestamp too far from now';
    const message = `${req.method}\n${path}\n${fields.timestamp}\n${fields.nonce_str}\n${rawBody}\n`;
    let ok = false;
    try {
      ok = createVerify('RSA-SHA256').update(message).verify(merchantCertKey, fields.signature!, 'base64');
    } catch {
      ok = false;
    }
    return ok ? undefined : 'signature does not verify with the merchant certificate';
  }

  function wechatTransaction(orderNo: string, trade: StandInTrade): Record<string, unknown> {
    return {
      appid: wechat.appId,
      mchid: wechat.mchId,
      out_trade_no: orderNo,
      ...(trade.paid ? { transaction_id: trade.transactionId, success_time: beijingRfc3339(trade.paidAt), bank_type: 'OTHERS' } : {}),
      trade_type: 'APP',
      trade_state: trade.paid ? 'SUCCESS' : 'NOTPAY',
      trade_state_desc: trade.paid ? '支付成功' : '未支付',
      amount: { total: trade.amount, payer_total: trade.paid ? trade.amount : 0, currency: 'CNY', payer_currency: 'CNY' },
    };
  }

  function handleWechat(req: IncomingMessage, res: ServerResponse, record: ReceivedRequest, url: URL): void {
    const problem = wechatAuthProblem(req, record.path, record.rawBody);
    record.verified = !problem;
    if (problem) record.problem = problem;
    if (req.method === 'POST' && url.pathname === '/v3/pay/transactions/app') {
      prepayRequests.push(record);
      if (problem) return sendWechat(res, 401, { code: 'SIGN_ERROR', message: problem });
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(record.rawBody) as Record<string, unknown>;
      } catch {
        return sendWechat(res, 400, { code: 'PARAM_ERROR', message: 'body is not JSON' });
      }
      const amount = body.amount as { total?: unknown } | undefined;
      const total = amount?.total;
      if (body.appid !== wechat.appId || body.mchid !== wechat.mchId) return sendWechat(res, 400, { code: 'PARAM_ERROR', message: 'appid and mchid do not match' });
      if (typeof body.out_trade_no !== 'string' || typeof body.description !== 'string' || typeof body.notify_url !== 'string') {
        return sendWechat(res, 400, { code: 'PARAM_ERROR', message: 'out_trade_no, description, notify_url required' });
      }
      if (typeof total !== 'number' || !Number.isInteger(total) || total <= 0) return sendWechat(res, 400, { code: 'PARAM_ERROR', message: 'amount.total must be a positive integer of fen' });
      const key = `wechat:${body.out_trade_no}`;
      const known = trades.get(key);
      if (known && known.amount !== total) return sendWechat(res, 400, { code: 'OUT_TRADE_NO_USED', message: 'order number used with another amount' });
      if (!known) trades.set(key, { amount: total, paid: false, transactionId: `42000${randomBytes(10).toString('hex')}`, paidAt: new Date() });
      return sendWechat(res, 200, { prepay_id: `wx${randomBytes(16).toString('hex')}` });
    }
    const query = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && query) {
      if (problem) return sendWechat(res, 401, { code: 'SIGN_ERROR', message: problem });
      if (url.searchParams.get('mchid') !== wechat.mchId) return sendWechat(res, 400, { code: 'PARAM_ERROR', message: 'mchid' });
      const orderNo = decodeURIComponent(query[1]!);
      const trade = trades.get(`wechat:${orderNo}`);
      if (!trade) return sendWechat(res, 404, { code: 'ORDER_NOT_EXIST', message: '订单不存在' });
      return sendWechat(res, 200, wechatTransaction(orderNo, trade));
    }
    return sendWechat(res, 404, { code: 'NOT_FOUND', message: `no ${req.method} ${url.pathname}` });
  }

  function sendAlipay(res: ServerResponse, method: string, answer: Record<string, unknown>): void {
    const key = `${method.replaceAll('.', '_')}_response`;
    const inner = JSON.stringify(answer);
    const sign = rsaSign(inner, standIn.forgeAnswers ? intruder.privateKey : alipayPair.privateKey);
    res.writeHead(200, { 'content-type': 'application/json;charset=utf-8', trace_id: randomBytes(8).toString('hex') });
    res.end(`{"${key}":${inner},"sign":"${sign}"}`);
  }

  function handleAlipay(res: ServerResponse, record: ReceivedRequest, url: URL): void {
    const fields: Record<string, string> = {};
    for (const [k, v] of url.searchParams) fields[k] = v;
    for (const [k, v] of new URLSearchParams(record.rawBody)) fields[k] = v;
    const method = fields.method ?? '';
    const signed = fields.sign ? rsaVerify(alipaySignContent(fields, false), fields.sign, app.publicKey) : false;
    record.verified = signed && fields.app_id === alipay.appId && fields.sign_type === 'RSA2';
    if (!record.verified) {
      record.problem = 'signature does not verify with the app public key';
      return sendAlipay(res, method || 'error', { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-signature', sub_msg: '验签出错' });
    }
    if (method !== 'alipay.trade.query') return sendAlipay(res, method, { code: '40004', msg: 'Business Failed', sub_code: 'isv.invalid-method', sub_msg: 'not in the stand-in' });
    let biz: { out_trade_no?: string };
    try {
      biz = JSON.parse(fields.biz_content ?? '') as { out_trade_no?: string };
    } catch {
      return sendAlipay(res, method, { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-parameter', sub_msg: 'biz_content' });
    }
    const orderNo = biz.out_trade_no ?? '';
    const trade = trades.get(`alipay:${orderNo}`);
    if (!trade) return sendAlipay(res, method, { code: '40004', msg: 'Business Failed', sub_code: 'ACQ.TRADE_NOT_EXIST', sub_msg: '交易不存在', out_trade_no: orderNo });
    return sendAlipay(res, method, {
      code: '10000',
      msg: 'Success',
      trade_no: trade.transactionId,
      out_trade_no: orderNo,
      buyer_logon_id: 'abc***@example.com',
      trade_status: trade.paid ? 'TRADE_SUCCESS' : 'WAIT_BUYER_PAY',
      total_amount: formatMoney(trade.amount, 'CNY'),
      ...(trade.paid ? { send_pay_date: beijing(trade.paidAt), receipt_amount: formatMoney(trade.amount, 'CNY') } : {}),
    });
  }

  const server = createServer((req, res) => {
    readBody(req).then(
      (rawBody) => {
        const path = req.url ?? '/';
        const url = new URL(path, 'http://127.0.0.1');
        const record: ReceivedRequest = { method: req.method ?? '', path, headers: req.headers, rawBody, verified: false };
        requests.push(record);
        if (url.pathname.startsWith('/v3/')) handleWechat(req, res, record, url);
        else if (url.pathname === '/gateway.do') handleAlipay(res, record, url);
        else {
          res.writeHead(404, { 'content-type': 'text/plain' });
          res.end('not found');
        }
      },
      () => {
        res.writeHead(413);
        res.end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  Object.assign(standIn, {
    baseUrl: `http://127.0.0.1:${port}`,
    gateway: `http://127.0.0.1:${port}/gateway.do`,
    wechat,
    alipay,
    requests,
    prepayRequests,
    trades,
    forgeAnswers: false,
    wechatSettings: (over = {}) => ({
      appId: wechat.appId,
      mchId: wechat.mchId,
      apiV3Key: wechat.apiV3Key,
      certSerial: merchantSerial,
      privateKey: merchant.privateKey,
      merchantCert,
      platformCert,
      notifyUrl: 'https://console.example.com/api/storage/pay/wechat/notify',
      baseUrl: `http://127.0.0.1:${port}`,
      ...over,
    }),
    alipaySettings: (over = {}) => ({
      appId: alipay.appId,
      privateKey: app.privateKey,
      alipayPublicKey: alipayPair.publicKey,
      appPublicKey: app.publicKey,
      notifyUrl: 'https://console.example.com/api/storage/pay/alipay/notify',
      gateway: `http://127.0.0.1:${port}/gateway.do`,
      ...over,
    }),
    setTrade(channel, orderNo, trade) {
      trades.set(`${channel}:${orderNo}`, {
        paid: true,
        transactionId: channel === 'wechat' ? `42000${randomBytes(10).toString('hex')}` : `2024${randomBytes(12).toString('hex')}`,
        paidAt: new Date(Math.floor(Date.now() / 1000) * 1000),
        ...trade,
      });
    },
    wechatNotice(body, opts = {}) {
      const state = body.tradeState ?? 'SUCCESS';
      const now = new Date(Math.floor(Date.now() / 1000) * 1000);
      const transaction = {
        appid: body.appId ?? wechat.appId,
        mchid: body.mchId ?? wechat.mchId,
        out_trade_no: body.orderNo,
        transaction_id: body.transactionId ?? `42000${randomBytes(10).toString('hex')}`,
        trade_type: 'APP',
        trade_state: state,
        trade_state_desc: state === 'SUCCESS' ? '支付成功' : state,
        bank_type: 'OTHERS',
        attach: '',
        success_time: beijingRfc3339(now),
        payer: { openid: `oUpF8uMuAJO_M2pxb1Q9zNjWeS6o` },
        amount: { total: body.amount, payer_total: body.amount, currency: body.currency ?? 'CNY', payer_currency: 'CNY' },
      };
      const nonce = randomBytes(6).toString('hex');
      const cipher = createCipheriv('aes-256-gcm', Buffer.from(opts.apiV3Key ?? wechat.apiV3Key, 'utf8'), Buffer.from(nonce, 'utf8'));
      cipher.setAAD(Buffer.from('transaction', 'utf8'));
      const sealed = Buffer.concat([cipher.update(JSON.stringify(transaction), 'utf8'), cipher.final(), cipher.getAuthTag()]);
      const event = {
        id: `EV-${randomBytes(10).toString('hex')}`,
        create_time: beijingRfc3339(now),
        resource_type: 'encrypt-resource',
        event_type: state === 'SUCCESS' ? 'TRANSACTION.SUCCESS' : `TRANSACTION.${state}`,
        summary: '支付成功',
        resource: { original_type: 'transaction', algorithm: 'AEAD_AES_256_GCM', ciphertext: sealed.toString('base64'), associated_data: 'transaction', nonce },
      };
      const rawBody = JSON.stringify(event);
      const timestamp = String(opts.timestamp ?? Math.floor(Date.now() / 1000));
      const headerNonce = randomBytes(16).toString('hex');
      const signature = rsaSign(`${timestamp}\n${headerNonce}\n${rawBody}\n`, opts.forge ? intruder.privateKey : platform.privateKey);
      return {
        headers: {
          'content-type': 'application/json',
          'wechatpay-timestamp': timestamp,
          'wechatpay-nonce': headerNonce,
          'wechatpay-signature': signature,
          'wechatpay-serial': platformSerial,
        },
        rawBody,
      };
    },
    alipayNotice(fields, opts = {}) {
      const now = new Date();
      const total = fields.totalAmount ?? formatMoney(fields.amount ?? 0, 'CNY');
      const params: Record<string, string> = {
        gmt_create: beijing(new Date(now.getTime() - 60_000)),
        charset: 'utf-8',
        seller_email: 'shop@example.com',
        subject: '云存储 30 天 & more',
        buyer_id: '2088102122524333',
        invoice_amount: total,
        notify_id: randomBytes(16).toString('hex'),
        fund_bill_list: JSON.stringify([{ amount: total, fundChannel: 'ALIPAYACCOUNT' }]),
        notify_type: 'trade_status_sync',
        trade_status: fields.tradeStatus ?? 'TRADE_SUCCESS',
        receipt_amount: total,
        app_id: fields.appId ?? alipay.appId,
        buyer_pay_amount: total,
        seller_id: '2088102119685838',
        gmt_payment: beijing(now),
        notify_time: beijing(now),
        version: '1.0',
        out_trade_no: fields.orderNo,
        total_amount: total,
        trade_no: fields.tradeNo ?? `2024${randomBytes(12).toString('hex')}`,
        auth_app_id: fields.appId ?? alipay.appId,
        point_amount: '0.00',
        ...(fields.refundAmount !== undefined
          ? { refund_fee: formatMoney(fields.refundAmount, 'CNY'), gmt_refund: `${beijing(now)}.000`, out_biz_no: `RF${randomBytes(6).toString('hex')}` }
          : {}),
      };
      params.sign = rsaSign(alipaySignContent(params, true), opts.forge ? intruder.privateKey : alipayPair.privateKey);
      params.sign_type = 'RSA2';
      return {
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
        rawBody: new URLSearchParams(params).toString(),
      };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        // the clients' keep-alive sockets
        server.closeAllConnections();
      }),
  } satisfies PaymentStandIn);
  return standIn;
}
