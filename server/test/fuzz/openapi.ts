/**
 * Reads the operations of the server's OpenAPI document (`GET /api/docs/json`): method, path, declared
 * query / path parameters, declared body properties and the fields of the resource it answers (from the
 * 200 response schema), so the fuzzer needs no hand-written list of routes.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ParamSpec {
  name: string;
  in: 'query' | 'path' | 'body';
  type?: string;
  /** the values the document allows, when it lists them */
  enum?: unknown[];
}

export interface Operation {
  method: HttpMethod;
  /** OpenAPI path, `{name}` for path parameters */
  path: string;
  query: ParamSpec[];
  pathParams: ParamSpec[];
  /** declared properties of the JSON body (may be empty when the body is free-form) */
  bodyProps: ParamSpec[];
  /** content types the document declares for the body */
  bodyTypes: string[];
  /** fields of the resource in the 200 answer (list records, detail data) */
  fields: string[];
  /** answers a page (`records`) or takes `current`/`size`: filter keys apply */
  isList: boolean;
  /** the 200 answer declares no JSON (a file download) */
  rawSuccess: boolean;
  /** takes the phone app's token, not a console user's */
  appAuth: boolean;
}

type Json = Record<string, unknown>;
const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);

function propsOf(schema: unknown): string[] {
  const s = obj(schema);
  if (!s) return [];
  const props = obj(s.properties);
  const own = props ? Object.keys(props) : [];
  // anyOf / oneOf / allOf variants contribute their properties too
  const variants = ['anyOf', 'oneOf', 'allOf'].flatMap((k) => (Array.isArray(s[k]) ? (s[k] as unknown[]) : []));
  return [...new Set([...own, ...variants.flatMap(propsOf)])];
}

function specOf(name: string, where: ParamSpec['in'], schema: unknown): ParamSpec {
  const s = obj(schema);
  const variants = [s, ...(['anyOf', 'oneOf'] as const).flatMap((k) => (Array.isArray(s?.[k]) ? (s?.[k] as unknown[]).map(obj) : []))];
  const values = variants.flatMap((v) => (Array.isArray(v?.enum) ? (v.enum as unknown[]) : v && 'const' in v ? [v.const] : []));
  const type = variants.map((v) => v?.type).find((t): t is string => typeof t === 'string');
  return { name, in: where, ...(type ? { type } : {}), ...(values.length ? { enum: values } : {}) };
}

function bodySpecs(schema: unknown): ParamSpec[] {
  const s = obj(schema);
  const props = obj(s?.properties) ?? {};
  return Object.entries(props).map(([name, p]) => specOf(name, 'body', p));
}

function resourceFields(dataSchema: unknown): { fields: string[]; page: boolean } {
  const data = obj(dataSchema);
  if (!data) return { fields: [], page: false };
  const props = obj(data.properties);
  const records = obj(props?.records);
  if (records) return { fields: propsOf(records.items), page: true };
  if (data.type === 'array') return { fields: propsOf(data.items), page: false };
  return { fields: propsOf(data), page: false };
}

/** Every operation of the document except the documentation routes themselves. */
export function operationsOf(doc: unknown, skip: (path: string) => boolean): { operations: Operation[]; total: number; skipped: number } {
  const paths = obj(obj(doc)?.paths) ?? {};
  const operations: Operation[] = [];
  let total = 0;
  let skipped = 0;
  for (const [path, item] of Object.entries(paths)) {
    for (const [m, raw] of Object.entries(obj(item) ?? {})) {
      const method = m.toUpperCase() as HttpMethod;
      if (!METHODS.includes(method)) continue;
      total++;
      if (skip(path)) {
        skipped++;
        continue;
      }
      const op = obj(raw) ?? {};
      const params = (Array.isArray(op.parameters) ? op.parameters : []).map(obj).filter((p): p is Json => !!p);
      const query = params.filter((p) => p.in === 'query').map((p) => specOf(String(p.name), 'query', p.schema));
      const pathParams = params.filter((p) => p.in === 'path').map((p) => specOf(String(p.name), 'path', p.schema));
      const content = obj(obj(op.requestBody)?.content) ?? {};
      const bodyTypes = Object.keys(content);
      const bodyProps: ParamSpec[] = [];
      for (const c of Object.values(content)) {
        for (const spec of bodySpecs(obj(c)?.schema)) if (!bodyProps.some((b) => b.name === spec.name)) bodyProps.push(spec);
      }
      for (const name of Object.values(content).flatMap((c) => propsOf(obj(c)?.schema))) {
        if (!bodyProps.some((b) => b.name === name)) bodyProps.push({ name, in: 'body' });
      }
      const ok = obj(obj(op.responses)?.['200']);
      const okContent = obj(ok?.content) ?? {};
      const okJson = obj(okContent['application/json']);
      const okSchema = obj(okJson?.schema);
      const { fields, page } = resourceFields(obj(okSchema?.properties)?.data);
      const rawSuccess = Object.keys(okContent).length > 0 && !okJson;
      const isList = page || query.some((q) => q.name === 'current' || q.name === 'size');
      const appAuth = Array.isArray(op.security) && op.security.some((s) => !!obj(s) && 'appToken' in (obj(s) as Json));
      operations.push({ method, path, query, pathParams, bodyProps, bodyTypes, fields, isList, rawSuccess, appAuth });
    }
  }
  return { operations, total, skipped };
}
