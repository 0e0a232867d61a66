import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { Code, langFromHeader, msg } from '@console/contract';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { ClientVerifier, installAccessControl, isApiPath } from './access.js';
import type { AppContext } from './context.js';
import { failure } from './envelope.js';
import { AppError } from './errors.js';
import { describeIssues } from './validation.js';
import type { z } from 'zod';

export type App = FastifyInstance & { withTypeProvider: FastifyInstance['withTypeProvider'] };

export interface BuildOptions {
  version: string;
  /** registers the modules' routes */
  routes: (app: FastifyInstance, ctx: AppContext, extras: { clients: ClientVerifier }) => Promise<void>;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export async function buildApp(ctx: AppContext, opts: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: ctx.config.logLevel, redact: ['req.headers.authorization', 'req.headers["blade-auth"]'] },
    bodyLimit: 5 * 1024 * 1024,
    trustProxy: ctx.config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.addHook('onRequest', async (req) => {
    req.startTime = performance.now();
    req.lang = langFromHeader(req.headers['accept-language']);
  });

  app.setErrorHandler((err: FastifyError, req: FastifyRequest, rawReply) => {
    const lang = req.lang ?? 'zh';
    const reply = {
      code: (status: number) => ({
        send: (body: unknown) => {
          void (rawReply as unknown as FastifyReply).status(status);
          return (rawReply as unknown as FastifyReply).send(body);
        },
      }),
    };
    if (err instanceof AppError) {
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
      return reply.code(err.statusCode).send(failure(err.statusCode, `${msg('badRequest', lang)}: ${err.message}`));
    }
    req.log.error({ err }, 'unhandled error');
    ctx.logs.error(req, err);
    const detail = ctx.config.env === 'production' ? msg('serverError', lang) : `${msg('serverError', lang)}: ${err.message}`;
    return reply.code(Code.SERVER_ERROR).send(failure(Code.SERVER_ERROR, detail));
  });

  app.addHook('onResponse', async (req, reply) => {
    if (WRITE_METHODS.has(req.method) && isApiPath(req.url) && req.routeOptions.config?.access) {
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
        },
      },
      security: [{ client: [], bladeAuth: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  const clients = new ClientVerifier(ctx);
  installAccessControl(app, ctx, clients);

  app.get('/version.json', { config: { access: { public: true } }, schema: { hide: true } }, async () => ({ version: opts.version }));

  await opts.routes(app, ctx, { clients });

  const webDir = ctx.config.webDir;
  const indexHtml = webDir && existsSync(join(webDir, 'index.html')) ? readFileSync(join(webDir, 'index.html'), 'utf8') : null;
  if (webDir && indexHtml) {
    await app.register(fastifyStatic, { root: webDir, wildcard: false, index: false, maxAge: '1y', immutable: true });
  }

  app.setNotFoundHandler((req, reply) => {
    const lang = req.lang ?? 'zh';
    const path = req.url.split('?')[0] ?? '';
    if (isApiPath(path) || req.method !== 'GET' || !indexHtml) {
      return reply.code(404).send(failure(404, msg('routeNotFound', lang, { method: req.method, url: path })));
    }
    // The console is a single-page app: every other GET gets index.html and the client routes it.
    return reply.code(200).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml);
  });

  return app;
}
