import type { Currency } from '@console/contract';

/** The payment providers a cloud-storage order can be paid through (both as APP payment, from the phone app). */
export type PayChannel = 'wechat' | 'alipay';

/** A WeChat Pay API v3 merchant (direct merchant, APP payment). */
export interface WechatSettings {
  /** the mobile application's appid the merchant is bound to */
  appId: string;
  mchId: string;
  /** the APIv3 key: 32 characters, it seals the resource of every notification */
  apiV3Key: string;
  /** serial number of the merchant API certificate (hex) */
  certSerial: string;
  /** the merchant API private key (apiclient_key.pem; PKCS#8 or PKCS#1 PEM) */
  privateKey: string;
  /** the merchant API certificate (apiclient_cert.pem); when given, checked against privateKey and certSerial */
  merchantCert?: string;
  /** the WeChat Pay platform certificate, or the WeChat Pay public key (PEM), that signs answers and notifications */
  platformCert: string;
  /**
   * the serial WeChat Pay names in `Wechatpay-Serial`: taken from platformCert when it is a certificate; with a
   * public key, its id (`PUB_KEY_ID_…`). When known, an answer or notification naming another serial is refused.
   */
  platformSerial?: string;
  notifyUrl: string;
  /** origin of the API (no path); default https://api.mch.weixin.qq.com */
  baseUrl?: string;
}

/** An Alipay open-platform application (public-key mode, RSA2). */
export interface AlipaySettings {
  appId: string;
  /** the application private key: PKCS#8 or PKCS#1 PEM, or the bare base64 Alipay's key tool gives */
  privateKey: string;
  /** Alipay's public key (PEM or bare base64) — not the application's own public key */
  alipayPublicKey: string;
  /** the application public key uploaded to Alipay; when given, checked to be privateKey's public half */
  appPublicKey?: string;
  notifyUrl: string;
  /** default https://openapi.alipay.com/gateway.do */
  gateway?: string;
}

export interface ChannelSettings {
  wechat: WechatSettings;
  alipay: AlipaySettings;
}

/**
 * Why a settings field is refused:
 * - required: missing or empty
 * - format: not the shape the provider gives (appId, mchId, serials)
 * - keyUnparsable / certUnparsable: node:crypto cannot read it
 * - keyType: not an RSA key of at least 2048 bits
 * - keyMismatch: the public part does not verify what the private key signs
 * - ownKey: the provider's key is the merchant's own (the common mix-up of the two public keys)
 * - serialMismatch: the serial is not the certificate's
 * - certExpired: the certificate is past its validity
 * - apiV3KeyLength: the APIv3 key is not 32 bytes
 * - notifyUrl: not an https URL without query or credentials (http only for 127.0.0.1 / localhost)
 * - url: baseUrl / gateway not an https URL (http only for 127.0.0.1 / localhost); baseUrl an origin only
 */
export type SettingsProblem =
  | 'required'
  | 'format'
  | 'keyUnparsable'
  | 'certUnparsable'
  | 'keyType'
  | 'keyMismatch'
  | 'ownKey'
  | 'serialMismatch'
  | 'certExpired'
  | 'apiV3KeyLength'
  | 'notifyUrl'
  | 'url';

/** field → why it is refused; empty when the settings are usable */
export type SettingsProblems = Record<string, SettingsProblem>;

/** Thrown by the functions that need usable settings, with the refused fields. */
export class PaymentSettingsError extends Error {
  constructor(
    readonly channel: PayChannel,
    readonly fields: SettingsProblems,
  ) {
    super(`${channel} payment settings are not usable: ${Object.entries(fields).map(([f, why]) => `${f} ${why}`).join(', ')}`);
    this.name = 'PaymentSettingsError';
  }
}

export interface PaymentOrder {
  /** the merchant's order number (out_trade_no): [0-9A-Za-z_], 6 to 32 characters fits both providers */
  orderNo: string;
  /** minor units (fen) */
  amount: number;
  /** CNY: both providers' APP payment takes nothing else */
  currency: Currency;
  /** shown to the payer (WeChat's description, Alipay's subject); cut to the provider's limit */
  description: string;
  expiresAt?: Date;
}

/** what the phone app needs to open the provider's payment sheet */
export type PaymentRequest =
  | { channel: 'wechat'; appId: string; partnerId: string; prepayId: string; package: 'Sign=WXPay'; nonceStr: string; timeStamp: string; sign: string }
  | { channel: 'alipay'; orderString: string };

export type PaymentRequestOf<C extends PayChannel> = Extract<PaymentRequest, { channel: C }>;

/** a payment the provider vouches for; the caller still compares amount and currency with its own order */
export interface PaidNotice {
  channel: PayChannel;
  orderNo: string;
  /** the provider's transaction number (WeChat transaction_id, Alipay trade_no) */
  transactionId: string;
  /** minor units (fen) */
  amount: number;
  currency: Currency;
  paidAt: Date;
}

/**
 * A notification's verdict:
 * - signature: not signed by the provider's key (forged, tampered, other key type, a resource that does not authenticate)
 * - malformed: not a notification (empty, not JSON / form, missing headers or fields, too large)
 * - amount: authentic but its amount is not an exact amount of minor units
 * - stale: authentic but signed more than 5 minutes away from now (a replay)
 * - merchant: authentic but addressed to another appid / merchant
 */
export type NoticeRefusal = 'signature' | 'malformed' | 'amount' | 'stale' | 'merchant';

export type NoticeResult =
  | { ok: true; /** null: a valid notice of a state other than success */ paid: PaidNotice | null }
  | { ok: false; reason: NoticeRefusal };

/** the notification request as it arrived: headers as node gives them, the body exactly as received */
export interface NoticeRequest {
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
}

/** the answer to send back for a notification */
export interface NoticeAnswer {
  status: number;
  contentType: string;
  body: string;
}
