/** A small seeded PRNG and the hostile values the fuzzer feeds to every parameter. */

/** sfc32: fast, good enough, and the same sequence on every platform for a given seed. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    for (let i = 0; i < 12; i++) this.uint32();
  }

  uint32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** [0, 1) */
  next(): number {
    return this.uint32() / 4294967296;
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (!items.length) throw new Error('pick from an empty list');
    return items[this.int(items.length)] as T;
  }

  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [items[i], items[j]] = [items[j] as T, items[i] as T];
    }
    return items;
  }
}

/** FNV-1a over the parts: a stable 32-bit seed for one case of one operation. */
export function seedOf(...parts: (string | number)[]): number {
  let h = 0x811c9dc5;
  for (const ch of parts.join('\u0001')) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** A seed from `FUZZ_SEED` (a number, `random`, or any text hashed), else the fixed default. */
export function parseSeed(text: string | undefined, fallback: number): number {
  if (!text) return fallback;
  if (text === 'random') return Math.floor(Math.random() * 0x1_0000_0000);
  return /^\d+$/.test(text) ? Number(BigInt(text) & 0xffffffffn) : seedOf(text);
}

const LONG = 'x'.repeat(100_000);

/** Hostile strings: for query values, header values, JSON string values, keys. */
export const HOSTILE: readonly string[] = [
  '', ' ', '   \t\n', '\u0000', 'a\u0000b', '\u0000'.repeat(16), '%00', '\u0001\u001f\u007f',
  '9999999999999999999', '99999999999', '2147483648', '-2147483649', '-1', '0', '-0', '1e309', '-1e309', 'NaN', 'Infinity',
  '0x10', '1e3', '1.5', '+1', '00001', '9223372036854775807', '9223372036854775808', '-9223372036854775809',
  '18446744073709551616', '1'.repeat(40), '123456789012345678901234567890.5',
  LONG, 'x'.repeat(256), 'y'.repeat(5000), '😀'.repeat(64), '\u202Eevil\u202C', 'ـ\u200f\u200e', '\ud800', '\udfff', 'a\ud800b', '𝔘𝔫𝔦', 'İıſK',
  "' OR '1'='1", "'; DROP TABLE blade_user; --", '" OR ""="', '\\', '\\\\\'', '%', '_', '%_%', '*', '?', '$1', ':name', '@@version',
  '{"a":1}', '[1,2]', '{', ']', 'null', 'true', 'false', 'undefined', '${7*7}', '{{7*7}}', '<script>alert(1)</script>',
  '../../../../etc/passwd', ',,,', '1,2,3,,x', '1,'.repeat(3000), ' 1 , 2 ', '1;2', '\r\nX-Injected: 1',
  '2024-13-45 25:61:61', '0000-00-00 00:00:00', '9999-12-31 23:59:59', '275760-09-13', '2024-02-30', '1970-01-01T00:00:00Z',
  '-infinity', 'epoch', 'now()', '2024-01-01 00:00:00\u0000', '0'.repeat(32), 'f'.repeat(32),
  '9999-12-31T23:59:59+14:00', '0001-01-01 00:00:00', '-000001-01-01T00:00:00Z',
];

/** Dates at and past the edges: every date-like field and date filter gets each of them. */
const DATES = ['9999-12-31 23:59:59', '9999-12-31T23:59:59+14:00', '0000-00-00 00:00:00', '0001-01-01 00:00:00', '275760-09-13',
  '-000001-01-01T00:00:00Z', '2024-02-30', '2024-13-45 25:61:61', '1970-01-01T00:00:00Z', '-infinity'];
/** Indexes into HOSTILE (and HOSTILE_JSON, which starts with HOSTILE's strings) of the edge dates. */
export const DATE_VALUES: readonly number[] = DATES.map((v) => HOSTILE.indexOf(v));
/** Field names that hold a date or a time. */
export const DATE_FIELD = /(?:time|date|day|birthday)$/i;

/** Hostile JSON values as raw JSON text (typed values the query string cannot carry). */
export const HOSTILE_JSON: readonly string[] = [
  ...HOSTILE.map((s) => JSON.stringify(s)),
  '9999999999999999999', '99999999999', '2147483648', '-2147483649', '-1', '0', '-0', '1e309', '-1e309', '1.5', '1e-400',
  '123456789012345678901234567890', '0.1e1', 'true', 'false', 'null', '[]', '{}', '[1,"a",null]', '["a","b"]', '[["x"]]',
  '{"a":{"b":[1]}}', '{"$ne":1}', '{"__proto__":{"polluted":1}}', '{"toString":1}', `${'['.repeat(64)}1${']'.repeat(64)}`,
  `${'{"a":'.repeat(64)}1${'}'.repeat(64)}`, `[${'"x",'.repeat(2000)}"x"]`,
];

/** Values for filter keys: plausible ones (to reach the query) and hostile ones. */
export const FILTER_VALUES: readonly string[] = [
  '1', 'a', '2024-01-01', '2024-01-01 00:00:00', '1,2,3', '', ' ', '\u0000', 'a\u0000', '9999999999999999999', '-1', '1e309', 'NaN',
  '0x10', "'", '%', '_', '\\', '😀', '\ud800', 'x'.repeat(100_000), '2024-13-45', 'true', 'null', ',', '1,'.repeat(3000),
  '9223372036854775808', '2147483648', '0', '-9223372036854775809', '275760-09-13', 'today', ',,,', '1,,2', ' , ',
  ...DATES.filter((d) => d !== '275760-09-13'),
];
/** Indexes into FILTER_VALUES of the edge dates, for the date filters. */
export const DATE_FILTER_VALUES: readonly number[] = DATES.map((v) => FILTER_VALUES.indexOf(v));

/** Indexes into FILTER_VALUES that every filter suffix of every list gets. */
export const EDGE_FILTER_VALUES: readonly number[] = ['', ' ', ',,,', '\u0000', '9999999999999999999', '1e309', "'", 'x'.repeat(100_000)]
  .map((v) => FILTER_VALUES.indexOf(v));

/** Keys no route declares. */
export const UNDECLARED_KEYS: readonly string[] = [
  'id', 'ids', 'tenantId', 'tenant_id', 'isDeleted', 'is_deleted', 'password', 'createUser', 'status', '$index', 'xRange[]',
  '__proto__', 'constructor', 'prototype', 'a\u0000b', '\u0000', '', ' ', 'k'.repeat(1000), '😀', "a'b", 'a"b', 'a;b', 'a.b',
  'a[b]', 'blade-auth', 'current', 'size', 'ascs', 'descs', 'createTime_datege', 'nope_equal', '_like', 'id_in',
];

/** `ascs` / `descs` values. */
export const ORDER_VALUES: readonly string[] = [
  'id;drop table blade_user', 'createTime,,', 'nope', 'id desc', 'ID', 'create_time', '(select 1)', 'x'.repeat(600), '\u0000',
  ',', 'id,id,id', '-id', 'password', 'tenant_id', 'is_deleted', 'id\u0000', '1', '"id"', 'id)--', 'createTime,nope', '😀', '',
];

/** `current` / `size` values. */
export const PAGING_VALUES: readonly string[] = [
  '0', '-1', '501', '10000001', '1e3', '0x10', '1.5', '9999999999999999999', 'NaN', '', ' ', 'abc', '2147483648', '500', '1',
  '\u0000', '1\u0000', '-0', 'Infinity', '99999999999',
];

/** Headers the server reads, with junk for them. */
export const JUNK_HEADERS: readonly string[] = ['tenant-id', 'dept-id', 'role-id', 'captcha-key', 'captcha-code', 'accept-language'];
export const HEADER_VALUES: readonly string[] = [
  '', ' ', '\u0000', 'a\u0000b', '000000', '541742', '9999999999999999999', '-1', 'x'.repeat(10_000), '😀\u202E', '\ud800',
  "' OR 1=1 --", 'en', 'en;q=junk', '*', 'zh-CN,zh;q=0.9,en;q=0.8', ',,,;;;', 'null', '1,2,3', 'en-US\u0000zh',
];

/** Plausible values by parameter name, so some requests get past the first checks. */
export const PLAUSIBLE: Record<string, readonly string[]> = {
  grant_type: ['password', 'refresh_token', 'captcha', 'authorization_code', 'client_credentials', 'social'],
  grantType: ['password', 'refresh_token'],
  tenantId: ['000000', '541742'],
  username: ['nobody', 'fuzzer'],
  account: ['nobody', 'fuzzer'],
  scope: ['all'],
  type: ['account', '1', '2'],
  code: ['DICT', 'notice', 'sex'],
  kind: ['avatar', 'file'],
  domain: ['localhost', 'example.com'],
  days: ['7', '30'],
  current: ['1', '2'],
  size: ['10', '500'],
};

/** Percent-encodes every byte of the UTF-8 form except the unreserved characters. */
export function enc(s: string): string {
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
