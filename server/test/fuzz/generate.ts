/**
 * Builds the fuzzer's requests for one operation of the OpenAPI document: a plausible base request
 * (values the operation accepted while learning, real ids and records harvested from the lists, valid
 * auth) with one systematic mutation or a few random ones. Every case has a stable id and its own seed,
 * so a failure reproduces with the same FUZZ_SEED whatever else runs.
 */
import { createHash } from 'node:crypto';
import { FILTER_OPS } from '@console/contract';
import type { Operation } from './openapi.js';
import {
  DATE_FIELD, DATE_FILTER_VALUES, DATE_VALUES, EDGE_FILTER_VALUES, enc, FILTER_VALUES, HEADER_VALUES, HOSTILE, HOSTILE_JSON, JUNK_HEADERS, ORDER_VALUES, PAGING_VALUES, PLAUSIBLE, Rng,
  seedOf, UNDECLARED_KEYS,
} from './values.js';

export type Who = 'platform' | 'tenant';

/** What the fuzzer knows at the time a request is built. */
export interface FuzzEnv {
  basic: string;
  token(who: Who): string;
  /** the token of a user of the phone app, for the operations that take one */
  appToken: string;
  /** the token of a throw-away session (for sign-out), or of one already signed out when none are left */
  spareToken(): { token: string; fresh: boolean };
  /** real record ids harvested from the lists */
  ids: readonly string[];
  /** records of the operation's resource (from its list), for plausible bodies and values */
  samples(op: Operation): readonly Record<string, unknown>[];
  /** parameter values the operation accepted before the run (see learn.ts) */
  template(op: Operation): Readonly<Record<string, unknown>> | undefined;
}

export interface BuiltRequest {
  caseId: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  remoteAddress: string;
  /** what was done to the base request */
  labels: string[];
  auth: string;
  /** set when the request carries a valid client and the token of this identity's own session */
  who?: Who;
  /** the request carries a valid client and a live token (the fuzzer's own or a throw-away one) */
  authValid: boolean;
  size: number;
}

interface Draft {
  op: Operation;
  rng: Rng;
  pathValues: Record<string, string>;
  pathSuffix: string;
  /** encoded query items (`k=v` or a bare `k`) */
  query: string[];
  headers: Record<string, string>;
  auth: number;
  who: Who;
  /** a JSON object body: key → raw JSON text of the value */
  json?: Map<string, string>;
  raw?: { contentType?: string; payload: string | Buffer };
  remoteAddress: string;
  labels: string[];
}

export type Case =
  | { id: string; kind: 'auth'; variant: number }
  | { id: string; kind: 'body'; variant: number }
  | { id: string; kind: 'shape'; variant: number }
  | { id: string; kind: 'header'; name: string; value: number }
  | { id: string; kind: 'value'; where: 'query' | 'body' | 'path'; name: string; value: number }
  | { id: string; kind: 'filter'; key: string; value: number }
  | { id: string; kind: 'paging'; key: string; value: number }
  | { id: string; kind: 'random'; n: number };

const show = (s: string, max = 40) => {
  const head = s.length > max ? s.slice(0, max) : s;
  return `${JSON.stringify(head)}${s.length > max ? `…(${s.length} chars)` : ''}`;
};
const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');
const b64url = (s: string) => Buffer.from(s).toString('base64url');
const isWrite = (op: Operation) => op.method !== 'GET';
const md5 = (s: string) => createHash('md5').update(s).digest('hex');

// ---------------------------------------------------------------- auth

interface AuthVariant {
  label: string;
  /** valid client and token: the identity's own session */
  valid?: boolean;
  apply(d: Draft, env: FuzzEnv, token: string): void;
}

function tamperSignature(t: string): string {
  return `${t.slice(0, -4)}${t.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
}
function swapClaims(t: string): string {
  const [h, p, s] = t.split('.');
  try {
    const claims = JSON.parse(Buffer.from(p ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
    claims.tenant_id = claims.tenant_id === '000000' ? '541742' : '000000';
    claims.role_name = 'administrator';
    return `${h}.${b64url(JSON.stringify(claims))}.${s}`;
  } catch {
    return `${t}x`;
  }
}
function algNone(t: string): string {
  const [, p] = t.split('.');
  return `${b64url('{"alg":"none","typ":"JWT"}')}.${p}.`;
}

const both = (d: Draft, env: FuzzEnv, token: string) => {
  d.headers.authorization = env.basic;
  d.headers['blade-auth'] = `bearer ${token}`;
};
const withBearer = (bearer: string) => (d: Draft, env: FuzzEnv) => {
  d.headers.authorization = env.basic;
  d.headers['blade-auth'] = bearer;
};
const withBasic = (basic: string) => (d: Draft, _env: FuzzEnv, token: string) => {
  d.headers.authorization = basic;
  d.headers['blade-auth'] = `bearer ${token}`;
};

export const AUTH: readonly AuthVariant[] = [
  { label: 'valid client + token', valid: true, apply: both },
  { label: 'no auth', apply: () => undefined },
  { label: 'client only', apply: (d, env) => { d.headers.authorization = env.basic; } },
  { label: 'token only (no client)', apply: (d, _env, t) => { d.headers['blade-auth'] = `bearer ${t}`; } },
  { label: 'Basic without credentials', apply: withBasic('Basic') },
  { label: 'Basic b64("saber\\0:x")', apply: withBasic(`Basic ${b64('saber\u0000:x')}`) },
  { label: 'Basic b64("saber:saber_secret\\0")', apply: withBasic(`Basic ${b64('saber:saber_secret\u0000')}`) },
  { label: 'Basic A×100000', apply: withBasic(`Basic ${'A'.repeat(100_000)}`) },
  { label: 'Basic \\0', apply: withBasic('Basic \u0000') },
  { label: 'Basic b64(":")', apply: withBasic(`Basic ${b64(':')}`) },
  { label: 'Basic !!!not-base64', apply: withBasic('Basic !!!not-base64') },
  { label: 'Basic b64("nobody:x")', apply: withBasic(`Basic ${b64('nobody:x')}`) },
  { label: 'Basic b64(0xff 0xfe : 0x00)', apply: withBasic(`Basic ${b64(Buffer.from([0xff, 0xfe, 0x3a, 0x00]))}`) },
  { label: 'Basic b64("saber:" + x×10000)', apply: withBasic(`Basic ${b64(`saber:${'x'.repeat(10_000)}`)}`) },
  { label: 'valid Basic + junk suffix', apply: (d, env, t) => withBasic(`${env.basic}!!`)(d, env, t) },
  { label: 'Bearer token in Authorization', apply: (d, _env, t) => { d.headers.authorization = `Bearer ${t}`; } },
  { label: 'bearer without token', apply: withBearer('bearer') },
  { label: 'bearer x×10000', apply: withBearer(`bearer ${'x'.repeat(10_000)}`) },
  { label: 'bearer \\0', apply: withBearer('bearer \u0000') },
  { label: 'bearer a.b.c', apply: withBearer('bearer a.b.c') },
  { label: 'bearer tampered signature', apply: (d, env, t) => withBearer(`bearer ${tamperSignature(t)}`)(d, env) },
  { label: 'bearer alg none', apply: (d, env, t) => withBearer(`bearer ${algNone(t)}`)(d, env) },
  { label: 'bearer with swapped tenant claims', apply: (d, env, t) => withBearer(`bearer ${swapClaims(t)}`)(d, env) },
  { label: 'two bearer tokens', apply: (d, env, t) => withBearer(`bearer ${t} bearer ${t}`)(d, env) },
  { label: 'junk blade-auth query parameter', apply: (d) => { d.query.push(`blade-auth=${enc('bearer \u0000')}`); } },
  { label: 'valid token in the query, no client', valid: true, apply: (d, _env, t) => { d.query.push(`blade-auth=${enc(`bearer ${t}`)}`); } },
  { label: 'valid client + "crypto" token', valid: true, apply: (d, env, t) => { d.headers.authorization = env.basic; d.headers['blade-auth'] = `crypto ${t}`; } },
  { label: 'valid "Basic%20" client + token', valid: true, apply: (d, env, t) => withBasic(env.basic.replace(' ', '%20'))(d, env, t) },
  { label: 'valid "basic" (lower case) client + token', valid: true, apply: (d, env, t) => withBasic(env.basic.replace('Basic', 'basic'))(d, env, t) },
];

// ---------------------------------------------------------------- bodies

interface Special {
  label: string;
  apply(d: Draft): void;
}

const raw = (label: string, payload: string | Buffer, contentType: string | undefined = 'application/json'): Special => ({
  label,
  apply: (d) => {
    d.json = undefined;
    d.raw = { contentType, payload };
  },
});

function jsonText(d: Draft): string {
  return `{${[...(d.json ?? new Map<string, string>()).entries()].map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;
}
function formText(d: Draft): string {
  return [...(d.json ?? new Map<string, string>()).entries()].map(([k, v]) => {
    let value = v;
    try {
      const parsed = JSON.parse(v) as unknown;
      value = typeof parsed === 'string' ? parsed : v;
    } catch { /* keep the raw text */ }
    return `${enc(k)}=${enc(value)}`;
  }).join('&');
}
function multipart(boundary: string, parts: { name: string; filename?: string; type?: string; data: string | Buffer }[]): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename === undefined ? '' : `; filename="${p.filename}"`}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`, 'utf8'));
    chunks.push(Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data, 'utf8'));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}
const deepArray = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
const deepObject = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
const firstKey = (d: Draft) => d.op.bodyProps[0]?.name ?? d.op.fields.find((f) => f !== 'id') ?? d.op.query[0]?.name ?? 'a';

export const BODIES: readonly Special[] = [
  raw('JSON: array nested 5000 deep', deepArray(5000)),
  raw('JSON: array nested 100000 deep', deepArray(100_000)),
  raw('JSON: object nested 5000 deep', deepObject(5000)),
  raw('JSON: object nested 100000 deep', deepObject(100_000)),
  { label: 'JSON: a field nested 5000 deep', apply: (d) => { d.raw = undefined; (d.json ??= new Map()).set(firstKey(d), deepArray(5000)); } },
  { label: 'JSON: a field as an object nested 100000 deep', apply: (d) => { d.raw = undefined; (d.json ??= new Map()).set(firstKey(d), deepObject(100_000)); } },
  raw('JSON: []', '[]'),
  raw('JSON: [{}]', '[{}]'),
  raw('JSON: [1,"a",null,{}]', '[1,"a",null,{}]'),
  raw('JSON: "string"', '"string"'),
  raw('JSON: 123', '123'),
  raw('JSON: 1e309', '1e309'),
  raw('JSON: null', 'null'),
  raw('JSON: true', 'true'),
  raw('JSON: {}', '{}'),
  raw('malformed JSON: {', '{'),
  raw('malformed JSON: {"a":}', '{"a":}'),
  raw('malformed JSON: trailing comma', '{"a":1,}'),
  raw("malformed JSON: single quotes", "{'a':1}"),
  raw('malformed JSON: empty body', ''),
  raw('malformed JSON: trailing garbage', '{"a":1}x'),
  raw('malformed JSON: NaN', '{"a":NaN}'),
  raw('malformed JSON: \\0', '\u0000'),
  raw('malformed JSON: raw control character in a string', '{"a":"x\u0000y\u0001"}'),
  raw('JSON with invalid UTF-8 bytes', Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff, 0xfe, 0xed, 0xa0, 0x80, 0xc0, 0x80]), Buffer.from('"}')])),
  { label: 'JSON with a BOM', apply: (d) => { d.raw = { contentType: 'application/json', payload: `\ufeff${jsonText(d)}` }; d.json = undefined; } },
  raw('JSON: __proto__ key', '{"__proto__":{"polluted":1},"a":1}'),
  raw('JSON: constructor.prototype', '{"constructor":{"prototype":{"polluted":1}}}'),
  raw('JSON: 2000 keys', `{${Array.from({ length: 2000 }, (_, i) => `"k${i}":${i}`).join(',')}}`),
  { label: 'JSON: duplicate keys', apply: (d) => { const k = firstKey(d); d.raw = { contentType: 'application/json', payload: `{${JSON.stringify(k)}:"1",${JSON.stringify(k)}:{"x":[1]}}` }; d.json = undefined; } },
  raw('JSON: NUL in keys', '{"\\u0000":"x","a\\u0000b":1,"id\\u0000":"1"}'),
  { label: 'JSON: \\0 in every value', apply: (d) => { for (const k of [...(d.json ?? new Map<string, string>()).keys(), firstKey(d)]) (d.json ??= new Map()).set(k, '"a\\u0000b"'); d.raw = undefined; } },
  raw('text/plain body', 'hello', 'text/plain'),
  { label: 'text/plain with JSON text', apply: (d) => { d.raw = { contentType: 'text/plain', payload: jsonText(d) }; d.json = undefined; } },
  raw('form with NULs', 'a=%00&b=\u0000&ids=%00&id=1%00&%00=x', 'application/x-www-form-urlencoded'),
  { label: 'form of the fields', apply: (d) => { d.raw = { contentType: 'application/x-www-form-urlencoded', payload: formText(d) }; d.json = undefined; } },
  raw('form over 64 KB', `a=${'x'.repeat(70_000)}`, 'application/x-www-form-urlencoded'),
  raw('form with malformed escapes', 'a=%&b=%zz&c=%E0%A4%A&d=%ED%A0%80&e[]=1&e[]=2&f[x]=1', 'application/x-www-form-urlencoded'),
  raw('multipart garbage', '--x\r\ngarbage\r\n\r\n--x', 'multipart/form-data; boundary=x'),
  raw('multipart without boundary', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n', 'multipart/form-data'),
  raw('multipart: junk file, NUL names', multipart('fz', [
    { name: 'file', filename: '../../x\u0000.png', type: 'image/png', data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]) },
    { name: 'a\u0000b', data: '\u0000' },
    { name: 'id', data: '9999999999999999999' },
  ]), 'multipart/form-data; boundary=fz'),
  raw('multipart: 7 parts', multipart('fz', Array.from({ length: 7 }, (_, i) => ({ name: `f${i}`, data: 'x' }))), 'multipart/form-data; boundary=fz'),
  raw('application/xml', '<a><b>1</b></a>', 'application/xml'),
  { label: 'JSON declared as UTF-16', apply: (d) => { d.raw = { contentType: 'application/json; charset=utf-16', payload: jsonText(d) }; d.json = undefined; } },
  { label: 'JSON with charset \\0', apply: (d) => { d.raw = { contentType: 'application/json; charset=\u0000', payload: jsonText(d) }; d.json = undefined; } },
  raw('content type ";;;"', '{}', ';;;'),
  raw('content type application/jsonx', '{}', 'application/jsonx'),
  raw('body without content type', '{"a":1}', undefined),
  raw('JSON over 5 MB', `{"a":"${'x'.repeat(6 * 1024 * 1024)}"}`),
];

/** The bodies a GET also gets (it should ignore them). */
const BODIES_ON_GET = ['JSON: array nested 100000 deep', 'malformed JSON: {', 'text/plain body', 'multipart garbage'];
/** Random mixes leave out the 6 MB body (it runs once per write operation). */
const RANDOM_BODIES = BODIES.filter((b) => !b.label.includes('over 5 MB'));

// ---------------------------------------------------------------- query shapes and paths

const declaredOr = (d: Draft, fallback = 'id') => (d.op.query.length ? d.rng.pick(d.op.query).name : d.op.fields.find((f) => f !== 'id') ?? fallback);

export const SHAPES: readonly Special[] = [
  { label: 'query: k=a&k=b', apply: (d) => { const k = enc(declaredOr(d)); d.query.push(`${k}=a`, `${k}=b`); } },
  { label: 'query: k[]=x', apply: (d) => { d.query.push(`${enc(declaredOr(d))}[]=x`); } },
  { label: 'query: k[a]=x&k[0]=y', apply: (d) => { const k = enc(declaredOr(d)); d.query.push(`${k}[a]=x`, `${k}[0]=y`); } },
  ...['%', '%zz', '%E0%A4%A', '%FF%FE', '%ED%A0%80', '%00', '%2500', '%C0%80', '+a+b+', '%u0041'].map((v) => ({
    label: `query: raw ${v}`,
    apply: (d: Draft) => { d.query.push(`${enc(declaredOr(d))}=${v}`); },
  })),
  { label: 'query: NUL in a key', apply: (d) => { d.query.push('a%00b=1', `${enc(declaredOr(d))}%00=1`); } },
  { label: 'query: empty key and bare keys', apply: (d) => { d.query.push('=x', '', '', 'flag', '==', '&'); } },
  { label: 'query: 1000 keys', apply: (d) => { for (let i = 0; i < 1000; i++) d.query.push(`k${i}=${i}`); } },
  { label: 'query: __proto__', apply: (d) => { d.query.push('__proto__=x', '__proto__[polluted]=1', 'constructor[prototype][polluted]=1'); } },
  { label: 'query: a key of 100000 chars', apply: (d) => { d.query.push(`${'k'.repeat(100_000)}=1`); } },
  { label: 'path: trailing /', apply: (d) => { d.pathSuffix = '/'; } },
  { label: 'path: /%00', apply: (d) => { d.pathSuffix = '/%00'; } },
  { label: 'path: %00', apply: (d) => { d.pathSuffix = '%00'; } },
  { label: 'path: /..%2F..%2Fetc%2Fpasswd', apply: (d) => { d.pathSuffix = '/..%2F..%2Fetc%2Fpasswd'; } },
  { label: 'path: ;jsessionid=x', apply: (d) => { d.pathSuffix = ';jsessionid=x'; } },
  { label: 'path: //', apply: (d) => { d.pathSuffix = '//'; } },
];

// ---------------------------------------------------------------- plausible base request

function sampleOf(d: Draft, env: FuzzEnv): Record<string, unknown> | undefined {
  const samples = env.samples(d.op);
  return samples.length ? d.rng.pick(samples) : undefined;
}

function realId(d: Draft, env: FuzzEnv): string {
  const own = env.samples(d.op).map((r) => r.id).filter((v): v is string => typeof v === 'string');
  if (own.length && d.rng.chance(0.7)) return d.rng.pick(own);
  return env.ids.length ? d.rng.pick(env.ids) : '1';
}

/** A value likely to pass validation, or undefined when the fuzzer cannot guess one (the base then leaves it out). */
function plausible(d: Draft, env: FuzzEnv, name: string, sample?: Record<string, unknown>): string | undefined {
  const spec = [...d.op.query, ...d.op.bodyProps, ...d.op.pathParams].find((p) => p.name === name);
  if (spec?.enum?.length) return String(d.rng.pick(spec.enum));
  const known = PLAUSIBLE[name];
  if (known) return d.rng.pick(known);
  // passwords travel as the hex MD5 of what was typed (never the fuzzer's own accounts' password)
  if (/password/i.test(name)) return d.rng.pick([md5('fuzz-password'), md5('other')]);
  if (name === 'id' || name === 'ids' || /Ids?$/.test(name)) return realId(d, env);
  const v = sample?.[name];
  if (v !== undefined && v !== null) return typeof v === 'string' ? v : JSON.stringify(v);
  return undefined;
}

function pickAddress(rng: Rng): string {
  const r = rng.next();
  if (r < 0.7) return `10.${rng.int(8)}.${rng.int(256)}.${1 + rng.int(250)}`;
  if (r < 0.9) return '10.99.0.1';
  return `fd00::${rng.int(65536).toString(16)}`;
}

function baseDraft(op: Operation, env: FuzzEnv, rng: Rng): Draft {
  const d: Draft = {
    op, rng, pathValues: {}, pathSuffix: '', query: [], headers: {}, auth: 0, who: rng.chance(0.6) ? 'platform' : 'tenant',
    remoteAddress: pickAddress(rng), labels: [],
  };
  const sample = sampleOf(d, env);
  const template = env.template(op);
  for (const p of op.pathParams) d.pathValues[p.name] = plausible(d, env, p.name, sample) ?? '1';
  for (const p of op.query) {
    if (template && !isWrite(op) && p.name in template) continue;
    const v = plausible(d, env, p.name, sample);
    if (v !== undefined && rng.chance(isWrite(op) ? 0.4 : 0.5)) d.query.push(`${enc(p.name)}=${enc(v)}`);
  }
  if (template && !isWrite(op)) {
    for (const [k, v] of Object.entries(template)) d.query.push(`${enc(k)}=${enc(typeof v === 'string' ? v : JSON.stringify(v))}`);
  }
  if (template && isWrite(op)) {
    // a request the operation accepted, with fresh unique strings (and now and then the same ones: duplicates),
    // and now and then the id of a real record (an update)
    d.json = new Map();
    const fresh = rng.chance(0.8) ? `-${rng.uint32().toString(36)}` : '';
    for (const [k, v] of Object.entries(template)) {
      d.json.set(k, JSON.stringify(typeof v === 'string' && v.startsWith('fuzz') ? v.replace(/^fuzz/, `fuzz${fresh}`) : v));
    }
    if (op.fields.includes('id') && !d.json.has('id') && rng.chance(0.3)) d.json.set('id', JSON.stringify(realId(d, env)));
  } else if (isWrite(op)) {
    const json = op.bodyTypes.some((t) => t.includes('json'));
    if (op.bodyProps.length || (json && op.fields.length)) {
      d.json = new Map();
      for (const p of op.bodyProps) {
        const v = plausible(d, env, p.name, sample) ?? `fuzz${rng.int(1000)}`;
        if (rng.chance(0.7)) d.json.set(p.name, JSON.stringify(v));
      }
      if (sample && !op.bodyProps.length) {
        for (const [k, v] of Object.entries(sample)) {
          if (rng.chance(0.5)) d.json.set(k, JSON.stringify(v));
        }
      }
    } else if (json) {
      d.raw = { contentType: 'application/json', payload: rng.pick(['{}', '[]', '[{"type":"error","message":"fuzz","url":"/x"}]']) };
    } else if (!op.bodyTypes.length) {
      // no body declared: parameters in the query (and maybe a form), or a multipart upload
      const r = rng.next();
      const [none, form] = op.query.length ? [0.7, 0.85] : [0.2, 0.2];
      if (r < none) { /* no body */ } else if (r < form) {
        d.raw = { contentType: 'application/x-www-form-urlencoded', payload: d.query.join('&') };
        d.query = [];
      } else if (r < form + 0.6 * (1 - form)) {
        d.raw = { contentType: 'multipart/form-data; boundary=fzb', payload: multipart('fzb', [{ name: 'file', filename: 'a.txt', type: 'text/plain', data: 'hello' }]) };
      } else d.json = new Map();
    }
  }
  return d;
}

// ---------------------------------------------------------------- mutations

interface Target {
  where: 'query' | 'body' | 'path';
  name: string;
}

function targets(op: Operation): Target[] {
  const out: Target[] = [
    ...op.pathParams.map((p) => ({ where: 'path' as const, name: p.name })),
    ...op.query.map((p) => ({ where: 'query' as const, name: p.name })),
  ];
  if (isWrite(op)) {
    out.push(...op.bodyProps.map((p) => ({ where: 'body' as const, name: p.name })));
    out.push(...op.fields.filter((f) => !op.bodyProps.some((p) => p.name === f)).map((f) => ({ where: 'body' as const, name: f })));
    out.push(...UNDECLARED_KEYS.map((k) => ({ where: 'body' as const, name: k })));
  } else if (!op.isList) {
    out.push(...op.fields.map((f) => ({ where: 'query' as const, name: f })));
  }
  out.push(...UNDECLARED_KEYS.map((k) => ({ where: 'query' as const, name: k })));
  return out;
}

function setQuery(d: Draft, key: string, encodedValue: string): void {
  const k = enc(key);
  d.query = d.query.filter((q) => q !== k && !q.startsWith(`${k}=`));
  d.query.push(`${k}=${encodedValue}`);
}

function applyValue(d: Draft, where: Target['where'], name: string, value: number): void {
  if (where === 'path') {
    const v = HOSTILE[value % HOSTILE.length] ?? '';
    d.pathValues[name] = v;
    d.labels.push(`path ${name}=${show(v)}`);
  } else if (where === 'query') {
    const v = HOSTILE[value % HOSTILE.length] ?? '';
    setQuery(d, name, enc(v));
    d.labels.push(`query ${show(name, 20)}=${show(v)}`);
  } else {
    const v = HOSTILE_JSON[value % HOSTILE_JSON.length] ?? 'null';
    if (!d.json) {
      d.json = new Map();
      d.raw = undefined;
    }
    d.json.set(name, v);
    d.labels.push(`body ${show(name, 20)}: ${show(v)}`);
  }
}

function applyFilter(d: Draft, key: string, value: number): void {
  const v = FILTER_VALUES[value % FILTER_VALUES.length] ?? '';
  d.query.push(`${enc(key)}=${enc(v)}`);
  d.labels.push(`filter ${show(key, 30)}=${show(v)}`);
}

function filterKeys(op: Operation): string[] {
  if (!op.isList) return [];
  const fields = op.fields.length ? op.fields : ['id'];
  const keys: string[] = [];
  for (const f of fields) {
    keys.push(f, f.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), `${f}[]`, `${f}Range[]`);
    for (const suffix of FILTER_OPS) keys.push(`${f}_${suffix}`);
  }
  for (const suffix of FILTER_OPS) keys.push(`nope_${suffix}`, `\u0000_${suffix}`, `_${suffix}`);
  return keys;
}

function pagingKeys(op: Operation): string[] {
  return op.isList ? ['current', 'size', 'ascs', 'descs'] : [];
}
const pagingValues = (key: string) => (key === 'ascs' || key === 'descs' ? ORDER_VALUES : PAGING_VALUES);

function randomMutation(d: Draft): void {
  const { op, rng } = d;
  const r = rng.next();
  if (r < 0.4) {
    const ts = targets(op);
    const t = rng.pick(ts);
    applyValue(d, t.where, t.name, rng.int(t.where === 'body' ? HOSTILE_JSON.length : HOSTILE.length));
  } else if (r < 0.55 && op.isList) {
    const keys = filterKeys(op);
    applyFilter(d, rng.pick(keys), rng.int(FILTER_VALUES.length));
  } else if (r < 0.65 && op.isList) {
    const key = rng.pick(pagingKeys(op));
    const values = pagingValues(key);
    const v = rng.pick(values);
    setQuery(d, key, enc(v));
    d.labels.push(`query ${key}=${show(v)}`);
  } else if (r < 0.75) {
    const name = rng.pick(JUNK_HEADERS);
    const v = rng.pick(HEADER_VALUES);
    d.headers[name] = v;
    d.labels.push(`header ${name}: ${show(v)}`);
  } else if (r < 0.85) {
    const s = rng.pick(SHAPES);
    s.apply(d);
    d.labels.push(s.label);
  } else if (r < 0.93 && isWrite(op)) {
    const b = rng.pick(RANDOM_BODIES);
    b.apply(d);
    d.labels.push(b.label);
  } else {
    d.auth = 1 + rng.int(AUTH.length - 1);
  }
}

// ---------------------------------------------------------------- plan and build

export function opKey(op: Operation): string {
  return `${op.method} ${op.path}`;
}

/**
 * The cases of one operation. Always: every auth variant, body special (writes; a few for GET) and query
 * shape; every hostile value once, in turn on the declared parameters; every edge date on every
 * date-like field; every filter suffix with every edge value (lists). Then, up to `quota`, half a seeded
 * sample of the other (parameter × value, filter key, header, paging) cases and half random mixes. The
 * always-run cases are run even when they alone exceed the quota.
 */
export function planCases(op: Operation, seed: number, quota: number): { cases: Case[]; systematic: number; systematicTotal: number } {
  const always: Case[] = [
    ...AUTH.map((_, i) => ({ id: `auth${i}`, kind: 'auth' as const, variant: i })),
    ...BODIES.flatMap((b, i) => (isWrite(op) || BODIES_ON_GET.includes(b.label) ? [{ id: `body${i}`, kind: 'body' as const, variant: i }] : [])),
    ...SHAPES.map((_, i) => ({ id: `shape${i}`, kind: 'shape' as const, variant: i })),
  ];
  // every hostile value once, in turn on the declared parameters (or, with none, on undeclared keys)
  const all = targets(op);
  const declared = all.filter((t) => !UNDECLARED_KEYS.includes(t.name));
  const turn = declared.length ? declared : all;
  const bodyTurn = turn.filter((t) => t.where === 'body');
  const queryTurn = turn.filter((t) => t.where !== 'body');
  const valuesTurn = (list: Target[], n: number) => (list.length ? Array.from({ length: n }, (_, v) => list[v % list.length] as Target) : []);
  for (const [v, t] of valuesTurn(queryTurn, HOSTILE.length).entries()) always.push({ id: `v:${t.where}:${t.name}:${v}`, kind: 'value', where: t.where, name: t.name, value: v });
  for (const [v, t] of valuesTurn(bodyTurn, HOSTILE_JSON.length).entries()) always.push({ id: `v:body:${t.name}:${v}`, kind: 'value', where: 'body', name: t.name, value: v });
  // every date-like field with every edge date
  for (const t of turn.filter((x) => DATE_FIELD.test(x.name))) {
    for (const v of DATE_VALUES) always.push({ id: `v:${t.where}:${t.name}:${v}`, kind: 'value', where: t.where, name: t.name, value: v });
  }
  // every filter suffix with every edge value (the date suffixes with the edge dates too), in turn on the resource's fields
  if (op.isList) {
    const fields = op.fields.length ? op.fields : ['id'];
    const dateFields = fields.filter((f) => DATE_FIELD.test(f));
    let n = 0;
    for (const suffix of FILTER_OPS) {
      const dateOp = suffix.startsWith('date');
      for (const value of [...EDGE_FILTER_VALUES, ...(dateOp ? DATE_FILTER_VALUES : [])]) {
        const pool = dateOp && dateFields.length ? dateFields : fields;
        const key = `${pool[n++ % pool.length] as string}_${suffix}`;
        always.push({ id: `fe:${key}:${value}`, kind: 'filter', key, value });
      }
    }
  }
  // one case per id (a value index may come twice: from the turn and from the dates)
  const unique = new Map(always.map((c) => [c.id, c]));
  always.length = 0;
  always.push(...unique.values());
  // a lighter run (CI's second database) takes a seeded sample of the systematic cases, the auth ones first
  const cap = Number(process.env.FUZZ_SYSTEMATIC_MAX ?? 0);
  if (cap > 0 && always.length > cap) {
    const sampler = new Rng(seedOf(seed, opKey(op), 'sample'));
    const auth = always.filter((c) => c.kind === 'auth');
    const others = sampler.shuffle(always.filter((c) => c.kind !== 'auth'));
    always.length = 0;
    always.push(...auth, ...others.slice(0, Math.max(0, cap - auth.length)));
  }
  const alwaysIds = new Set(always.map((c) => c.id));
  const optional: Case[] = [];
  for (const t of targets(op)) {
    const n = t.where === 'body' ? HOSTILE_JSON.length : HOSTILE.length;
    for (let v = 0; v < n; v++) optional.push({ id: `v:${t.where}:${t.name}:${v}`, kind: 'value', where: t.where, name: t.name, value: v });
  }
  filterKeys(op).forEach((key, i) => {
    for (let k = 0; k < 3; k++) optional.push({ id: `f:${key}:${k}`, kind: 'filter', key, value: (i * 7 + k * 11) % FILTER_VALUES.length });
  });
  for (const key of pagingKeys(op)) pagingValues(key).forEach((_, v) => optional.push({ id: `p:${key}:${v}`, kind: 'paging', key, value: v }));
  for (const name of JUNK_HEADERS) HEADER_VALUES.forEach((_, v) => optional.push({ id: `h:${name}:${v}`, kind: 'header', name, value: v }));

  const rng = new Rng(seedOf(seed, opKey(op), 'plan'));
  const candidates = rng.shuffle(optional.filter((c) => !alwaysIds.has(c.id)));
  const rest = Math.max(0, quota - always.length);
  const takeOptional = Math.min(candidates.length, Math.ceil(rest * 0.5));
  const cases = [...always, ...candidates.slice(0, takeOptional)];
  for (let n = 0; cases.length < quota; n++) cases.push({ id: `r${n}`, kind: 'random', n });
  return { cases, systematic: always.length + takeOptional, systematicTotal: always.length + candidates.length };
}

/** Builds the request of one case from the current tokens and harvested data. */
export function buildRequest(op: Operation, c: Case, seed: number, env: FuzzEnv): BuiltRequest {
  const rng = new Rng(seedOf(seed, opKey(op), c.id));
  const d = baseDraft(op, env, rng);
  // a systematic case tests its one mutation: as the platform administrator, whom no permission stops
  if (c.kind !== 'auth' && c.kind !== 'random') d.who = 'platform';
  switch (c.kind) {
    case 'auth':
      d.auth = c.variant;
      break;
    case 'body': {
      const b = BODIES[c.variant] as Special;
      b.apply(d);
      d.labels.push(b.label);
      break;
    }
    case 'shape': {
      const s = SHAPES[c.variant] as Special;
      s.apply(d);
      d.labels.push(s.label);
      break;
    }
    case 'header': {
      const v = HEADER_VALUES[c.value] ?? '';
      d.headers[c.name] = v;
      d.labels.push(`header ${c.name}: ${show(v)}`);
      break;
    }
    case 'value':
      applyValue(d, c.where, c.name, c.value);
      break;
    case 'filter':
      applyFilter(d, c.key, c.value);
      break;
    case 'paging': {
      const v = pagingValues(c.key)[c.value] ?? '';
      setQuery(d, c.key, enc(v));
      d.labels.push(`query ${c.key}=${show(v)}`);
      break;
    }
    case 'random': {
      const n = 1 + rng.int(3);
      for (let i = 0; i < n; i++) randomMutation(d);
      break;
    }
  }
  return finalize(d, c.id, env);
}

function finalize(d: Draft, caseId: string, env: FuzzEnv): BuiltRequest {
  const { op } = d;
  const variant = AUTH[d.auth] as AuthVariant;
  let token = op.appAuth ? env.appToken : env.token(d.who);
  let authLabel = `${variant.label}${variant.valid ? ` (${d.who})` : ''}`;
  let who: Who | undefined = variant.valid ? d.who : undefined;
  let authValid = !!variant.valid;
  // Signing out with the fuzzer's own token would end its session (and a lenient variant may well be
  // accepted): sign-out always gets the token of a throw-away session, or of one already signed out.
  if (op.method === 'GET' && /\/oauth\/logout$/.test(op.path)) {
    const spare = env.spareToken();
    token = spare.token;
    who = undefined;
    authValid &&= spare.fresh;
    authLabel = `${variant.label} (${spare.fresh ? 'throw-away session' : 'signed-out session'})`;
  }
  variant.apply(d, env, token);

  let path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => enc(d.pathValues[name] ?? '1'));
  path += d.pathSuffix;
  const query = d.query.join('&');
  const url = query ? `${path}?${query}` : path;

  let payload: string | Buffer | undefined;
  if (d.raw) {
    payload = d.raw.payload;
    if (d.raw.contentType !== undefined) d.headers['content-type'] = d.raw.contentType;
  } else if (d.json) {
    payload = jsonText(d);
    d.headers['content-type'] = 'application/json';
  }
  const size = url.length + (payload?.length ?? 0) + Object.entries(d.headers).reduce((n, [k, v]) => n + k.length + v.length, 0);
  return {
    caseId, method: op.method, url, headers: d.headers, payload, remoteAddress: d.remoteAddress, labels: d.labels, auth: authLabel, who, authValid, size,
  };
}
