import { and, asc, eq, ilike, ne, or } from 'drizzle-orm';
import { type Executor, schema } from '../../core/db/index.js';

/** a choice of people shows this many; more are found by typing */
const SHOWN = 50;

const likePattern = (keyword: string | undefined) => (keyword ? `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined);

/** The tenant's active users, by name or account (the leave form's approvers, the designer's assignees), but one. */
export async function activeUsers(tx: Executor, tenantId: string, keyword: string | undefined, except?: string) {
  const pattern = likePattern(keyword);
  const rows = await tx.select({ id: schema.user.id, account: schema.user.account, realName: schema.user.realName }).from(schema.user)
    .where(and(eq(schema.user.tenantId, tenantId), eq(schema.user.isDeleted, 0), eq(schema.user.status, 1), except ? ne(schema.user.id, except) : undefined,
      pattern ? or(ilike(schema.user.realName, pattern), ilike(schema.user.account, pattern)) : undefined))
    .orderBy(asc(schema.user.account)).limit(SHOWN);
  return rows.map((r) => ({ id: String(r.id), account: r.account, realName: r.realName }));
}

/** The tenant's roles with an alias (a task's candidate groups name roles by alias), by name or alias. */
export async function groupRoles(tx: Executor, tenantId: string, keyword: string | undefined) {
  const pattern = likePattern(keyword);
  const rows = await tx.select({ alias: schema.role.roleAlias, name: schema.role.roleName }).from(schema.role)
    .where(and(eq(schema.role.tenantId, tenantId), eq(schema.role.isDeleted, 0), ne(schema.role.roleAlias, ''),
      pattern ? or(ilike(schema.role.roleName, pattern), ilike(schema.role.roleAlias, pattern)) : undefined))
    .orderBy(asc(schema.role.roleAlias)).limit(SHOWN);
  return rows.flatMap((r) => (r.alias ? [{ alias: r.alias, name: r.name }] : []));
}
