import { createDecipheriv, createPublicKey, createVerify, type KeyObject } from 'node:crypto';
import type WxPay from 'wechatpay-node-v3';
import type { Iapp } from 'wechatpay-node-v3/dist/lib/interface';
import type { Output } from 'wechatpay-node-v3/dist/lib/interface-v2';
import type { IPayRequest } from 'wechatpay-node-v3/dist/lib/pay-request.interface';
import {
  CALL_TIMEOUT_MS,
  MAX_ANSWER_BYTES,
  MAX_NOTICE_BYTES,
  MAX_SKEW_SECONDS,
  FieldReader,
  certificateExpired,
  checkOrder,
  currencyOf,
  cutUtf8,
  errorText,
  headerValue,
  isBase64,
  isOrderNo,
  isRsa2048,
  keyPairMatches,
  normalSerial,
  notifyUrlProblem,
  parseRfc3339,
  readCertificate,
  readPrivateKey,
  readPublicKey,
  serviceUrlProblem,
  wechatTime,
} from './common.js';
import { PaymentSettingsError, type NoticeRequest, type NoticeResult, type PaidNotice, type PaymentOrder, type PaymentRequestOf, type SettingsProblems, type WechatSettings } from './types.js';

/**
 * WeChat Pay API v3, APP payment, through wechatpay-node-v3 (2.2.1).
 *
 * The library builds and signs the requests (the `Authorization: WECHATPAY2-SHA256-RSA2048 …` header over method,
 * path, timestamp, nonce and body) and the app-side signature of `transactions_app`. Its URLs are fixed to
 * https://api.mch.weixin.qq.com; every request goes through the HTTP service it lets one inject (`createHttp`), and
 * ours sends it to the settings' base URL with the same path, so what the library signed is what is sent.
 *
 * Two things the library offers are not used, for what they do:
 * - `verifySign` looks the platform key up in `Pay.certificates`, a map shared by every instance in the process and
 *   keyed by the serial the message names, and on a miss fetches /v3/certificates. In a console of many merchants one
 *   merchant's configured key would then verify messages sent to another, and any caller could make the server call
 *   out by naming an unknown serial. Answers and notifications are verified here with the merchant's own
 *   platformCert (the same message: timestamp, nonce, body, each followed by a newline; SHA256withRSA).
 * - `decipher_gcm` never calls `final()`, so the GCM tag is set but never checked: a resource that does not
 *   authenticate still "decrypts". The resource is opened here with AES-256-GCM and its tag checked.
 * The library verifies no answer at all; ours checks each 2xx answer's signature before the library sees it.
 */

const WECHAT_ORIGIN = 'https://api.mch.weixin.qq.com';

interface PreparedWechat {
  appId: string;
  mchId: string;
  apiV3Key: string;
  certSerial: string;
  /** PKCS#8 PEM of the merchant key, as the library wants it */
  privateKeyPem: Buffer;
  /** the merchant certificate, or the public key: the library insists on one (it reads a serial from it when none is given) */
  publicPart: Buffer;
  platformKey: KeyObject;
  /** normalized (normalSerial); undefined when platformCert is a bare public key and no serial is given */
  platformSerial?: string;
  notifyUrl: string;
  baseUrl: string;
}

function inspectWechat(settings: unknown): { problems: SettingsProblems; prepared?: PreparedWechat } {
  const f = new FieldReader(settings);
  const appId = f.matching('appId', /^[A-Za-z0-9_-]{1,32}$/);
  const mchId = f.matching('mchId', /^\d{1,32}$/);
  const apiV3Key = f.text('apiV3Key');
  if (apiV3Key !== undefined && Buffer.byteLength(apiV3Key) !== 32) f.note('apiV3Key', 'apiV3KeyLength');
  const certSerial = f.matching('certSerial', /^[0-9A-Fa-f]{1,64}$/);

  const privateText = f.text('privateKey');
  const privateKey = privateText === undefined ? undefined : readPrivateKey(privateText);
  if (privateText !== undefined && !privateKey) f.note('privateKey', 'keyUnparsable');
  if (privateKey && !isRsa2048(privateKey)) f.note('privateKey', 'keyType');
  const usableKey = privateKey && isRsa2048(privateKey) ? privateKey : undefined;

  const certText = f.text('merchantCert', true);
  if (certText !== undefined) {
    const cert = readCertificate(certText);
    if (!cert) f.note('merchantCert', 'certUnparsable');
    else if (certificateExpired(cert)) f.note('merchantCert', 'certExpired');
    else if (usableKey && !keyPairMatches(usableKey, cert.publicKey)) f.note('merchantCert', 'keyMismatch');
    if (cert && certSerial && normalSerial(cert.serialNumber) !== normalSerial(certSerial)) f.note('certSerial', 'serialMismatch');
  }

  const platformText = f.text('platformCert');
  let platformKey: KeyObject | undefined;
  let platformSerial: string | undefined;
  if (platformText !== undefined) {
    const cert = readCertificate(platformText);
    platformKey = cert ? cert.publicKey : readPublicKey(platformText);
    if (cert) platformSerial = normalSerial(cert.serialNumber);
    if (!platformKey) f.note('platformCert', 'certUnparsable');
    else if (!isRsa2048(platformKey)) f.note('platformCert', 'keyType');
    else if (cert && certificateExpired(cert)) f.note('platformCert', 'certExpired');
    else if (usableKey && keyPairMatches(usableKey, platformKey)) f.note('platformCert', 'ownKey');
  }
  const serialText = f.matching('platformSerial', /^[A-Za-z0-9_]{1,64}$/, true);
  if (serialText !== undefined) {
    if (platformSerial !== undefined && normalSerial(serialText) !== platformSerial) f.note('platformSerial', 'serialMismatch');
    platformSerial ??= normalSerial(serialText);
  }

  const notifyUrl = f.text('notifyUrl');
  if (notifyUrl !== undefined) f.note('notifyUrl', notifyUrlProblem(notifyUrl));
  const baseUrl = f.text('baseUrl', true) ?? WECHAT_ORIGIN;
  f.note('baseUrl', serviceUrlProblem(baseUrl, true));

  if (!f.ok || !usableKey || !platformKey) return { problems: f.problems };
  return {
    problems: {},
    prepared: {
      appId: appId!,
      mchId: mchId!,
      apiV3Key: apiV3Key!,
      certSerial: certSerial!.toUpperCase(),
      privateKeyPem: Buffer.from(usableKey.export({ type: 'pkcs8', format: 'pem' })),
      publicPart: Buffer.from(certText ?? createPublicKey(usableKey).export({ type: 'spki', format: 'pem' })),
      platformKey,
      platformSerial,
      notifyUrl: notifyUrl!,
      baseUrl: new URL(baseUrl).origin,
    },
  };
}

/**
 * Field → why it is refused, empty when the settings are usable. The keys are read with node:crypto; the merchant key
 * must sign what the merchant certificate's key verifies, the platform key must not be the merchant's own, serials
 * must be the certificates'.
 */
export function validateWechat(settings: Partial<WechatSettings>): SettingsProblems {
  return inspectWechat(settings).problems;
}

function prepareWechat(settings: unknown): PreparedWechat {
  const { problems, prepared } = inspectWechat(settings);
  if (!prepared) throw new PaymentSettingsError('wechat', problems);
  return prepared;
}

type Verdict = 'ok' | 'signature' | 'stale' | 'malformed';

interface SignedParts {
  timestamp: string | null | undefined;
  nonce: string | null | undefined;
  signature: string | null | undefined;
  serial: string | null | undefined;
}

/** WeChat Pay's signature over `timestamp\nnonce\nbody\n` with the merchant's platform key, and its freshness */
function checkSigned(w: PreparedWechat, parts: SignedParts, body: string, now: number): Verdict {
  const { timestamp, nonce, signature, serial } = parts;
  if (!timestamp || !nonce || !signature || !serial) return 'malformed';
  if (!/^\d{1,12}$/.test(timestamp) || nonce.length > 64 || serial.length > 64) return 'malformed';
  if (w.platformSerial !== undefined && normalSerial(serial) !== w.platformSerial) return 'signature';
  if (signature.length > 1024 || !isBase64(signature)) return 'signature';
  let verified = false;
  try {
    verified = createVerify('RSA-SHA256').update(`${timestamp}\n${nonce}\n${body}\n`).verify(w.platformKey, signature, 'base64');
  } catch {
    verified = false;
  }
  if (!verified) return 'signature';
  if (Math.abs(now / 1000 - Number(timestamp)) > MAX_SKEW_SECONDS) return 'stale';
  return 'ok';
}

async function readLimited(res: Response, limit: number): Promise<string> {
  if (!res.body) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += (chunk as Uint8Array).byteLength;
    if (size > limit) {
      await res.body.cancel().catch(() => undefined);
      throw new Error(`WeChat Pay's answer exceeds ${limit} bytes`);
    }
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The HTTP service handed to the library (`createHttp`): the library's URL keeps its path and query and gets the
 * settings' origin; a 2xx answer is given to the library only once its WeChat Pay signature verifies.
 */
class WechatHttp implements IPayRequest {
  constructor(private readonly w: PreparedWechat) {}

  post(url: string, params: Record<string, unknown>, headers: Record<string, string>): Promise<Output> {
    // the library signed JSON.stringify of this very object: the same text is sent
    return this.send('POST', url, headers, JSON.stringify(params));
  }

  get(url: string, headers: Record<string, string>): Promise<Output> {
    return this.send('GET', url, headers);
  }

  upload(): Promise<Output> {
    return Promise.reject(new Error('the payment module uploads no files to WeChat Pay'));
  }

  private target(url: string): URL {
    if (!url.startsWith(`${WECHAT_ORIGIN}/`)) throw new Error(`wechatpay-node-v3 asked for an unexpected URL: ${url.slice(0, 200)}`);
    return new URL(url.slice(WECHAT_ORIGIN.length), this.w.baseUrl);
  }

  private async send(method: 'GET' | 'POST', url: string, headers: Record<string, string>, body?: string): Promise<Output> {
    const target = this.target(url);
    const sent: Record<string, string> = {};
    // fetch negotiates and undoes the compression itself
    for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() !== 'accept-encoding') sent[name] = String(value);
    const what = `${method} ${target.pathname}`;
    let res: Response;
    let text: string;
    try {
      res = await fetch(target, { method, headers: sent, body, redirect: 'error', signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
      text = await readLimited(res, MAX_ANSWER_BYTES);
    } catch (e) {
      throw new Error(`WeChat Pay did not answer ${what} at ${target.origin}: ${errorText(e)}`);
    }
    let data: unknown;
    try {
      data = text ? JSON.parse(text) : undefined;
    } catch {
      data = undefined;
    }
    if (!res.ok) return { status: res.status, data, error: text.slice(0, 2000) };
    const verdict = checkSigned(
      this.w,
      {
        timestamp: res.headers.get('wechatpay-timestamp'),
        nonce: res.headers.get('wechatpay-nonce'),
        signature: res.headers.get('wechatpay-signature'),
        serial: res.headers.get('wechatpay-serial'),
      },
      text,
      Date.now(),
    );
    if (verdict !== 'ok') throw new Error(`WeChat Pay's answer to ${what} is refused: ${verdict === 'malformed' ? 'it carries no signature' : verdict === 'stale' ? 'its signed timestamp is over 5 minutes off' : 'its signature does not verify with the platform key'}`);
    if (data === null || typeof data !== 'object') throw new Error(`WeChat Pay's answer to ${what} is not a JSON object`);
    return { status: res.status, data };
  }
}

/** the library, loaded at the first payment, not at start (bench/RESULTS.md, "The embedded database's idle memory") */
async function wechatPay(w: PreparedWechat): Promise<WxPay> {
  const { default: WxPay } = await import('wechatpay-node-v3');
  const pay = new WxPay({
    appid: w.appId,
    mchid: w.mchId,
    serial_no: w.certSerial,
    publicKey: w.publicPart,
    privateKey: w.privateKeyPem,
    key: w.apiV3Key,
    userAgent: 'iot-console-payment',
  });
  pay.createHttp(new WechatHttp(w));
  return pay;
}

function refusal(data: unknown): string {
  if (data === null || typeof data !== 'object') return '';
  const { code, message } = data as { code?: unknown; message?: unknown };
  const parts = [code, message].filter((p): p is string => typeof p === 'string').map((p) => p.slice(0, 200));
  return parts.length ? ` (${parts.join(': ')})` : '';
}

/** POST /v3/pay/transactions/app through the library, and the app-side signature it makes of the prepay id */
export async function createWechatPayment(settings: WechatSettings, order: PaymentOrder): Promise<PaymentRequestOf<'wechat'>> {
  const w = prepareWechat(settings);
  const o = checkOrder('wechat', order);
  const params: Iapp = {
    description: cutUtf8(o.description, 127),
    out_trade_no: o.orderNo,
    notify_url: w.notifyUrl,
    amount: { total: o.amount, currency: 'CNY' },
  };
  if (o.expiresAt) params.time_expire = wechatTime(o.expiresAt);
  const result = await (await wechatPay(w)).transactions_app(params);
  if (result.status !== 200) throw new Error(`WeChat Pay refused the prepay order of ${o.orderNo}: HTTP ${result.status}${refusal(result.data)}`);
  // on success the library replaces the answer with the app-side parameters it signed
  const app = result.data as Record<string, unknown>;
  const { appid, partnerid, prepayid, noncestr, timestamp, sign } = app;
  if (typeof prepayid !== 'string' || !/^[\w-]{1,128}$/.test(prepayid) || typeof sign !== 'string') {
    throw new Error(`WeChat Pay answered the prepay order of ${o.orderNo} without a usable prepay_id`);
  }
  return {
    channel: 'wechat',
    appId: String(appid),
    partnerId: String(partnerid),
    prepayId: prepayid,
    package: 'Sign=WXPay',
    nonceStr: String(noncestr),
    timeStamp: String(timestamp),
    sign,
  };
}

/** the transaction (decrypted notice resource or query answer) as a verdict */
function decodeTransaction(w: PreparedWechat, t: unknown): NoticeResult {
  if (t === null || typeof t !== 'object') return { ok: false, reason: 'malformed' };
  const { appid, mchid, out_trade_no, transaction_id, trade_state, success_time, amount } = t as Record<string, unknown>;
  if (typeof appid !== 'string' || typeof mchid !== 'string' || typeof trade_state !== 'string') return { ok: false, reason: 'malformed' };
  if (appid !== w.appId || mchid !== w.mchId) return { ok: false, reason: 'merchant' };
  if (!isOrderNo('wechat', out_trade_no)) return { ok: false, reason: 'malformed' };
  if (trade_state !== 'SUCCESS') return { ok: true, paid: null };
  if (typeof transaction_id !== 'string' || !/^[\w-]{1,64}$/.test(transaction_id)) return { ok: false, reason: 'malformed' };
  const paidAt = parseRfc3339(success_time);
  if (!paidAt) return { ok: false, reason: 'malformed' };
  if (amount === null || typeof amount !== 'object') return { ok: false, reason: 'amount' };
  const { total, currency } = amount as Record<string, unknown>;
  const known = currencyOf(currency ?? 'CNY');
  if (typeof total !== 'number' || !Number.isSafeInteger(total) || total < 0 || !known) return { ok: false, reason: 'amount' };
  const paid: PaidNotice = { channel: 'wechat', orderNo: out_trade_no, transactionId: transaction_id, amount: total, currency: known, paidAt };
  return { ok: true, paid };
}

/** AES-256-GCM with the APIv3 key, the tag checked; undefined when it does not authenticate */
function openResource(apiV3Key: string, ciphertext: string, nonce: string, associatedData: string): string | undefined {
  const sealed = Buffer.from(ciphertext, 'base64');
  if (sealed.length <= 16) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(nonce, 'utf8'), { authTagLength: 16 });
    decipher.setAuthTag(sealed.subarray(sealed.length - 16));
    decipher.setAAD(Buffer.from(associatedData, 'utf8'));
    return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/** a payment notification: signature headers over the raw body, then the sealed resource */
export function verifyWechatNotification(settings: WechatSettings, req: NoticeRequest, now = Date.now()): NoticeResult {
  const w = prepareWechat(settings);
  const rawBody: unknown = req?.rawBody;
  if (typeof rawBody !== 'string' || !rawBody || Buffer.byteLength(rawBody) > MAX_NOTICE_BYTES) return { ok: false, reason: 'malformed' };
  const headers = req.headers;
  const verdict = checkSigned(
    w,
    {
      timestamp: headerValue(headers, 'wechatpay-timestamp'),
      nonce: headerValue(headers, 'wechatpay-nonce'),
      signature: headerValue(headers, 'wechatpay-signature'),
      serial: headerValue(headers, 'wechatpay-serial'),
    },
    rawBody,
    now,
  );
  if (verdict !== 'ok') return { ok: false, reason: verdict };
  let event: unknown;
  try {
    event = JSON.parse(rawBody);
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const resource = event !== null && typeof event === 'object' ? (event as { resource?: unknown }).resource : undefined;
  if (resource === null || typeof resource !== 'object') return { ok: false, reason: 'malformed' };
  const { algorithm, ciphertext, nonce, associated_data } = resource as Record<string, unknown>;
  if (algorithm !== 'AEAD_AES_256_GCM' || typeof ciphertext !== 'string' || !isBase64(ciphertext) || typeof nonce !== 'string' || !nonce || nonce.length > 64) {
    return { ok: false, reason: 'malformed' };
  }
  if (associated_data !== undefined && associated_data !== null && typeof associated_data !== 'string') return { ok: false, reason: 'malformed' };
  const plain = openResource(w.apiV3Key, ciphertext, nonce, associated_data ?? '');
  if (plain === undefined) return { ok: false, reason: 'signature' };
  let transaction: unknown;
  try {
    transaction = JSON.parse(plain);
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  return decodeTransaction(w, transaction);
}

/**
 * GET /v3/pay/transactions/out-trade-no/{orderNo} through the library: the payment when its trade_state is SUCCESS;
 * null when unknown (404) or in any other state (NOTPAY, CLOSED, REFUND, USERPAYING, PAYERROR, REVOKED).
 */
export async function queryWechatPayment(settings: WechatSettings, orderNo: string): Promise<PaidNotice | null> {
  const w = prepareWechat(settings);
  if (!isOrderNo('wechat', orderNo)) throw new Error(`wechat payment query: order number ${JSON.stringify(orderNo)} is not one WeChat Pay takes`);
  const result = await (await wechatPay(w)).query({ out_trade_no: orderNo });
  if (result.status === 404) return null;
  if (result.status !== 200) throw new Error(`WeChat Pay refused the query of ${orderNo}: HTTP ${result.status}${refusal(result.data)}`);
  const verdict = decodeTransaction(w, result.data);
  if (!verdict.ok) throw new Error(`WeChat Pay's answer about ${orderNo} is unusable: ${verdict.reason}`);
  if (verdict.paid && verdict.paid.orderNo !== orderNo) throw new Error(`WeChat Pay answered the query of ${orderNo} about order ${verdict.paid.orderNo}`);
  return verdict.paid;
}
