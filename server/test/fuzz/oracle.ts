/**
 * What every answer must be (api.md §1): the envelope `{ code, success, data, msg }` with the HTTP
 * status as `code`, never a 5xx, never a stack trace; the raw endpoints have their own shapes. Problems
 * are grouped so a failing run lists each distinct defect once, with the smallest request behind it.
 */
import type { BuiltRequest } from './generate.js';

export interface Answer {
  status: number;
  contentType: string;
  body: string;
}

type Json = Record<string, unknown>;

const STACK = /(?:^|\n)\s*at\s+[\w$.<>[\]]+\s*\(|\bat\s+[^\s()]+\s+\([^)]*:\d+:\d+\)|\(?(?:file:\/\/)?\/[\w./-]+\.(?:[cm]?[jt]s):\d+:\d+|\b\w*Error:/;
const SQL = /Failed query|\bselect\s[\s\S]*\bfrom\s|\bwhere\s+"\w+"\."\w+"|\bparams:/i;

const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** Internals in a message: a stack trace never; SQL only outside a 5xx (whose message is already a failure). */
function leaks(text: unknown, status: number): string[] {
  if (typeof text !== 'string') return [];
  const out: string[] = [];
  if (STACK.test(text)) out.push('stack trace in the message');
  if (status < 500 && SQL.test(text)) out.push('SQL in the message');
  return out;
}

function envelopeProblems(status: number, body: unknown): string[] {
  if (!isObj(body)) return ['answer is not an envelope (not a JSON object)'];
  const out: string[] = [];
  if (typeof body.code !== 'number') out.push('envelope without a numeric code');
  else if (body.code !== status) out.push(`envelope code ${body.code} ≠ HTTP status`);
  if (typeof body.success !== 'boolean') out.push('envelope without a boolean success');
  else if (body.success !== (status === 200)) out.push(`envelope success=${body.success} with status ${status}`);
  if (typeof body.msg !== 'string') out.push('envelope without a string msg');
  if (!('data' in body)) out.push('envelope without data');
  return [...out, ...leaks(body.msg, status)];
}

/** The path the request reached, as Fastify routes it (trailing slash ignored). */
function routePath(url: string): string {
  const path = url.split('?')[0] ?? '';
  return path.length > 1 ? path.replace(/\/$/, '') : path;
}

export function judge(req: BuiltRequest, answer: Answer): { problems: string[]; message: string } {
  const problems: string[] = [];
  const path = routePath(req.url);
  if (answer.status >= 500) problems.push(`${answer.status}`);
  const raw = answer.body;
  let body: unknown;
  const isJson = /json/i.test(answer.contentType);
  if (isJson) {
    try {
      body = JSON.parse(raw);
    } catch {
      problems.push('body is not valid JSON');
    }
  }
  const message = isObj(body) ? String(body.error_description ?? body.msg ?? '') : raw.slice(0, 200);

  if (path.startsWith('/files/')) return { problems, message };
  // downloads (a resource's export and import template) answer an .xlsx when they succeed
  if (answer.status === 200 && req.method === 'GET' && answer.contentType.startsWith('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')) return { problems, message };
  // Alipay's notifications are answered with its text: success or failure
  if (req.method === 'POST' && path.startsWith('/api/pay/notify/alipay/') && answer.contentType.startsWith('text/plain')) {
    if (answer.status !== 200 || !['success', 'failure'].includes(raw)) problems.push('Alipay answer is not the text success or failure');
    return { problems, message };
  }
  if (!isJson) {
    problems.push(`answer is ${answer.contentType || 'without a content type'}, not JSON`);
    return { problems, message };
  }
  if (body === undefined) return { problems, message };

  if (req.method === 'POST' && path === '/api/blade-auth/oauth/token') {
    if (answer.status === 200) {
      if (!isObj(body) || typeof body.access_token !== 'string' || typeof body.token_type !== 'string') problems.push('token answer is not the OAuth2 object');
    } else if (!isObj(body) || typeof body.error !== 'string' || typeof body.error_description !== 'string'
      || body.code !== answer.status || body.success !== false || typeof body.msg !== 'string') {
      problems.push('token failure is not { error, error_description, code, success:false, msg }');
    } else {
      problems.push(...leaks(body.error_description, answer.status), ...leaks(body.msg, answer.status));
    }
  } else if (req.method === 'GET' && path === '/api/blade-auth/oauth/captcha' && answer.status === 200) {
    if (!isObj(body) || typeof body.key !== 'string' || typeof body.image !== 'string' || !body.image.startsWith('data:image/')) {
      problems.push('captcha answer is not the raw { key, image }');
    }
  } else if (req.method === 'POST' && path.startsWith('/api/pay/notify/') && isObj(body) && typeof body.code === 'string') {
    // a payment provider's notification is answered in the provider's shape (WeChat Pay: { code, message })
    if (!['SUCCESS', 'FAIL'].includes(body.code) || typeof body.message !== 'string' || answer.status !== (body.code === 'SUCCESS' ? 200 : 400)) {
      problems.push('WeChat Pay answer is not { code: SUCCESS | FAIL, message }');
    }
  } else if (req.method === 'GET' && path === '/version.json' && answer.status === 200) {
    if (!isObj(body) || typeof body.version !== 'string') problems.push('version.json is not { version }');
  } else {
    problems.push(...envelopeProblems(answer.status, body));
  }
  // the error log exists to show stack traces (to holders of log_error): its answers carry source locations
  const stackTraces = path.startsWith('/api/blade-log/error/');
  if (!stackTraces && /(?:file:\/\/)?\/[\w./-]+\.(?:[cm]?[jt]s):\d+:\d+/.test(raw)) problems.push('source location in the answer');
  return { problems: [...new Set(problems)], message };
}

// ---------------------------------------------------------------- grouping

export interface Failure {
  op: string;
  status: number;
  problem: string;
  message: string;
  /** the server's own error (and its causes) for a 5xx, when the test could see it */
  cause?: string;
  req: BuiltRequest;
}

interface Group {
  key: string;
  count: number;
  /** the smallest request per kind of mutation that triggered it, with the answer's message */
  triggers: Map<string, { req: BuiltRequest; message: string }>;
}

const norm = (s: string, max = 160) => {
  const cut = s.split(/\n\s*params:|\nparams:/)[0] ?? s;
  // numbers vary per request (ids, sizes), SQLSTATE codes in brackets do not
  const flat = cut.replace(/\s+/g, ' ').replace(/(?<!\[[0-9A-Z]*)\d{2,}/g, '#').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
};

/** The mutation with the values taken out: "query size=…", "body title: …", "auth: Basic …". */
function triggerKind(req: BuiltRequest): string {
  const parts = req.labels.map((l) => l.replace(/^((?:query|body|path|filter|header) (?:"(?:[^"\\]|\\.)*"(?:…\(\d+ chars\))?|\S+?))(=|: ).*$/s, '$1$2…'));
  if (!req.who) parts.push(`auth: ${req.auth}`);
  return parts.join(' + ') || 'plausible request';
}

export class Failures {
  readonly groups = new Map<string, Group>();
  total = 0;

  add(f: Failure): void {
    this.total++;
    // 5xx are told apart by their cause; other problems by kind only (their messages echo the input)
    const detail = f.status >= 500 || f.status === 0 ? norm(f.cause ?? f.message) : '';
    const key = `${f.op} → ${f.status} ${f.problem}${detail ? `: ${detail}` : ''}`;
    let g = this.groups.get(key);
    if (!g) {
      g = { key, count: 0, triggers: new Map() };
      this.groups.set(key, g);
    }
    g.count++;
    const kind = triggerKind(f.req);
    const prev = g.triggers.get(kind);
    if (!prev || f.req.size < prev.req.size) g.triggers.set(kind, { req: f.req, message: f.message });
  }

  report(seed: number, maxTriggers = 4): string {
    const groups = [...this.groups.values()].sort((a, b) => a.key.localeCompare(b.key));
    const lines = [`${this.total} failing answers in ${groups.length} groups (FUZZ_SEED=${seed}):`];
    for (const g of groups) {
      lines.push('', `● ${g.key}   [×${g.count}]`);
      const triggers = [...g.triggers.values()].sort((a, b) => a.req.size - b.req.size);
      for (const t of triggers.slice(0, maxTriggers)) lines.push(`    ${describe(t.req)}`, `        → ${clip(printable(t.message), 200)}`);
      if (triggers.length > maxTriggers) lines.push(`    … and ${triggers.length - maxTriggers} other kinds of request`);
    }
    return lines.join('\n');
  }
}

const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max)}…(${s.length} chars)` : s);
const printable = (s: string) => JSON.stringify(s).slice(1, -1);

/** One line to reproduce a request by hand. */
export function describe(r: BuiltRequest): string {
  const headers = Object.entries(r.headers)
    .filter(([k]) => k !== 'authorization' && k !== 'blade-auth')
    .map(([k, v]) => `${k}: ${clip(printable(v), 60)}`);
  const body = r.payload === undefined ? '' : ` body=${clip(printable(Buffer.isBuffer(r.payload) ? r.payload.toString('latin1') : r.payload), 160)}`;
  const what = r.labels.length ? r.labels.join(' + ') : 'plausible request';
  return `[${r.caseId}] ${what} | ${r.method} ${clip(r.url, 200)} | auth: ${r.auth}${headers.length ? ` | ${headers.join(', ')}` : ''}${body}`;
}
