import { PLATFORM_TENANT } from '@console/contract';
import { and, desc, eq, lte, sql } from 'drizzle-orm';
import type { AppContext, AuthUser } from '../../core/context.js';
import { type Executor, inTenant } from '../../core/db/index.js';
import { rawQuery, type Statement, stmt } from '../../core/db/raw.js';
import { AppError, badRequest, forbidden } from '../../core/errors.js';
import { nextId } from '../../core/ids.js';
import { BpmnInvalid, type CompiledProcess, compileBpmn, loadModel } from './bpmn/compile.js';
import { MODEL_FORMAT, type ProcessModel } from './bpmn/model.js';
import type { OpenedTask, StepLimits } from './bpmn/runtime/context.js';
import { type Actor, deleteTree, type FlowService, type IncidentWrite, type InstanceRow, lockInstance, StepDriver, type StepHost } from './steps.js';
import { flowDefinition, flowDeployment, flowInstance, flowTask } from './tables.js';

export type { FlowService } from './steps.js';

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

/** what a completion reads of its task */
type TaskRow = Pick<typeof flowTask.$inferSelect, 'id' | 'instanceId' | 'executionId' | 'taskDefinitionKey' | 'status' | 'assignee' | 'candidateUsers' | 'candidateGroups'>;

/** A process's own work when one of its tasks is completed, in the same transaction. */
export type TaskCompletedHook = (tx: Executor, c: { instance: InstanceRow; task: TaskRow; pass: boolean; comment: string | null; status: string; user: AuthUser }) => Promise<void>;
/**
 * A process's own row written when one of its tasks is completed (the leave request keeps the approver's comment):
 * a statement written with the step's own rows, in its one write, or null for none.
 */
export type TaskCompletedWrite = (c: { instance: InstanceRow; task: TaskRow; pass: boolean; comment: string | null; user: AuthUser }) => Statement | null;

/**
 * A step stopped at its bound (StepStopped): the caller's 400. Its transaction rolls back; `recorded` settles once
 * the instance is marked as an incident, in a transaction of its own after that (docs/workflow.md).
 */
export class FlowIncident extends AppError {
  constructor(reason: string, readonly recorded: Promise<void>) {
    super(400, 'flowStepStopped', { reason });
  }
}

/** how often the scheduler looks for timers due */
const TICK_MS = 1000;
/** instances one tick resumes at most (the rest on the next) */
const TICK_BATCH = 100;
/** a step that failed in the scheduler is tried again this much later, not at every tick */
const RETRY_FAILED_MS = 60_000;
const MODEL_CACHE = 500;

/**
 * The workflow engine (docs/workflow.md): BPMN definitions per tenant, instances whose state is saved after
 * every step, user tasks and history as rows. No engine lives in memory between steps: every start,
 * completion, message and timer is one transaction that locks the instance, runs the step from its saved
 * state and writes what it did, so a restart (or a kill -9) resumes from the last step and the scheduler fires
 * the timers that came due meanwhile.
 */
export class FlowEngine implements StepHost {
  private readonly models = new Map<string, ProcessModel>();
  private timer?: NodeJS.Timeout;
  private ticking?: Promise<void>;
  private stopped_ = false;
  /** where failures off the request path go (the server's log, given to the scheduler) */
  private reportError: (e: unknown) => void = () => undefined;
  private readonly completionHooks: TaskCompletedHook[] = [];
  private readonly completionWrites: TaskCompletedWrite[] = [];
  readonly limits: StepLimits;

  private readonly steps;

  constructor(private readonly ctx: AppContext, readonly services: Readonly<Record<string, FlowService>> = {}) {
    this.limits = { maxActivities: ctx.config.flow.stepMaxActivities, maxMs: ctx.config.flow.stepMaxMs };
    this.steps = ctx.metrics.histogram({ name: 'workflow_step_duration_seconds', help: 'Workflow engine steps (the engine alone, without the database), by outcome', labelNames: ['outcome'] as const });
  }

  stepRan(outcome: 'done' | 'stopped' | 'failed', seconds: number): void {
    this.steps.observe({ outcome }, seconds);
  }

  /** Runs `hook` in the transaction of every task completion (a business record finds its own by the instance). */
  onTaskCompleted(hook: TaskCompletedHook): void {
    this.completionHooks.push(hook);
  }

  /** Writes the statement `write` gives with every task completion's own rows (one statement for the step's writes). */
  onTaskCompletedWrite(write: TaskCompletedWrite): void {
    this.completionWrites.push(write);
  }

  serviceNames(): Set<string> {
    return new Set(Object.keys(this.services));
  }

  /** Checks and compiles a model's executable processes against this server's handlers and step bounds. */
  compile(xml: string): Promise<CompiledProcess[]> {
    return compileBpmn(xml, this.serviceNames(), { maxActivities: this.limits.maxActivities });
  }

  /** Checks the model, then makes each of its processes a new version of its key in each tenant (one transaction each). */
  async deploy(user: AuthUser, input: DeployInput): Promise<Deployed[]> {
    let checked: CompiledProcess[];
    try {
      checked = await this.compile(input.xml);
    } catch (e) {
      if (e instanceof BpmnInvalid) throw badRequest('flowBpmnInvalid', { detail: { zh: e.text('zh').slice(0, 500), en: e.text('en').slice(0, 500) } });
      throw e;
    }
    return this.deployCompiled(user, [{ checked, ...input }], input.tenantIds);
  }

  /** Deploys checked models into each tenant, all of them or none there (one transaction per tenant). */
  async deployCompiled(user: AuthUser, models: ReadonlyArray<Omit<DeployInput, 'tenantIds'> & { checked: CompiledProcess[] }>, tenantIds: readonly string[]): Promise<Deployed[]> {
    const out: Deployed[] = [];
    for (const tenantId of new Set(tenantIds)) {
      await inTenant(this.ctx.db, { tenantId }, async (tx) => {
        for (const m of models) out.push(...await deployChecked(tx, tenantId, m.checked, m, user.userId));
      });
    }
    return out;
  }

  // ---- steps ----

  /** the step was stopped at its bound: the incident is written after the caller's transaction rolled back */
  stopped(tenantId: string, reason: string, write: IncidentWrite): Error {
    const recorded = Promise.resolve()
      .then(() => inTenant(this.ctx.db, { tenantId }, (itx) => write(itx, reason)))
      .then(() => undefined, (err: unknown) => this.reportError(err));
    return new FlowIncident(reason, recorded as Promise<void>);
  }

  /** a definition never changes once deployed, so its model is kept (one compiled by an earlier engine is compiled again) */
  async modelOf(tx: Executor, tenantId: string, definitionId: string): Promise<ProcessModel> {
    const known = this.models.get(definitionId);
    if (known) return known;
    const [def] = await tx.select({ compiled: flowDefinition.compiled, xml: flowDefinition.xml, processKey: flowDefinition.processKey }).from(flowDefinition)
      .where(and(eq(flowDefinition.tenantId, tenantId), eq(flowDefinition.id, definitionId)));
    if (!def) throw new AppError(404, 'flowDefinitionMissing');
    let model = loadModel(def.compiled);
    if (model.format !== MODEL_FORMAT) model = await recompiled(def.xml, def.processKey, this.serviceNames());
    if (this.models.size >= MODEL_CACHE) this.models.delete(this.models.keys().next().value as string);
    this.models.set(definitionId, model);
    return model;
  }

  private driver(tx: Executor, tenantId: string, actor: Actor): StepDriver {
    return new StepDriver(this, tx, tenantId, actor);
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
    const { row, result } = await this.driver(tx, user.tenantId, user).start(def, variables, { businessKey: businessKey ?? null });
    return { instanceId: row.id, tasks: result.opened };
  }

  /** Starts the newest process of the user's tenant with a message start event for `messageName`. */
  async startByMessage(user: AuthUser, messageName: string, variables: Record<string, unknown>, businessKey?: string): Promise<{ instanceId: string }> {
    return incidentsRecorded(inTenant(this.ctx.db, { tenantId: user.tenantId }, async (tx) => {
      const [def] = await tx.select().from(flowDefinition)
        .where(and(eq(flowDefinition.tenantId, user.tenantId), eq(flowDefinition.isDeleted, 0), sql`${flowDefinition.startMessages} @> ARRAY[${messageName}]::text[]`))
        .orderBy(desc(flowDefinition.createTime), desc(flowDefinition.version)).limit(1);
      if (!def) throw new AppError(404, 'flowMessageNoStart', { name: messageName });
      if (def.suspended) throw badRequest('flowDefinitionSuspended', { name: def.name });
      const { row } = await this.driver(tx, user.tenantId, user).start(def, variables, { businessKey: businessKey ?? null, message: messageName });
      return { instanceId: row.id };
    }));
  }

  /** Delivers a message to the instances (one, or those of a business key) waiting for it; answers which moved. */
  async message(user: AuthUser, input: { messageName: string; processInstanceId?: string; businessKey?: string; variables?: Record<string, unknown> }): Promise<string[]> {
    return incidentsRecorded(inTenant(this.ctx.db, { tenantId: user.tenantId }, async (tx) => {
      const target = input.processInstanceId ? eq(flowInstance.id, input.processInstanceId) : input.businessKey ? eq(flowInstance.businessKey, input.businessKey) : undefined;
      const waiting = await tx.select({ id: flowInstance.id }).from(flowInstance)
        .where(and(eq(flowInstance.tenantId, user.tenantId), eq(flowInstance.status, 'running'), sql`${flowInstance.waitsMessages} @> ARRAY[${input.messageName}]::text[]`, target))
        .orderBy(flowInstance.createTime).limit(100);
      if (!waiting.length) throw new AppError(404, 'flowMessageNotWaiting', { name: input.messageName });
      const driver = this.driver(tx, user.tenantId, user);
      const moved: string[] = [];
      for (const { id } of waiting) {
        const instance = await lockInstance(tx, id);
        const r = await driver.advance(instance, { message: { name: input.messageName, variables: input.variables ?? {} } });
        if (r.delivered) moved.push(id);
      }
      return moved;
    }));
  }

  /** Moves an instance waiting at a receive task (or a catching event) of `activityId` on, as Flowable's trigger does. */
  async trigger(user: AuthUser, input: { processInstanceId: string; activityId: string; variables?: Record<string, unknown> }): Promise<void> {
    await incidentsRecorded(inTenant(this.ctx.db, { tenantId: user.tenantId }, async (tx) => {
      const instance = await lockInstance(tx, input.processInstanceId);
      const r = await this.driver(tx, user.tenantId, user).advance(instance, { trigger: { activityId: input.activityId, variables: input.variables ?? {} } });
      if (!r.delivered) throw new AppError(404, 'flowTriggerNotWaiting', { activityId: input.activityId });
    }));
  }

  /** Takes an unassigned task the user is a candidate for; of two at once, one wins. */
  async claim(user: AuthUser, taskId: string): Promise<void> {
    await incidentsRecorded(inTenant(this.ctx.db, { tenantId: user.tenantId }, async (tx) => {
      const [task] = await tx.select().from(flowTask).where(and(eq(flowTask.id, taskId), eq(flowTask.tenantId, user.tenantId)));
      if (!task || task.status !== 'open') throw new AppError(404, 'flowTaskMissing');
      if (task.assignee === user.userId) return;
      if (!isCandidate(task, user)) throw forbidden('flowTaskNotOffered');
      if (task.assignee) throw new AppError(409, 'flowTaskClaimed');
      const [won] = await tx.update(flowTask).set({ assignee: user.userId, claimTime: new Date() })
        .where(and(eq(flowTask.id, taskId), eq(flowTask.status, 'open'), sql`${flowTask.assignee} is null`)).returning({ id: flowTask.id });
      if (!won) throw new AppError(409, 'flowTaskClaimed');
      const [instance] = await tx.select({ definitionId: flowInstance.definitionId }).from(flowInstance)
        .where(and(eq(flowInstance.tenantId, user.tenantId), eq(flowInstance.id, task.instanceId)));
      const node = instance ? (await this.modelOf(tx, user.tenantId, instance.definitionId)).nodes[task.taskDefinitionKey] : undefined;
      // a claim is an assignment: the task's assignment listeners run, as a step of the instance
      if (node?.taskListeners?.some((l) => l.event === 'assignment')) {
        await this.driver(tx, user.tenantId, user).advance(await lockInstance(tx, task.instanceId), { assign: { taskId: task.executionId, assignee: user.userId } });
      }
    }));
  }

  /**
   * Completes the user's task: `pass` (BladeX's flag 'ok') and the comment become variables the model's flows
   * read, with any others given. The instance is locked before the task, as the scheduler locks them.
   */
  async complete(user: AuthUser, taskId: string, input: { pass: boolean; comment?: string; variables?: Record<string, unknown>; instanceId?: string }): Promise<{ instanceId: string; status: string; tasks: OpenedTask[] }> {
    return incidentsRecorded(inTenant(this.ctx.db, { tenantId: user.tenantId }, async (tx) => {
      // the task's instance locked in one statement, before the task, as the scheduler locks them
      const instance = await lockInstance(tx, stmt`id = (select instance_id from blade_flow_task where id = ${taskId} and tenant_id = ${user.tenantId} and status = 'open')`,
        { missing: 'flowTaskMissing' });
      if (input.instanceId && input.instanceId !== instance.id) throw new AppError(404, 'flowTaskMissing');
      // read again once the instance is held: a completion that held it before has committed by now
      const [task] = await rawQuery<TaskRow>(tx, stmt`select id::text as "id", instance_id::text as "instanceId", execution_id as "executionId",
        task_definition_key as "taskDefinitionKey", status, assignee, candidate_users as "candidateUsers", candidate_groups as "candidateGroups"
        from blade_flow_task where id = ${taskId} for update`);
      if (!task || task.status !== 'open') throw new AppError(404, 'flowTaskMissing');
      if (task.assignee !== user.userId) {
        if (task.assignee || !isCandidate(task, user)) throw forbidden('flowTaskNotOffered');
        throw badRequest('flowTaskClaimFirst');
      }
      const comment = input.comment?.trim() || null;
      const variables = { ...(input.variables ?? {}), pass: input.pass, comment: comment ?? '' };
      const also = this.completionWrites.map((w) => w({ instance, task, pass: input.pass, comment, user })).filter((w): w is Statement => w !== null);
      const result = await this.driver(tx, user.tenantId, user).advance(instance, { complete: { taskId: task.executionId, variables } },
        { outcome: input.pass ? 'pass' : 'reject', comment, completedBy: user.userId }, also);
      for (const hook of this.completionHooks) await hook(tx, { instance, task, pass: input.pass, comment, status: result.status, user });
      return { instanceId: instance.id, status: result.status, tasks: result.opened };
    }));
  }

  /** Ends a running instance (follow/delete-process-instance): its open tasks and those of the processes it called are cancelled, the reason kept. */
  async deleteInstance(user: AuthUser, instanceId: string, reason: string): Promise<void> {
    await inTenant(this.ctx.db, { tenantId: user.tenantId }, async (tx) => {
      const instance = await lockInstance(tx, instanceId, { incident: true });
      await deleteTree(tx, user.tenantId, instance, reason);
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
          await this.driver(tx, d.tenantId, null).advance(instance, { timers: { now } });
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
      if (this.stopped_) return;
      this.ticking = this.fireDue(new Date(), onError).then(() => undefined, onError).finally(() => {
        this.ticking = undefined;
        if (!this.stopped_) this.timer = setTimeout(loop, TICK_MS);
      });
    };
    loop();
  }

  async stop(): Promise<void> {
    this.stopped_ = true;
    if (this.timer) clearTimeout(this.timer);
    await this.ticking;
  }
}

/** a definition compiled by an earlier engine: its XML compiled again, its process by key */
export async function recompiled(xml: string, processKey: string, services: ReadonlySet<string>): Promise<ProcessModel> {
  const all = await compileBpmn(xml, services, { maxActivities: Number.MAX_SAFE_INTEGER });
  const mine = all.find((p) => p.key === processKey) ?? all[0]!;
  return loadModel(mine.compiled);
}

/** a FlowIncident reaches the caller once the incident is written (the transaction it came from has rolled back) */
async function incidentsRecorded<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (e) {
    if (e instanceof FlowIncident) await e.recorded;
    throw e;
  }
}

/**
 * Makes each checked process the next version of its key in a tenant (the deploy lock keeps versions apart), one
 * deployment for the file. A process deployed without a category keeps its newest version's (a new version of the
 * leave process keeps its business form).
 */
export async function deployChecked(
  tx: Executor, tenantId: string, checked: readonly CompiledProcess[], input: Pick<DeployInput, 'xml' | 'name' | 'category' | 'source'>, userId: string | null,
): Promise<Deployed[]> {
  const deploymentId = nextId();
  const name = input.name?.trim() || checked.map((c) => c.name).join(', ').slice(0, 255);
  await tx.insert(flowDeployment).values({ id: deploymentId, tenantId, name, category: input.category ?? null, source: input.source, deployUser: userId });
  const out: Deployed[] = [];
  for (const c of checked) {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`flow-deploy:${tenantId}:${c.key}`}))`);
    const [last] = await tx.select({ version: flowDefinition.version, category: flowDefinition.category }).from(flowDefinition)
      .where(and(eq(flowDefinition.tenantId, tenantId), eq(flowDefinition.processKey, c.key))).orderBy(desc(flowDefinition.version)).limit(1);
    const version = (last?.version ?? 0) + 1;
    const definitionId = nextId();
    await tx.insert(flowDefinition).values({
      id: definitionId, tenantId, deploymentId, processKey: c.key, name: c.name, version, category: input.category ?? last?.category ?? null, xml: input.xml, compiled: c.compiled,
      startMessages: c.startMessages,
    });
    out.push({ tenantId, deploymentId, definitionId, processKey: c.key, name: c.name, version });
  }
  return out;
}

/** a task's candidates: its candidate users, and holders of its candidate roles (by alias); one of them claims it */
export function isCandidate(task: { candidateUsers: string[]; candidateGroups: string[] }, user: AuthUser): boolean {
  return task.candidateUsers.includes(user.userId) || task.candidateGroups.some((g) => user.roleAliases.includes(g));
}

