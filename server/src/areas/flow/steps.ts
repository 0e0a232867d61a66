import type { MessageKey } from '@console/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AuthUser } from '../../core/context.js';
import { type Executor, schema } from '../../core/db/index.js';
import { EMPTY, joined, rawQuery, type Statement, stmt, verbatim } from '../../core/db/raw.js';
import { AppError, badRequest } from '../../core/errors.js';
import { nextId } from '../../core/ids.js';
import type { ProcessModel } from './bpmn/model.js';
import { type ServiceHandler, StepFailed, type StepLimits, StepStopped, TaskNotWaiting } from './bpmn/runtime/context.js';
import { isState } from './bpmn/runtime/state.js';
import { runStep, type StepInput, type StepResult } from './bpmn/runtime/step.js';
import { flowDefinition, flowHistory, flowInstance, flowTask } from './tables.js';

/**
 * An instance moved by one step, inside the caller's transaction: the instance locked, the runtime run, what it
 * did written (state, timers, subscriptions, tasks, history), and what it asks of other instances done in the
 * same transaction: a call activity's process started, a cancelled call's process deleted, a thrown signal
 * delivered to the tenant's other instances, a called process's end (or uncaught error) handed to its caller.
 */

/** what a step reads of its instance: the lists' own columns (times, reasons, search grams) are not read */
export type InstanceRow = Pick<typeof flowInstance.$inferSelect, 'id' | 'tenantId' | 'definitionId' | 'processKey' | 'processName' | 'category' | 'businessKey'
  | 'startUser' | 'startUserName' | 'status' | 'incidentReason' | 'state' | 'variables' | 'superInstanceId' | 'superExecutionId'>;
type DefinitionRow = typeof flowDefinition.$inferSelect;

/**
 * The statements of a step are written as SQL and run past drizzle (core/db/raw.ts): building a select of every
 * column, or the history's multi-row insert, cost drizzle ten times what PostgreSQL takes to run them, and its
 * `sql` and result mapping about twice a short statement's round trip (bench/ceilings/flow.ts).
 */
const INSTANCE_COLUMNS = verbatim(`id::text as "id", tenant_id as "tenantId", definition_id::text as "definitionId", process_key as "processKey",
  process_name as "processName", category, business_key as "businessKey", start_user::text as "startUser", start_user_name as "startUserName", status,
  incident_reason as "incidentReason", state, variables, super_instance_id::text as "superInstanceId", super_execution_id as "superExecutionId"`);
const TASK_INSERT_COLUMNS = verbatim(`id, tenant_id, instance_id, execution_id, task_definition_key, name, definition_id, process_name, category, business_key,
  start_user_name, assignee, candidate_users, candidate_groups`);
const HISTORY_COLUMNS = verbatim('id, tenant_id, instance_id, event, element_id, element_type, element_name, execution_id, source_id, target_id, at');

/** a PostgreSQL array literal of texts, for a `text[]` parameter */
const textArray = (values: readonly string[]) => `{${values.map((v) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;

/** A server handler a service task or a listener may call, inside the step's transaction. */
export type FlowService = (variables: Readonly<Record<string, unknown>>, c: { tx: Executor; tenantId: string; instanceId: string }) => Promise<Record<string, unknown> | void>;

/** who drives a step: a person, or the scheduler (null) */
export type Actor = Pick<AuthUser, 'userId' | 'userName'> | null;

/** what the person completing a task said of it, written with its completion */
export type Completion = Pick<typeof flowTask.$inferInsert, 'outcome' | 'comment' | 'completedBy'>;

/** what a step stopped at its bound writes once its transaction has rolled back */
export type IncidentWrite = (tx: Executor, reason: string) => Promise<unknown>;

export interface StepHost {
  readonly services: Readonly<Record<string, FlowService>>;
  readonly limits: StepLimits;
  modelOf(tx: Executor, tenantId: string, definitionId: string): Promise<ProcessModel>;
  /** the step was stopped at its bound: the error the caller gets, the incident written after the rollback */
  stopped(tenantId: string, reason: string, write: IncidentWrite): Error;
  /** a step ran (for the metrics): how it ended and how long the engine took */
  stepRan?(outcome: 'done' | 'stopped' | 'failed', seconds: number): void;
}

/** how deep call activities may nest (a process that calls itself stops here) */
const MAX_CALL_DEPTH = 16;
/** instances one thrown signal reaches at most in a step */
const MAX_SIGNAL_RECEIVERS = 200;
const REASON_MAX = 500;

/** marks a running instance as an incident; its state stays the last settled one, its open tasks stay until it is deleted */
export const markIncident = (instanceId: string): IncidentWrite => (tx, reason) => tx.update(flowInstance)
  .set({ status: 'incident', incidentReason: reason, dueAt: null, updateTime: new Date() })
  .where(and(eq(flowInstance.id, instanceId), eq(flowInstance.status, 'running')));

/** Locks a running instance (by id, or the one a condition finds) for a step; an incident only when allowed. */
export async function lockInstance(tx: Executor, instanceId: string | Statement, allow: { incident?: boolean; missing?: MessageKey } = {}): Promise<InstanceRow> {
  const where = typeof instanceId === 'string' ? stmt`id = ${instanceId}` : instanceId;
  const [instance] = await rawQuery<InstanceRow>(tx, stmt`select ${INSTANCE_COLUMNS} from blade_flow_instance where ${where} for update`);
  if (!instance) throw new AppError(404, allow.missing ?? 'flowInstanceMissing');
  if (instance.status === 'incident' && allow.incident) return instance;
  if (instance.status === 'incident') throw badRequest('flowInstanceIncident', { reason: instance.incidentReason ?? '' });
  if (instance.status !== 'running') throw badRequest('flowInstanceEnded');
  return instance;
}

export class StepDriver {
  private depth = 0;

  constructor(private readonly host: StepHost, private readonly tx: Executor, private readonly tenantId: string, private readonly actor: Actor) {}

  private handlers(instanceId: string): Record<string, ServiceHandler> {
    return Object.fromEntries(Object.entries(this.host.services).map(([name, fn]) => [name, (vars: Readonly<Record<string, unknown>>) => fn(vars, { tx: this.tx, tenantId: this.tenantId, instanceId })]));
  }

  private async run(instanceId: string, model: ProcessModel, state: unknown, input: StepInput, meta: { businessKey: string | null; called: boolean }, incident: IncidentWrite): Promise<StepResult> {
    if (state !== null && !isState(state)) throw badRequest('flowInstanceIncident', { reason: 'the instance was saved by an earlier engine and could not be converted' });
    const started = performance.now();
    const ran = (outcome: 'done' | 'stopped' | 'failed') => this.host.stepRan?.(outcome, (performance.now() - started) / 1000);
    try {
      const result = await runStep(model, state, input, { handlers: this.handlers(instanceId), limits: this.host.limits, businessKey: meta.businessKey, called: meta.called });
      ran('done');
      return result;
    } catch (e) {
      if (e instanceof TaskNotWaiting) throw new AppError(404, 'flowTaskMissing');
      ran(e instanceof StepStopped ? 'stopped' : 'failed');
      if (e instanceof StepStopped) throw this.host.stopped(this.tenantId, e.message.slice(0, REASON_MAX), incident);
      if (e instanceof StepFailed) throw badRequest('flowStepFailed', { reason: { zh: e.reason.zh.slice(0, 400), en: e.reason.en.slice(0, 400) } });
      throw e;
    }
  }

  /** Starts an instance of a definition (a person's start, a message's, or a call activity's). */
  async start(def: DefinitionRow, variables: Record<string, unknown>, opts: { businessKey?: string | null; message?: string; caller?: { instanceId: string; executionId: string } }): Promise<{ row: InstanceRow; result: StepResult }> {
    const model = await this.host.modelOf(this.tx, this.tenantId, def.id);
    const instanceId = nextId();
    const starterName = await this.actorName();
    const values: typeof flowInstance.$inferInsert = {
      id: instanceId, tenantId: this.tenantId, definitionId: def.id, processKey: def.processKey, processName: def.name, category: def.category,
      businessKey: opts.businessKey ?? null, startUser: this.actor?.userId ?? null, startUserName: starterName,
      status: 'running', variables, superInstanceId: opts.caller?.instanceId ?? null, superExecutionId: opts.caller?.executionId ?? null,
    };
    // a start stopped at its bound leaves an instance that never ran a step: the incident, with its reason
    const result = await this.run(instanceId, model, null, { start: { variables, initiator: this.actor?.userId ?? null, message: opts.message } },
      { businessKey: opts.businessKey ?? null, called: !!opts.caller }, (itx, reason) => itx.insert(flowInstance).values({ ...values, status: 'incident', incidentReason: reason }));
    const row = (await this.tx.insert(flowInstance).values(values).returning())[0]!;
    await this.record(row, result);
    await this.followUp(row, result);
    return { row, result };
  }

  /** the starter as the work lists name them: the user's name, the account only where there is none */
  private async actorName(): Promise<string | null> {
    if (!this.actor) return null;
    const [u] = await this.tx.select({ realName: schema.user.realName, name: schema.user.name }).from(schema.user).where(eq(schema.user.id, this.actor.userId));
    return u?.realName || u?.name || this.actor.userName;
  }

  /**
   * Moves a locked, running instance by one input; `completion` is what the person completing a task said of it,
   * `also` what is written with the step's own rows, in the same statement.
   */
  async advance(instance: InstanceRow, input: StepInput, completion?: Completion, also?: readonly Statement[]): Promise<StepResult> {
    const model = await this.host.modelOf(this.tx, this.tenantId, instance.definitionId);
    const result = await this.run(instance.id, model, instance.state, input, { businessKey: instance.businessKey, called: !!instance.superInstanceId }, markIncident(instance.id));
    await this.record(instance, result, completion, also);
    await this.followUp(instance, result);
    return result;
  }

  /**
   * writes what a step did, in one statement (one round trip): the instance's state, timers and subscriptions, its
   * tasks opened and closed, its history, and `also` (what the caller writes with it: a business record's own row)
   */
  private async record(instance: InstanceRow, r: StepResult, completion?: Completion, also: readonly Statement[] = []): Promise<void> {
    const at = new Date().toISOString();
    const ended = r.status === 'completed';
    const status = ended && r.uncaughtError ? 'deleted' : ended ? 'completed' : 'running';
    const writes: Statement[] = [stmt`update blade_flow_instance set status = ${status}, state = ${r.state === null ? null : JSON.stringify(r.state)}::jsonb,
      due_at = ${r.dueAt ? r.dueAt.toISOString() : null}::timestamptz, variables = ${JSON.stringify(r.variables)}::jsonb,
      waits_messages = ${textArray(r.waitsFor.messages)}::text[], waits_signals = ${textArray(r.waitsFor.signals)}::text[], update_time = ${at}::timestamptz
      ${ended ? stmt`, end_time = ${at}::timestamptz` : EMPTY}${r.uncaughtError ? stmt`, delete_reason = ${`error ${r.uncaughtError.code}`.slice(0, 500)}` : EMPTY}
      where id = ${instance.id}`];
    if (r.opened.length) {
      const rows = r.opened.map((t) => ({
        id: nextId(), tenant_id: this.tenantId, instance_id: instance.id, execution_id: t.taskId, task_definition_key: t.activityId, name: t.name,
        definition_id: instance.definitionId, process_name: instance.processName, category: instance.category, business_key: instance.businessKey,
        start_user_name: instance.startUserName, assignee: t.assignee, candidate_users: t.candidateUsers, candidate_groups: t.candidateGroups,
      }));
      writes.push(stmt`insert into blade_flow_task (${TASK_INSERT_COLUMNS}) select ${TASK_INSERT_COLUMNS}
        from json_populate_recordset(null::blade_flow_task, ${JSON.stringify(rows)}::json) on conflict do nothing`);
    }
    for (const outcome of ['completed', 'cancelled'] as const) {
      const ids = r.closed.filter((c) => c.outcome === outcome).map((c) => c.taskId);
      if (ids.length) {
        const said = outcome === 'completed' && completion
          ? stmt`, outcome = ${completion.outcome ?? null}, comment = ${completion.comment ?? null}, completed_by = ${completion.completedBy ?? null}` : EMPTY;
        writes.push(stmt`update blade_flow_task set status = ${outcome}, end_time = ${at}::timestamptz${said}
          where instance_id = ${instance.id} and execution_id = any(${textArray(ids)}::text[]) and status = 'open'`);
      }
    }
    if (r.history.length) {
      const rows = r.history.map((h) => ({
        id: nextId(), tenant_id: this.tenantId, instance_id: instance.id, event: h.event, element_id: h.elementId, element_type: h.elementType, element_name: h.elementName,
        execution_id: h.executionId, source_id: h.sourceId, target_id: h.targetId, at: h.at.toISOString(),
      }));
      writes.push(stmt`insert into blade_flow_history (${HISTORY_COLUMNS}) select ${HISTORY_COLUMNS} from json_populate_recordset(null::blade_flow_history, ${JSON.stringify(rows)}::json)`);
    }
    writes.push(...also);
    // data-modifying WITH members all run, each to completion, on different rows: one statement for them all
    await rawQuery(this.tx, writes.length === 1 ? writes[0]! : stmt`with ${joined(writes.map((w, i) => stmt`${verbatim(`w${i}`)} as (${w})`), ', ')} select 1`);
  }

  private async followUp(instance: InstanceRow, r: StepResult): Promise<void> {
    if (++this.depth > MAX_CALL_DEPTH * 4) {
      throw badRequest('flowStepFailed', { reason: { zh: `调用活动嵌套超过 ${MAX_CALL_DEPTH} 层`, en: `call activities nest deeper than ${MAX_CALL_DEPTH} levels` } });
    }
    for (const executionId of r.cancelledCalls) await this.cancelCalled(instance.id, executionId);
    for (const call of r.calls) await this.startCalled(instance, call);
    for (const signal of r.signals) await this.broadcast(instance.id, signal.name, signal.variables);
    if (r.status === 'completed' && instance.superInstanceId && instance.superExecutionId) {
      const parent = await lockInstance(this.tx, instance.superInstanceId);
      const executionId = instance.superExecutionId;
      await this.advance(parent, r.uncaughtError
        ? { callFailed: { executionId, code: r.uncaughtError.code } }
        // terminateAll ends the root process instance, with every instance between (TerminateEndEventActivityBehavior.terminateAllBehaviour)
        : r.terminatedAll ? { callTerminatedAll: { executionId } }
          : { callEnded: { executionId, variables: r.variables } });
    }
    this.depth--;
  }

  private async callDepth(instance: InstanceRow): Promise<number> {
    let depth = 0;
    for (let id = instance.superInstanceId; id && depth <= MAX_CALL_DEPTH; depth++) {
      const [up] = await this.tx.select({ superInstanceId: flowInstance.superInstanceId }).from(flowInstance).where(eq(flowInstance.id, id));
      id = up?.superInstanceId ?? null;
    }
    return depth;
  }

  private async startCalled(instance: InstanceRow, call: StepResult['calls'][number]): Promise<void> {
    if (await this.callDepth(instance) >= MAX_CALL_DEPTH) {
      throw badRequest('flowStepFailed', { reason: { zh: `调用活动嵌套超过 ${MAX_CALL_DEPTH} 层 (流程调用了自己?)`, en: `call activities nest deeper than ${MAX_CALL_DEPTH} levels (a process calling itself?)` } });
    }
    const [def] = await this.tx.select().from(flowDefinition)
      .where(and(eq(flowDefinition.tenantId, this.tenantId), eq(flowDefinition.processKey, call.key), eq(flowDefinition.isDeleted, 0)))
      .orderBy(sql`${flowDefinition.version} desc`).limit(1);
    if (!def) {
      throw badRequest('flowStepFailed', { reason: { zh: `调用活动要启动的流程「${call.key}」未在本租户部署`, en: `the process "${call.key}" a call activity starts is not deployed in this tenant` } });
    }
    if (def.suspended) throw badRequest('flowDefinitionSuspended', { name: def.name });
    await this.start(def, call.variables, { businessKey: call.businessKey, caller: { instanceId: instance.id, executionId: call.executionId } });
  }

  /** a cancelled call activity's process, and the processes it called, are deleted with their open tasks */
  private async cancelCalled(instanceId: string, executionId: string): Promise<void> {
    const children = await this.tx.select().from(flowInstance)
      .where(and(eq(flowInstance.superInstanceId, instanceId), eq(flowInstance.superExecutionId, executionId), inArray(flowInstance.status, ['running', 'incident']))).for('update');
    for (const child of children) await deleteTree(this.tx, this.tenantId, child, 'cancelled by its calling process');
  }

  /** a global signal reaches the tenant's other running instances that wait for it */
  private async broadcast(fromInstance: string, name: string, variables: Record<string, unknown>): Promise<void> {
    const receivers = await this.tx.select({ id: flowInstance.id }).from(flowInstance)
      .where(and(eq(flowInstance.tenantId, this.tenantId), eq(flowInstance.status, 'running'), sql`${flowInstance.waitsSignals} @> ARRAY[${name}]::text[]`, sql`${flowInstance.id} <> ${fromInstance}`))
      .orderBy(flowInstance.createTime).limit(MAX_SIGNAL_RECEIVERS);
    for (const { id } of receivers) {
      // one that became an incident or ended since the read is skipped
      const instance = await lockInstance(this.tx, id).catch((e: unknown) => {
        if (e instanceof AppError) return null;
        throw e;
      });
      if (instance) await this.advance(instance, { signal: { name, variables } });
    }
  }
}

/** the activities of an instance that started and never ended: they are marked cancelled when it is deleted */
async function cancelOpenActivities(tx: Executor, tenantId: string, instanceId: string, at: Date): Promise<void> {
  const open = await tx.select().from(flowHistory).where(and(eq(flowHistory.instanceId, instanceId), eq(flowHistory.event, 'start'), sql`not exists (
    select 1 from blade_flow_history done where done.instance_id = ${flowHistory.instanceId} and done.execution_id = ${flowHistory.executionId}
      and done.element_id = ${flowHistory.elementId} and done.event in ('end', 'cancel'))`));
  if (!open.length) return;
  await tx.insert(flowHistory).values(open.map((h) => ({
    id: nextId(), tenantId, instanceId, event: 'cancel', elementId: h.elementId, elementType: h.elementType, elementName: h.elementName, executionId: h.executionId, at,
  })));
}

/** Deletes an instance and the processes its call activities started: open tasks and activities cancelled, the reason kept. */
export async function deleteTree(tx: Executor, tenantId: string, instance: InstanceRow, reason: string): Promise<void> {
  const now = new Date();
  await tx.update(flowTask).set({ status: 'cancelled', endTime: now })
    .where(and(eq(flowTask.instanceId, instance.id), eq(flowTask.status, 'open')));
  await cancelOpenActivities(tx, tenantId, instance.id, now);
  await tx.update(flowInstance).set({ status: 'deleted', deleteReason: reason, endTime: now, state: null, dueAt: null, waitsMessages: [], waitsSignals: [], updateTime: now })
    .where(eq(flowInstance.id, instance.id));
  const children = await tx.select().from(flowInstance).where(and(eq(flowInstance.superInstanceId, instance.id), inArray(flowInstance.status, ['running', 'incident'])));
  for (const child of children) await deleteTree(tx, tenantId, child, reason);
}
