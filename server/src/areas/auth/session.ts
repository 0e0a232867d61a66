import { PLATFORM_TENANT } from '@console/contract';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { bearerOf, requireUser } from '../../core/access.js';
import type { AppContext } from '../../core/context.js';
import { inTenant, schema } from '../../core/db/index.js';
import { envelopeOf, ok } from '../../core/envelope.js';
import { AppError, notFound } from '../../core/errors.js';
import { splitList } from '../../core/ids.js';
import { limitByIp, spendByUser } from '../../core/rateLimit.js';
import { formatDateTime } from '../../core/time.js';
import { localName } from '../../core/localName.js';

const webErrorRecord = z.object({
  type: z.string().max(255).optional(),
  message: z.string().max(20000).optional(),
  stack: z.string().max(100000).optional(),
  info: z.string().max(20000).optional(),
  url: z.string().max(2000).optional(),
  time: z.string().max(64).optional(),
});

export function registerSessionRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/blade-auth/oauth/logout', {
    config: { access: { permission: null }, title: { zh: '退出登录', en: 'Sign out' } },
    schema: {
      tags: ['blade-auth'], summary: 'Sign out: revokes the session, so its access and refresh tokens stop working at once',
      docsOnly: { noInput: true, response: { 200: envelopeOf(z.literal(true)) } },
    },
  }, async (req) => {
    const user = requireUser(req);
    await inTenant(ctx.db, { tenantId: user.tenantId }, (tx) => ctx.sessions.revokeIn(tx, user.sessionId, 'logout'));
    await ctx.sessions.publishRevoked(user.sessionId);
    ctx.logs.usual(req, user.tenantId, 'info', 'logout', { key: 'logSignOut' });
    return ok(true, req.lang);
  });

  // The console posts its local error log here (spec 2 "Local error-log panel"). A signed-in caller's
  // records go to its tenant; without a valid token they go to the platform tenant.
  // Anyone holding the console's client id can post here: a bound keeps the error log from being flooded.
  const WEB_ERROR_UPLOADS_PER_ADDRESS = { name: 'web-error-upload', max: 20, windowSeconds: 60 };
  const WEB_ERROR_UPLOADS_PER_USER = { name: 'web-error-upload-user', max: 10, windowSeconds: 60 };
  app.post('/api/blade-auth/oauth/logout', {
    config: { access: { client: true }, title: { zh: '上传前端错误日志', en: 'Upload the console\'s error log' } },
    schema: {
      tags: ['blade-auth'],
      summary: 'Store the console\'s local error records in the error log (type web)',
      body: z.array(webErrorRecord).max(500),
      docsOnly: { response: { 200: envelopeOf(z.number().int().describe('the records stored')) } },
    },
  }, async (req) => {
    await limitByIp(ctx, req, WEB_ERROR_UPLOADS_PER_ADDRESS);
    const bearer = bearerOf(req);
    const claims = bearer ? await ctx.signer.verify(bearer.token) : null;
    if (claims && (await ctx.sessions.isActive(claims.tenant_id, claims.sid))) {
      req.user = {
        tenantId: claims.tenant_id, userId: claims.user_id, deptId: claims.dept_id, roleIds: [], roleAliases: [],
        account: claims.account, userName: claims.user_name, clientId: claims.client_id, sessionId: claims.sid,
      };
      const budget = await spendByUser(ctx, req.user, WEB_ERROR_UPLOADS_PER_USER);
      if (!budget.allowed) throw new AppError(429, 'tooManyRequests', { seconds: budget.resetSeconds });
    }
    const saved = await ctx.logs.webErrors(req, req.body as z.output<typeof webErrorRecord>[]);
    return ok(saved, req.lang, 'logsSaved');
  });

  app.get('/api/blade-auth/oauth/user-info', {
    config: { access: { permission: null } },
    schema: {
      tags: ['blade-auth'], summary: 'The signed-in user, with roles and tenant',
      docsOnly: {
        noInput: true,
        response: {
          200: envelopeOf(z.object({
            userId: z.string(), tenantId: z.string(), tenantName: z.string(), account: z.string(), name: z.string(), realName: z.string(),
            avatar: z.string(), email: z.string(), phone: z.string(), sex: z.number().nullable(), birthday: z.string().nullable(),
            roleId: z.string(), roleName: z.string(), roleAlias: z.string(), deptId: z.string(), deptName: z.string(), isPlatform: z.boolean(),
          })),
        },
      },
    },
  }, async (req) => {
    const user = requireUser(req);
    const info = await inTenant(ctx.db, { tenantId: user.tenantId }, async (tx) => {
      const [u] = await tx.select().from(schema.user)
        .where(and(eq(schema.user.id, user.userId), eq(schema.user.tenantId, user.tenantId), eq(schema.user.isDeleted, 0)));
      if (!u) throw notFound();
      const roles = await tx.select({ id: schema.role.id, roleName: schema.role.roleName, roleNameEn: schema.role.roleNameEn, roleAlias: schema.role.roleAlias })
        .from(schema.role).where(and(eq(schema.role.tenantId, user.tenantId), eq(schema.role.isDeleted, 0)));
      const depts = await tx.select({ id: schema.dept.id, deptName: schema.dept.deptName, deptNameEn: schema.dept.deptNameEn })
        .from(schema.dept).where(and(eq(schema.dept.tenantId, user.tenantId), eq(schema.dept.isDeleted, 0)));
      const [tenant] = await tx.select({ tenantName: schema.tenant.tenantName }).from(schema.tenant)
        .where(eq(schema.tenant.tenantId, user.tenantId));
      const heldRoles = roles.filter((r) => user.roleIds.includes(r.id));
      const userDepts = splitList(u.deptId);
      return {
        userId: u.id, tenantId: u.tenantId, tenantName: tenant?.tenantName ?? '', account: u.account,
        name: u.name ?? '', realName: u.realName ?? '', avatar: u.avatar ?? '', email: u.email ?? '', phone: u.phone ?? '',
        sex: u.sex, birthday: formatDateTime(u.birthday),
        roleId: user.roleIds.join(','), roleName: heldRoles.map((r) => localName(r.roleName, r.roleNameEn, req.lang)).join(','),
        roleAlias: heldRoles.map((r) => r.roleAlias).join(','),
        deptId: user.deptId, deptName: depts.filter((d) => userDepts.includes(d.id)).map((d) => localName(d.deptName, d.deptNameEn, req.lang)).join(','),
        isPlatform: u.tenantId === PLATFORM_TENANT,
      };
    });
    return ok(info, req.lang);
  });

  app.get('/api/blade-auth/oauth/clear-cache', {
    config: { access: { permission: null, platformAdmin: true } },
    schema: {
      tags: ['blade-auth'], summary: 'Drop cached permissions, menus, dictionaries and clients on every instance (the platform\'s administrators only)',
      docsOnly: { noInput: true, response: { 200: envelopeOf(z.literal(true)) } },
    },
  }, async (req) => {
    await ctx.permissions.invalidate();
    await ctx.dicts.invalidate();
    app.clients.clear();
    return ok(true, req.lang, 'cacheCleared');
  });
}
