import { type KeyObject } from 'node:crypto';
import { createRequire } from 'node:module';
import type { AlipaySdk } from 'alipay-sdk';
import { formatMoney, parseMoney } from '@console/contract';
import {
  CALL_TIMEOUT_MS,
  MAX_NOTICE_BYTES,
  FieldReader,
  alipayTime,
  checkOrder,
  cutUtf8,
  errorText,
  isOrderNo,
  isRsa2048,
  keyPairMatches,
  notifyUrlProblem,
  parseAlipayTime,
  readPrivateKey,
  readPublicKey,
  serviceUrlProblem,
} from './common.js';
import { PaymentSettingsError, type AlipaySettings, type NoticeRequest, type NoticeResult, type PaidNotice, type PaymentOrder, type PaymentRequestOf, type SettingsProblems } from './types.js';

/**
 * Alipay APP payment through the official alipay-sdk (4.14.0), public-key mode, RSA2.
 *
 * - The order string: `sdkExecute('alipay.trade.app.pay', …)` signs it; no HTTP call.
 * - Notifications: `checkNotifySignV2` on the form fields as decoded once (the V1 `checkNotifySign` would
 *   percent-decode the values a second time). The SDK takes the algorithm from the notice's own `sign_type` (RSA
 *   would mean SHA-1), so anything but RSA2 is refused before it is asked.
 * - Queries: `exec('alipay.trade.query', …, { validateSign: true })` against the settings' gateway (the SDK's own
 *   `gateway` option: that is the whole base-URL injection), the answer's signature checked by the SDK.
 *
 * The keys are read with node:crypto first and given to the SDK as PKCS#8 / SPKI PEM: the SDK rebuilds a PEM from the
 * lines of what it is given under the header its `keyType` names, so a PKCS#8 key passed as the default PKCS#1 (or
 * bare base64 of the other kind) would break only at the first signature. Its default timestamp is the server's local
 * time, which Alipay reads as Beijing time; each call passes Beijing time explicitly.
 */

const DEFAULT_GATEWAY = 'https://openapi.alipay.com/gateway.do';

interface PreparedAlipay {
  appId: string;
  privateKeyPem: string;
  alipayPublicKeyPem: string;
  notifyUrl: string;
  gateway: string;
}

function inspectAlipay(settings: unknown): { problems: SettingsProblems; prepared?: PreparedAlipay } {
  const f = new FieldReader(settings);
  const appId = f.matching('appId', /^\d{1,32}$/);

  const privateText = f.text('privateKey');
  const privateKey = privateText === undefined ? undefined : readPrivateKey(privateText);
  if (privateText !== undefined && !privateKey) f.note('privateKey', 'keyUnparsable');
  if (privateKey && !isRsa2048(privateKey)) f.note('privateKey', 'keyType');
  const usableKey = privateKey && isRsa2048(privateKey) ? privateKey : undefined;

  const readPublic = (field: string, optional: boolean): KeyObject | undefined => {
    const text = f.text(field, optional);
    if (text === undefined) return undefined;
    const key = readPublicKey(text);
    if (!key) f.note(field, 'keyUnparsable');
    else if (!isRsa2048(key)) f.note(field, 'keyType');
    return key && isRsa2048(key) ? key : undefined;
  };
  const alipayPublicKey = readPublic('alipayPublicKey', false);
  if (usableKey && alipayPublicKey && keyPairMatches(usableKey, alipayPublicKey)) f.note('alipayPublicKey', 'ownKey');
  const appPublicKey = readPublic('appPublicKey', true);
  if (usableKey && appPublicKey && !keyPairMatches(usableKey, appPublicKey)) f.note('appPublicKey', 'keyMismatch');

  const notifyUrl = f.text('notifyUrl');
  if (notifyUrl !== undefined) f.note('notifyUrl', notifyUrlProblem(notifyUrl));
  const gateway = f.text('gateway', true) ?? DEFAULT_GATEWAY;
  f.note('gateway', serviceUrlProblem(gateway, false));

  if (!f.ok || !usableKey || !alipayPublicKey) return { problems: f.problems };
  return {
    problems: {},
    prepared: {
      appId: appId!,
      privateKeyPem: usableKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      alipayPublicKeyPem: alipayPublicKey.export({ type: 'spki', format: 'pem' }).toString(),
      notifyUrl: notifyUrl!,
      gateway,
    },
  };
}

/**
 * Field → why it is refused, empty when the settings are usable. Keys are read with node:crypto (PEM or Alipay's bare
 * base64); Alipay's public key must not be the application's own; appPublicKey, when given, must verify what
 * privateKey signs.
 */
export function validateAlipay(settings: Partial<AlipaySettings>): SettingsProblems {
  return inspectAlipay(settings).problems;
}

function prepareAlipay(settings: unknown): PreparedAlipay {
  const { problems, prepared } = inspectAlipay(settings);
  if (!prepared) throw new PaymentSettingsError('alipay', problems);
  return prepared;
}

/**
 * The SDK's class, loaded at the first payment, not at start: with its HTTP client it is the heaviest library
 * of the server and most servers never take a payment (bench/RESULTS.md, "The embedded database's idle memory").
 * Required (its CommonJS build), not imported: creating an order string and checking a notice stay synchronous.
 */
let sdkClass: typeof AlipaySdk | undefined;

function alipaySdk(p: PreparedAlipay): AlipaySdk {
  sdkClass ??= (createRequire(import.meta.url)('alipay-sdk') as typeof import('alipay-sdk')).AlipaySdk;
  return new sdkClass({
    appId: p.appId,
    privateKey: p.privateKeyPem,
    keyType: 'PKCS8',
    alipayPublicKey: p.alipayPublicKeyPem,
    signType: 'RSA2',
    gateway: p.gateway,
    timeout: CALL_TIMEOUT_MS,
    camelcase: true,
  });
}

/** alipay.trade.app.pay as the signed order string the app hands to the Alipay SDK */
export function createAlipayPayment(settings: AlipaySettings, order: PaymentOrder): PaymentRequestOf<'alipay'> {
  const p = prepareAlipay(settings);
  const o = checkOrder('alipay', order);
  // Alipay takes no / = & in a subject
  const subject = cutUtf8(o.description.replace(/[/=&]+/g, ' ').replace(/\s+/g, ' '), 256);
  if (!subject) throw new Error(`alipay payment of ${o.orderNo}: the description has nothing Alipay takes as a subject`);
  const bizContent: Record<string, string> = {
    out_trade_no: o.orderNo,
    total_amount: formatMoney(o.amount, o.currency),
    subject,
    product_code: 'QUICK_MSECURITY_PAY',
  };
  if (o.expiresAt) bizContent.time_expire = alipayTime(o.expiresAt);
  const orderString = alipaySdk(p).sdkExecute('alipay.trade.app.pay', {
    notifyUrl: p.notifyUrl,
    timestamp: alipayTime(new Date()),
    bizContent,
  });
  return { channel: 'alipay', orderString };
}

const PAID_STATES = new Set(['TRADE_SUCCESS', 'TRADE_FINISHED']);
const UNPAID_STATES = new Set(['WAIT_BUYER_PAY', 'TRADE_CLOSED']);

/** a yuan text that converts to fen exactly: digits, and at most two after a point (no sign, spaces, exponent) */
function exactFen(text: unknown): number | undefined {
  if (typeof text !== 'string' || !/^\d+(\.\d+)?$/.test(text)) return undefined;
  return parseMoney(text, 'CNY');
}

interface TradeFields {
  orderNo: unknown;
  tradeNo: unknown;
  status: unknown;
  totalAmount: unknown;
  paidAt: unknown;
}

function decodeTrade(t: TradeFields): NoticeResult {
  const { orderNo, tradeNo, status } = t;
  if (!isOrderNo('alipay', orderNo) || typeof status !== 'string') return { ok: false, reason: 'malformed' };
  if (UNPAID_STATES.has(status)) return { ok: true, paid: null };
  if (!PAID_STATES.has(status)) return { ok: false, reason: 'malformed' };
  if (typeof tradeNo !== 'string' || !/^\w{1,64}$/.test(tradeNo)) return { ok: false, reason: 'malformed' };
  const amount = exactFen(t.totalAmount);
  if (amount === undefined) return { ok: false, reason: 'amount' };
  const paidAt = parseAlipayTime(t.paidAt);
  if (!paidAt) return { ok: false, reason: 'malformed' };
  return { ok: true, paid: { channel: 'alipay', orderNo, transactionId: tradeNo, amount, currency: 'CNY', paidAt } };
}

/** an asynchronous notification: a form body signed RSA2 by Alipay's key, for this app */
export function verifyAlipayNotification(settings: AlipaySettings, req: NoticeRequest): NoticeResult {
  const p = prepareAlipay(settings);
  const rawBody: unknown = req?.rawBody;
  if (typeof rawBody !== 'string' || !rawBody || Buffer.byteLength(rawBody) > MAX_NOTICE_BYTES) return { ok: false, reason: 'malformed' };
  const fields: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(rawBody)) {
    // a field twice is one too many: which of them was signed would be a guess
    if (Object.hasOwn(fields, key)) return { ok: false, reason: 'malformed' };
    fields[key] = value;
  }
  if (!fields.sign || !fields.sign_type) return { ok: false, reason: 'malformed' };
  if (fields.sign_type !== 'RSA2') return { ok: false, reason: 'signature' };
  let verified = false;
  try {
    verified = alipaySdk(p).checkNotifySignV2(fields);
  } catch {
    verified = false;
  }
  if (!verified) return { ok: false, reason: 'signature' };
  if (fields.app_id !== p.appId) return { ok: false, reason: 'merchant' };
  // a partial refund is notified with the trade still TRADE_SUCCESS: it is no payment
  if (fields.gmt_refund !== undefined || fields.refund_fee !== undefined) return { ok: true, paid: null };
  return decodeTrade({
    orderNo: fields.out_trade_no,
    tradeNo: fields.trade_no,
    status: fields.trade_status,
    totalAmount: fields.total_amount,
    paidAt: fields.gmt_payment ?? fields.notify_time,
  });
}

/**
 * alipay.trade.query through the SDK, its answer's signature checked: the payment when it is TRADE_SUCCESS or
 * TRADE_FINISHED; null when unknown, WAIT_BUYER_PAY or TRADE_CLOSED (closed unpaid, or refunded in full).
 */
export async function queryAlipayPayment(settings: AlipaySettings, orderNo: string): Promise<PaidNotice | null> {
  const p = prepareAlipay(settings);
  if (!isOrderNo('alipay', orderNo)) throw new Error(`alipay payment query: order number ${JSON.stringify(orderNo)} is not one Alipay takes`);
  let answer: Record<string, unknown>;
  try {
    answer = await alipaySdk(p).exec('alipay.trade.query', { timestamp: alipayTime(new Date()), bizContent: { out_trade_no: orderNo } }, { validateSign: true });
  } catch (e) {
    throw new Error(`Alipay trade query of ${orderNo} failed: ${errorText(e).slice(0, 300)}`);
  }
  const { code, subCode, subMsg, msg } = answer;
  if (code === '40004' && subCode === 'ACQ.TRADE_NOT_EXIST') return null;
  if (code !== '10000') throw new Error(`Alipay refused the trade query of ${orderNo}: ${[code, subCode, subMsg ?? msg].filter((x) => typeof x === 'string').join(' ')}`);
  const verdict = decodeTrade({
    orderNo: answer.outTradeNo,
    tradeNo: answer.tradeNo,
    status: answer.tradeStatus,
    totalAmount: answer.totalAmount,
    paidAt: answer.sendPayDate,
  });
  if (!verdict.ok) throw new Error(`Alipay's answer about ${orderNo} is unusable: ${verdict.reason}`);
  if (verdict.paid && verdict.paid.orderNo !== orderNo) throw new Error(`Alipay answered the query of ${orderNo} about order ${verdict.paid.orderNo}`);
  return verdict.paid;
}
