import { describe, expect, it } from 'vitest';
import { FLOW_SERVICES } from '../src/areas/flow/index.js';
import { entriesOf, HOUR, type Row, T, useConformance } from './flow-conformance-kit.js';

/**
 * Conformance with Flowable 6/7: each construct an operator's Flowable model may use, run through the HTTP API,
 * checking what Flowable's own engine tests check: who sees which task (todo-list / claim-list), the instance's
 * state (send-list), the history (history-flow-list) and the diagram (model-view, endTime null = running).
 * The models are in fixtures/flow/conformance/; docs/flowable-semantics.md names the Flowable rule and test of each.
 */

/** every call of a registered handler, with the variables it was given (`probe` tells the instances apart) */
const calls: Array<{ handler: string; probe: unknown; vars: Record<string, unknown> }> = [];
const recorder = (handler: string, output: Record<string, unknown> = {}) => async (vars: Readonly<Record<string, unknown>>) => {
  calls.push({ handler, probe: vars.probe, vars: { ...vars } });
  return output;
};
// registered at module load, before the server starts: service tasks and listeners name these
Object.assign(FLOW_SERVICES, {
  cfRecord: recorder('record'),
  cfProcessStarted: recorder('processStart'),
  cfProcessEnded: recorder('processEnd'),
  cfTaskAssigned: recorder('taskAssignment'),
  cfTaskCreated: recorder('taskCreate', { createdSeen: true }),
  cfTaskCompleted: recorder('taskComplete', { completedSeen: true }),
  cfWorkEnded: recorder('activityEnd'),
  cfFlowTaken: recorder('take'),
  cfTaskDeleted: recorder('taskDelete'),
});
const callsOf = (probe: string) => calls.filter((c) => c.probe === probe).map((c) => c.handler);

const {
  ids, list, post, uploadModels, deploy, definitionOf, start, todos, claimables, onlyTodo, complete, sent, statusOf, historyOf, viewOf, runningIn, fireTimers, message,
} = useConformance();

describe('what deploys', () => {
  it('a process without isExecutable is executable; a process marked isExecutable="false" in the same file is not a definition', async () => {
    const deployed = await deploy('is-executable-missing');
    expect(deployed.map((d) => [d.tenantId, d.processKey, d.name, d.version])).toEqual([[T, 'cfNoExecutableAttr', 'Executable by default', 1]]);
    const startable = (await list('alice', 'work/start-list')).map((r) => r.processKey);
    expect(startable).toContain('cfNoExecutableAttr');
    expect(startable).not.toContain('cfNotExecutable');

    const instanceId = await start('alice', deployed[0]!.definitionId, { reviewer: ids.bob });
    const task = await onlyTodo('bob', instanceId, 'review');
    expect(task.name).toBe('Review');
    expect((await complete('bob', task)).status).toBe('completed');
    expect(await statusOf(instanceId)).toBe('completed');
  });

  it('<definitions> without an id deploys and runs', async () => {
    const deployed = await deploy('definitions-without-id');
    expect(deployed.map((d) => [d.processKey, d.version])).toEqual([['cfDefinitionsWithoutId', 1]]);
    const instanceId = await start('alice', deployed[0]!.definitionId, { owner: ids.carol });
    expect(await runningIn(instanceId)).toEqual(['task']);
    await complete('carol', await onlyTodo('carol', instanceId, 'task'));
    expect(await statusOf(instanceId)).toBe('completed');
  });

  it('sequence flows without an id fork and join', async () => {
    const deployed = await deploy('sequence-flows-without-id');
    const instanceId = await start('alice', definitionOf(deployed, 'cfFlowsWithoutId'), { leftUser: ids.bob, rightUser: ids.carol });
    const left = await onlyTodo('bob', instanceId, 'left');
    await onlyTodo('carol', instanceId, 'right');
    expect(await runningIn(instanceId)).toEqual(['left', 'right']);

    await complete('bob', left);
    // the join waits for the other branch
    expect(await todos('bob', instanceId)).toEqual([]);
    expect(await runningIn(instanceId)).not.toContain('merged');
    await complete('carol', await onlyTodo('carol', instanceId, 'right'));
    const merged = await onlyTodo('bob', instanceId, 'merged');
    expect(await runningIn(instanceId)).toEqual(['merged']);
    await complete('bob', merged);
    expect(await statusOf(instanceId)).toBe('completed');
    const taken = (await viewOf(instanceId)).flow.filter((f) => f.historyActivityType === 'sequenceFlow');
    expect(taken).toHaveLength(7); // start→fork, fork→left, fork→right, left→join, right→join, join→merged, merged→end
  });

  it('a diagram (bpmndi) naming elements the process no longer has deploys and runs; the deployed XML is kept as sent', async () => {
    const deployed = await deploy('bpmndi-dangling');
    const instanceId = await start('alice', definitionOf(deployed, 'cfDanglingDiagram'), { owner: ids.bob });
    await complete('bob', await onlyTodo('bob', instanceId, 'task'));
    expect(await statusOf(instanceId)).toBe('completed');
    expect((await viewOf(instanceId)).xml).toContain('bpmnElement="removedTask"');
  });

  it('formProperty elements with <flowable:value> children deploy and run', async () => {
    const deployed = await deploy('form-property-values');
    const instanceId = await start('alice', definitionOf(deployed, 'cfFormValues'), { owner: ids.bob, urgency: 'high' });
    const task = await onlyTodo('bob', instanceId, 'decide');
    await complete('bob', task, 'ok', { decision: 'approve', note: 'fine' });
    expect(await statusOf(instanceId)).toBe('completed');
  });
});

describe('expressions', () => {
  it('#{…} reads as ${…}: in an assignee, candidate users and conditions', async () => {
    const deployed = await deploy('hash-expressions');
    const def = definitionOf(deployed, 'cfHashExpressions');

    const big = await start('alice', def, { checker: ids.bob, bigApprover: ids.carol, amount: 5000 });
    await complete('bob', await onlyTodo('bob', big, 'check'));
    expect((await claimables('carol', big)).map((t) => t.taskDefinitionKey)).toEqual(['bigStep']);
    expect(await todos('carol', big)).toEqual([]);
    expect(await todos('bob', big)).toEqual([]);
    expect(await runningIn(big)).toEqual(['bigStep']);

    const small = await start('alice', def, { checker: ids.bob, bigApprover: ids.carol, amount: 10 });
    await complete('bob', await onlyTodo('bob', small, 'check'));
    await onlyTodo('bob', small, 'smallStep');
    expect(await claimables('carol', small)).toEqual([]);
  });

  it('conditions on the flows leaving a user task see the variables its completion sets (pass from the flag, and the form\'s)', async () => {
    const deployed = await deploy('conditions-after-user-task');
    const def = definitionOf(deployed, 'cfTaskConditions');

    // `amount` exists only once the task completes with it
    const large = await start('alice', def, { owner: ids.bob });
    await complete('bob', await onlyTodo('bob', large, 'assess'), 'ok', { amount: 500 });
    await onlyTodo('bob', large, 'large');

    const small = await start('alice', def, { owner: ids.bob });
    await complete('bob', await onlyTodo('bob', small, 'assess'), 'ok', { amount: 50 });
    await onlyTodo('bob', small, 'small');

    const rejected = await start('alice', def, { owner: ids.bob });
    const done = await complete('bob', await onlyTodo('bob', rejected, 'assess'), 'no', { amount: 500 });
    expect(done.status).toBe('completed');
    expect(await todos('bob', rejected)).toEqual([]);
    const history = await historyOf(rejected);
    expect(entriesOf(history, 'rejected')).toHaveLength(1);
    expect(entriesOf(history, 'large')).toEqual([]);
    expect(entriesOf(history, 'assess')[0]).toMatchObject({ assignee: ids.bob, outcome: 'reject' });
  });
});

describe('assignment', () => {
  it('flowable:initiator and activiti:initiator set the variable to the starter\'s user id', async () => {
    const deployed = await deploy('initiator-flowable', 'initiator-activiti');
    expect(deployed.map((d) => d.processKey).sort()).toEqual(['cfInitiatorActiviti', 'cfInitiatorFlowable']);

    const byBob = await start('bob', definitionOf(deployed, 'cfInitiatorFlowable'));
    await onlyTodo('bob', byBob, 'confirm');
    expect(await todos('alice', byBob)).toEqual([]);
    expect(entriesOf(await historyOf(byBob), 'start')[0]).toMatchObject({ historyActivityType: 'startEvent', assignee: ids.bob });

    const byHr = await start('hr1', definitionOf(deployed, 'cfInitiatorActiviti'));
    await onlyTodo('hr1', byHr, 'confirm');
    expect(await statusOf(byHr, 'hr1')).toBe('running');
  });

  it('potentialOwner user(x) / group(y) / a plain group offer the task; humanPerformer assigns it', async () => {
    const deployed = await deploy('potential-owner');
    const instanceId = await start('alice', definitionOf(deployed, 'cfPotentialOwner'), { firstReviewer: ids.bob, finalReviewer: ids.carol });

    // user(${firstReviewer}), group(hr): offered to bob and to the hr role, assigned to nobody
    const offered = (await claimables('bob', instanceId)).map((t) => t.taskDefinitionKey);
    expect(offered).toEqual(['mixed']);
    expect((await claimables('hr1', instanceId)).map((t) => t.taskDefinitionKey)).toEqual(['mixed']);
    expect(await claimables('carol', instanceId)).toEqual([]);
    expect(await todos('bob', instanceId)).toEqual([]);
    const mixed = (await claimables('bob', instanceId))[0]!;
    expect((await post('bob', 'work/claim-task', { taskId: mixed.id })).status).toBe(200);
    expect(await claimables('hr1', instanceId)).toEqual([]);
    await complete('bob', await onlyTodo('bob', instanceId, 'mixed'));

    // a plain name is a group
    expect((await claimables('hr1', instanceId)).map((t) => t.taskDefinitionKey)).toEqual(['plainGroup']);
    expect(await claimables('bob', instanceId)).toEqual([]);
    const plain = (await claimables('hr1', instanceId))[0]!;
    expect((await post('hr1', 'work/claim-task', { taskId: plain.id })).status).toBe(200);
    await complete('hr1', await onlyTodo('hr1', instanceId, 'plainGroup'));

    // humanPerformer: straight into carol's to-do list, nobody claims it
    await onlyTodo('carol', instanceId, 'performer');
    expect(await claimables('carol', instanceId)).toEqual([]);
    await complete('carol', await onlyTodo('carol', instanceId, 'performer'));
    expect(await statusOf(instanceId)).toBe('completed');
    const history = await historyOf(instanceId);
    expect(['mixed', 'plainGroup', 'performer'].map((id) => entriesOf(history, id).map((e) => e.assignee))).toEqual([[ids.bob], [ids.hr1], [ids.carol]]);
  });
});

describe('multi-instance', () => {
  /** each approver has their own task; each completes on its own; the next step opens once, after the last */
  async function countersignEach(instanceId: string, taskKey: string, approvers: string[], next: { who: string; key: string }) {
    const byApprover = new Map<string, Row>();
    for (const who of approvers) byApprover.set(who, await onlyTodo(who, instanceId, taskKey));
    expect(new Set([...byApprover.values()].map((t) => t.id)).size).toBe(approvers.length);
    for (const [i, who] of approvers.entries()) {
      expect(await todos(next.who, instanceId), `before ${who} completes`).toEqual([]);
      await complete(who, byApprover.get(who)!);
      expect(await todos(who, instanceId)).toEqual([]);
      for (const other of approvers.slice(i + 1)) expect((await onlyTodo(other, instanceId, taskKey)).id).toBe(byApprover.get(other)!.id);
    }
    await onlyTodo(next.who, instanceId, next.key);
    const history = entriesOf(await historyOf(instanceId), taskKey);
    expect(history.map((e) => e.assignee).sort()).toEqual(approvers.map((a) => ids[a]).sort());
    expect(history.every((e) => e.endTime !== null && e.outcome === 'pass')).toBe(true);
  }

  it('loopDataInputRef / inputDataItem: one task per element of the collection', async () => {
    const deployed = await deploy('multi-instance-loop-data-input');
    const instanceId = await start('alice', definitionOf(deployed, 'cfLoopDataInput'), { reviewerList: [ids.bob, ids.carol, ids.dave], owner: ids.alice });
    expect(new Set(await runningIn(instanceId))).toEqual(new Set(['review']));
    await countersignEach(instanceId, 'review', ['bob', 'carol', 'dave'], { who: 'alice', key: 'summary' });
  });

  for (const [file, key, form] of [
    ['countersign-expression', 'cfCountersignExpression', 'flowable:collection="${approvers}"'],
    ['countersign-variable-name', 'cfCountersignVariable', 'flowable:collection="approvers" (a variable\'s name)'],
  ] as const) {
    it(`parallel countersign, ${form}: the elementVariable is each task's assignee`, async () => {
      const deployed = await deploy(file);
      const instanceId = await start('alice', definitionOf(deployed, key), { approvers: [ids.bob, ids.carol, ids.dave], owner: ids.alice });
      await countersignEach(instanceId, 'sign', ['bob', 'carol', 'dave'], { who: 'alice', key: 'archive' });
      expect(await runningIn(instanceId)).toEqual(['archive']);
      await complete('alice', await onlyTodo('alice', instanceId, 'archive'));
      expect(await statusOf(instanceId)).toBe('completed');
    });
  }

  it('completionCondition ${nrOfCompletedInstances/nrOfInstances >= 0.5}: when it holds, the open instances are cancelled', async () => {
    const deployed = await deploy('countersign-completion-condition');
    const instanceId = await start('alice', definitionOf(deployed, 'cfCountersignHalf'), { approvers: [ids.bob, ids.carol, ids.dave], owner: ids.alice });
    const [bobs, carols, daves] = [await onlyTodo('bob', instanceId, 'sign'), await onlyTodo('carol', instanceId, 'sign'), await onlyTodo('dave', instanceId, 'sign')];

    await complete('bob', bobs); // 1/3
    expect(await todos('alice', instanceId)).toEqual([]);
    expect((await onlyTodo('dave', instanceId, 'sign')).id).toBe(daves.id);
    await complete('carol', carols); // 2/3 ≥ 0.5
    expect(await todos('dave', instanceId)).toEqual([]);
    expect((await post('dave', 'work/complete-task', { taskId: daves.id, flag: 'ok' })).status).toBe(404);
    expect((await list('dave', 'work/done-list')).filter((r) => r.instanceId === instanceId)).toEqual([]);
    await onlyTodo('alice', instanceId, 'archive');
    expect(await runningIn(instanceId)).toEqual(['archive']);

    const signs = entriesOf(await historyOf(instanceId), 'sign');
    expect(signs.map((e) => [e.assignee, e.outcome]).sort()).toEqual([[ids.bob, 'pass'], [ids.carol, 'pass'], [ids.dave, 'cancelled']].sort());
    expect(signs.every((e) => e.endTime !== null)).toBe(true);
    expect(await statusOf(instanceId)).toBe('running');
  });

  it('sequential multi-instance with loopCardinality: one task at a time, loopCounter 0, 1, 2; the next step runs once', async () => {
    const deployed = await deploy('sequential-loop-cardinality');
    const instanceId = await start('alice', definitionOf(deployed, 'cfSequentialRounds'), { rounds: 3, owner: ids.bob, probe: 'sequential' });
    for (const i of [0, 1, 2]) {
      const task = await onlyTodo('bob', instanceId, 'round');
      expect(task.name).toBe(`Round ${i}`);
      expect(callsOf('sequential')).toEqual([]);
      await complete('bob', task);
    }
    expect(callsOf('sequential')).toEqual(['record']);
    const recorded = calls.find((c) => c.probe === 'sequential')!.vars;
    expect(recorded.rounds).toBe(3);
    expect(recorded).not.toHaveProperty('loopCounter'); // local to each instance
    expect(await statusOf(instanceId)).toBe('completed');
    const rounds = entriesOf(await historyOf(instanceId), 'round');
    expect(rounds).toHaveLength(3);
    expect(rounds.every((e) => e.assignee === ids.bob && e.endTime !== null)).toBe(true);
  });
});

describe('call activity', () => {
  it('calls the latest version of its key in the caller\'s tenant, maps variables in and out, and the parent goes on when the child ends', async () => {
    const v1 = await deploy('call-activity-callee');
    expect(v1.map((d) => [d.processKey, d.version])).toEqual([['cfCallee', 1]]);
    // another tenant's newer callee is not the caller's
    const elsewhere = await uploadModels(['call-activity-callee-other-tenant'], 'platform', { tenantIds: '000000' });
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);

    const both = await deploy('call-activity');
    expect(both.map((d) => [d.processKey, d.version]).sort()).toEqual([['cfCallee', 2], ['cfCaller', 1]]);
    expect(new Set(both.map((d) => d.deploymentId)).size).toBe(1);

    const before = new Set((await list('alice', 'work/todo-list')).map((t) => t.id));
    const parentId = await start('alice', definitionOf(both, 'cfCaller'), { applicant: ids.alice });
    const opened = (await list('alice', 'work/todo-list')).filter((t) => !before.has(t.id));
    expect(opened.map((t) => [t.taskDefinitionKey, t.name])).toEqual([['childTask', 'Child step v2']]);
    const childTask = opened[0]!;
    const childId = String(childTask.instanceId);
    expect(childId).not.toBe(parentId); // the child is an instance of its own
    expect(await runningIn(parentId)).toEqual(['callChild']);
    expect((await viewOf(parentId)).flow.find((f) => f.historyActivityId === 'callChild')!.historyActivityType).toBe('callActivity');
    expect(await statusOf(parentId)).toBe('running');

    await complete('alice', childTask, 'ok', { childResult: 'approved' });
    expect(entriesOf(await historyOf(childId), 'childEnd')[0]?.endTime).toBeTruthy();
    // flowable:out copied childResult to parentResult before the gateway after the call
    const after = await onlyTodo('alice', parentId, 'afterChild');
    expect(entriesOf(await historyOf(parentId), 'callChild')[0]).toMatchObject({ historyActivityType: 'callActivity' });
    expect(entriesOf(await historyOf(parentId), 'callChild')[0]!.endTime).toBeTruthy();
    await complete('alice', after);
    expect(await statusOf(parentId)).toBe('completed');
  });
});

describe('errors', () => {
  it('an error end event is caught by the boundary of its code on the enclosing scope, any other error by an outer catch-all', async () => {
    const deployed = await deploy('error-boundary');
    const def = definitionOf(deployed, 'cfErrorBoundary');

    const documentError = await start('alice', def, { owner: ids.bob });
    await complete('bob', await onlyTodo('bob', documentError, 'check'), 'no', { problem: 'document' });
    await onlyTodo('bob', documentError, 'fixDocument');
    expect(await runningIn(documentError)).toEqual(['fixDocument', 'outer']);
    let history = await historyOf(documentError);
    expect(entriesOf(history, 'documentError')).toHaveLength(1);
    expect(entriesOf(history, 'catchDocument')).toEqual([expect.objectContaining({ historyActivityType: 'boundaryEvent' })]);
    expect(entriesOf(history, 'catchDocument')[0]!.endTime).toBeTruthy();
    expect(entriesOf(history, 'catchAny').every((e) => e.endTime === null)).toBe(true); // never fired
    expect(entriesOf(history, 'inner')).toEqual([expect.objectContaining({ historyActivityType: 'subProcess' })]);
    expect(entriesOf(history, 'inner')[0]!.endTime).toBeTruthy();
    expect(entriesOf(history, 'handleAny')).toEqual([]);
    await complete('bob', await onlyTodo('bob', documentError, 'fixDocument'));
    expect(await statusOf(documentError)).toBe('completed');

    const otherError = await start('alice', def, { owner: ids.bob });
    await complete('bob', await onlyTodo('bob', otherError, 'check'), 'no', { problem: 'network' });
    await onlyTodo('bob', otherError, 'handleAny');
    expect(await runningIn(otherError)).toEqual(['handleAny']);
    history = await historyOf(otherError);
    expect(entriesOf(history, 'otherError')).toHaveLength(1);
    expect(entriesOf(history, 'catchAny')).toEqual([expect.objectContaining({ historyActivityType: 'boundaryEvent' })]);
    expect(entriesOf(history, 'catchAny')[0]!.endTime).toBeTruthy();
    expect(entriesOf(history, 'fixDocument')).toEqual([]);

    const noError = await start('alice', def, { owner: ids.bob });
    await complete('bob', await onlyTodo('bob', noError, 'check'), 'ok');
    expect(await statusOf(noError)).toBe('completed');
    history = await historyOf(noError);
    expect(['innerEnd', 'outerEnd', 'end'].map((id) => entriesOf(history, id).length)).toEqual([1, 1, 1]);
    expect(entriesOf(history, 'fixDocument').length + entriesOf(history, 'handleAny').length).toBe(0);
  });
});

describe('gateways', () => {
  it('inclusive gateway: 2 of 3 conditions true fork 2 branches; the join waits for both', async () => {
    const deployed = await deploy('inclusive-gateway');
    const instanceId = await start('alice', definitionOf(deployed, 'cfInclusive'), {
      amount: 5000, contract: true, foreign: false, financeUser: ids.bob, legalUser: ids.carol, securityUser: ids.dave, owner: ids.alice,
    });
    const finance = await onlyTodo('bob', instanceId, 'finance');
    await onlyTodo('carol', instanceId, 'legal');
    expect(await todos('dave', instanceId)).toEqual([]);
    expect(await runningIn(instanceId)).toEqual(['finance', 'legal']);

    await complete('bob', finance);
    expect(await todos('alice', instanceId)).toEqual([]);
    expect(await runningIn(instanceId)).toContain('legal');
    await complete('carol', await onlyTodo('carol', instanceId, 'legal'));
    await onlyTodo('alice', instanceId, 'sign');
    const history = await historyOf(instanceId);
    expect(entriesOf(history, 'security')).toEqual([]);
    expect(entriesOf(history, 'sign')).toHaveLength(1);
  });

  it('exclusive gateway with no true condition and no default: the start is refused naming the gateway, and no instance is left', async () => {
    const deployed = await deploy('exclusive-no-way-out');
    const def = definitionOf(deployed, 'cfNoWayOut');
    const refusedEn = await post('alice', 'work/start-process', { processDefinitionId: def, variables: { size: 'medium', owner: ids.alice } }, 'en');
    expect(refusedEn.status).toBe(400);
    expect(refusedEn.body.msg).toContain('cfRouteGateway');
    const refusedZh = await post('alice', 'work/start-process', { processDefinitionId: def, variables: { size: 'medium', owner: ids.alice } }, 'zh');
    expect(refusedZh.status).toBe(400);
    expect(refusedZh.body.msg).toContain('cfRouteGateway');
    expect(refusedZh.body.msg).not.toBe(refusedEn.body.msg);
    expect((await list('alice', 'work/send-list')).filter((r) => r.definitionId === def)).toEqual([]);
    expect((await list('alice', 'follow/list')).filter((r) => r.definitionId === def)).toEqual([]);

    const instanceId = await start('alice', def, { size: 'small', owner: ids.alice });
    await onlyTodo('alice', instanceId, 'small');
    expect((await list('alice', 'work/send-list')).filter((r) => r.definitionId === def).map((r) => r.id)).toEqual([instanceId]);
  });

  it('event-based gateway: the first event to come wins, and the other is withdrawn', async () => {
    const deployed = await deploy('event-based-gateway');
    const def = definitionOf(deployed, 'cfEventGateway');

    const answered = await start('alice', def, { owner: ids.alice });
    expect(await todos('alice', answered)).toEqual([]);
    expect(await statusOf(answered)).toBe('running');
    const delivered = await message('alice', { messageName: 'cfCustomerAnswered', processInstanceId: answered });
    expect(delivered.status, delivered.body.msg).toBe(200);
    expect(delivered.body.data).toEqual({ processInstanceIds: [answered] });
    await onlyTodo('alice', answered, 'processAnswer');
    await fireTimers(HOUR);
    await onlyTodo('alice', answered, 'processAnswer');
    expect(await runningIn(answered)).toEqual(['processAnswer']);
    expect(entriesOf(await historyOf(answered), 'callCustomer')).toEqual([]);

    const timedOut = await start('alice', def, { owner: ids.alice });
    expect(await fireTimers(HOUR)).toBeGreaterThanOrEqual(1);
    await onlyTodo('alice', timedOut, 'callCustomer');
    expect(await runningIn(timedOut)).toEqual(['callCustomer']);
    expect((await message('alice', { messageName: 'cfCustomerAnswered', processInstanceId: timedOut })).status).toBe(404);
    await onlyTodo('alice', timedOut, 'callCustomer');
  });
});

describe('ending and cancelling', () => {
  it('a terminate end event cancels every other open task and completes the instance', async () => {
    const deployed = await deploy('terminate-end');
    const instanceId = await start('alice', definitionOf(deployed, 'cfTerminate'), { vetoUser: ids.bob, workUser: ids.carol });
    const veto = await onlyTodo('bob', instanceId, 'veto');
    await complete('carol', await onlyTodo('carol', instanceId, 'prepare')); // one branch already waits at the join
    const review = (await claimables('hr1', instanceId))[0]!;
    expect(review.taskDefinitionKey).toBe('review');

    expect((await complete('bob', veto)).status).toBe('completed');
    expect(await claimables('hr1', instanceId)).toEqual([]);
    expect(await todos('carol', instanceId)).toEqual([]);
    expect((await post('hr1', 'work/claim-task', { taskId: review.id })).status).toBe(404);
    const row = await sent('alice', instanceId);
    expect(row.status).toBe('completed');
    expect(row.endTime).toBeTruthy();
    const history = await historyOf(instanceId);
    expect(entriesOf(history, 'review')).toEqual([expect.objectContaining({ outcome: 'cancelled' })]);
    expect(entriesOf(history, 'review')[0]!.endTime).toBeTruthy();
    expect(entriesOf(history, 'terminate')).toEqual([expect.objectContaining({ historyActivityType: 'endEvent' })]);
    expect(entriesOf(history, 'end')).toEqual([]);
    expect(history.every((e) => e.endTime !== null)).toBe(true);
    expect(await runningIn(instanceId)).toEqual([]);
  });

  it('an ended instance\'s diagram marks no element running', async () => {
    const deployed = await deploy('ended-instance-diagram');
    const instanceId = await start('alice', definitionOf(deployed, 'cfEndedDiagram'), { owner: ids.bob });
    const [first, second] = [await todos('bob', instanceId)].flat().sort((a, b) => String(a.taskDefinitionKey).localeCompare(String(b.taskDefinitionKey)));
    expect([first?.taskDefinitionKey, second?.taskDefinitionKey]).toEqual(['first', 'second']);
    await complete('bob', first!);
    expect(await runningIn(instanceId)).toEqual(['second']);
    await complete('bob', second!);
    expect(await statusOf(instanceId)).toBe('completed');
    const view = await viewOf(instanceId);
    expect(view.xml).toContain('id="cfEndedDiagram"');
    expect(view.flow.filter((f) => f.endTime === null)).toEqual([]);
    expect(view.flow.map((f) => `${f.historyActivityType}:${f.historyActivityId}`)).toEqual(expect.arrayContaining([
      'startEvent:start', 'parallelGateway:fork', 'userTask:first', 'userTask:second', 'parallelGateway:join', 'endEvent:end', 'sequenceFlow:toEnd',
    ]));
    expect((await historyOf(instanceId)).every((e) => e.endTime !== null)).toBe(true);
  });
});

describe('timers', () => {
  it('an interrupting timer boundary event cancels its task and leaves by its own flow', async () => {
    const deployed = await deploy('timer-boundary-interrupting');
    const instanceId = await start('alice', definitionOf(deployed, 'cfTimerInterrupting'), { approver: ids.bob, owner: ids.alice });
    const approve = await onlyTodo('bob', instanceId, 'approve');
    await fireTimers(HOUR / 2); // not due yet
    expect((await onlyTodo('bob', instanceId, 'approve')).id).toBe(approve.id);

    expect(await fireTimers(2 * HOUR)).toBeGreaterThanOrEqual(1);
    expect(await todos('bob', instanceId)).toEqual([]);
    expect((await post('bob', 'work/complete-task', { taskId: approve.id, flag: 'ok' })).status).toBe(404);
    await onlyTodo('alice', instanceId, 'escalate');
    expect(await runningIn(instanceId)).toEqual(['escalate']);
    const history = await historyOf(instanceId);
    expect(entriesOf(history, 'approve')).toEqual([expect.objectContaining({ assignee: ids.bob, outcome: 'cancelled' })]);
    expect(entriesOf(history, 'approve')[0]!.endTime).toBeTruthy();
    expect(entriesOf(history, 'deadline')).toEqual([expect.objectContaining({ historyActivityType: 'boundaryEvent' })]);
  });

  it('a non-interrupting timer boundary event keeps its task and opens another path, once', async () => {
    const deployed = await deploy('timer-boundary-non-interrupting');
    const instanceId = await start('alice', definitionOf(deployed, 'cfTimerReminder'), { approver: ids.bob, owner: ids.alice });
    const approve = await onlyTodo('bob', instanceId, 'approve');
    expect(await fireTimers(2 * HOUR)).toBeGreaterThanOrEqual(1);
    expect((await onlyTodo('bob', instanceId, 'approve')).id).toBe(approve.id);
    await onlyTodo('alice', instanceId, 'chase');
    expect(await runningIn(instanceId)).toEqual(['approve', 'chase']);
    expect(entriesOf(await historyOf(instanceId), 'approve')[0]!.endTime).toBeNull();

    await fireTimers(4 * HOUR); // a duration fires once
    await onlyTodo('alice', instanceId, 'chase');
    await complete('bob', approve);
    expect(await statusOf(instanceId)).toBe('running'); // the reminder's path is still open
    await complete('alice', await onlyTodo('alice', instanceId, 'chase'));
    expect(await statusOf(instanceId)).toBe('completed');
    expect(entriesOf(await historyOf(instanceId), 'approve')[0]).toMatchObject({ outcome: 'pass' });
  });
});

describe('messages', () => {
  it('an interrupting message boundary event, delivered through the message API, cancels its task', async () => {
    const deployed = await deploy('message-boundary');
    const instanceId = await start('alice', definitionOf(deployed, 'cfMessageBoundary'), { approver: ids.bob, owner: ids.alice });
    await onlyTodo('bob', instanceId, 'approve');
    expect((await message('alice', { messageName: 'cfNobodyWaitsForThis', processInstanceId: instanceId })).status).toBe(404);
    await onlyTodo('bob', instanceId, 'approve');

    const delivered = await message('alice', { messageName: 'cfWithdrawRequest', processInstanceId: instanceId });
    expect(delivered.status, delivered.body.msg).toBe(200);
    expect(delivered.body.data).toEqual({ processInstanceIds: [instanceId] });
    expect(await todos('bob', instanceId)).toEqual([]);
    await onlyTodo('alice', instanceId, 'acknowledge');
    const history = await historyOf(instanceId);
    expect(entriesOf(history, 'approve')).toEqual([expect.objectContaining({ outcome: 'cancelled' })]);
    expect(entriesOf(history, 'withdrawn')).toEqual([expect.objectContaining({ historyActivityType: 'boundaryEvent' })]);
    // nobody waits for it any more
    expect((await message('alice', { messageName: 'cfWithdrawRequest', processInstanceId: instanceId })).status).toBe(404);
  });

  it('an intermediate message catch event waits until the message comes, by instance id or by business key, with its variables', async () => {
    const deployed = await deploy('message-intermediate-catch');
    const def = definitionOf(deployed, 'cfMessageCatch');
    const byId = await start('alice', def, { owner: ids.alice, paid: false }, 'CF-ORDER-A');
    const byKey = await start('alice', def, { owner: ids.alice, paid: false }, 'CF-ORDER-B');
    for (const id of [byId, byKey]) {
      expect(await todos('alice', id)).toEqual([]);
      expect(await runningIn(id)).toEqual(['waitPayment']);
      expect((await viewOf(id)).flow.find((f) => f.historyActivityId === 'waitPayment')!.historyActivityType).toBe('intermediateCatchEvent');
    }

    const first = await message('alice', { messageName: 'cfPaymentReceived', processInstanceId: byId, variables: { paid: true } });
    expect(first.status, first.body.msg).toBe(200);
    expect(first.body.data).toEqual({ processInstanceIds: [byId] });
    await onlyTodo('alice', byId, 'ship');
    expect(await runningIn(byKey)).toEqual(['waitPayment']);

    const second = await message('alice', { messageName: 'cfPaymentReceived', businessKey: 'CF-ORDER-B' });
    expect(second.status, second.body.msg).toBe(200);
    expect(second.body.data).toEqual({ processInstanceIds: [byKey] });
    await onlyTodo('alice', byKey, 'investigate');
    expect(entriesOf(await historyOf(byKey), 'waitPayment')[0]!.endTime).toBeTruthy();
    expect((await message('alice', { messageName: 'cfPaymentReceived', processInstanceId: byId })).status).toBe(404);
  });

  it('a message start event starts the latest definition of the caller\'s tenant with that message', async () => {
    const v1 = await deploy('message-start');
    const v2 = await deploy('message-start-v2');
    expect([v1[0]!.version, v2[0]!.version]).toEqual([1, 2]);
    const res = await post('alice', 'process/start-by-message', { messageName: 'cfOrderPlaced', businessKey: 'CF-MSG-1', variables: { owner: ids.bob } });
    expect(res.status, res.body.msg).toBe(200);
    const { processInstanceId } = res.body.data as { processInstanceId: string };
    const task = await onlyTodo('bob', processInstanceId, 'handle');
    expect(task.name).toBe('Handle the order v2');
    expect(await sent('alice', processInstanceId)).toMatchObject({ status: 'running', businessKey: 'CF-MSG-1', definitionId: v2[0]!.definitionId });
    expect(entriesOf(await historyOf(processInstanceId), 'orderPlaced')).toEqual([expect.objectContaining({ historyActivityType: 'startEvent', assignee: ids.alice })]);

    expect((await post('alice', 'process/start-by-message', { messageName: 'cfNoProcessStartsWithThis' })).status).toBe(404);
    expect((await post('platform', 'process/start-by-message', { messageName: 'cfOrderPlaced' })).status).toBe(404);
  });
});

describe('listeners', () => {
  it('task and execution listeners naming registered handlers run, in Flowable\'s order, and what they return is set before the next gateway', async () => {
    const deployed = await deploy('listeners');
    const instanceId = await start('alice', definitionOf(deployed, 'cfListeners'), { owner: ids.bob, probe: 'listeners' });
    // the assignment event comes before the create event
    expect(callsOf('listeners')).toEqual(['processStart', 'taskAssignment', 'taskCreate']);
    const work = await onlyTodo('bob', instanceId, 'work');
    await complete('bob', work);
    // a completed task is also deleted: complete, then delete, then the activity ends and its flow is taken
    expect(callsOf('listeners')).toEqual(['processStart', 'taskAssignment', 'taskCreate', 'taskComplete', 'taskDelete', 'activityEnd', 'take']);
    await onlyTodo('bob', instanceId, 'listenersRan');
    await complete('bob', await onlyTodo('bob', instanceId, 'listenersRan'));
    expect(callsOf('listeners').at(-1)).toBe('processEnd');
    expect(callsOf('listeners').filter((c) => c === 'processEnd')).toHaveLength(1);
    expect(await statusOf(instanceId)).toBe('completed');
  });

  it('a task listener on delete runs when a boundary event cancels the task, and its complete listener does not', async () => {
    const deployed = await deploy('task-listener-delete');
    const instanceId = await start('alice', definitionOf(deployed, 'cfDeleteListener'), { approver: ids.bob, probe: 'deleted' });
    await onlyTodo('bob', instanceId, 'approve');
    expect(callsOf('deleted')).toEqual([]);
    expect(await fireTimers(2 * HOUR)).toBeGreaterThanOrEqual(1);
    expect(callsOf('deleted')).toEqual(['taskDelete']);
    expect(await statusOf(instanceId)).toBe('completed');
  });

  for (const [file, key, elementId, elementType, handler] of [
    ['task-listener-unknown', 'cfUnknownTaskListener', 'cfListenedTask', /userTask/i, 'cfNoSuchTaskHandler'],
    ['execution-listener-unknown', 'cfUnknownExecutionListener', 'cfListenedFlow', /sequenceFlow/i, 'cfNoSuchFlowHandler'],
  ] as const) {
    it(`a listener naming a handler the server does not have is refused at deploy, naming the element, its type and the handler (${file})`, async () => {
      const en = await uploadModels([file], 'alice', {}, 'en');
      expect(en.statusCode).toBe(400);
      expect(en.json().msg).toContain(elementId);
      expect(en.json().msg).toMatch(elementType);
      expect(en.json().msg).toContain(handler);
      const zh = await uploadModels([file], 'alice', {}, 'zh');
      expect(zh.statusCode).toBe(400);
      expect(zh.json().msg).toContain(elementId);
      expect(zh.json().msg).not.toBe(en.json().msg);
      expect(await list('alice', 'manager/list', { processKey: key })).toEqual([]);
    });
  }
});
