import { API, msg, USER_STATUS } from '@console/contract';
import { and, count, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { hashPassword } from '../../core/auth/index.js';
import type { AppContext } from '../../core/context.js';
import { inTenant, schema } from '../../core/db/index.js';
import { envelopeOf, ok } from '../../core/envelope.js';
import { AppError, badRequest } from '../../core/errors.js';
import { nextId } from '../../core/ids.js';
import { isUniqueViolation } from '../../core/dbErrors.js';
import { limitByIp } from '../../core/rateLimit.js';
import { usableTenant } from '../../core/tenants.js';
import { md5Field } from '../../core/validation.js';

const ACCOUNT = /^[A-Za-z0-9_.-]{2,64}$/;
/** Public sign-ups per address: enough for an office behind one NAT, too few to flood approvals. */
const REGISTER_LIMIT = { name: 'register-guest', max: 10, windowSeconds: 3600 };

const body = z.object({
  tenantId: z.string().trim().min(1).max(12),
  name: z.string().trim().max(64).optional().default(''),
  account: z.string().trim().min(1).max(64),
  password: md5Field(),
  oauthId: z.string().trim().max(64).optional(),
}).strict();

const labels = {
  tenantId: { zh: '租户ID', en: 'Tenant ID' },
  name: { zh: '用户姓名', en: 'User name' },
  account: { zh: '账号', en: 'Account' },
  password: { zh: '密码', en: 'Password' },
  oauthId: { zh: '第三方账号', en: 'Third-party account' },
};

/**
 * Third-party registration: creates a user with no role, waiting for an administrator's approval
 * (status 3). The token grant refuses such accounts until `user/audit-pass`.
 */
export function registerGuestRoute(app: FastifyInstance, ctx: AppContext): void {
  for (const path of [API.registerGuest, '/api/blade-system/user/register-guest']) {
    app.post(path, {
      config: { access: { public: true }, fieldLabels: labels, title: { zh: '注册访客账号', en: 'Register a guest account' } },
      schema: {
        tags: ['blade-system'], summary: 'Register an account awaiting approval (public, rate-limited per address)', body,
        docsOnly: { response: { 200: envelopeOf(z.literal(true)) } },
      },
    }, async (req) => {
      await limitByIp(ctx, req, REGISTER_LIMIT);
      const input = req.body as z.output<typeof body>;
      if (!ACCOUNT.test(input.account)) throw badRequest('accountFormat', undefined, { account: msg('accountFormat', req.lang) });
      if (input.oauthId) throw badRequest('oauthUnknown', undefined, { oauthId: msg('oauthUnknown', req.lang) });
      const { tenant, problem } = await usableTenant(ctx.db, input.tenantId);
      if (!tenant || problem) throw badRequest('tenantUnknown', undefined, { tenantId: msg('tenantUnknown', req.lang) });
      const password = await ctx.hashing.run(() => hashPassword(input.password));
      const taken = () => new AppError(409, 'accountTaken', { account: input.account }, { account: msg('accountTaken', req.lang, { account: input.account }) });
      await inTenant(ctx.db, { tenantId: tenant.tenantId }, async (tx) => {
        const live = and(eq(schema.user.tenantId, tenant.tenantId), eq(schema.user.isDeleted, 0));
        const [existing] = await tx.select({ id: schema.user.id }).from(schema.user).where(and(live, eq(schema.user.account, input.account)));
        if (existing) throw taken();
        if (tenant.accountNumber >= 0) {
          const [{ n }] = await tx.select({ n: count() }).from(schema.user).where(live) as [{ n: number }];
          if (n >= tenant.accountNumber) throw badRequest('tenantFull');
        }
        await tx.insert(schema.user).values({
          id: nextId(), tenantId: tenant.tenantId, account: input.account, passwordHash: password, name: input.name || input.account,
          realName: input.name || input.account, userType: 1, status: USER_STATUS.awaitingApproval,
        });
      }).catch((e: unknown) => {
        // a parallel sign-up of the same account won the race to the unique index
        throw isUniqueViolation(e) ? taken() : e;
      });
      ctx.logs.usual(req, tenant.tenantId, 'info', 'register-guest', { key: 'logGuestRegistered', params: { account: input.account } });
      return ok(true, req.lang, 'registeredPending');
    });
  }
}
