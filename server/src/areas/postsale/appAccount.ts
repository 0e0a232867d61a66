import { POSTSALE_APP_API, SMS_PURPOSE } from '@console/contract/areas/postsale/index';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { hashPassword } from '../../core/auth/index.js';
import type { AppContext } from '../../core/context.js';
import { inTenant } from '../../core/db/index.js';
import { isUniqueViolation } from '../../core/dbErrors.js';
import { AppError, fieldError } from '../../core/errors.js';
import { nextId } from '../../core/ids.js';
import { limitByIp } from '../../core/rateLimit.js';
import { md5Field } from '../../core/validation.js';
import { hasTextFormat } from '@console/contract';
import { appTenantOf, signedIn } from './appApi.js';
import { mountPublicAppCall } from './appCall.js';
import { sendSmsCode, takeSmsCode } from './smsCodes.js';
import { postsaleUser } from './tables.js';

const phoneField = () => z.string().trim().min(1).max(32).refine((v) => hasTextFormat(v, 'mobile'), { params: { kind: 'mobile' } });
const smsCodeField = () => z.string().trim().regex(/^\d{6}$/);

const labels = {
  tenantId: { zh: '租户', en: 'Tenant' },
  phone: { label: { zh: '手机号', en: 'Phone' }, required: { zh: '请输入手机号', en: 'Please enter the phone number' } },
  purpose: { zh: '用途', en: 'Purpose' },
  smsCode: { label: { zh: '短信验证码', en: 'SMS code' }, required: { zh: '请输入短信验证码', en: 'Please enter the SMS code' } },
  password: { label: { zh: '密码', en: 'Password' }, required: { zh: '请输入密码', en: 'Please enter the password' } },
  nickname: { zh: '昵称', en: 'Nickname' },
};

const tokenAnswer = z.object({
  accessToken: z.string(), tokenType: z.literal('bearer'), expiresIn: z.number(), tenantId: z.string(),
  user: z.object({ id: z.string(), phone: z.string(), nickname: z.string(), avatar: z.string() }),
});

/** a registration or a reset sets a password by a code: one budget per address against guessing codes */
const CODE_USE = { name: 'app-sms-use', max: 30, windowSeconds: 3600 };

async function registered(ctx: AppContext, tenantId: string, phone: string) {
  const [row] = await inTenant(ctx.db, { tenantId }, (tx) => tx.select().from(postsaleUser)
    .where(and(eq(postsaleUser.tenantId, tenantId), eq(postsaleUser.phone, phone), eq(postsaleUser.isDeleted, 0))));
  return row;
}

/** The app's account calls without a token: an SMS code, sign-up with it, a new password with it. */
export function registerAppAccount(app: FastifyInstance, ctx: AppContext): void {
  mountPublicAppCall(app, {
    method: 'POST', url: POSTSALE_APP_API.smsCode, access: 'public', labels,
    title: { zh: 'APP 短信验证码', en: 'App SMS code' },
    summary: 'Sends a six-digit SMS code for sign-up (the phone must be new to the tenant) or for a new password (it must be registered); one a minute per phone',
    input: z.object({ tenantId: z.string().trim().min(1).max(12).optional(), phone: phoneField(), purpose: z.enum([SMS_PURPOSE.register, SMS_PURPOSE.reset]) }).strict(),
    output: z.object({ resendSeconds: z.number() }),
  }, async (input, { req, lang }) => {
    const tenantId = await appTenantOf(ctx, req, input.tenantId);
    const known = await registered(ctx, tenantId, input.phone);
    if (input.purpose === SMS_PURPOSE.register && known) throw fieldError('phoneRegistered', lang, 'phone', { phone: input.phone });
    if (input.purpose === SMS_PURPOSE.reset && !known) throw fieldError('phoneNotRegistered', lang, 'phone', { phone: input.phone });
    const { seconds } = await sendSmsCode(ctx, req, tenantId, input.phone, input.purpose);
    return { resendSeconds: seconds };
  });

  mountPublicAppCall(app, {
    method: 'POST', url: POSTSALE_APP_API.register, access: 'public', labels,
    title: { zh: 'APP 注册', en: 'App sign-up' },
    summary: 'Registers an app user with the phone\'s SMS code (purpose register) and a password (hex MD5); answers signed in, as the token call does',
    input: z.object({
      tenantId: z.string().trim().min(1).max(12).optional(), phone: phoneField(), smsCode: smsCodeField(), password: md5Field(),
      nickname: z.string().trim().max(64).optional(),
    }).strict(),
    output: tokenAnswer,
  }, async (input, { req, lang }) => {
    await limitByIp(ctx, req, CODE_USE);
    const tenantId = await appTenantOf(ctx, req, input.tenantId);
    if (!(await takeSmsCode(ctx, tenantId, input.phone, SMS_PURPOSE.register, input.smsCode))) throw fieldError('smsCodeWrong', lang, 'smsCode');
    const passwordHash = await ctx.hashing.run(() => hashPassword(input.password));
    const now = new Date();
    const row = { id: nextId(), tenantId, phone: input.phone, nickname: input.nickname || null, passwordHash, passwordTime: now, registerTime: now };
    try {
      const [user] = await inTenant(ctx.db, { tenantId }, (tx) => tx.insert(postsaleUser).values(row).returning());
      return signedIn(ctx, req, tenantId, user!);
    } catch (e) {
      if (isUniqueViolation(e)) throw fieldError('phoneRegistered', lang, 'phone', { phone: input.phone });
      throw e;
    }
  });

  mountPublicAppCall(app, {
    method: 'POST', url: POSTSALE_APP_API.resetPassword, access: 'public', labels,
    title: { zh: 'APP 设置新密码', en: 'App new password' },
    summary: 'Sets a new password (hex MD5) with the phone\'s SMS code (purpose reset); every app signed in as the user is signed out',
    input: z.object({ tenantId: z.string().trim().min(1).max(12).optional(), phone: phoneField(), smsCode: smsCodeField(), password: md5Field() }).strict(),
    output: z.boolean(),
  }, async (input, { req, lang }) => {
    await limitByIp(ctx, req, CODE_USE);
    const tenantId = await appTenantOf(ctx, req, input.tenantId);
    if (!(await takeSmsCode(ctx, tenantId, input.phone, SMS_PURPOSE.reset, input.smsCode))) throw fieldError('smsCodeWrong', lang, 'smsCode');
    const passwordHash = await ctx.hashing.run(() => hashPassword(input.password));
    const updated = await inTenant(ctx.db, { tenantId }, (tx) => tx.update(postsaleUser)
      .set({ passwordHash, passwordTime: new Date(), passwordReset: 0, updateTime: new Date() })
      .where(and(eq(postsaleUser.tenantId, tenantId), eq(postsaleUser.phone, input.phone), eq(postsaleUser.isDeleted, 0))).returning({ id: postsaleUser.id }));
    if (updated.length === 0) throw new AppError(400, 'phoneNotRegistered', { phone: input.phone });
    return true;
  });
}
