import { format as fill, t, type I18nText, type Lang } from './i18n.js';
import type { TextFormat } from './resourceDef.js';

/**
 * The rules of the text formats a field may declare (`FieldDef.format`): one test and one message per format,
 * asked by the server's input schemas and the console's form rules alike, so a phone number refused in one form
 * is refused in every form and by the API (zod-free: the console's forms load it without the input schemas).
 */

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const MAC = /^[0-9A-Fa-f]{2}([:-]?[0-9A-Fa-f]{2}){5}$/;
/** a mainland mobile number: 11 digits starting with 1 */
export const MOBILE = /^1\d{10}$/;
/** a mobile, a landline with its area code and an optional extension (0755-12345678-123), or a 400/800 service number */
const PHONE = /^(1\d{10}|0\d{2,3}-?\d{7,8}(-\d{1,6})?|[48]00-?\d{3}-?\d{4})$/;
const EMAIL = /^[^\s@<>"',;]+@[^\s@<>"',;]+\.[^\s@<>"',;.]+$/;

/** Whether a text has the shape of its format (the browser's and Node's URL parser judge IPv6 and links). */
export function hasTextFormat(v: string, format: TextFormat): boolean {
  switch (format) {
    case 'ip':
      if (IPV4.test(v)) return true;
      if (!v.includes(':') || /[^0-9A-Fa-f:.]/.test(v)) return false;
      try {
        return new URL(`http://[${v}]/`).hostname.length > 2;
      } catch {
        return false;
      }
    case 'url':
      try {
        const u = new URL(v);
        return (u.protocol === 'http:' || u.protocol === 'https:') && !/[\s<>"'`]/.test(v);
      } catch {
        return false;
      }
    case 'mac':
      return MAC.test(v);
    case 'mobile':
      return MOBILE.test(v);
    case 'phone':
      return PHONE.test(v);
    case 'email':
      return EMAIL.test(v);
  }
}

/** What is said of a value not in its field's format; `{field}` is the field's label. */
export const TEXT_FORMAT_MESSAGES = {
  ip: { zh: '{field}不是有效的 IPv4 或 IPv6 地址', en: '{field} is not an IPv4 or IPv6 address' },
  url: { zh: '{field}须是 http:// 或 https:// 开头的网址', en: '{field} must be a link starting with http:// or https://' },
  mac: { zh: '{field}须是 12 位十六进制的 MAC 地址 (如 AA:BB:CC:DD:EE:FF)', en: '{field} must be a MAC address of 12 hex digits (such as AA:BB:CC:DD:EE:FF)' },
  mobile: { zh: '{field}须是 11 位手机号码 (1 开头)', en: '{field} must be a mobile number of 11 digits starting with 1' },
  phone: {
    zh: '{field}须是手机号码、带区号的固定电话 (如 0755-12345678) 或 400 电话',
    en: '{field} must be a mobile number, a landline with its area code (such as 0755-12345678) or a 400 number',
  },
  email: { zh: '{field}不是有效的电子邮箱地址', en: '{field} is not a valid email address' },
} as const satisfies Record<TextFormat, I18nText>;

/** The message of a value not in `format`, naming the field by its label. */
export function textFormatMessage(format: TextFormat, label: string, lang: Lang): string {
  return fill(t(TEXT_FORMAT_MESSAGES[format], lang), { field: label });
}
