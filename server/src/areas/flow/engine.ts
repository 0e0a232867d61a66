import { PLATFORM_TENANT } from '@console/contract';
import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { AppContext, AuthUser } from '../../core/context.js';
import { type Executor, inTenant } from '../../core/db/index.js';
import { AppError, badRequest, forbidden } from '../../core/errors.js';
import { nextId } from '../../core/ids.js';
import { BpmnInvalid, type CompiledProcess, compileBpmn } from './bpmn/compile.js';
import { type OpenedTask, runStep, type ServiceHandler, StepFailed, type StepInput, type StepLimits, type StepResult, StepStopped, TaskNotWaiting } from './bpmn/step.js';
import { flowDefinition, flowDeployment, flowHistory, flowInstance, flowTask } from './tables.js';

/** A server handler a service task may call, inside the step's transaction. */
export type FlowService = (variables: Readonly<Record<string, unknown>>, c: { tx: Executor; tenantId: string; instanceId: string }) => Promise<Record<string, unknown> | void>;

export interface DeployInput {
  xml: string;
  name?: string;
  category?: string;
  tenantIds: readonly string[];
  source: 'model' | 'upload';
}

export interface Deployed {
  tenantId: string;
  deploymentId: string;
  definitionId: string;
  processKey: string;
  name: string;
  version: number;
}

type InstanceRow = typeof flowInstance.$inferSelect;
type TaskRow = typeof flowTask.$inferSelect;

/** what every task of an instance carries of it, so that a work list is one read of the task table */
type InstanceMeta = Pick<InstanceRow, 'definitionId' | 'processName' | 'category' | 'businessKey' | 'startUserName'>;

/** A process's own work when one of its tasks is completed (the leave request keeps the approver's comment), in the same transaction. */
export type TaskCompletedHook = (tx: Executor, c: { instance: InstanceRow; task: TaskRow; pass: boolean; comment: string | null; status: string; user: AuthUser }) => Promise<void>;

/**
 * A step stopped at its bound (StepStopped): the caller's 400. Its transaction rolls back; `recorded` settles once
 * the instance is marked as an incident, in a transaction of its own after that (docs/workflow.md).
 */
export class FlowIncident extends AppError {
  constructor(reason: string, readonly recorded: Promise<void>) {
    super(400, 'flowStepStopped', { reason });
  }
}

/** what an incident writes once the step's transaction has rolled back */
type IncidentWrite = (tx: Executor, reason: string) => Promise<unknown>;

const REASON_MAX = 500;

/** how often the scheduler looks for timers due */
const TICK_MS = 1000;
/** instances one tick resumes at most (the rest on the next) */
const TICK_BATCH = 100;
/** a step that failed in the scheduler is tried again this much later, not at every tick */
const RETRY_FAILED_MS = 60_000;
const COMPILED_CACHE = 200;

/**
 * The workflow engine (docs/workflow.md): BPMN definitions per tenant, instances whose engine state is saved
 * after every step, user tasks and history as rows. No engine lives in memory between steps: every start,
 * completion and timer is one transaction that locks the instance, recovers it, moves it and saves it, so a
 * restart (or a kill -9) resumes from the last step and the scheduler fires the timers that came due meanwhile.
 */
export class FlowEngine {
  private readonly compiled = new Map<string, string>();
  private timer?: NodeJS.Timeout;
  private ticking?: Promise<void>;
  private stopped = false;
  /** where failures off the request path go (the server's log, given to the scheduler) */
  private reportError: (e: unknown) => void = () => undefined;

  private readonly completionHooks = new Map<string, TaskCompletedHook>();

  private readonly limits: StepLimits;

  constructor(private readonly ctx: AppContext, private readonly services: Readonly<Record<string, FlowService>> = {}) {
    this.limits = { maxActivities: ctx.config.flow.stepMaxActivities, maxMs: ctx.config.flow.stepMaxMs };
  }

  /** Runs `hook` in the transaction of every task completion of processes with this key. */
  onTaskCompleted(processKey: string, hook: TaskCompletedHook): void {
    this.completionHooks.set(processKey, hook);
  }

  serviceNames(): Set<string> {
    return new Set(Object.keys(this.services));
  }

  /** Checks and compiles a model against this server's handlers and step bounds. */
  compile(xml: string): Promise<CompiledProcess> {
    return compileBpmn(xml, this.serviceNames(), { maxActivities: this.limits.maxActivities });
  }

  /** Checks the model, then makes it a new version of its key in each tenant (one transaction each). */
  async deploy(user: AuthUser, input: DeployInput): Promise<Deployed[]> {
    let checked: CompiledProcess;
    try {
      checked = await this.compile(input.xml);
    } catch (e) {
      if (e instanceof BpmnInvalid) throw badRequest('flowBpmnInvalid', { detail: e.message.slice(0, 500) });
      throw e;
    }
    return this.deployCompiled(user, [{ checked, ...input }], input.tenantIds);
  }

  /** Deploys checked models into each tenant, all of them or none there (one transaction per tenant). */
  async deployCompiled(user: AuthUser, models: ReadonlyArray<Omit<DeployInput, 'tenantIds'> & { checked: CompiledProcess }>, tenantIds: readonly string[]): Promise<Deployed[]> {
    const out: Deployed[] = [];
    for (const tenantId of new Set(tenantIds)) {
      await inTenant(this.ctx.db, { tenantId }, async (tx) => {
        for (const m of models) out.push(await deployChecked(tx, tenantId, m.checked, m, user.userId));
      });
    }
    return out;
  }

  /** Starts an instance of a definition of the user's tenant; answers it and the tasks it opened. */
  async start(user: AuthUser, definitionId: string, variables: Record<string, unknown>, businessKey?: string): Promise<{ instanceId: string; tasks: OpenedTask[] }> {
    return incidentsRecorded(inTenant(this.ctx.db, { tenantId: user.tenantId }, (tx) => this.startIn(tx, user, definitionId, variables, businessKey)));
  }

  /** The same inside a transaction of the caller's tenant (a business record and its instance are written together). */
  async startIn(tx: Executor, user: AuthUser, definitionId: string, variables: Record<string, unknown>, businessKey?: string): Promise<{ instanceId: string; tasks: OpenedTask[] }> {
    const [def] = await tx.select().from(flowDefinition)
      .where(and(eq(flowDefinition.id, definitionId), eq(flowDefinition.tenantId, user.tenantId), eq(flowDefinition.isDeleted, 0)));
    if (!def) throw new AppError(404, 'flowDefinitionMissing');
    if (def.suspended) throw badRequest('flowDefinitionSuspended', { name: def.name });
    this.remember(def.id, def.compiled);
    const instanceId = nextId();
    const vars = { ...variables, initiator: user.userId };
    const meta: InstanceMeta = {
      definitionId: def.id, processName: def.name, category: def.category, businessKey: businessKey ?? null, startUserName: user.userName,
    };
    const row = { id: instanceId, tenantId: user.tenantId, processKey: def.processKey, ...meta, startUser: user.userId, variables: vars };
    // a start stopped at its bound leaves an instance that never ran a step: the incident, with its reason
    const result = await this.step(tx, user.tenantId, instanceId, def.compiled, { start: { variables: vars, ...(businessKey ? { businessKey } : {}) } },
      (itx, reason) => itx.insert(flowInstance).values({ ...row, status: 'incident', incidentReason: reason }));
    await tx.insert(flowInstance).values({ ...row, status: 'running' });
    await this.record(tx, user.tenantId, instanceId, meta, result);
    return { instanceId, tasks: result.opened };
  }

  /** Takes an unassigned task the user is a candidate for; of two at once, one wins. */
  async claim(user: AuthUser, taskId: string): Promise<void> {
    await inTenant(this.ctx.db, { tenantId: user.tenantId }, async (tx) => {
      const [task] = await tx.select().from(flowTask).where(and(eq(flowTask.id, taskId), eq(flowTask.tenantId, user.tenantId)));
      if (!task || task.status !== 'open') throw new AppError(404, 'flowTaskMissing');
      if (task.assignee === user.userId) return;
      if (!isCandidate(task, user)) throw forbidden('flowTaskNotOffered');
      if (task.assignee) throw new AppError(409, 'flowTaskClaimed');
      const [won] = await tx.update(flowTask).set({ assignee: user.userId, claimTime: new Date() })
        .where(and(eq(flowTask.id, taskId), eq(flowTask.status, 'open'), sql`${flowTask.assignee} is null`)).returning({ id: flowTask.id });
      if (!won) throw new AppError(409, 'flowTaskClaimed');
    });
  }

  /**
   * Completes the user's task: `pass` (BladeX's flag 'ok') and the comment become variables the model's gateways
   * read, with any others given. The instance is locked before the task, as the scheduler locks them.
   */
  async complete(user: AuthUser, taskId: string, input: { pass: boolean; comment?: string; variables?: Record<string, unknown>; instanceId?: string }): Promise<{ instanceId: string; status: string; tasks: OpenedTask[] }> {
    return incidentsRecorded(inTenant(this.ctx.db, { tenantId: user.tenantId }, async (tx) => {
      const [seen] = await tx.select({ instanceId: flowTask.instanceId, status: flowTask.status }).from(flowTask).where(and(eq(flowTask.id, taskId), eq(flowTask.tenantId, user.tenantId)));
      if (!seen || seen.status !== 'open' || (input.instanceId && input.instanceId !== seen.instanceId)) throw new AppError(404, 'flowTaskMissing');
      const instance = await this.lockInstance(tx, seen.instanceId);
      const [task] = await tx.select().from(flowTask).where(eq(flowTask.id, taskId)).for('update');
      if (!task || task.status !== 'open') throw new AppError(404, 'flowTaskMissing');
      if (task.assignee !== user.userId) {
        if (task.assignee || !isCandidate(task, user)) throw forbidden('flowTaskNotOffered');
        throw badRequest('flowTaskClaimFirst');
      }
      const comment = input.comment?.trim() || null;
      const variables = { ...(input.variables ?? {}), pass: input.pass, comment: comment ?? '' };
      const result = await this.step(tx, user.tenantId, instance.id, await this.compiledOf(tx, instance.definitionId),
        { resume: { state: instance.state as Record<string, unknown> }, signal: { taskId: task.executionId, variables } }, markIncident(instance.id));
      await tx.update(flowTask).set({ outcome: input.pass ? 'pass' : 'reject', comment, completedBy: user.userId }).where(eq(flowTask.id, taskId));
      await this.record(tx, user.tenantId, instance.id, instance, result);
      await this.completionHooks.get(instance.processKey)?.(tx, { instance, task, pass: input.pass, comment, status: result.status, user });
      return { instanceId: instance.id, status: result.status, tasks: result.opened };
    }));
  }

  /** Ends a running instance (follow/delete-process-instance): its open tasks are cancelled, the reason kept. */
  async deleteInstance(user: AuthUser, instanceId: string, reason: string): Promise<void> {
    await inTenant(this.ctx.db, { tenantId: user.tenantId }, async (tx) => {
      const instance = await this.lockInstance(tx, instanceId, { incident: true });
      const now = new Date();
      const open = await tx.update(flowTask).set({ status: 'cancelled', endTime: now })
        .where(and(eq(flowTask.instanceId, instance.id), eq(flowTask.status, 'open'))).returning();
      if (open.length) {
        await tx.insert(flowHistory).values(open.map((t) => ({
          id: nextId(), tenantId: user.tenantId, instanceId: instance.id, event: 'cancel', elementId: t.taskDefinitionKey, elementType: 'bpmn:UserTask',
          elementName: t.name, executionId: t.executionId, at: now,
        })));
      }
      await tx.update(flowInstance).set({ status: 'deleted', deleteReason: reason, endTime: now, state: null, dueAt: null, updateTime: now }).where(eq(flowInstance.id, instance.id));
    });
  }

  /** Resumes the instances whose timers are due (all tenants); answers how many moved. */
  async fireDue(now = new Date(), onError: (e: unknown) => void = () => undefined): Promise<number> {
    const due = await inTenant(this.ctx.db, { tenantId: PLATFORM_TENANT, allTenants: true }, (tx) => tx
      .select({ id: flowInstance.id, tenantId: flowInstance.tenantId }).from(flowInstance)
      .where(and(eq(flowInstance.status, 'running'), lte(flowInstance.dueAt, now))).orderBy(flowInstance.dueAt).limit(TICK_BATCH));
    let moved = 0;
    for (const d of due) {
      try {
        const fired = await inTenant(this.ctx.db, { tenantId: d.tenantId }, async (tx) => {
          const [instance] = await tx.select().from(flowInstance)
            .where(and(eq(flowInstance.id, d.id), eq(flowInstance.status, 'running'), lte(flowInstance.dueAt, now))).for('update', { skipLocked: true });
          if (!instance) return false;
          const result = await this.step(tx, d.tenantId, instance.id, await this.compiledOf(tx, instance.definitionId), { resume: { state: instance.state as Record<string, unknown> } }, markIncident(instance.id));
          await this.record(tx, d.tenantId, instance.id, instance, result);
          return true;
        });
        if (fired) moved++;
      } catch (err) {
        if (err instanceof FlowIncident) await err.recorded;
        onError(err);
        await inTenant(this.ctx.db, { tenantId: d.tenantId }, (tx) => tx.update(flowInstance)
          .set({ dueAt: new Date(Date.now() + RETRY_FAILED_MS) }).where(eq(flowInstance.id, d.id))).catch(() => undefined);
      }
    }
    return moved;
  }

  /** Fires due timers now and then every second (at start too: timers that came due while the server was down). */
  startScheduler(onError: (e: unknown) => void): void {
    this.reportError = onError;
    const loop = () => {
      if (this.stopped) return;
      this.ticking = this.fireDue(new Date(), onError).then(() => undefined, onError).finally(() => {
        this.ticking = undefined;
        if (!this.stopped) this.timer = setTimeout(loop, TICK_MS);
      });
    };
    loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.ticking;
  }

  private remember(definitionId: string, compiled: string): void {
    if (this.compiled.size >= COMPILED_CACHE) this.compiled.delete(this.compiled.keys().next().value as string);
    this.compiled.set(definitionId, compiled);
  }

  /** a definition never changes once deployed, so its compiled form is kept */
  private async compiledOf(tx: Executor, definitionId: string): Promise<string> {
    const known = this.compiled.get(definitionId);
    if (known) return known;
    const [def] = await tx.select({ compiled: flowDefinition.compiled }).from(flowDefinition).where(eq(flowDefinition.id, definitionId));
    if (!def) throw new AppError(404, 'flowDefinitionMissing');
    this.remember(definitionId, def.compiled);
    return def.compiled;
  }

  private async lockInstance(tx: Executor, instanceId: string, allow: { incident?: boolean } = {}): Promise<InstanceRow> {
    const [instance] = await tx.select().from(flowInstance).where(eq(flowInstance.id, instanceId)).for('update');
    if (!instance) throw new AppError(404, 'flowTaskMissing');
    if (instance.status === 'incident' && allow.incident) return instance;
    if (instance.status === 'incident') throw badRequest('flowInstanceIncident', { reason: instance.incidentReason ?? '' });
    if (instance.status !== 'running' || !instance.state) throw badRequest('flowInstanceEnded');
    return instance;
  }

  /**
   * Runs one step in the caller's transaction. A step stopped at its bound throws a FlowIncident: the caller's
   * transaction rolls back, and `incident` then writes the incident in a transaction of its own (on PGlite it
   * waits for the one connection, which the rollback frees; on PostgreSQL for the instance's row lock).
   */
  private async step(tx: Executor, tenantId: string, instanceId: string, compiled: string, input: StepInput, incident: IncidentWrite): Promise<StepResult> {
    const bound: Record<string, ServiceHandler> = Object.fromEntries(Object.entries(this.services).map(([name, fn]) => [name, (vars) => fn(vars, { tx, tenantId, instanceId })]));
    try {
      return await runStep(instanceId, compiled, input, bound, this.limits);
    } catch (e) {
      if (e instanceof TaskNotWaiting) throw new AppError(404, 'flowTaskMissing');
      if (e instanceof StepStopped) {
        const reason = e.message.slice(0, REASON_MAX);
        const recorded = Promise.resolve()
          .then(() => inTenant(this.ctx.db, { tenantId }, (itx) => incident(itx, reason)))
          .then(() => undefined, (err: unknown) => this.reportError(err));
        throw new FlowIncident(reason, recorded as Promise<void>);
      }
      if (e instanceof StepFailed) throw badRequest('flowStepFailed', { reason: e.message.slice(0, 300) });
      throw e;
    }
  }

  /** writes what a step did: the instance's state and next timer, its tasks opened and closed, its history */
  private async record(tx: Executor, tenantId: string, instanceId: string, meta: InstanceMeta, r: StepResult): Promise<void> {
    const now = new Date();
    const ended = r.status === 'completed';
    await tx.update(flowInstance).set({
      status: ended ? 'completed' : 'running', state: r.state, dueAt: r.dueAt, variables: r.variables, updateTime: now, ...(ended ? { endTime: now } : {}),
    }).where(eq(flowInstance.id, instanceId));
    if (r.opened.length) {
      await tx.insert(flowTask).values(r.opened.map((t) => ({
        id: nextId(), tenantId, instanceId, executionId: t.taskId, taskDefinitionKey: t.activityId, name: t.name,
        definitionId: meta.definitionId, processName: meta.processName, category: meta.category, businessKey: meta.businessKey, startUserName: meta.startUserName,
        assignee: t.assignee, candidateUsers: t.candidateUsers, candidateGroups: t.candidateGroups,
      }))).onConflictDoNothing();
    }
    for (const outcome of ['completed', 'cancelled'] as const) {
      const ids = r.closed.filter((c) => c.outcome === outcome).map((c) => c.taskId);
      if (ids.length) {
        await tx.update(flowTask).set({ status: outcome, endTime: now })
          .where(and(eq(flowTask.instanceId, instanceId), inArray(flowTask.executionId, ids), eq(flowTask.status, 'open')));
      }
    }
    if (r.history.length) {
      await tx.insert(flowHistory).values(r.history.map((h) => ({
        id: nextId(), tenantId, instanceId, event: h.event, elementId: h.elementId, elementType: h.elementType, elementName: h.elementName,
        executionId: h.executionId, sourceId: h.sourceId, targetId: h.targetId, at: h.at,
      })));
    }
  }
}

/** marks a running instance as an incident; its state stays the last settled one, its open tasks stay until it is deleted */
const markIncident = (instanceId: string): IncidentWrite => (tx, reason) => tx.update(flowInstance)
  .set({ status: 'incident', incidentReason: reason, dueAt: null, updateTime: new Date() })
  .where(and(eq(flowInstance.id, instanceId), eq(flowInstance.status, 'running')));

/** a FlowIncident reaches the caller once the incident is written (the transaction it came from has rolled back) */
async function incidentsRecorded<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (e) {
    if (e instanceof FlowIncident) await e.recorded;
    throw e;
  }
}

/** Makes a checked model the next version of its key in a tenant (the deploy lock keeps versions apart). */
export async function deployChecked(
  tx: Executor, tenantId: string, checked: CompiledProcess, input: Pick<DeployInput, 'xml' | 'name' | 'category' | 'source'>, userId: string | null,
): Promise<Deployed> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`flow-deploy:${tenantId}:${checked.key}`}))`);
  const [last] = await tx.select({ v: sql<number>`coalesce(max(${flowDefinition.version}), 0)` }).from(flowDefinition)
    .where(and(eq(flowDefinition.tenantId, tenantId), eq(flowDefinition.processKey, checked.key)));
  const version = Number(last?.v ?? 0) + 1;
  const deploymentId = nextId();
  const definitionId = nextId();
  const name = input.name?.trim() || checked.name;
  await tx.insert(flowDeployment).values({ id: deploymentId, tenantId, name, category: input.category ?? null, source: input.source, deployUser: userId });
  await tx.insert(flowDefinition).values({
    id: definitionId, tenantId, deploymentId, processKey: checked.key, name: checked.name, version, category: input.category ?? null, xml: input.xml, compiled: checked.compiled,
  });
  return { tenantId, deploymentId, definitionId, processKey: checked.key, name: checked.name, version };
}

/** a task's candidates: its candidate users, and holders of its candidate roles (by alias); one of them claims it */
export function isCandidate(task: { candidateUsers: string[]; candidateGroups: string[] }, user: AuthUser): boolean {
  return task.candidateUsers.includes(user.userId) || task.candidateGroups.some((g) => user.roleAliases.includes(g));
}
