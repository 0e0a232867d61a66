import { msg, phoneProblem } from '@console/contract';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../../core/access.js';
import { hashPassword, verifyPassword } from '../../core/auth/index.js';
import type { AppContext, AuthUser } from '../../core/context.js';
import { type Executor, inTenant, schema } from '../../core/db/index.js';
import { envelopeOf, ok } from '../../core/envelope.js';
import { AppError, badRequest, notFound } from '../../core/errors.js';
import { formatDateTime, parseDateTime } from '../../core/time.js';
import { isSafeLink, md5Field } from '../../core/validation.js';
import { spendByUser } from '../../core/rateLimit.js';

/** The signed-in user's own profile, departments and roles: what the shell's dialogs need. */

/** Attempts at changing one's password (each checks the current one) per user and quarter hour. */
const PASSWORD_CHANGE_ATTEMPTS = { name: 'password-change', max: 10, windowSeconds: 900 };

const PHONE_MESSAGES = { empty: 'phoneRequired', length: 'phoneLength', format: 'phoneInvalid' } as const;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;


const profileLabels = {
  realName: { zh: '姓名', en: 'Real name' },
  name: { zh: '昵称', en: 'Nickname' },
  phone: { zh: '手机号码', en: 'Phone' },
  email: { zh: '邮箱', en: 'Email' },
  avatar: { zh: '头像', en: 'Avatar' },
  sex: { zh: '性别', en: 'Sex' },
  birthday: { zh: '生日', en: 'Birthday' },
  oldPassword: { zh: '原密码', en: 'Current password' },
  newPassword: { zh: '新密码', en: 'New password' },
  newPassword1: { zh: '确认密码', en: 'Confirm password' },
};

const updateInfoBody = z.object({
  realName: z.string().trim().min(1).max(64).optional(),
  name: z.string().trim().max(64).nullish(),
  phone: z.string().trim().max(32).nullish(),
  email: z.string().trim().max(128).nullish(),
  avatar: z.string().trim().max(1000).nullish(),
  sex: z.coerce.number().int().min(1).max(3).nullish(),
  birthday: z.string().trim().max(32).nullish(),
}); // other keys (Saber's profile form sends id, account and the password fields) are dropped, never written

async function loadSelf(tx: Executor, user: AuthUser) {
  const [row] = await tx.select().from(schema.user)
    .where(and(eq(schema.user.id, user.userId), eq(schema.user.tenantId, user.tenantId), eq(schema.user.isDeleted, 0)));
  if (!row) throw notFound();
  return row;
}

export function registerProfileRoutes(app: FastifyInstance, ctx: AppContext): void {
  const run = <T>(user: AuthUser, fn: (tx: Executor) => Promise<T>) => inTenant(ctx.db, { tenantId: user.tenantId }, fn);

  // /api/blade-user/* reaches these too (app.ts rewrites it)
  {
    const prefix = '/api/blade-system/user';
    app.get(`${prefix}/info`, {
      config: { access: { permission: null } },
      schema: {
        tags: ['blade-system'], summary: 'The signed-in user\'s profile (never the password)',
        docsOnly: {
          noInput: true,
          response: {
            200: envelopeOf(z.object({
              id: z.string(), tenantId: z.string(), account: z.string(), name: z.string(), realName: z.string(), avatar: z.string(), email: z.string(),
              phone: z.string(), sex: z.number().nullable(), birthday: z.string().nullable(), roleId: z.string(), deptId: z.string(),
              postId: z.string(), passwordReset: z.boolean(),
            })),
          },
        },
      },
    }, async (req) => {
      const user = requireUser(req);
      const u = await run(user, (tx) => loadSelf(tx, user));
      return ok({
        id: u.id, tenantId: u.tenantId, account: u.account, name: u.name ?? '', realName: u.realName ?? '',
        avatar: u.avatar ?? '', email: u.email ?? '', phone: u.phone ?? '', sex: u.sex, birthday: formatDateTime(u.birthday),
        roleId: u.roleId, deptId: u.deptId, postId: u.postId, passwordReset: u.passwordReset === 1,
      }, req.lang);
    });

    app.post(`${prefix}/update-info`, {
      config: { access: { permission: null }, fieldLabels: profileLabels, title: { zh: '修改个人信息', en: 'Update own profile' } },
      schema: {
        tags: ['blade-system'], summary: 'Change the signed-in user\'s own profile', body: updateInfoBody,
        docsOnly: { response: { 200: envelopeOf(z.literal(true)) } },
      },
    }, async (req) => {
      const user = requireUser(req);
      const body = req.body as z.output<typeof updateInfoBody>;
      const fields: Record<string, string> = {};
      const stored = await run(user, (tx) => loadSelf(tx, user));
      // a phone, once given, stays a valid mobile number: it may be changed but not cleared (spec 5); a
      // form without a phone (Saber's does not require one) leaves an absent phone absent
      const phoneGiven = body.phone !== undefined && (Boolean(body.phone) || Boolean(stored.phone));
      const phone = phoneGiven ? phoneProblem(body.phone) : null;
      if (phone) fields.phone = msg(PHONE_MESSAGES[phone], req.lang);
      if (body.email && !EMAIL.test(body.email)) fields.email = msg('emailInvalid', req.lang);
      if (body.avatar && !isSafeLink(body.avatar)) fields.avatar = msg('linkUnsafe', req.lang, { field: req.lang === 'zh' ? '头像' : 'Avatar' });
      const birthday = body.birthday ? parseDateTime(body.birthday) : null;
      if (body.birthday && !birthday) fields.birthday = msg('badDate', req.lang, { field: req.lang === 'zh' ? '生日' : 'Birthday' });
      if (Object.keys(fields).length) throw new AppError(400, 'validationFailed', { detail: Object.values(fields).join('; ') }, fields);
      const changes: Partial<typeof schema.user.$inferInsert> = { updateUser: user.userId, updateTime: new Date() };
      if (body.realName !== undefined) changes.realName = body.realName;
      if (body.name !== undefined) changes.name = body.name || null;
      if (phoneGiven) changes.phone = body.phone || null;
      if (body.email !== undefined) changes.email = body.email || null;
      if (body.avatar !== undefined) changes.avatar = body.avatar || null;
      if (body.sex !== undefined) changes.sex = body.sex ?? null;
      if (body.birthday !== undefined) changes.birthday = birthday;
      await run(user, async (tx) => {
        await loadSelf(tx, user);
        await tx.update(schema.user).set(changes)
          .where(and(eq(schema.user.id, user.userId), eq(schema.user.tenantId, user.tenantId)));
      });
      return ok(true, req.lang);
    });

    const passwordBody = z.object({ oldPassword: md5Field(), newPassword: md5Field(), newPassword1: md5Field() }).passthrough();
    app.post(`${prefix}/update-password`, {
      config: { access: { permission: null }, fieldLabels: profileLabels, title: { zh: '修改密码', en: 'Change own password' } },
      schema: {
        tags: ['blade-system'],
        summary: 'Change the signed-in user\'s password (MD5 hex of each); every other session of the user is signed out',
        body: passwordBody,
        docsOnly: { response: { 200: envelopeOf(z.literal(true)) } },
      },
    }, async (req) => {
      const user = requireUser(req);
      const { oldPassword, newPassword, newPassword1 } = req.body as z.output<typeof passwordBody>;
      if (newPassword !== newPassword1) throw badRequest('passwordsDiffer', undefined, { newPassword1: msg('passwordsDiffer', req.lang) });
      if (newPassword === oldPassword) throw badRequest('passwordUnchanged', undefined, { newPassword: msg('passwordUnchanged', req.lang) });
      // every attempt spends the budget first, so the current password cannot be guessed here at speed
      const budget = await spendByUser(ctx, user, PASSWORD_CHANGE_ATTEMPTS);
      if (!budget.allowed) throw new AppError(429, 'tooManyRequests', { seconds: budget.resetSeconds });
      const self = await run(user, (tx) => loadSelf(tx, user));
      // argon2 runs outside any transaction: it holds no connection and no row lock
      if (!(await ctx.hashing.run(() => verifyPassword(self.passwordHash, oldPassword)))) {
        throw badRequest('oldPasswordWrong', undefined, { oldPassword: msg('oldPasswordWrong', req.lang) });
      }
      const hashed = await ctx.hashing.run(() => hashPassword(newPassword));
      const revoked = await run(user, async (tx) => {
        await tx.update(schema.user)
          .set({ passwordHash: hashed, passwordReset: 0, updateUser: user.userId, updateTime: new Date() })
          .where(and(eq(schema.user.id, user.userId), eq(schema.user.tenantId, user.tenantId)));
        return ctx.sessions.revokeUserSessions(tx, user.userId, user.sessionId, 'password-changed');
      });
      await ctx.users.invalidate(user.tenantId, [user.userId]);
      for (const sid of revoked) await ctx.sessions.publishRevoked(sid);
      ctx.logs.usual(req, user.tenantId, 'info', 'password-changed', { key: 'logPasswordChanged', params: { count: revoked.length } });
      return ok(true, req.lang);
    });
  }

  // The login page hides the tenant field when the site's domain belongs to a tenant.
  app.get('/api/blade-system/tenant/info', {
    config: { access: { public: true } },
    schema: {
      tags: ['blade-system'],
      summary: 'The tenant bound to a domain (public; {} when none)',
      querystring: z.object({ domain: z.string().trim().max(255).optional() }).passthrough(),
      docsOnly: {
        response: {
          200: envelopeOf(z.object({ tenantId: z.string(), tenantName: z.string(), domain: z.string(), backgroundUrl: z.string() }).partial()),
        },
      },
    },
  }, async (req) => {
    const raw = (req.query as { domain?: string }).domain ?? '';
    const host = raw.replace(/^https?:\/\//i, '').replace(/\/.*$/, '').toLowerCase();
    if (!host) return ok({}, req.lang);
    const [t] = await ctx.db.select().from(schema.tenant)
      .where(and(eq(schema.tenant.domain, host), eq(schema.tenant.isDeleted, 0), eq(schema.tenant.status, 1)));
    return ok(t ? { tenantId: t.tenantId, tenantName: t.tenantName, domain: t.domain, backgroundUrl: t.backgroundUrl ?? '' } : {}, req.lang);
  });
}
