import { createPrivateKey, createPublicKey, createSign, createVerify, randomBytes, X509Certificate, type KeyObject } from 'node:crypto';
import { isCurrency, type Currency } from '@console/contract';
import type { PayChannel, PaymentOrder, SettingsProblem, SettingsProblems } from './types.js';

/** a notification body larger than this is refused unread (both providers' notices are a few KiB) */
export const MAX_NOTICE_BYTES = 64 * 1024;
/** an answer of a provider's API larger than this is refused */
export const MAX_ANSWER_BYTES = 1024 * 1024;
/** how far a signed timestamp may be from now (WeChat Pay's rule for answers and notifications) */
export const MAX_SKEW_SECONDS = 5 * 60;
/** how long a call to a provider's API may take */
export const CALL_TIMEOUT_MS = 10_000;

const MAX_KEY_TEXT = 16 * 1024;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export function isBase64(text: string): boolean {
  return text.length % 4 === 0 && BASE64.test(text);
}

/** a private key from a PEM (PKCS#8, PKCS#1) or from the bare base64 of its DER, as Alipay's key tool gives it */
export function readPrivateKey(text: string): KeyObject | undefined {
  if (text.length > MAX_KEY_TEXT) return undefined;
  const trimmed = text.trim();
  if (trimmed.startsWith('-----BEGIN')) {
    if (!/^-----BEGIN (RSA )?PRIVATE KEY-----/.test(trimmed)) return undefined;
    try {
      return createPrivateKey({ key: trimmed, format: 'pem' });
    } catch {
      return undefined;
    }
  }
  const bare = trimmed.replace(/\s+/g, '');
  if (!isBase64(bare)) return undefined;
  const der = Buffer.from(bare, 'base64');
  for (const type of ['pkcs8', 'pkcs1'] as const) {
    try {
      return createPrivateKey({ key: der, format: 'der', type });
    } catch {
      // the other encoding
    }
  }
  return undefined;
}

/**
 * A public key from a PEM (SPKI or PKCS#1) or from the bare base64 of its DER. A private key or a certificate is not
 * taken here (node would derive a public key from either, hiding a field mix-up).
 */
export function readPublicKey(text: string): KeyObject | undefined {
  if (text.length > MAX_KEY_TEXT) return undefined;
  const trimmed = text.trim();
  if (trimmed.startsWith('-----BEGIN')) {
    if (!/^-----BEGIN (RSA )?PUBLIC KEY-----/.test(trimmed)) return undefined;
    try {
      return createPublicKey({ key: trimmed, format: 'pem' });
    } catch {
      return undefined;
    }
  }
  const bare = trimmed.replace(/\s+/g, '');
  if (!isBase64(bare)) return undefined;
  const der = Buffer.from(bare, 'base64');
  for (const type of ['spki', 'pkcs1'] as const) {
    try {
      return createPublicKey({ key: der, format: 'der', type });
    } catch {
      // the other encoding
    }
  }
  return undefined;
}

export function readCertificate(text: string): X509Certificate | undefined {
  if (text.length > MAX_KEY_TEXT) return undefined;
  const trimmed = text.trim();
  if (!trimmed.startsWith('-----BEGIN CERTIFICATE-----')) return undefined;
  try {
    return new X509Certificate(trimmed);
  } catch {
    return undefined;
  }
}

/** RSA of at least 2048 bits: what SHA256withRSA (WeChat's and Alipay's RSA2) is meant with */
export function isRsa2048(key: KeyObject): boolean {
  return key.asymmetricKeyType === 'rsa' && (key.asymmetricKeyDetails?.modulusLength ?? 0) >= 2048;
}

/** whether the public key verifies what the private key signs (SHA256withRSA over a fresh challenge) */
export function keyPairMatches(privateKey: KeyObject, publicKey: KeyObject): boolean {
  try {
    const challenge = randomBytes(32);
    const signature = createSign('RSA-SHA256').update(challenge).sign(privateKey);
    return createVerify('RSA-SHA256').update(challenge).verify(publicKey, signature);
  } catch {
    return false;
  }
}

export function certificateExpired(cert: X509Certificate, now = Date.now()): boolean {
  const until = Date.parse(cert.validTo);
  return !Number.isFinite(until) || until < now;
}

/** a serial as compared: upper case, no leading zeros (node pads a serial to whole bytes, others do not) */
export function normalSerial(serial: string): string {
  return serial.trim().toUpperCase().replace(/^0+(?=.)/, '');
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

function parseUrl(text: string): URL | undefined {
  if (text.length > 256) return undefined;
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

function secureOrLoopback(url: URL): boolean {
  if (url.username || url.password) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
}

/** a notification URL both providers accept: https, no query (WeChat forbids one), no credentials, no fragment */
export function notifyUrlProblem(text: string): SettingsProblem | undefined {
  const url = parseUrl(text);
  if (!url || !secureOrLoopback(url) || url.search || url.hash) return 'notifyUrl';
  return undefined;
}

/** a provider's API address: https (http only on this machine, for tests) */
export function serviceUrlProblem(text: string, originOnly: boolean): SettingsProblem | undefined {
  const url = parseUrl(text);
  if (!url || !secureOrLoopback(url) || url.search || url.hash) return 'url';
  if (originOnly && url.pathname !== '/') return 'url';
  return undefined;
}

/** Reads the settings' fields as untrusted input: a missing, empty or non-text field is noted. */
export class FieldReader {
  readonly problems: SettingsProblems = {};
  private readonly raw: Record<string, unknown>;

  constructor(settings: unknown) {
    this.raw = settings !== null && typeof settings === 'object' ? (settings as Record<string, unknown>) : {};
  }

  /** the field's text; undefined (and a problem noted) when required and missing, or not a text */
  text(field: string, optional = false): string | undefined {
    const value = this.raw[field];
    if (value === undefined || value === null || value === '') {
      if (!optional) this.problems[field] = 'required';
      return undefined;
    }
    if (typeof value !== 'string') {
      this.problems[field] = 'format';
      return undefined;
    }
    return value;
  }

  /** the field's text when it matches the pattern, else a format problem */
  matching(field: string, pattern: RegExp, optional = false): string | undefined {
    const value = this.text(field, optional);
    if (value === undefined) return undefined;
    if (!pattern.test(value)) {
      this.problems[field] = 'format';
      return undefined;
    }
    return value;
  }

  note(field: string, problem: SettingsProblem | undefined): void {
    if (problem && !this.problems[field]) this.problems[field] = problem;
  }

  get ok(): boolean {
    return Object.keys(this.problems).length === 0;
  }
}

/** the merchant's order number each provider takes */
const ORDER_NO: Record<PayChannel, RegExp> = {
  // WeChat: 6 to 32 of letters, digits, _-|*@
  wechat: /^[0-9A-Za-z_\-|*@]{6,32}$/,
  // Alipay: up to 64 of letters, digits and underscores
  alipay: /^[0-9A-Za-z_]{1,64}$/,
};

/** the largest amount each provider takes, in fen: WeChat's total is an int32; Alipay's limit is 100,000,000.00 yuan */
const MAX_AMOUNT: Record<PayChannel, number> = { wechat: 2 ** 31 - 1, alipay: 10_000_000_000 };

export function isOrderNo(channel: PayChannel, orderNo: unknown): orderNo is string {
  return typeof orderNo === 'string' && ORDER_NO[channel].test(orderNo);
}

/** the order as the provider will take it, or an Error naming what is wrong */
export function checkOrder(channel: PayChannel, order: PaymentOrder, now = Date.now()): PaymentOrder & { currency: 'CNY' } {
  if (order === null || typeof order !== 'object') throw new Error(`${channel} payment: the order is not an object`);
  const { orderNo, amount, currency, description, expiresAt } = order;
  if (!isOrderNo(channel, orderNo)) throw new Error(`${channel} payment: order number ${JSON.stringify(orderNo)} does not match ${ORDER_NO[channel]}`);
  if (!isCurrency(currency)) throw new Error(`${channel} payment of ${orderNo}: unknown currency ${JSON.stringify(currency)}`);
  if (currency !== 'CNY') throw new Error(`${channel} payment of ${orderNo}: APP payment is in CNY only, not ${currency}`);
  if (!Number.isSafeInteger(amount) || amount <= 0 || amount > MAX_AMOUNT[channel]) {
    throw new Error(`${channel} payment of ${orderNo}: amount ${String(amount)} is not a whole number of fen between 1 and ${MAX_AMOUNT[channel]}`);
  }
  if (typeof description !== 'string' || !description.trim()) throw new Error(`${channel} payment of ${orderNo}: the description is empty`);
  if (expiresAt !== undefined) {
    if (!(expiresAt instanceof Date) || Number.isNaN(expiresAt.getTime())) throw new Error(`${channel} payment of ${orderNo}: expiresAt is not a valid date`);
    if (expiresAt.getTime() <= now + 60_000) throw new Error(`${channel} payment of ${orderNo}: expiresAt ${expiresAt.toISOString()} is not at least a minute ahead`);
  }
  return { ...order, currency };
}

/** the text cut to at most `maxBytes` of UTF-8, on a character boundary */
export function cutUtf8(text: string, maxBytes: number): string {
  let out = '';
  let bytes = 0;
  for (const ch of text.trim()) {
    bytes += Buffer.byteLength(ch);
    if (bytes > maxBytes) break;
    out += ch;
  }
  return out;
}

const BEIJING_OFFSET_MS = 8 * 3600_000;

function beijingParts(date: Date): { day: string; time: string } {
  const iso = new Date(date.getTime() + BEIJING_OFFSET_MS).toISOString();
  return { day: iso.slice(0, 10), time: iso.slice(11, 19) };
}

/** `2024-05-01T12:00:00+08:00`: WeChat Pay's time_expire, whatever the server's time zone */
export function wechatTime(date: Date): string {
  const { day, time } = beijingParts(date);
  return `${day}T${time}+08:00`;
}

/** `2024-05-01 12:00:00` in Beijing time: Alipay's timestamp and time_expire, whatever the server's time zone */
export function alipayTime(date: Date): string {
  const { day, time } = beijingParts(date);
  return `${day} ${time}`;
}

/** an RFC 3339 time with its offset (WeChat's success_time), or undefined */
export function parseRfc3339(text: unknown): Date | undefined {
  if (typeof text !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? new Date(ms) : undefined;
}

/** Alipay's `yyyy-MM-dd HH:mm:ss` in Beijing time, or undefined */
export function parseAlipayTime(text: unknown): Date | undefined {
  if (typeof text !== 'string' || !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(text)) return undefined;
  const ms = Date.parse(`${text.replace(' ', 'T')}+08:00`);
  return Number.isFinite(ms) ? new Date(ms) : undefined;
}

/**
 * One header's value, by its name in any case: undefined when absent, null when it came more than once (or is
 * not text), so that a caller refuses rather than picks.
 */
export function headerValue(headers: unknown, name: string): string | undefined | null {
  if (headers === null || typeof headers !== 'object') return undefined;
  let found: string | undefined | null;
  for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
    if (key.toLowerCase() !== name) continue;
    if (found !== undefined) return null;
    if (typeof value === 'string') found = value;
    else if (Array.isArray(value) && value.length === 1 && typeof value[0] === 'string') found = value[0];
    else if (value === undefined) continue;
    else return null;
  }
  return found;
}

/** the currency a provider names, when this console knows it */
export function currencyOf(value: unknown): Currency | undefined {
  return isCurrency(value) ? value : undefined;
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
