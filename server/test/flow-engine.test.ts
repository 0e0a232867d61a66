import { readFileSync } from 'node:fs';
import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuthUser } from '../src/core/context.js';
import { inTenant } from '../src/core/db/index.js';
import { AppError } from '../src/core/errors.js';
import type { FlowEngine } from '../src/areas/flow/engine.js';
import { FLOW_ENGINE } from '../src/areas/flow/index.js';
import { flowDefinition, flowHistory, flowInstance, flowTask } from '../src/areas/flow/tables.js';
import { upgradeEngineState } from '../src/areas/flow/upgrade.js';
import { useServer } from './harness.js';

/**
 * The workflow engine on the database (issue 12): the leave request through both branches and a rejection,
 * tasks only for those offered them, one winner of two claims, a restart between steps, a timer that escalates
 * (fired by the scheduler), refused models, and tenants that never see each other's definitions or tasks.
 */
const h = useServer();
const LEAVE = readFileSync(new URL('../src/areas/flow/leave.bpmn20.xml', import.meta.url), 'utf8');
const T = '541742';
const flow = (): FlowEngine => h.server.ctx.services.get(FLOW_ENGINE);
const people: Record<string, AuthUser> = {};

const person = (tenantId: string, userId: string, account: string, roleAliases: string[]): AuthUser => ({
  tenantId, userId, deptId: '', roleIds: [], roleAliases, account, userName: account, clientId: 'saber', sessionId: '',
});

async function refusal(p: Promise<unknown>): Promise<{ status: number; key: string }> {
  const e = await p.then(() => null, (err: unknown) => err);
  expect(e).toBeInstanceOf(AppError);
  return { status: (e as AppError).code, key: (e as AppError).key };
}

const tasksOf = (instanceId: string) => inTenant(h.server.ctx.db, { tenantId: T }, (tx) =>
  tx.select().from(flowTask).where(eq(flowTask.instanceId, instanceId)).orderBy(asc(flowTask.createTime), asc(flowTask.id)));
const openTask = async (instanceId: string) => (await tasksOf(instanceId)).find((t) => t.status === 'open')!;
const instanceRow = async (instanceId: string) => (await inTenant(h.server.ctx.db, { tenantId: T }, (tx) => tx.select().from(flowInstance).where(eq(flowInstance.id, instanceId))))[0]!;

let leaveId: string;

beforeAll(async () => {
  for (const [account, roles] of [['fl-alice', []], ['fl-bob', []], ['fl-hr1', ['hr']], ['fl-hr2', ['hr']], ['fl-eve', []]] as Array<[string, string[]]>) {
    people[account] = person(T, await h.createUser(T, account, 'Flow#2026', roles), account, roles);
  }
  people.outsider = person('000000', '1123598821738675201', 'admin', ['administrator']);
  // the demo tenant has the leave process deployed by its seed (version 1) and the HR role
  const seeded = await inTenant(h.server.ctx.db, { tenantId: T }, (tx) => tx.select().from(flowDefinition).where(eq(flowDefinition.processKey, 'Leave')));
  expect(seeded.map((d) => [d.version, d.name])).toEqual([[1, '请假流程']]);
  const [deployed] = await flow().deploy(people['fl-bob']!, { xml: LEAVE, tenantIds: [T], source: 'upload', category: 'office' });
  expect(deployed).toMatchObject({ tenantId: T, processKey: 'Leave', name: '请假流程', version: 2 });
  leaveId = deployed!.definitionId;
});

describe('the leave request', () => {
  it('a long leave: the approver, then HR (claimed by one of its two members), then the end, with the path in the history', async () => {
    const { alice, bob, hr1, hr2, eve } = { alice: people['fl-alice']!, bob: people['fl-bob']!, hr1: people['fl-hr1']!, hr2: people['fl-hr2']!, eve: people['fl-eve']! };
    const started = await flow().start(alice, leaveId, { applyUser: alice.userId, taskUser: bob.userId, days: 5 }, 'leave-1');
    expect(started.tasks).toEqual([expect.objectContaining({ activityId: 'managerApproval', assignee: bob.userId })]);
    const managerTask = await openTask(started.instanceId);

    expect(await refusal(flow().complete(eve, managerTask.id, { pass: true }))).toEqual({ status: 403, key: 'flowTaskNotOffered' });
    expect(await refusal(flow().claim(eve, managerTask.id))).toEqual({ status: 403, key: 'flowTaskNotOffered' });
    await flow().complete(bob, managerTask.id, { pass: true, comment: '同意' });

    const hrTask = await openTask(started.instanceId);
    expect(hrTask).toMatchObject({ taskDefinitionKey: 'hrApproval', assignee: null, candidateGroups: ['hr'] });
    expect(await refusal(flow().complete(hr1, hrTask.id, { pass: true }))).toEqual({ status: 400, key: 'flowTaskClaimFirst' });
    const claims = await Promise.allSettled([flow().claim(hr1, hrTask.id), flow().claim(hr2, hrTask.id)]);
    expect(claims.filter((c) => c.status === 'fulfilled')).toHaveLength(1);
    const lost = claims.find((c) => c.status === 'rejected') as PromiseRejectedResult;
    expect((lost.reason as AppError).key).toBe('flowTaskClaimed');
    const winner = claims[0]!.status === 'fulfilled' ? hr1 : hr2;
    const loser = winner === hr1 ? hr2 : hr1;
    expect(await refusal(flow().complete(loser, hrTask.id, { pass: true }))).toEqual({ status: 403, key: 'flowTaskNotOffered' });
    const done = await flow().complete(winner, hrTask.id, { pass: true, comment: '已备案' });
    expect(done.status).toBe('completed');

    const instance = await instanceRow(started.instanceId);
    expect(instance).toMatchObject({ status: 'completed', state: null, dueAt: null, businessKey: 'leave-1', startUser: alice.userId });
    expect(instance.endTime).toBeInstanceOf(Date);
    const tasks = await tasksOf(started.instanceId);
    expect(tasks.map((t) => [t.taskDefinitionKey, t.status, t.outcome, t.completedBy, t.comment])).toEqual([
      ['managerApproval', 'completed', 'pass', bob.userId, '同意'],
      ['hrApproval', 'completed', 'pass', winner.userId, '已备案'],
    ]);
    const history = await inTenant(h.server.ctx.db, { tenantId: T }, (tx) => tx.select().from(flowHistory)
      .where(and(eq(flowHistory.instanceId, started.instanceId), eq(flowHistory.event, 'take'))).orderBy(asc(flowHistory.id)));
    expect(history.map((x) => x.elementId)).toEqual(['flowToManager', 'flowManagerDecision', 'flowManagerPassed', 'flowLongLeave', 'flowHrDecision', 'flowHrPassed']);
    // a task done is done
    expect(await refusal(flow().complete(winner, hrTask.id, { pass: true }))).toEqual({ status: 404, key: 'flowTaskMissing' });
  });

  it('a rejection returns to the applicant, who resubmits a short leave; it ends without HR, across a restart between every step', async () => {
    const { alice, bob } = { alice: people['fl-alice']!, bob: people['fl-bob']! };
    const started = await flow().start(alice, leaveId, { applyUser: alice.userId, taskUser: bob.userId, days: 4 });
    await h.restart();
    await flow().complete(bob, (await openTask(started.instanceId)).id, { pass: false, comment: '天数太多' });
    const adjust = await openTask(started.instanceId);
    expect(adjust).toMatchObject({ taskDefinitionKey: 'adjust', assignee: alice.userId });
    await h.restart();
    await flow().complete(alice, adjust.id, { pass: true, variables: { days: 2 } });
    const again = await openTask(started.instanceId);
    expect(again).toMatchObject({ taskDefinitionKey: 'managerApproval', assignee: bob.userId });
    await h.restart();
    const done = await flow().complete(bob, again.id, { pass: true });
    expect(done.status).toBe('completed');
    expect((await instanceRow(started.instanceId)).variables).toMatchObject({ days: 2, pass: true, applyUser: alice.userId });
  });

  it('the applicant may withdraw after a rejection; a deleted instance cancels its open task and keeps the reason', async () => {
    const { alice, bob } = { alice: people['fl-alice']!, bob: people['fl-bob']! };
    const a = await flow().start(alice, leaveId, { applyUser: alice.userId, taskUser: bob.userId, days: 1 });
    await flow().complete(bob, (await openTask(a.instanceId)).id, { pass: false });
    expect((await flow().complete(alice, (await openTask(a.instanceId)).id, { pass: false })).status).toBe('completed');
    const b = await flow().start(alice, leaveId, { applyUser: alice.userId, taskUser: bob.userId, days: 1 });
    const open = await openTask(b.instanceId);
    await flow().deleteInstance(bob, b.instanceId, '重复提交');
    expect(await instanceRow(b.instanceId)).toMatchObject({ status: 'deleted', deleteReason: '重复提交', state: null });
    expect((await tasksOf(b.instanceId)).map((t) => t.status)).toEqual(['cancelled']);
    expect(await refusal(flow().complete(bob, open.id, { pass: true }))).toEqual({ status: 404, key: 'flowTaskMissing' });
    expect(await refusal(flow().deleteInstance(bob, b.instanceId, 'again'))).toEqual({ status: 400, key: 'flowInstanceEnded' });
  });
});

describe('timers, models and tenants', () => {
  const ESCALATION = readFileSync(new URL('./fixtures/flow/escalation.bpmn20.xml', import.meta.url), 'utf8');

  it('a task left too long escalates to HR: the scheduler fires the timer, the first task is cancelled', async () => {
    const { alice, bob } = { alice: people['fl-alice']!, bob: people['fl-bob']! };
    const [def] = await flow().deploy(bob, { xml: ESCALATION, tenantIds: [T], source: 'upload' });
    const started = await flow().start(alice, def!.definitionId, { taskUser: bob.userId });
    const due = (await instanceRow(started.instanceId)).dueAt!;
    expect(due.getTime()).toBeGreaterThan(Date.now() - 1000);
    const deadline = Date.now() + 8000;
    while ((await openTask(started.instanceId))?.taskDefinitionKey !== 'hrReview') {
      if (Date.now() > deadline) throw new Error('the timer did not fire');
      await new Promise((r) => setTimeout(r, 100));
    }
    const tasks = await tasksOf(started.instanceId);
    expect(tasks.map((t) => [t.taskDefinitionKey, t.status])).toEqual([['review', 'cancelled'], ['hrReview', 'open']]);
    expect((await instanceRow(started.instanceId)).dueAt).toBeNull();
  });

  it('refuses a model that cannot run, naming why, and deploys nothing', async () => {
    const bad = await refusal(flow().deploy(people['fl-bob']!, { xml: LEAVE.replace('targetRef="hrApproval"', 'targetRef="nobody"'), tenantIds: [T], source: 'upload' }));
    expect(bad).toEqual({ status: 400, key: 'flowBpmnInvalid' });
    const again = await flow().deploy(people['fl-bob']!, { xml: LEAVE, tenantIds: [T], source: 'upload' });
    expect(again[0]!.version).toBe(3);
  });

  it('another tenant neither starts the definition nor touches the tasks', async () => {
    const { alice, bob, outsider } = { alice: people['fl-alice']!, bob: people['fl-bob']!, outsider: people.outsider! };
    expect(await refusal(flow().start(outsider, leaveId, {}))).toEqual({ status: 404, key: 'flowDefinitionMissing' });
    const started = await flow().start(alice, leaveId, { applyUser: alice.userId, taskUser: bob.userId, days: 1 });
    const task = await openTask(started.instanceId);
    expect(await refusal(flow().complete(outsider, task.id, { pass: true }))).toEqual({ status: 404, key: 'flowTaskMissing' });
    expect(await refusal(flow().claim(outsider, task.id))).toEqual({ status: 404, key: 'flowTaskMissing' });
    expect(await refusal(flow().deleteInstance(outsider, started.instanceId, 'x'))).toEqual({ status: 404, key: 'flowInstanceMissing' });
  });
});

describe('an instance saved by the engine before issue 25', () => {
  it('is rebuilt from its open task and goes on; one waiting elsewhere becomes an incident naming why; its definition is compiled again', async () => {
    const { alice, bob } = { alice: people['fl-alice']!, bob: people['fl-bob']! };
    const started = await flow().start(alice, leaveId, { applyUser: alice.userId, taskUser: bob.userId, days: 2 });
    const waiting = await flow().start(alice, leaveId, { applyUser: alice.userId, taskUser: bob.userId, days: 2 });
    // what the earlier engine left: its own JSON for the definition and the instances, the open task a row
    const old = { definitions: [{ id: 'LeaveDefinitions', execution: { processes: [] } }] };
    await inTenant(h.server.ctx.db, { tenantId: T }, async (tx) => {
      await tx.update(flowDefinition).set({ compiled: JSON.stringify(old) }).where(eq(flowDefinition.id, leaveId));
      await tx.update(flowInstance).set({ state: old }).where(eq(flowInstance.id, started.instanceId));
      await tx.update(flowInstance).set({ state: old }).where(eq(flowInstance.id, waiting.instanceId));
      await tx.update(flowTask).set({ status: 'cancelled' }).where(eq(flowTask.instanceId, waiting.instanceId));
    });
    await inTenant(h.server.ctx.db, { tenantId: T, allTenants: true }, (tx) => upgradeEngineState(tx, new Set()));
    const [def] = await inTenant(h.server.ctx.db, { tenantId: T }, (tx) => tx.select().from(flowDefinition).where(eq(flowDefinition.id, leaveId)));
    expect(JSON.parse(def!.compiled)).toMatchObject({ format: 2, key: 'Leave' });
    expect(await instanceRow(waiting.instanceId)).toMatchObject({ status: 'incident', incidentReason: expect.stringMatching(/cannot carry over/) });
    const task = await openTask(started.instanceId);
    const done = await flow().complete(bob, task.id, { pass: true });
    expect(done.status).toBe('completed');
  });
});
