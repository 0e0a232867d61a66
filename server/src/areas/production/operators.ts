import { msg, PLATFORM_TENANT } from '@console/contract';
import { factoryResource } from '@console/contract/areas/production/index';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { hashPassword } from '../../core/auth/passwords.js';
import type { AppContext } from '../../core/context.js';
import { type Executor, schema } from '../../core/db/index.js';
import { conflict, fieldError, forbidden, notFound } from '../../core/errors.js';
import { nextId, splitList } from '../../core/ids.js';
import { mountAction } from '../../core/resource/actions.js';
import { factory, station, stationOperator } from './tables.js';

/** The role of station operators (platform tenant): they read batches and their devices, and post CIT results. */
export const OPERATOR_ROLE = 'station_operator';
const OPERATOR_CODES = ['batch', 'cit'];

/** The operator role of the platform tenant, made (with its menus) the first time an operator is saved. */
async function operatorRole(tx: Executor): Promise<string> {
  const [role] = await tx.select({ id: schema.role.id }).from(schema.role)
    .where(and(eq(schema.role.tenantId, PLATFORM_TENANT), eq(schema.role.roleAlias, OPERATOR_ROLE), eq(schema.role.isDeleted, 0)));
  if (role) return role.id;
  const id = nextId();
  await tx.insert(schema.role).values({ id, tenantId: PLATFORM_TENANT, parentId: '0', roleName: '工位操作员', roleNameEn: 'Station operator', roleAlias: OPERATOR_ROLE, sort: 90 });
  const menus = await tx.select({ id: schema.menu.id }).from(schema.menu).where(and(inArray(schema.menu.code, OPERATOR_CODES), eq(schema.menu.isDeleted, 0)));
  if (menus.length) await tx.insert(schema.roleMenu).values(menus.map((m) => ({ roleId: id, menuId: m.id })));
  return id;
}

/**
 * `POST /sc/ymy-ipc/users/submit`: a station operator of one factory, a platform account holding the operator
 * role, limited to stations of that factory. No id creates (account and password required), an id updates
 * (the name, the stations, a new password; needs station_edit).
 */
export function registerOperatorActions(app: FastifyInstance, ctx: AppContext): void {
  const actions = factoryResource.actions;

  mountAction(app, ctx, actions.submitOperator, async (input, { tx, lang, user, granted, afterCommit }) => {
    const [f] = await tx.select({ id: factory.id }).from(factory).where(and(eq(factory.id, input.factoryId), eq(factory.isDeleted, 0)));
    if (!f) throw fieldError('refMissing', lang, 'factoryId', { field: lang === 'zh' ? '工厂' : 'Factory' });
    const stationIds = splitList(input.stationIds);
    if (stationIds.length) {
      const own = await tx.select({ id: station.id }).from(station)
        .where(and(inArray(station.id, stationIds), eq(station.factoryId, input.factoryId), eq(station.isDeleted, 0)));
      if (own.length !== stationIds.length) throw fieldError('stationsNotOfFactory', lang, 'stationIds');
    }
    const now = new Date();
    if (input.id) {
      if (!granted.has('station_edit')) throw forbidden('forbidden', { code: 'station_edit' });
      const [op] = await tx.select().from(stationOperator).where(eq(stationOperator.userId, input.id));
      if (!op) throw notFound();
      if (op.factoryId !== input.factoryId) throw fieldError('immutableField', lang, 'factoryId', { field: lang === 'zh' ? '工厂' : 'Factory' });
      const changes: Partial<typeof schema.user.$inferInsert> = { realName: input.realName, name: input.realName, updateUser: user.userId, updateTime: now };
      if (input.password) changes.passwordHash = await hashPassword(input.password);
      await tx.update(schema.user).set(changes).where(and(eq(schema.user.id, input.id), eq(schema.user.tenantId, PLATFORM_TENANT), eq(schema.user.isDeleted, 0)));
      await tx.update(stationOperator).set({ stationIds: stationIds.join(','), updateTime: now }).where(eq(stationOperator.userId, input.id));
      afterCommit(() => ctx.users.invalidate(PLATFORM_TENANT, [input.id!]));
      return { id: input.id };
    }
    if (!input.password) throw fieldError('required', lang, 'password', { field: lang === 'zh' ? '密码' : 'Password' });
    const [taken] = await tx.select({ id: schema.user.id }).from(schema.user)
      .where(and(eq(schema.user.tenantId, PLATFORM_TENANT), eq(schema.user.account, input.account), eq(schema.user.isDeleted, 0)));
    if (taken) {
      const field = lang === 'zh' ? '账号' : 'Account';
      throw conflict({ field, value: input.account }, { account: msg('duplicate', lang, { field, value: input.account }) });
    }
    const id = nextId();
    await tx.insert(schema.user).values({
      id, tenantId: PLATFORM_TENANT, account: input.account, passwordHash: await hashPassword(input.password), name: input.realName, realName: input.realName,
      roleId: await operatorRole(tx), userType: 1, createUser: user.userId, createTime: now, updateUser: user.userId, updateTime: now,
    });
    await tx.insert(stationOperator).values({ userId: id, factoryId: input.factoryId, stationIds: stationIds.join(','), createTime: now, updateTime: now });
    return { id };
  });

  mountAction(app, ctx, actions.operators, async (input, { tx }) => {
    const rows = await tx.select({ id: schema.user.id, account: schema.user.account, realName: schema.user.realName, stationIds: stationOperator.stationIds })
      .from(stationOperator).innerJoin(schema.user, and(eq(schema.user.id, stationOperator.userId), eq(schema.user.isDeleted, 0)))
      .where(eq(stationOperator.factoryId, input.factoryId)).orderBy(schema.user.account);
    const ids = [...new Set(rows.flatMap((r) => splitList(r.stationIds)))];
    const names = new Map(ids.length ? (await tx.select({ id: station.id, name: station.stationName }).from(station).where(inArray(station.id, ids))).map((s) => [s.id, s.name]) : []);
    return rows.map((r) => ({ ...r, stationNames: splitList(r.stationIds).map((s) => names.get(s) ?? s).join(', ') }));
  });
}
