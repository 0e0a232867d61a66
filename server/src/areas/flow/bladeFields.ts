import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { AuthUser } from '../../core/context.js';
import type { Executor } from '../../core/db/index.js';
import { badRequest } from '../../core/errors.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { flowDefinition, flowTask } from './tables.js';

/**
 * The values BladeX's work lists answer that are no column of ours (BladeFlow, FlowProcess; the `virtual` fields of
 * contract/src/areas/flow/flow.ts), derived for each page read, so that Saber's 待办/待签/已发/办结 screens open and
 * route. Plain renames (`taskId` beside `id`) are the fields' `aliases`.
 */

type Row = Record<string, unknown>;

/** BladeX's business key is `<table>:<id>` (FlowUtil.getBusinessKey); ours are the record's id alone */
export function businessParts(key: unknown): { businessTable: string | null; businessId: string | null } {
  if (typeof key !== 'string' || key === '') return { businessTable: null, businessId: null };
  const colon = key.indexOf(':');
  return colon < 0 ? { businessTable: null, businessId: key } : { businessTable: key.slice(0, colon), businessId: key.slice(colon + 1) };
}

/** each row's definition key and version, one read for the page */
async function withDefinitions(tx: Executor, rows: Row[], tenantId: string): Promise<void> {
  const ids = [...new Set(rows.map((r) => r.definitionId).filter((v): v is string => typeof v === 'string' && v !== ''))];
  const defs = ids.length
    ? await tx.select({ id: flowDefinition.id, processKey: flowDefinition.processKey, version: flowDefinition.version }).from(flowDefinition).where(and(eq(flowDefinition.tenantId, tenantId), inArray(flowDefinition.id, ids)))
    : [];
  const byId = new Map(defs.map((d) => [String(d.id), d]));
  for (const r of rows) {
    const d = byId.get(String(r.definitionId));
    r.processDefinitionKey = d?.processKey ?? null;
    r.processDefinitionVersion = d?.version ?? null;
  }
}

const withBusinessParts = (rows: Row[]) => {
  for (const r of rows) Object.assign(r, businessParts(r.businessKey));
};

/** claim, todo and done: the tasks' definitions and business records */
export async function showTasks(tx: Executor, rows: Row[], user: AuthUser): Promise<void> {
  withBusinessParts(rows);
  await withDefinitions(tx, rows, user.tenantId);
}

/** 已发事务: each instance's step now (an open task), else the last one done; whether it completed */
export async function showSentInstances(tx: Executor, rows: Row[], user: AuthUser): Promise<void> {
  withBusinessParts(rows);
  await withDefinitions(tx, rows, user.tenantId);
  for (const r of rows) r.processIsFinished = r.status === 'completed' ? 'finished' : 'unfinished';
  const ids = rows.map((r) => String(r.id));
  if (!ids.length) return;
  // open tasks first (no end yet), then the latest ended: Flowable's "order by end time desc" as BladeX reads it
  const tasks = await tx.selectDistinctOn([flowTask.instanceId], { instanceId: flowTask.instanceId, id: flowTask.id, name: flowTask.name })
    .from(flowTask).where(and(eq(flowTask.tenantId, user.tenantId), inArray(flowTask.instanceId, ids)))
    .orderBy(flowTask.instanceId, sql`${flowTask.endTime} desc nulls first`, desc(flowTask.id));
  const byInstance = new Map(tasks.map((t) => [String(t.instanceId), t]));
  for (const r of rows) {
    const t = byInstance.get(String(r.id));
    r.taskId = t ? String(t.id) : null;
    r.taskName = t?.name ?? null;
  }
}

/** definitions: Flowable's suspension state (1 active, 2 suspended) beside ours (0, 1) */
export async function showDefinitions(_tx: Executor, rows: Row[]): Promise<void> {
  for (const r of rows) r.suspensionState = r.suspended === undefined || r.suspended === null ? null : Number(r.suspended) === 1 ? 2 : 1;
}

/**
 * Saber's 发起事务 and 流程管理 send `mode` (1 通用流程: definitions of no tenant; 2 定制流程: the tenant's). Every
 * definition here belongs to a tenant, which sees its own under either: the parameter is accepted and filters nothing.
 */
export const processModeParam: NonNullable<ResourceHooks['listParams']> = {
  mode: async (_tx: Executor, _user: AuthUser, value: string) => {
    if (value !== '1' && value !== '2') throw badRequest('flowModeUnknown', { mode: value.slice(0, 20) });
    return sql`true`;
  },
};
