import formbody from '@fastify/formbody';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { Code, langFromHeader, msg, type R } from '@console/contract';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { ClientVerifier, installAccessControl, isApiPath } from './access.js';
import { withDocsOnly } from './apiDocs.js';
import type { UrlAlias } from './area.js';
import type { AppContext } from './context.js';
import { failure } from './envelope.js';
import { AppError, UpstreamError } from './errors.js';
import { describeIssues } from './validation.js';
import { answerForDbError } from './dbErrors.js';
import { installInputChecks, MAX_BODY_DEPTH } from './input.js';
import { redactUrl } from './redact.js';
import { registerWebAssets } from './webAssets.js';
import { registerHealthRoutes } from './fleet/health.js';
import { registerMetrics } from './fleet/metrics.js';
import { requestIdOf } from './fleet/requestId.js';
import type { z } from 'zod';

export type App = FastifyInstance & { withTypeProvider: FastifyInstance['withTypeProvider'] };

export interface BuildOptions {
  version: string;
  /** registers the modules' routes */
  routes: (app: FastifyInstance, ctx: AppContext, extras: { clients: ClientVerifier }) => Promise<void>;
  /** the areas' other prefixes of their calls, after the core's */
  urlAliases?: readonly UrlAlias[];
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const BODY_LIMIT = 5 * 1024 * 1024;

/**
 * Prefixes answered as another: BladeX answers its user calls under /api/blade-user as under
 * /api/blade-system/user (guest sign-up is the one call of its own there), and every IPC back-office call
 * under /tc/ymy-ipc as under /sc/ymy-ipc (api.md §4: "/sc and /tc twins answer the same call the same way");
 * the areas add theirs (`urlAliases`).
 */
const CORE_ALIASES: readonly UrlAlias[] = [
  { from: '/api/blade-user/', to: '/api/blade-system/user/', own: ['/api/blade-user/register-guest'] },
  { from: '/tc/ymy-ipc/', to: '/sc/ymy-ipc/' },
  // the sale console's device control is the tenant console's
  { from: '/api/ymy-sale/device-control/', to: '/tc/omc-device/control/' },
];

export function rewriteAlias(url: string, aliases: readonly UrlAlias[] = CORE_ALIASES): string {
  for (const { from, to, own } of aliases) {
    if (url.startsWith(from) && !own?.some((p) => url.startsWith(p))) return to + url.slice(from.length);
  }
  return url;
}

export async function buildApp(ctx: AppContext, opts: BuildOptions): Promise<FastifyInstance> {
  const aliases = [...CORE_ALIASES, ...(opts.urlAliases ?? [])];
  const app = Fastify({
    logger: {
      level: ctx.config.logLevel,
      ...(ctx.config.logStream ? { stream: ctx.config.logStream } : {}),
      redact: ['req.headers.authorization', 'req.headers["blade-auth"]', 'req.headers["captcha-code"]'],
      serializers: {
        // the default serializer logs the URL with its query string, which may hold a password or token
        req: (req: FastifyRequest) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip }),
      },
    },
    bodyLimit: BODY_LIMIT,
    trustProxy: ctx.config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    rewriteUrl: (req) => rewriteAlias(req.url ?? '/', aliases),
    genReqId: requestIdOf,
    // a path parameter over maxParamLength (414) or a URL that does not decode (400): the envelope, not Fastify's own
    frameworkErrors: (error, req, reply: FastifyReply) => {
      const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
      void reply.code(status).send(failure(status, msg('badRequest', langFromHeader(req.headers['accept-language']))));
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.addHook('onRequest', async (req, reply) => {
    req.startTime = performance.now();
    req.lang = langFromHeader(req.headers['accept-language']);
    void reply.header('x-request-id', req.id);
  });
  registerMetrics(app, ctx.metrics, ctx.config.metricsToken);
  installInputChecks(app, BODY_LIMIT);

  app.setErrorHandler((err: FastifyError, req: FastifyRequest, rawReply) => {
    try {
      return handleError(err, req, rawReply);
    } catch (e) {
      // the error handler itself failed: still answer the envelope, never Fastify's bare 500
      req.log.error({ err: e }, 'error handler failed');
      const lang = req.lang ?? 'zh';
      return (rawReply as unknown as FastifyReply).code(Code.SERVER_ERROR).send(failure(Code.SERVER_ERROR, msg('serverError', lang)));
    }
  });

  const handleError = (err: FastifyError, req: FastifyRequest, rawReply: unknown) => {
    const lang = req.lang ?? 'zh';
    // The token endpoint answers OAuth errors (`error`, `error_description`) beside the envelope's fields,
    // also for failures that happen before its handler runs (unparsable body, NUL, too large…).
    const oauth = req.routeOptions.config?.oauthErrors === true;
    const reply = {
      code: (status: number) => ({
        send: (body: R<unknown>) => {
          void (rawReply as unknown as FastifyReply).status(status);
          const answer = oauth ? { error: status === 401 ? 'invalid_client' : 'invalid_request', error_description: body.msg, ...body } : body;
          return (rawReply as unknown as FastifyReply).send(answer);
        },
      }),
    };
    if (err instanceof UpstreamError) {
      req.log.warn({ err }, 'upstream service failed');
      ctx.logs.error(req, err);
    }
    if (err instanceof AppError) {
      if ((err.code === 429 || err.code === 503) && err.params?.seconds !== undefined) void (rawReply as FastifyReply).header('retry-after', String(err.params.seconds));
      return reply.code(err.code).send(failure(err.code, err.message_(lang), err.data ?? null));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const issues = err.validation.map((v) => ({
        ...v.params,
        code: v.keyword,
        message: v.message,
        path: v.instancePath.split('/').filter(Boolean),
      }) as unknown as z.core.$ZodIssue);
      const source = err.validationContext === 'querystring' ? req.query : err.validationContext === 'params' ? req.params : req.body;
      const fields = describeIssues(issues, lang, req.routeOptions.config?.fieldLabels, source);
      const detail = Object.values(fields).join('; ');
      return reply.code(400).send(failure(400, msg('validationFailed', lang, { detail }), fields));
    }
    if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || err instanceof SyntaxError) {
      return reply.code(400).send(failure(400, msg('invalidJson', lang)));
    }
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      const type = String(req.headers['content-type'] ?? '');
      return reply.code(415).send(failure(415, msg('unsupportedMedia', lang, { type })));
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500 && !isResponseSerializationError(err)) {
      // Fastify's own client errors (body too large, bad content length, …): keep their status.
      return reply.code(err.statusCode).send(failure(err.statusCode, `${msg('badRequest', lang)}: ${String(err.message).slice(0, 200)}`));
    }
    const db = answerForDbError(err);
    if (db) {
      if (db.status >= 500) req.log.error({ err }, 'database unavailable');
      if (db.retryAfter !== undefined) void (rawReply as FastifyReply).header('retry-after', String(db.retryAfter));
      return reply.code(db.status).send(failure(db.status, msg(db.key, lang)));
    }
    if (err instanceof RangeError && /call stack/i.test(err.message)) {
      return reply.code(400).send(failure(400, msg('bodyTooDeep', lang, { max: MAX_BODY_DEPTH })));
    }
    req.log.error({ err }, 'unhandled error');
    ctx.logs.error(req, err);
    const detail = ctx.config.env === 'production' ? msg('serverError', lang) : `${msg('serverError', lang)}: ${String(err.message).split('\n')[0]}`;
    return reply.code(Code.SERVER_ERROR).send(failure(Code.SERVER_ERROR, detail));
  };

  app.addHook('onRoute', (route) => {
    const title = route.config?.title;
    if (title) ctx.logs.titleRoute(route.method, route.url, title);
  });

  app.addHook('onResponse', async (req, reply) => {
    // a refused burst (429) must cost nothing: it is not written row by row
    if (WRITE_METHODS.has(req.method) && isApiPath(req.url) && req.routeOptions.config?.access && reply.statusCode !== 429) {
      ctx.logs.api(req, reply.statusCode, req.routeOptions.config.title);
    }
  });

  await app.register(formbody, { bodyLimit: 64 * 1024 });
  await app.register(swagger, {
    openapi: {
      info: { title: 'IoT console API', version: opts.version, description: 'Envelope, paging and auth conventions: docs/api.md' },
      components: {
        securitySchemes: {
          client: { type: 'http', scheme: 'basic', description: 'OAuth client, e.g. saber:saber_secret' },
          bladeAuth: { type: 'apiKey', in: 'header', name: 'Blade-Auth', description: 'bearer <access token>' },
          appToken: { type: 'apiKey', in: 'header', name: 'Blade-Auth', description: 'bearer <app token> from /api/app/auth/token (the phone app; no client)' },
        },
      },
      security: [{ client: [], bladeAuth: [] }],
    },
    transform: withDocsOnly(jsonSchemaTransform),
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  const clients = new ClientVerifier(ctx);
  installAccessControl(app, ctx, clients);

  registerHealthRoutes(app, ctx.health);
  app.get('/version.json', { config: { access: { public: true } }, schema: { hide: true } }, async () => ({ version: opts.version }));

  await opts.routes(app, ctx, { clients });

  await registerWebAssets(app, ctx.config.webDir);

  return app;
}
