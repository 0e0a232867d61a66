import { getTableName, sql, type SQL } from 'drizzle-orm';
import type { AppContext, AuthUser } from '../../core/context.js';
import { insertRows } from '../../core/db/bulk.js';
import { type Executor, rowsAffected } from '../../core/db/index.js';
import { idBlockSql, nextId } from '../../core/ids.js';
import { areaModifyLog, deviceArea } from './tables.js';

/** Where locks are placed: a region path, the agent selling there, when, how, and by which dispatch. */
export interface Placement {
  code: string;
  agentId: string | null;
  dispatchTime: Date | null;
  source: 'manual' | 'import' | 'dispatch';
  dispatchId: string | null;
  /** for the modify log: who decided it and why */
  operator: string;
  reason: string | null;
}

/**
 * After the commit: `placed` locks were placed (their device areas and modify log rows written). The tables' statistics
 * follow at once (core/db/upkeep.ts): with a new batch's areas unknown to the planner, the location reports that follow
 * a dispatch are matched by scanning the tenant's areas once per report (436 ms instead of 30 for 500 reports over 2,000
 * areas; bench/RESULTS.md).
 */
export function tendPlaced(ctx: AppContext, afterCommit: (fn: () => void) => void, placed: number): void {
  if (placed > 0) afterCommit(() => {
    ctx.upkeep.changed(getTableName(deviceArea), placed);
    ctx.upkeep.changed(getTableName(areaModifyLog), placed);
  });
}

/** Who is named as the operator of a change: the user's name, else their account. */
export const operatorOf = (user: AuthUser): string => user.userName || user.account;

/**
 * Places the locks `sns` selects (a query answering one column `sn`, `count` rows at most) in one statement: each
 * lock's device area takes the placement (created where it had none), and every lock whose region changes gets a
 * modify log row. Answers how many locks were placed.
 */
export async function placeDevices(tx: Executor, user: AuthUser, sns: SQL, count: number, p: Placement): Promise<number> {
  if (count <= 0) return 0;
  const index = sql`i.n`;
  const res = await tx.execute(sql`
    with input as (select s.sn, row_number() over (order by s.sn) - 1 as n from (${sns}) s),
    logged as (
      insert into ${areaModifyLog} (id, tenant_id, device_sn, old_code, new_code, operator, reason, create_user, update_user)
      select ${idBlockSql(count, index)}, ${user.tenantId}, i.sn, o.code, ${p.code}, ${p.operator}, ${p.reason}, ${user.userId}::bigint, ${user.userId}::bigint
      from input i
      -- each lock's live area by its key (a join per lock: the planner's estimate of a fresh batch is one row)
      left join ${deviceArea} o on o.tenant_id = ${user.tenantId} and o.device_sn = i.sn and o.is_deleted = 0
      where o.code is distinct from ${p.code}
    )
    insert into ${deviceArea} (id, tenant_id, device_sn, code, agent_id, dispatch_time, source, dispatch_id, create_user, update_user)
    select ${idBlockSql(count, index)}, ${user.tenantId}, i.sn, ${p.code}, ${p.agentId}::bigint, ${p.dispatchTime?.toISOString() ?? null}::timestamptz, ${p.source},
      ${p.dispatchId}::bigint, ${user.userId}::bigint, ${user.userId}::bigint
    from input i
    on conflict (tenant_id, device_sn) where is_deleted = 0 do update set
      code = excluded.code, agent_id = excluded.agent_id, dispatch_time = excluded.dispatch_time, source = excluded.source,
      dispatch_id = excluded.dispatch_id, update_user = excluded.update_user, update_time = now()`);
  return rowsAffected(res);
}

/** One lock's change of region, as the modify log keeps it. */
export interface RegionChange {
  sn: string;
  oldCode: string | null;
  newCode: string;
}

/** The modify log rows of locks' changes (edits of device areas, an import's new ones), in one statement. */
export async function logChanges(tx: Executor, user: AuthUser, changes: readonly RegionChange[], reason: string | null): Promise<void> {
  const operator = operatorOf(user);
  const rows = changes.filter((c) => c.oldCode !== c.newCode).map((c) => ({
    id: nextId(), tenantId: user.tenantId, deviceSn: c.sn, oldCode: c.oldCode, newCode: c.newCode, operator, reason,
    createUser: user.userId, updateUser: user.userId,
  }));
  if (rows.length) await insertRows(tx, areaModifyLog, rows);
}
