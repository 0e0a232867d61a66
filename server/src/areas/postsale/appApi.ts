import multipart from '@fastify/multipart';
import { APP_API, Code, type UploadedFile } from '@console/contract';
import { RELEASE_STATE } from '@console/contract/areas/device/index';
import { APP_USER_STATUS, POSTSALE_APP_API } from '@console/contract/areas/postsale/index';
import { and, desc, eq, gt } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppAuth } from '../../core/access.js';
import { binary, JSON_OR_FORM, multipartBody } from '../../core/apiDocs.js';
import { verifyDecoy, verifyPassword } from '../../core/auth/index.js';
import { type AttemptRefusal, LOCK_MINUTES } from '../../core/auth/signInGuard.js';
import type { AppCaller, AppContext, AuthUser } from '../../core/context.js';
import { inTenant } from '../../core/db/index.js';
import { envelopeOf, ok } from '../../core/envelope.js';
import { AppError, badRequest, unauthorized } from '../../core/errors.js';
import { nextId } from '../../core/ids.js';
import { parseInput } from '../../core/resource/actions.js';
import { usableTenant } from '../../core/tenants.js';
import { brokenMultipart, UPLOAD_MAX_BYTES, UPLOADS } from '../../core/uploads.js';
import { md5Field } from '../../core/validation.js';
import { consumeCaptcha } from '../auth/index.js';
import { appLog, appVersion } from '../device/index.js';
import { postsaleUser } from './tables.js';

/** an app stays signed in for a month; a password change or reset, or disabling the user, ends it sooner */
export const APP_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

const signInLabels = {
  tenantId: { zh: '租户', en: 'Tenant' },
  phone: { label: { zh: '手机号', en: 'Phone' }, required: { zh: '请输入手机号', en: 'Please enter the phone number' } },
  password: { label: { zh: '密码', en: 'Password' }, required: { zh: '请输入密码', en: 'Please enter the password' } },
};
const signInBody = z.object({
  tenantId: z.string().trim().min(1).max(12).optional(),
  phone: z.string().trim().min(1).max(32),
  password: md5Field(),
}).strict();

const logLabels = {
  appVersion: { zh: 'APP 版本', en: 'App version' },
  os: { zh: '系统', en: 'OS' },
  phoneModel: { zh: '机型', en: 'Phone model' },
};
const logFields = z.object({
  appVersion: z.string().trim().max(32).optional(),
  os: z.string().trim().max(32).optional(),
  phoneModel: z.string().trim().max(64).optional(),
}).strict();

const versionLabels = {
  platform: { zh: '平台', en: 'Platform' },
  versionCode: { zh: '版本号', en: 'Version code' },
};

/** the upload service's owner for an app user: budgets and the attachment register count them apart from staff */
function uploader(caller: AppCaller): AuthUser {
  return {
    tenantId: caller.tenantId, userId: caller.appUserId, deptId: '', roleIds: [], roleAliases: [],
    account: `app:${caller.phone}`, userName: caller.phone, clientId: 'app', sessionId: '',
  };
}

function refusal(r: AttemptRefusal): AppError {
  switch (r.kind) {
    case 'addressSpent': return new AppError(Code.TOO_MANY, 'tooManyRequests', { seconds: r.seconds });
    case 'locked': return new AppError(400, 'accountLocked', { minutes: r.minutes });
    case 'captchaRequired': return new AppError(400, 'captchaRequiredForAccount');
  }
}

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return (Array.isArray(v) ? v[0] : v)?.trim() || undefined;
}

/** Verifies the app's tokens for `{ app: true }` routes: a live, enabled user whose password has not changed since. */
export function appTokenVerifier(ctx: AppContext): AppAuth {
  return {
    async verify(token: string): Promise<AppCaller> {
      const claims = await ctx.signer.verifyApp(token);
      if (!claims) throw unauthorized('tokenInvalid');
      const [user] = await inTenant(ctx.db, { tenantId: claims.tenant_id }, (tx) => tx
        .select({ phone: postsaleUser.phone, status: postsaleUser.status, passwordTime: postsaleUser.passwordTime }).from(postsaleUser)
        .where(and(eq(postsaleUser.id, claims.app_user_id), eq(postsaleUser.tenantId, claims.tenant_id), eq(postsaleUser.isDeleted, 0))));
      if (!user || user.status !== APP_USER_STATUS.active || user.passwordTime.getTime() !== claims.pwt) throw unauthorized('tokenInvalid');
      return { tenantId: claims.tenant_id, appUserId: claims.app_user_id, phone: user.phone };
    },
  };
}

/** The app's tenant: the body's, the `Tenant-Id` header's, or the console's default; refused when not usable. */
export async function appTenantOf(ctx: AppContext, req: FastifyRequest, fromBody: string | undefined): Promise<string> {
  const tenantId = fromBody ?? header(req, 'tenant-id') ?? ctx.config.console.defaultTenantId;
  const { problem } = await usableTenant(ctx.db, tenantId);
  if (problem) throw new AppError(400, problem);
  return tenantId;
}

/** The answer of a sign-in (and of a sign-up): an app token for the user, their last sign-in noted. */
export async function signedIn(ctx: AppContext, req: FastifyRequest, tenantId: string, user: typeof postsaleUser.$inferSelect) {
  await inTenant(ctx.db, { tenantId }, (tx) => tx.update(postsaleUser).set({ lastLoginTime: new Date() }).where(eq(postsaleUser.id, user.id)));
  const accessToken = await ctx.signer.signApp(
    { token_type: 'app_access_token', tenant_id: tenantId, app_user_id: user.id, pwt: user.passwordTime.getTime() }, APP_TOKEN_TTL_SECONDS);
  ctx.logs.usual(req, tenantId, 'info', 'app-login', { key: 'logSignIn' }, `app:${user.phone}`);
  return {
    accessToken, tokenType: 'bearer' as const, expiresIn: APP_TOKEN_TTL_SECONDS, tenantId,
    user: { id: user.id, phone: user.phone, nickname: user.nickname ?? '', avatar: user.avatar ?? '' },
  };
}

/**
 * The calls of the vendor's phone app (docs/app-api.md). Its users are after-sales users of a tenant: they
 * sign in with phone and password under the same guard as the console's sign-in (address budget, lockout per
 * address, captcha after repeated failures) and get an app token, which only `{ app: true }` routes take.
 */
export async function registerAppApi(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post(APP_API.token, {
    config: { access: { public: true }, title: { zh: 'APP 登录', en: 'App sign-in' }, fieldLabels: signInLabels },
    schema: {
      tags: ['app'],
      summary: 'The app\'s sign-in: phone and password (hex MD5) of an after-sales user of the tenant; answers an app token (Blade-Auth: bearer …)',
      docsOnly: {
        body: signInBody,
        consumes: JSON_OR_FORM,
        response: {
          200: envelopeOf(z.object({
            accessToken: z.string(), tokenType: z.literal('bearer'), expiresIn: z.number(), tenantId: z.string(),
            user: z.object({ id: z.string(), phone: z.string(), nickname: z.string(), avatar: z.string() }),
          })),
        },
      },
    },
  }, async (req, reply) => {
    const body = parseInput(signInBody, req.body ?? {}, req.lang, signInLabels);
    const tenantId = body.tenantId ?? header(req, 'tenant-id') ?? ctx.config.console.defaultTenantId;
    const account = `app:${body.phone}`;
    const fail = (e: AppError): never => {
      ctx.logs.usual(req, tenantId, 'warn', 'app-login', { key: 'logSignInFailed', params: { reason: { key: e.key, params: e.params } } }, account);
      throw e;
    };
    const spent = await ctx.signIns.spend(req);
    if (spent?.kind === 'addressSpent') void reply.header('retry-after', String(spent.seconds));
    if (spent) throw refusal(spent);
    const { problem } = await usableTenant(ctx.db, tenantId);
    if (problem) fail(new AppError(400, problem));
    const captchaKey = header(req, 'captcha-key');
    const captchaCode = header(req, 'captcha-code');
    const captchaSolved = captchaKey && captchaCode ? await consumeCaptcha(ctx.db, captchaKey, captchaCode) : false;
    if (captchaKey && !captchaSolved) fail(new AppError(400, 'captchaInvalid'));
    // the account's attempt is taken before the password is verified, so a burst gets no more than a sequence
    const refused = await ctx.signIns.reserve(req, tenantId, account, captchaSolved);
    if (refused) fail(refusal(refused));

    const { user, good } = await ctx.signIns.verifying(req, tenantId, account, async () => {
      const [found] = await inTenant(ctx.db, { tenantId }, (tx) => tx.select().from(postsaleUser)
        .where(and(eq(postsaleUser.tenantId, tenantId), eq(postsaleUser.phone, body.phone), eq(postsaleUser.isDeleted, 0))));
      return { user: found, good: await ctx.hashing.run(() => (found ? verifyPassword(found.passwordHash, body.password) : verifyDecoy(body.password))) };
    });
    if (!user || !good) {
      const { locked } = await ctx.signIns.failed(req, tenantId, account);
      fail(locked ? new AppError(400, 'accountLocked', { minutes: LOCK_MINUTES }) : new AppError(400, 'appBadCredentials'));
    }
    await ctx.signIns.succeeded(req, tenantId, account);
    if (user!.status !== APP_USER_STATUS.active) fail(new AppError(400, 'accountDisabled'));
    if (user!.passwordReset === 1) fail(new AppError(400, 'appPasswordReset'));
    return ok(await signedIn(ctx, req, tenantId, user!), req.lang);
  });

  await app.register(async (scoped) => {
    await scoped.register(multipart, { limits: { fileSize: UPLOAD_MAX_BYTES.file, files: 1, fields: 10, parts: 11 } });

    scoped.post(APP_API.logUpload, {
      config: { access: { app: true }, title: { zh: 'APP 日志上传', en: 'App log upload' }, fieldLabels: logLabels },
      schema: {
        tags: ['app'],
        summary: 'The app uploads its log (multipart: "file", and appVersion, os, phoneModel as text parts); it is listed under /api/omc-log/app',
        security: [{ appToken: [] }],
        docsOnly: {
          ...multipartBody({ ...logFields.shape, file: binary() }),
          response: { 200: envelopeOf(z.object({ id: z.string(), logFile: z.string(), uploadTime: z.string() })) },
        },
      },
    }, async (req, reply) => {
      const caller = req.appUser!;
      const uploads = ctx.services.find(UPLOADS);
      if (!uploads) throw new Error('app log upload: the server has no upload service');
      if (!req.isMultipart()) throw badRequest('fileNotMultipart');
      const owner = uploader(caller);
      const text: Record<string, string> = {};
      let stored: UploadedFile | undefined;
      const takeBack = async () => {
        if (stored) await uploads.discard(owner, stored).catch(() => undefined);
      };
      try {
        for await (const part of req.parts()) {
          if (part.type === 'field') {
            text[part.fieldname] = String(part.value);
            continue;
          }
          if (part.fieldname !== 'file') {
            part.file.resume();
            throw badRequest('uploadFieldUnknown', { field: part.fieldname });
          }
          // the text parts sent before the file are checked before any byte is stored
          try {
            parseInput(logFields, text, req.lang, logLabels);
          } catch (e) {
            part.file.resume();
            throw e;
          }
          stored = await uploads.store(owner, part, 'file', req.lang, (seconds) => void reply.header('retry-after', String(seconds)));
        }
      } catch (e) {
        await takeBack();
        brokenMultipart(e);
      }
      try {
        if (!stored) throw badRequest('fileRequired');
        const fields = parseInput(logFields, text, req.lang, logLabels);
        const row = { id: nextId(), tenantId: caller.tenantId, appUserId: caller.appUserId, phone: caller.phone, ...fields, logFile: stored.link, uploadTime: new Date() };
        await inTenant(ctx.db, { tenantId: caller.tenantId }, (tx) => tx.insert(appLog).values(row));
        return ok({ id: row.id, logFile: row.logFile, uploadTime: row.uploadTime.toISOString() }, req.lang);
      } catch (e) {
        await takeBack();
        throw e;
      }
    });
  });

  await app.register(async (scoped) => {
    await scoped.register(multipart, { limits: { fileSize: UPLOAD_MAX_BYTES.image, files: 1, fields: 0, parts: 1 } });
    scoped.post(POSTSALE_APP_API.imageUpload, {
      config: { access: { app: true }, title: { zh: 'APP 图片上传', en: 'App image upload' } },
      schema: {
        tags: ['app'],
        summary: 'The app uploads one image (multipart "file"): a feedback names its link in `images`',
        security: [{ appToken: [] }],
        docsOnly: { ...multipartBody({ file: binary() }), response: { 200: envelopeOf(z.object({ link: z.string(), name: z.string() })) } },
      },
    }, async (req, reply) => {
      const uploads = ctx.services.find(UPLOADS);
      if (!uploads) throw new Error('app image upload: the server has no upload service');
      if (!req.isMultipart()) throw badRequest('fileNotMultipart');
      let stored: UploadedFile | undefined;
      try {
        for await (const part of req.parts()) {
          if (part.type === 'field' || part.fieldname !== 'file') {
            if (part.type === 'file') part.file.resume();
            throw badRequest('uploadFieldUnknown', { field: part.fieldname });
          }
          stored = await uploads.store(uploader(req.appUser!), part, 'image', req.lang, (seconds) => void reply.header('retry-after', String(seconds)));
        }
      } catch (e) {
        if (stored) await uploads.discard(uploader(req.appUser!), stored).catch(() => undefined);
        brokenMultipart(e);
      }
      if (!stored) throw badRequest('fileRequired');
      return ok({ link: stored.link, name: stored.originalName }, req.lang);
    });
  });

  app.get(APP_API.latestVersion, {
    config: { access: { public: true }, fieldLabels: versionLabels },
    schema: {
      tags: ['app'],
      summary: 'The update check: the newest published version of a platform, whether the caller\'s version code must update (a newer published version is marked force-update)',
      querystring: z.object({
        platform: z.enum(['android', 'ios']),
        versionCode: z.coerce.number().int().min(0).max(2_147_483_647).optional(),
      }).strict(),
      docsOnly: {
        response: {
          200: envelopeOf(z.object({
            updateAvailable: z.boolean(),
            forceUpdate: z.boolean(),
            latest: z.object({ versionName: z.string(), versionCode: z.number(), releaseNotes: z.string(), downloadUrl: z.string(), storeUrl: z.string() }).nullable(),
          })),
        },
      },
    },
  }, async (req) => {
    const { platform, versionCode } = req.query as { platform: string; versionCode?: number };
    const published = and(eq(appVersion.platform, platform), eq(appVersion.state, RELEASE_STATE.published), eq(appVersion.isDeleted, 0));
    const [latest] = await ctx.db.select().from(appVersion).where(published).orderBy(desc(appVersion.versionCode)).limit(1);
    const current = versionCode ?? 0;
    const [forced] = latest && latest.versionCode > current
      ? await ctx.db.select({ id: appVersion.id }).from(appVersion)
        .where(and(published, gt(appVersion.versionCode, current), eq(appVersion.forceUpdate, 1))).limit(1)
      : [];
    const link = latest?.package ?? '';
    return ok({
      updateAvailable: !!latest && latest.versionCode > current,
      forceUpdate: !!forced,
      latest: latest ? {
        versionName: latest.versionName, versionCode: latest.versionCode, releaseNotes: latest.releaseNotes ?? '',
        downloadUrl: link.startsWith('/') ? `${ctx.config.publicUrl}${link}` : link, storeUrl: latest.storeUrl ?? '',
      } : null,
    }, req.lang);
  });
}
