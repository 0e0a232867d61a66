import { createAlipayPayment, queryAlipayPayment, validateAlipay, verifyAlipayNotification } from './alipay.js';
import type { AlipaySettings, ChannelSettings, NoticeAnswer, NoticeRequest, NoticeResult, PaidNotice, PayChannel, PaymentOrder, PaymentRequestOf, WechatSettings } from './types.js';
import { createWechatPayment, queryWechatPayment, validateWechat, verifyWechatNotification } from './wechat.js';

/**
 * Payment of cloud-storage orders from the phone app: WeChat Pay API v3 and Alipay, APP payment.
 * Amounts are integers of fen throughout; the provider's yuan text exists only inside the Alipay calls.
 * Every function takes the merchant's settings as given (each call reads and checks them, so one merchant's keys
 * never serve another's messages) and throws PaymentSettingsError when they are not usable.
 */
export * from './types.js';
export { validateAlipay, validateWechat };

function unknownChannel(channel: unknown): never {
  throw new Error(`unknown payment channel: ${JSON.stringify(channel)}`);
}

/**
 * What the app needs to open the provider's payment sheet. WeChat: POST /v3/pay/transactions/app (the order is
 * created at WeChat Pay), then the app-side signature of appid, timestamp, nonce and prepay id. Alipay: the signed
 * alipay.trade.app.pay order string (nothing is sent).
 */
export async function createPayment<C extends PayChannel>(channel: C, settings: ChannelSettings[C], order: PaymentOrder): Promise<PaymentRequestOf<C>> {
  if (channel === 'wechat') return (await createWechatPayment(settings as WechatSettings, order)) as PaymentRequestOf<C>;
  if (channel === 'alipay') return createAlipayPayment(settings as AlipaySettings, order) as PaymentRequestOf<C>;
  return unknownChannel(channel);
}

/**
 * Verifies a payment notification as it arrived (headers, raw body) and decodes it. Answer the provider with
 * noticeAnswer(channel, result.ok) — and compare a paid notice's amount and currency with the order's before
 * crediting it: the notice says what was paid, not that it was what was asked.
 */
export async function verifyNotification<C extends PayChannel>(channel: C, settings: ChannelSettings[C], req: NoticeRequest): Promise<NoticeResult> {
  if (channel === 'wechat') return verifyWechatNotification(settings as WechatSettings, req);
  if (channel === 'alipay') return verifyAlipayNotification(settings as AlipaySettings, req);
  return unknownChannel(channel);
}

/** Asks the provider about an order (when a notification is late or lost): the payment if it succeeded, else null. */
export async function queryPayment<C extends PayChannel>(channel: C, settings: ChannelSettings[C], orderNo: string): Promise<PaidNotice | null> {
  if (channel === 'wechat') return queryWechatPayment(settings as WechatSettings, orderNo);
  if (channel === 'alipay') return queryAlipayPayment(settings as AlipaySettings, orderNo);
  return unknownChannel(channel);
}

/**
 * The answer the provider expects for a notification. WeChat Pay: 200 `{"code":"SUCCESS"}`, or 400
 * `{"code":"FAIL",…}` (it sends the notice again later). Alipay: the text `success`, or `failure` (it sends again).
 */
export function noticeAnswer(channel: PayChannel, ok: boolean): NoticeAnswer {
  if (channel === 'wechat') {
    return ok
      ? { status: 200, contentType: 'application/json', body: JSON.stringify({ code: 'SUCCESS', message: '成功' }) }
      : { status: 400, contentType: 'application/json', body: JSON.stringify({ code: 'FAIL', message: 'notification refused' }) };
  }
  if (channel === 'alipay') return { status: 200, contentType: 'text/plain; charset=utf-8', body: ok ? 'success' : 'failure' };
  return unknownChannel(channel);
}
