/**
 * Every operation of the OpenAPI document (`GET /api/docs/json`) says what it takes and what it answers.
 *
 * The rule an operation must follow:
 * - its input: a GET declares its query parameters (`parameters` in: query); a POST declares its body
 *   (`requestBody`, one entry per content type it takes: JSON, form, multipart); an operation that takes no
 *   input at all says so with `"x-no-input": true` (the document has no other way to tell "none" from
 *   "forgotten": an empty query schema lists no parameters), and then declares none;
 * - every `{name}` of its path is a path parameter;
 * - its 200 answer has a schema for each content type it declares (the envelope, a raw JSON shape, or a file
 *   as `type: string, format: binary`).
 * And every `$ref` names a component the document holds.
 */
import { describe, expect, it } from 'vitest';
import { useServer } from './harness.js';

const h = useServer();

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

interface Lack {
  op: string;
  what: string[];
}

/** What an operation fails to declare (empty when it follows the rule). */
function lacks(method: string, path: string, op: Json): string[] {
  const missing: string[] = [];
  const params = (Array.isArray(op.parameters) ? op.parameters : []).map(obj).filter((p): p is Json => !!p);
  const query = params.filter((p) => p.in === 'query' && obj(p.schema));
  const content = obj(obj(op.requestBody)?.content) ?? {};
  const bodies = Object.values(content).filter((c) => obj(obj(c)?.schema));
  const none = op['x-no-input'] === true;
  if (none) {
    if (query.length || Object.keys(content).length) missing.push('x-no-input but declares input');
  } else if (method === 'get') {
    if (!query.length) missing.push('request (query)');
    if (op.requestBody) missing.push('a GET with a body');
  } else if (!bodies.length) {
    missing.push('request (body)');
  } else if (bodies.length < Object.keys(content).length) {
    missing.push('request (a body type without schema)');
  }
  for (const name of [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1])) {
    if (!params.some((p) => p.in === 'path' && p.name === name)) missing.push(`path parameter ${name}`);
  }
  const answer = obj(obj(op.responses)?.['200']);
  const answered = Object.values(obj(answer?.content) ?? {});
  if (!answered.length || !answered.every((c) => obj(obj(c)?.schema))) missing.push('200 response');
  return missing;
}

describe('the OpenAPI document', () => {
  it('declares every operation\'s request and 200 response', async () => {
    const res = await h.server.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = obj(obj(res.json())?.paths) ?? {};
    const found: Lack[] = [];
    const counts: Record<string, number> = {};
    let total = 0;
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, op] of Object.entries(obj(item) ?? {})) {
        if (!METHODS.includes(method)) continue;
        total++;
        counts[method] = (counts[method] ?? 0) + 1;
        const what = lacks(method, path, obj(op) ?? {});
        if (what.length) found.push({ op: `${method.toUpperCase()} ${path}`, what });
      }
    }
    if (process.env.OPENAPI_REPORT) {
      const tally = (w: string) => found.filter((f) => f.what.some((x) => x.startsWith(w))).length;
      console.log(`operations: ${total} ${JSON.stringify(counts)}; lacking: ${found.length} — request ${tally('request')}, 200 response ${tally('200')}, path ${tally('path')}`);
    }
    expect(total).toBeGreaterThan(0);
    expect(found.map((f) => `${f.op}: ${f.what.join(', ')}`)).toEqual([]);
    const components = obj(obj(obj(res.json())?.components)?.schemas) ?? {};
    const refs = [...new Set([...res.body.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!))];
    expect(refs.filter((r) => !(r in components)), 'references to missing components').toEqual([]);
  });
});
