import { type Lang, msg, RESERVED_QUERY_KEYS } from '@console/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors.js';

/** JSON bodies nested deeper than this are refused before they are parsed (the console's are 3 deep). */
export const MAX_BODY_DEPTH = 32;
/** How far the NUL scan follows nesting; bodies are already bounded by MAX_BODY_DEPTH. */
const MAX_SCAN_DEPTH = MAX_BODY_DEPTH + 2;

/** Headers the server reads as text (and may store); a NUL in any of them is refused. */
const TEXT_HEADERS = ['authorization', 'blade-auth', 'tenant-id', 'dept-id', 'role-id', 'captcha-key', 'captcha-code', 'accept-language', 'user-agent'];

/** The deepest nesting of arrays and objects in a JSON text, without parsing it (stops once past `limit`). */
export function jsonDepth(text: string, limit: number): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      depth++;
      if (depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return max;
}

/** The path of the first key or text value holding a NUL character, or null. */
export function findNul(value: unknown, path = '', depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path || '_' : null;
  if (value === null || typeof value !== 'object' || depth > MAX_SCAN_DEPTH) return null;
  if (Buffer.isBuffer(value)) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findNul(value[i], path || String(i), depth + 1);
      if (hit) return hit;
    }
    return null;
  }
  for (const [key, v] of Object.entries(value)) {
    const name = path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return name.replaceAll('\u0000', '\\0');
    const hit = findNul(v, name, depth + 1);
    if (hit) return hit;
  }
  return null;
}

const nulError = (field: string, lang: Lang) => new AppError(400, 'nulByte', { field }, { [field]: msg('nulByte', lang, { field }) });

/**
 * The request's parameters as one object, for actions that take them from the query string, a form
 * body or a JSON body alike (Saber sends `@RequestParam` query strings; api.md §6). Body keys win.
 */
export function actionParams(req: FastifyRequest): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const query = req.query;
  if (query && typeof query === 'object') {
    for (const [k, v] of Object.entries(query)) if (!(RESERVED_QUERY_KEYS as readonly string[]).includes(k)) out[k] = v;
  }
  const body = req.body;
  if (body && typeof body === 'object' && !Array.isArray(body)) Object.assign(out, body);
  return out;
}

/**
 * Input checks every route inherits, before any handler or database sees the request:
 * - JSON bodies: an empty body is no body; nesting deeper than MAX_BODY_DEPTH is a 400 (a deep body
 *   once overflowed the stack in the audit log);
 * - a NUL character in a header the server reads, a query value, a path parameter, a body key or
 *   value is a 400 naming the field (PostgreSQL cannot store NUL in text);
 * - a POST route with an object body also takes its parameters from the query string, so a client that
 *   sends `update-password?oldPassword=…` without a body is answered like one that sends JSON.
 */
export function installInputChecks(app: FastifyInstance, bodyLimit: number): void {
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    if (jsonDepth(text, MAX_BODY_DEPTH) > MAX_BODY_DEPTH) {
      done(new AppError(400, 'bodyTooDeep', { max: MAX_BODY_DEPTH }), undefined);
      return;
    }
    defaultJson(req, text, done);
  });

  app.addHook('onRequest', async (req) => {
    for (const name of TEXT_HEADERS) {
      const v = req.headers[name];
      if (v !== undefined && findNul(v) !== null) throw nulError(name, req.lang ?? 'zh');
    }
  });

  app.addHook('preValidation', async (req) => {
    const field = findNul(req.params) ?? findNul(req.query) ?? findNul(req.body);
    if (field) throw nulError(field, req.lang);
    if (req.method === 'POST' && req.routeOptions.schema?.body && !Array.isArray(req.body)) {
      const merged = actionParams(req);
      if (Object.keys(merged).length > 0 || req.body === undefined) req.body = merged;
    }
  });
}
