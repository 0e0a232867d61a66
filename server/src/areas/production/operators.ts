import { messages, msg, PLATFORM_TENANT } from '@console/contract';
import { factoryResource } from '@console/contract/areas/production/index';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { hashPassword } from '../../core/auth/passwords.js';
import type { AppContext } from '../../core/context.js';
import { type Executor, schema } from '../../core/db/index.js';
import { badRequest, conflict, fieldError, forbidden, notFound } from '../../core/errors.js';
import { nextId, splitList } from '../../core/ids.js';
import { mountAction } from '../../core/resource/actions.js';
import { type Dependent, NAMED_USES } from '../../core/resource/registry.js';
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

  mountAction(app, ctx, actions.removeOperators, async (input, { tx, lang, user, afterCommit }) => {
    const ids = splitList(input.ids);
    if (ids.length === 0) throw badRequest('validationFailed', { detail: msg('required', lang, { field: lang === 'zh' ? '编号' : 'ids' }) });
    const found = await tx.select({ id: stationOperator.userId }).from(stationOperator).where(inArray(stationOperator.userId, ids));
    if (found.length !== ids.length) throw notFound();
    if (ids.includes(user.userId)) throw fieldError('userSelfRemove', lang, 'ids');
    await tx.delete(stationOperator).where(inArray(stationOperator.userId, ids));
    await tx.update(schema.user).set({ isDeleted: 1, updateUser: user.userId, updateTime: new Date() })
      .where(and(inArray(schema.user.id, ids), eq(schema.user.tenantId, PLATFORM_TENANT)));
    afterCommit(() => ctx.users.invalidate(PLATFORM_TENANT, ids));
    return true;
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

/** the operators' accounts among `where`, named */
async function operatorUses(tx: Executor, where: ReturnType<typeof sql>) {
  const [counted] = await tx.select({ total: sql<number>`count(*)::int` }).from(stationOperator).where(where);
  const total = Number(counted?.total ?? 0);
  if (total === 0) return { total, others: 0, names: [] };
  const named = await tx.select({ account: schema.user.account }).from(stationOperator)
    .innerJoin(schema.user, eq(schema.user.id, stationOperator.userId)).where(where).orderBy(asc(schema.user.account)).limit(NAMED_USES);
  return { total, others: 0, names: named.map((r) => r.account) };
}

const namesStation = (id: string) => sql`${id} = any(string_to_array(${stationOperator.stationIds}, ','))`;

/**
 * Station operators use their factory (a factory with operators stays until they are removed) and their stations
 * (a removed station leaves the operators' lists).
 */
export const operatorDependents = (): Dependent[] => [
  {
    target: 'factory', label: messages.stationOperatorsLabel, policy: 'refuse',
    uses: (tx, ids) => operatorUses(tx, sql`${inArray(stationOperator.factoryId, ids)}`),
  },
  {
    target: 'station', label: messages.stationOperatorsLabel, policy: 'detach',
    uses: (tx, ids) => operatorUses(tx, sql`(${sql.join(ids.map(namesStation), sql` or `)})`),
    async release(tx, ids) {
      for (const id of ids) {
        await tx.update(stationOperator).set({ stationIds: sql`array_to_string(array_remove(string_to_array(${stationOperator.stationIds}, ','), ${id}::text), ',')`, updateTime: new Date() })
          .where(namesStation(id));
      }
    },
  },
];
