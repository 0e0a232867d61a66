import { API, type ConsoleConfig, type ServerStatus } from '@console/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../core/context.js';
import { envelopeOf, ok } from '../../core/envelope.js';
import { formatDateTime } from '../../core/time.js';
import { registerGuestRoute } from './registerGuest.js';

const SERVER_CHECK_TIMEOUT_MS = 3000;

/** Public calls of the console before (or regardless of) sign-in. */
export async function appModule(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get(API.consoleConfig, {
    config: { access: { public: true } },
    schema: {
      tags: ['app'], summary: 'Console switches: switch mode, captcha, tenant mode, default tenant, display time zone (public)',
      docsOnly: {
        noInput: true,
        response: {
          200: envelopeOf(z.object({ switchMode: z.boolean(), captchaMode: z.boolean(), tenantMode: z.boolean(), defaultTenantId: z.string(), timeZone: z.string(), regionAlarmMs: z.number().int() })),
        },
      },
    },
  }, async (req) => {
    const body: ConsoleConfig = { ...ctx.config.console, timeZone: ctx.config.timeZone };
    return ok(body, req.lang);
  });

  // The console's "server online" button and the IPC back office's health probe: the database answers.
  app.get(API.serverStatus, {
    config: { access: { public: true } },
    schema: {
      tags: ['app'], summary: 'Server health: online when the database answers within 3 s (public)',
      docsOnly: {
        noInput: true,
        response: { 200: envelopeOf(z.object({ online: z.boolean(), dbMillis: z.number(), version: z.string(), time: z.string() })) },
      },
    },
  }, async (req) => {
    const started = performance.now();
    let online = true;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        ctx.db.execute(sql`select 1`),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('database check timed out')), SERVER_CHECK_TIMEOUT_MS);
        }),
      ]);
    } catch (err) {
      online = false;
      req.log.warn({ err }, 'server status check: database unavailable');
    } finally {
      clearTimeout(timer);
    }
    const body: ServerStatus = {
      online, dbMillis: Math.round((performance.now() - started) * 10) / 10, version: ctx.version, time: formatDateTime(new Date()) ?? '',
    };
    return ok(body, req.lang);
  });

  registerGuestRoute(app, ctx);
}
