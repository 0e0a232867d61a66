import { type ActionDef, type Lang, t } from '@console/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { requireUser } from '../access.js';
import { inputDocs } from '../apiDocs.js';
import type { AppContext, AuthUser } from '../context.js';
import { type Executor, inTenant } from '../db/index.js';
import { envelopeOf, ok } from '../envelope.js';
import { AppError } from '../errors.js';
import { describeIssues, type FieldLabels } from '../validation.js';

export interface ActionContext {
  user: AuthUser;
  lang: Lang;
  req: FastifyRequest;
  /** the request's transaction in the caller's tenant (row-level security applies) */
  tx: Executor;
  /** the permission codes of the caller's roles (read before the transaction: PGlite has one connection) */
  granted: ReadonlySet<string>;
  /** work to do once the transaction committed (cache invalidation on every instance, …) */
  afterCommit(fn: () => Promise<void> | void): void;
}

export interface ActionOptions {
  /** labels of the input's fields, for validation messages */
  labels?: FieldLabels;
  /** OpenAPI tag (default: the second segment of the path) */
  tag?: string;
}

/** The parameters of a call: the query string, a form body and a JSON object body alike (api.md §6). */
export function actionParams(req: FastifyRequest): Record<string, unknown> {
  const query = (req.query ?? {}) as Record<string, unknown>;
  const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
  const { 'blade-auth': _token, ...rest } = query;
  return { ...rest, ...body };
}

/** Validates input against a schema, answering 400 with every bad field named in the caller's language. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, lang: Lang, labels?: FieldLabels): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const fields = describeIssues(parsed.error.issues, lang, labels, input);
    throw new AppError(400, 'validationFailed', { detail: Object.values(fields).join('; ') }, fields);
  }
  return parsed.data;
}

/**
 * The route options of a declared action: its access (permission code, platform), its log title and its
 * documentation. Its input is documented only: the handler validates it from query, form and JSON merged.
 */
function actionRoute(action: ActionDef, opts: ActionOptions) {
  const access = {
    permission: action.permission !== null && action.alsoFor?.length ? [action.permission, ...action.alsoFor] : action.permission,
    ...(action.platform === 'write' ? { platformWrite: true } : {}),
    ...(action.platform === 'admin' ? { platformAdmin: true } : {}),
  };
  const tag = opts.tag ?? action.path.split('/')[2] ?? 'api';
  return {
    config: { access, title: action.title, fieldLabels: opts.labels },
    schema: { tags: [tag], summary: t(action.title, 'en'), response: { 200: envelopeOf(action.output) }, docsOnly: inputDocs(action.method, action.input) },
  };
}

function register(app: FastifyInstance, action: ActionDef, opts: ActionOptions, handle: (req: FastifyRequest) => Promise<unknown>): void {
  const route = actionRoute(action, opts);
  if (action.method === 'GET') app.get(action.path, route, handle);
  else app.post(action.path, route, handle);
}

/**
 * Mounts a declared action: its access (permission code, platform), its input validated from query, form
 * or JSON, the handler run in the caller's tenant transaction, the answer in the envelope and documented,
 * and writes logged in the API log under the action's title.
 */
export function mountAction<A extends ActionDef>(
  app: FastifyInstance,
  ctx: AppContext,
  action: A,
  handler: (input: z.output<A['input']>, c: ActionContext) => Promise<z.input<A['output']>>,
  opts: ActionOptions = {},
): void {
  register(app, action, opts, async (req) => {
    const user = requireUser(req);
    const input: z.output<A['input']> = parseInput(action.input as A['input'], actionParams(req), req.lang, opts.labels);
    const pending: Array<() => Promise<void> | void> = [];
    const granted = await ctx.permissions.codes(user.tenantId, user.roleIds);
    const result = await inTenant(ctx.db, { tenantId: user.tenantId }, (tx) =>
      handler(input, { user, lang: req.lang, req, tx, granted, afterCommit: (fn) => pending.push(fn) }));
    for (const fn of pending) await fn();
    return ok(result, req.lang);
  });
}

/**
 * Mounts a declared action whose handler opens its own transactions, or none: one that composes other calls
 * of this server (each in its own transaction, with its own checks) or waits on a remote service, which must
 * not hold a connection meanwhile (the embedded database has one).
 */
export function mountOutsideTransaction<A extends ActionDef>(
  app: FastifyInstance,
  action: A,
  handler: (input: z.output<A['input']>, c: Omit<ActionContext, 'tx' | 'granted' | 'afterCommit'>) => Promise<z.input<A['output']>>,
  opts: ActionOptions = {},
): void {
  register(app, action, opts, async (req) => {
    const user = requireUser(req);
    const input: z.output<A['input']> = parseInput(action.input as A['input'], actionParams(req), req.lang, opts.labels);
    return ok(await handler(input, { user, lang: req.lang, req }), req.lang);
  });
}
