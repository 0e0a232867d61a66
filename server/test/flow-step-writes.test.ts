import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuthUser } from '../src/core/context.js';
import { inTenant } from '../src/core/db/index.js';
import { AppError } from '../src/core/errors.js';
import type { FlowEngine } from '../src/areas/flow/engine.js';
import { FLOW_ENGINE } from '../src/areas/flow/index.js';
import { flowDefinition, flowHistory, flowInstance, flowTask } from '../src/areas/flow/tables.js';
import { useServer } from './harness.js';

/**
 * A step's writes (issue 30: one statement for the instance, its tasks, its history and a business record's row):
 * two completions of one task at once move the instance once, and everything a step writes lands together.
 */
const h = useServer();
const T = '541742';
const flow = (): FlowEngine => h.server.ctx.services.get(FLOW_ENGINE);
const person = (userId: string, account: string): AuthUser => ({
  tenantId: T, userId, deptId: '', roleIds: [], roleAliases: [], account, userName: account, clientId: 'saber', sessionId: '',
});
let applicant: AuthUser;
let approver: AuthUser;
let leaveId: string;

beforeAll(async () => {
  applicant = person(await h.createUser(T, 'sw-applicant', 'Flow#2026', []), 'sw-applicant');
  approver = person(await h.createUser(T, 'sw-approver', 'Flow#2026', []), 'sw-approver');
  const [leave] = await inTenant(h.server.ctx.db, { tenantId: T }, (tx) => tx.select({ id: flowDefinition.id }).from(flowDefinition).where(eq(flowDefinition.processKey, 'Leave')));
  leaveId = leave!.id;
});

const rowsOf = (instanceId: string) => inTenant(h.server.ctx.db, { tenantId: T }, async (tx) => ({
  instance: (await tx.select().from(flowInstance).where(eq(flowInstance.id, instanceId)))[0]!,
  tasks: await tx.select().from(flowTask).where(eq(flowTask.instanceId, instanceId)),
  history: await tx.select().from(flowHistory).where(eq(flowHistory.instanceId, instanceId)).orderBy(asc(flowHistory.id)),
}));

describe('a step\'s writes', () => {
  it('two completions of one task at once: one moves the instance, the other is refused (the task gone or the instance ended); the step is written once', async () => {
    const { instanceId } = await flow().start(applicant, leaveId, { applyUser: applicant.userId, taskUser: approver.userId, days: 1 });
    const [task] = (await rowsOf(instanceId)).tasks;
    const results = await Promise.allSettled([
      flow().complete(approver, task!.id, { pass: true, comment: 'first' }),
      flow().complete(approver, task!.id, { pass: true, comment: 'second' }),
    ]);
    const done = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(done).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.reason).toBeInstanceOf(AppError);
    // waiting on the instance's lock it finds the task gone; arriving after the first committed, the instance ended
    expect(['flowTaskMissing', 'flowInstanceEnded']).toContain((refused[0]!.reason as AppError).key);
    const after = await rowsOf(instanceId);
    expect(after.instance).toMatchObject({ status: 'completed', state: null });
    expect(after.tasks).toEqual([expect.objectContaining({ status: 'completed', outcome: 'pass', completedBy: approver.userId })]);
    expect(['first', 'second']).toContain(after.tasks[0]!.comment);
    // the approval's path once: the task ended once, the end event reached once
    expect(after.history.filter((e) => e.elementId === 'managerApproval' && e.event === 'end')).toHaveLength(1);
    expect(after.history.filter((e) => e.elementId === 'end' && e.event === 'end')).toHaveLength(1);
  });

  it('a step that opens, closes and records writes it all: the next task open, the completed one closed, the path, the state waiting there', async () => {
    const { instanceId } = await flow().start(applicant, leaveId, { applyUser: applicant.userId, taskUser: approver.userId, days: 1 });
    const before = await rowsOf(instanceId);
    // a rejection goes back to the applicant's own task (adjust)
    await flow().complete(approver, before.tasks[0]!.id, { pass: false, comment: 'too short' });
    const after = await rowsOf(instanceId);
    expect(after.instance.status).toBe('running');
    expect(after.instance.variables).toMatchObject({ pass: false, comment: 'too short', days: 1 });
    const state = after.instance.state as { executions: Array<{ node: string | null; wait?: string; visit?: string }> };
    const waiting = state.executions.filter((e) => e.wait === 'task');
    expect(waiting.map((e) => e.node)).toEqual(['adjust']);
    const open = after.tasks.filter((t) => t.status === 'open');
    expect(open).toEqual([expect.objectContaining({ taskDefinitionKey: 'adjust', assignee: applicant.userId, executionId: waiting[0]!.visit, processName: before.instance.processName })]);
    expect(after.tasks.filter((t) => t.status === 'completed')).toEqual([expect.objectContaining({ taskDefinitionKey: 'managerApproval', outcome: 'reject', comment: 'too short' })]);
    const path = after.history.filter((e) => BigInt(e.id) > BigInt(before.history.at(-1)!.id)).map((e) => `${e.event} ${e.elementId}`);
    expect(path).toEqual(['end managerApproval', 'take flowManagerDecision', 'start managerDecision', 'end managerDecision', 'take flowManagerRejected', 'start adjust']);
    // and the applicant withdraws: the instance ends, its state gone, nothing left open
    await flow().complete(applicant, open[0]!.id, { pass: false });
    const ended = await rowsOf(instanceId);
    expect(ended.instance).toMatchObject({ status: 'completed', state: null, dueAt: null, waitsMessages: [], waitsSignals: [] });
    expect(ended.tasks.filter((t) => t.status === 'open')).toEqual([]);
    expect(await inTenant(h.server.ctx.db, { tenantId: T }, (tx) => tx.select().from(flowTask).where(and(eq(flowTask.instanceId, instanceId), eq(flowTask.status, 'open'))))).toEqual([]);
  });
});
