import { getTableName, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DataScopeRule } from '../auth/permissions.js';
import type { AuthUser } from '../context.js';
import type { Executor } from '../db/index.js';
import { isId, splitList } from '../ids.js';

/** The live department ids at or under a department of a tenant, as a subquery. */
function deptSubtreeQuery(tenantId: string, deptId: string): SQL {
  return sql`select id from blade_dept where tenant_id = ${tenantId} and is_deleted = 0
    and (id = ${deptId} or (',' || ancestors || ',') like ${`%,${deptId},%`})`;
}

const deptSubtree = (user: AuthUser): SQL => deptSubtreeQuery(user.tenantId, user.deptId);

/**
 * The live department ids at or under a department, read first: a condition holding them as a literal
 * array lets the planner estimate how many rows they select (the `like` on ancestors it cannot), so a
 * page of a large department walks the list's sort index instead of sorting all its rows.
 */
export async function deptSubtreeIds(tx: Executor, tenantId: string, deptId: string): Promise<string[]> {
  const res = await tx.execute(deptSubtreeQuery(tenantId, deptId));
  return (res as unknown as { rows: Array<{ id: string | number | bigint }> }).rows.map((r) => String(r.id));
}

/**
 * The condition of one data scope rule over a table's column. A text column holds a comma list of ids
 * (BladeX's blade_user.dept_id): it matches when any of its ids does.
 */
function ruleCondition(rule: DataScopeRule, column: PgColumn, user: AuthUser): SQL | null {
  const list = column.dataType === 'string';
  const ids = (values: SQL): SQL => (list ? sql`string_to_array(${column}, ',') && array(${values})::text[]` : sql`${column} in (${values})`);
  const one = (id: string): SQL => (list ? sql`(',' || ${column} || ',') like ${`%,${id},%`}` : sql`${column} = ${id}`);
  switch (rule.type) {
    case 1: return null;
    case 2: return one(user.userId);
    case 3: return isId(user.deptId) ? one(user.deptId) : sql`false`;
    case 4: return isId(user.deptId) ? ids(deptSubtree(user)) : sql`false`;
    case 5: {
      const wanted = splitList(rule.value).filter(isId);
      if (!wanted.length) return sql`false`;
      return list ? sql`string_to_array(${column}, ',') && ${`{${wanted.join(',')}}`}::text[]` : sql`${column} in (${sql.join(wanted.map((w) => sql`${w}`), sql`, `)})`;
    }
    default: return sql`false`;
  }
}

/**
 * The rows a caller's data scopes let them see: the rules granted to their roles on the resource's menu,
 * any of which admits a row (a rule of type "all" admits every row). No rules: no restriction. A rule
 * naming a column the table lacks admits nothing (a mistake must not widen access).
 */
export function dataScopeCondition(rules: readonly DataScopeRule[], table: PgTable, columns: Record<string, PgColumn>, user: AuthUser): SQL | undefined {
  if (rules.length === 0) return undefined;
  const byDbName = new Map(Object.values(columns).map((c) => [c.name, c]));
  const conds: SQL[] = [];
  for (const rule of rules) {
    const column = byDbName.get(rule.column);
    if (!column) {
      conds.push(sql`false /* ${sql.raw(getTableName(table))} has no column for a data scope */`);
      continue;
    }
    const cond = ruleCondition(rule, column, user);
    if (cond === null) return undefined;
    conds.push(cond);
  }
  return or(...conds);
}
