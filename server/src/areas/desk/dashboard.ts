import { DASHBOARD_DEVICES_PATH, DEVICE_FIGURE_CODES, type DeviceFigure } from '@console/contract/areas/desk/index';
import { API, type DashboardOverview, type DayCount, PLATFORM_TENANT, USER_STATUS } from '@console/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../../core/access.js';
import type { AppContext, AuthUser } from '../../core/context.js';
import { inTenant, type Tx } from '../../core/db/index.js';
import { envelopeOf, ok } from '../../core/envelope.js';
import { deviceFigures } from '../device/index.js';

type Rows<T> = { rows: T[] };

/** The platform's administrators see every tenant's figures; everyone else sees their own tenant's. */
function seesAllTenants(user: AuthUser): boolean {
  return user.tenantId === PLATFORM_TENANT && user.roleAliases.includes('administrator');
}

/** Rows per day (display time zone) since `from`, every day of the window present. */
async function perDay(tx: Tx, table: string, tenantClause: SQL, from: SQL, days: number, zone: string): Promise<DayCount[]> {
  const res = await tx.execute(sql`
    with window_days as (
      select to_char(d, 'YYYY-MM-DD') as day from generate_series(${from}, ${from} + ${days - 1} * interval '1 day', interval '1 day') d
    ), counts as (
      select to_char(create_time at time zone ${zone}, 'YYYY-MM-DD') as day, count(*) as n
      from ${sql.identifier(table)}
      where create_time >= (${from}) at time zone ${zone} ${tenantClause}
      group by 1
    )
    select w.day, coalesce(c.n, 0) as n from window_days w left join counts c using (day) order by w.day`);
  return (res as unknown as Rows<{ day: string; n: string | number }>).rows.map((r) => ({ day: r.day, count: Number(r.n) }));
}

export function registerDashboardRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get(API.dashboard, {
    config: { access: { permission: null }, fieldLabels: { days: { zh: '天数', en: 'Days' } } },
    schema: {
      tags: ['blade-desk'],
      summary: 'Dashboard figures: users, tenants, active sessions, and per-day sign-ins, logged API writes and errors',
      querystring: z.object({ days: z.coerce.number().int().min(1).max(90).default(14) }).strict(),
      docsOnly: {
        response: {
          200: envelopeOf(z.object({
            days: z.number(), users: z.object({ total: z.number(), awaitingApproval: z.number() }), tenants: z.object({ total: z.number() }),
            signIns: z.array(z.object({ day: z.string(), count: z.number() })), apiCalls: z.array(z.object({ day: z.string(), count: z.number() })),
            errors: z.array(z.object({ day: z.string(), count: z.number() })), activeSessions: z.number(),
          })),
        },
      },
    },
  }, async (req) => {
    const user = requireUser(req);
    const { days } = req.query as { days: number };
    const all = seesAllTenants(user);
    const zone = ctx.config.timeZone;
    const tenantClause = all ? sql`` : sql`and tenant_id = ${user.tenantId}`;
    // local midnight (display zone) of the first day of the window, as a timestamp without zone
    const from = sql`(date_trunc('day', now() at time zone ${zone}) - ${days - 1} * interval '1 day')`;
    const body = await inTenant(ctx.db, { tenantId: user.tenantId, allTenants: all }, async (tx): Promise<DashboardOverview> => {
      const totals = await tx.execute(sql`
        select
          (select count(*) from blade_user where is_deleted = 0 ${tenantClause}) as users,
          (select count(*) from blade_user where is_deleted = 0 and status = ${USER_STATUS.awaitingApproval} ${tenantClause}) as pending,
          (select count(*) from blade_tenant where is_deleted = 0 ${all ? sql`` : sql`and tenant_id = ${user.tenantId}`}) as tenants,
          (select count(*) from auth_session where revoked_time is null and expire_time > now() ${tenantClause}) as sessions`);
      const t = (totals as unknown as Rows<Record<'users' | 'pending' | 'tenants' | 'sessions', string | number>>).rows[0]!;
      return {
        days,
        users: { total: Number(t.users), awaitingApproval: Number(t.pending) },
        tenants: { total: Number(t.tenants) },
        activeSessions: Number(t.sessions),
        signIns: await perDay(tx, 'auth_session', tenantClause, from, days, zone),
        apiCalls: await perDay(tx, 'blade_log_api', tenantClause, from, days, zone),
        errors: await perDay(tx, 'blade_log_error', tenantClause, from, days, zone),
      };
    });
    return ok(body, req.lang);
  });
}

const FIGURE_NAMES = Object.keys(DEVICE_FIGURE_CODES) as DeviceFigure[];
const count = z.number();

/** The device figures: any one of their permissions opens the call, and it answers only those the caller holds. */
export function registerDeviceFiguresRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get(DASHBOARD_DEVICES_PATH, {
    config: { access: { permission: FIGURE_NAMES.map((name) => DEVICE_FIGURE_CODES[name]) } },
    schema: {
      tags: ['blade-desk'],
      summary: 'Dashboard device figures: online locks, OTA success rate, pending emergency requests (each only with its screen\'s permission)',
      querystring: z.object({}).strict(),
      docsOnly: {
        noInput: true,
        response: {
          200: envelopeOf(z.object({
            locks: z.object({ online: count, total: count }).optional(),
            ota: z.object({ days: count, succeeded: count, failed: count, rate: z.number().nullable() }).optional(),
            emergency: z.object({ pending: count }).optional(),
          })),
        },
      },
    },
  }, async (req) => {
    const user = requireUser(req);
    const codes = await ctx.permissions.codes(user.tenantId, user.roleIds);
    const held = FIGURE_NAMES.filter((name) => codes.has(DEVICE_FIGURE_CODES[name]));
    const body = await inTenant(ctx.db, { tenantId: user.tenantId }, (tx) => deviceFigures(tx, user, held));
    return ok(body, req.lang);
  });
}
