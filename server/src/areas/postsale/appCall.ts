import type { I18nText } from '@console/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { inputDocs } from '../../core/apiDocs.js';
import type { AppCaller, AppContext } from '../../core/context.js';
import { type Executor, inTenant } from '../../core/db/index.js';
import { envelopeOf, ok } from '../../core/envelope.js';
import { actionParams, parseInput } from '../../core/resource/actions.js';
import type { FieldLabels } from '../../core/validation.js';

/** A call of the phone app: its path, who may make it, its input and answer (documented under the `app` tag). */
export interface AppCallDef<I extends z.ZodType, O extends z.ZodType> {
  method: 'GET' | 'POST';
  url: string;
  /** `app`: a signed-in app user (app token); `public`: anyone (sign-up, SMS codes), under the address budget */
  access: 'app' | 'public';
  title: I18nText;
  summary: string;
  input: I;
  output: O;
  labels?: FieldLabels;
}

export interface AppCallContext {
  req: FastifyRequest;
  lang: 'zh' | 'en';
}

/** The app user's call, run in one transaction of the user's tenant. */
export interface SignedInAppCall extends AppCallContext {
  caller: AppCaller;
  tx: Executor;
}

function route<I extends z.ZodType, O extends z.ZodType>(app: FastifyInstance, def: AppCallDef<I, O>, handle: (req: FastifyRequest) => Promise<unknown>): void {
  app.route({
    method: def.method,
    url: def.url,
    config: { access: def.access === 'app' ? { app: true } : { public: true }, title: def.title, fieldLabels: def.labels },
    schema: {
      tags: ['app'], summary: def.summary,
      ...(def.access === 'app' ? { security: [{ appToken: [] }] } : {}),
      docsOnly: { ...inputDocs(def.method, def.input), response: { 200: envelopeOf(def.output) } },
    },
    handler: async (req) => handle(req),
  });
}

/** Mounts a call of a signed-in app user: input from query, form or JSON, the handler in the user's tenant. */
export function mountAppCall<I extends z.ZodType, O extends z.ZodType>(
  app: FastifyInstance, ctx: AppContext, def: AppCallDef<I, O> & { access: 'app' },
  handler: (input: z.output<I>, c: SignedInAppCall) => Promise<z.input<O>>,
): void {
  route(app, def, async (req) => {
    const caller = req.appUser!;
    const input = parseInput(def.input, actionParams(req), req.lang, def.labels);
    const result = await inTenant(ctx.db, { tenantId: caller.tenantId }, (tx) => handler(input, { req, lang: req.lang, caller, tx }));
    return ok(result, req.lang);
  });
}

/** Mounts a public call of the app (no token): the handler opens the transactions it needs. */
export function mountPublicAppCall<I extends z.ZodType, O extends z.ZodType>(
  app: FastifyInstance, def: AppCallDef<I, O> & { access: 'public' },
  handler: (input: z.output<I>, c: AppCallContext) => Promise<z.input<O>>,
): void {
  route(app, def, async (req) => {
    const input = parseInput(def.input, actionParams(req), req.lang, def.labels);
    return ok(await handler(input, { req, lang: req.lang }), req.lang);
  });
}

/**
 * Mounts a call of a signed-in app user whose handler opens its own transactions: one that waits on a remote
 * service (a payment provider) must not hold a connection meanwhile (the embedded database has one).
 */
export function mountAppCallOutside<I extends z.ZodType, O extends z.ZodType>(
  app: FastifyInstance, def: AppCallDef<I, O> & { access: 'app' },
  handler: (input: z.output<I>, c: AppCallContext & { caller: AppCaller }) => Promise<z.input<O>>,
): void {
  route(app, def, async (req) => {
    const input = parseInput(def.input, actionParams(req), req.lang, def.labels);
    return ok(await handler(input, { req, lang: req.lang, caller: req.appUser! }), req.lang);
  });
}
