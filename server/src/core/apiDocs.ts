import type { SwaggerTransform } from '@fastify/swagger';
import { TREE_NODE } from '@console/contract';
import { menuResource } from '@console/contract/areas/system/index';
import type { FastifySchema } from 'fastify';
import { z } from 'zod';

/**
 * The recursive answer shapes, each documented as a component its nodes refer to (app.ts emits the registered
 * components): unregistered, a node's reference to its children would name a component the document lacks.
 */
const RECURSIVE: ReadonlyArray<[z.ZodType, string]> = [
  [TREE_NODE, 'TreeNode'],
  [(menuResource.actions.grantTree.output.shape.menu as z.ZodArray<z.ZodType>).element, 'GrantNode'],
];
for (const [schema, id] of RECURSIVE) if (!z.globalRegistry.has(schema)) z.globalRegistry.add(schema, { id });

/** A 200 answer that is not JSON: a file, by its content types. */
export interface FileAnswer {
  description: string;
  content: Record<string, { schema: z.ZodType }>;
}

/**
 * What a route takes and answers, for the OpenAPI document only. Fastify never reads this key: nothing is
 * validated against it (the handler validates its own input, e.g. an action's query, form and JSON merged)
 * and nothing is serialised through it (a response schema would run the answer through zod, dropping
 * unknown fields). So declaring it changes no answer; `schema.querystring` / `body` / `response` would.
 */
export interface DocsOnly {
  /** the route takes no input at all: documented as `"x-no-input": true` (an empty query lists no parameter) */
  noInput?: true;
  querystring?: z.ZodType;
  body?: z.ZodType;
  /** the body's content types (default JSON) */
  consumes?: readonly string[];
  response?: Record<number, z.ZodType | FileAnswer>;
}

declare module 'fastify' {
  interface FastifySchema {
    docsOnly?: DocsOnly;
  }
}

/** The content types of a body an action takes: JSON or a form (api.md §6). */
export const JSON_OR_FORM = ['application/json', 'application/x-www-form-urlencoded'] as const;

/** A file in a 200 answer. */
export const binary = () => z.string().meta({ format: 'binary' });

/** A multipart body of these fields (files as `binary()`). */
export function multipartBody(fields: z.ZodRawShape): Pick<DocsOnly, 'body' | 'consumes'> {
  return { body: z.object(fields), consumes: ['multipart/form-data'] };
}

export function fileAnswer(description: string, ...types: string[]): FileAnswer {
  return { description, content: Object.fromEntries(types.map((type) => [type, { schema: binary() }])) };
}

/** An input that declares no field (an empty object that is not open to any key). */
export function declaresNoField(input: z.ZodType): boolean {
  if (!(input instanceof z.ZodObject)) return false;
  const catchall = input.def.catchall;
  return Object.keys(input.shape).length === 0 && (!catchall || catchall instanceof z.ZodNever);
}

/**
 * The request documentation of a route whose handler validates `input` itself: the query of a GET, the body
 * (JSON or form) of a POST, or none when it declares no field.
 */
export function inputDocs(method: 'GET' | 'POST', input: z.ZodType): DocsOnly {
  if (declaresNoField(input)) return { noInput: true };
  return method === 'GET' ? { querystring: input } : { body: input, consumes: JSON_OR_FORM };
}

/**
 * Wraps the OpenAPI transform: a route's `docsOnly` parts become the schema parts the document is built from
 * (the route's own parts win), `noInput` the `x-no-input` mark.
 */
export function withDocsOnly<S extends FastifySchema>(transform: SwaggerTransform<S>): SwaggerTransform<S> {
  return (doc) => {
    const { docsOnly, ...own } = doc.schema ?? ({} as S);
    if (!docsOnly) return transform(doc);
    const { noInput, response, consumes, ...parts } = docsOnly;
    const schema = {
      ...parts,
      ...(consumes && !own.consumes ? { consumes } : {}),
      ...own,
      ...(response || own.response ? { response: { ...response, ...(own.response as object | undefined) } } : {}),
      ...(noInput ? { 'x-no-input': true } : {}),
    } as unknown as S;
    return transform({ ...doc, schema });
  };
}
