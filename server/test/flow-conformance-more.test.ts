import { describe, expect, it } from 'vitest';
import { FLOW_SERVICES } from '../src/areas/flow/index.js';
import { BpmnError } from '../src/areas/flow/bpmn/runtime/context.js';
import { entriesOf, HOUR, PLATFORM, type Row, useConformance } from './flow-conformance-kit.js';

/**
 * Conformance with Flowable 6/7, second round: signals, event sub-processes, errors across call activities and
 * from handlers, receive tasks, multi-instance sub-processes and call activities, terminate inside a sub-process,
 * link events, repeating timers, the constructs refused at deploy, and deleting an instance with its children.
 * Run through the HTTP API as flow-conformance.test.ts does; docs/flowable-semantics.md names each Flowable rule.
 */

// registered at module load, before the server starts: the service task of service-task-bpmn-error names it
Object.assign(FLOW_SERVICES, {
  cfCheckAmount: async (vars: Readonly<Record<string, unknown>>) => {
    if (Number(vars.amount) > 100) throw new BpmnError('CF_REJECTED', 'the amount is over the limit');
    return { checked: true };
  },
});

const {
  ids, list, post, uploadModels, deploy, definitionOf, start, todos, onlyTodo, complete, statusOf, historyOf, runningIn, fireTimers, message,
} = useConformance();

/** the tasks of `who` in the instance, by their keys, sorted */
const todoKeys = async (who: string, instanceId: string) => (await todos(who, instanceId)).map((t) => String(t.taskDefinitionKey)).sort();
/** the instances `who`'s to-do list holds a task of, other than `except` */
const instancesOfTodos = async (who: string, except: string) => [...new Set((await list(who, 'work/todo-list')).map((t) => String(t.instanceId)))].filter((i) => i !== except);

describe('signals', () => {
  it('an intermediate throw reaches the catch of its own instance and of the tenant\'s other instances (global scope), not another tenant\'s', async () => {
    const waiter = await deploy('signal-waiter');
    const thrower = await deploy('signal-thrower');
    const elsewhere = await uploadModels(['signal-waiter'], 'platform', { tenantIds: PLATFORM });
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
    const elsewhereDef = (elsewhere.json().data as Array<{ definitionId: string }>)[0]!.definitionId;

    const waiting = await start('alice', definitionOf(waiter, 'cfSignalWaiter'), { owner: ids.bob });
    const res = await post('platform', 'work/start-process', { processDefinitionId: elsewhereDef, variables: { owner: 'nobody' } });
    expect(res.status, res.body.msg).toBe(200);
    const otherTenant = (res.body.data as { processInstanceId: string }).processInstanceId;
    expect(await runningIn(otherTenant, 'platform')).toEqual(['waitGo']);

    const throwing = await start('alice', definitionOf(thrower, 'cfSignalThrower'), { owner: ids.carol });
    expect(await runningIn(throwing)).toEqual(['prepare', 'waitHere']);
    expect(await runningIn(waiting)).toEqual(['waitGo']);
    await complete('carol', await onlyTodo('carol', throwing, 'prepare'));

    // the same instance
    await onlyTodo('carol', throwing, 'gotHere');
    expect(await runningIn(throwing)).toEqual(['gotHere']);
    const history = await historyOf(throwing);
    expect(entriesOf(history, 'throwGo')).toEqual([expect.objectContaining({ historyActivityType: 'throwEvent' })]);
    expect(entriesOf(history, 'waitHere')[0]!.endTime).toBeTruthy();
    // another instance of the tenant
    await onlyTodo('bob', waiting, 'afterGo');
    expect(await runningIn(waiting)).toEqual(['afterGo']);
    // another tenant's instance is not reached
    expect(await runningIn(otherTenant, 'platform')).toEqual(['waitGo']);
    expect(await statusOf(otherTenant, 'platform')).toBe('running');
  });

  it('flowable:scope="processInstance" on the signal: the throw reaches only its own instance', async () => {
    const deployed = await deploy('signal-instance-scope');
    const def = definitionOf(deployed, 'cfSignalLocal');
    const first = await start('alice', def, { owner: ids.bob });
    const second = await start('alice', def, { owner: ids.carol });

    await complete('bob', await onlyTodo('bob', first, 'prepare'));
    await onlyTodo('bob', first, 'gotLocal');
    expect(await runningIn(second)).toEqual(['prepare', 'waitLocal']);
    expect(await todoKeys('carol', second)).toEqual(['prepare']);

    await complete('carol', await onlyTodo('carol', second, 'prepare'));
    await onlyTodo('carol', second, 'gotLocal');
    expect(await todoKeys('bob', first)).toEqual(['gotLocal']);
  });

  it('an interrupting signal boundary event cancels its task and leaves by its own flow', async () => {
    const deployed = await deploy('signal-boundary');
    const instanceId = await start('alice', definitionOf(deployed, 'cfSignalBoundary'), { approver: ids.bob, owner: ids.carol });
    const approve = await onlyTodo('bob', instanceId, 'approve');
    await complete('carol', await onlyTodo('carol', instanceId, 'decide'));

    expect(await todos('bob', instanceId)).toEqual([]);
    expect((await post('bob', 'work/complete-task', { taskId: approve.id, flag: 'ok' })).status).toBe(404);
    await onlyTodo('carol', instanceId, 'stoppedNote');
    expect(await runningIn(instanceId)).toEqual(['stoppedNote']);
    const history = await historyOf(instanceId);
    expect(entriesOf(history, 'approve')).toEqual([expect.objectContaining({ assignee: ids.bob, outcome: 'cancelled' })]);
    expect(entriesOf(history, 'stopped')).toEqual([expect.objectContaining({ historyActivityType: 'boundaryEvent' })]);
    expect(entriesOf(history, 'endApproved')).toEqual([]);
    await complete('carol', await onlyTodo('carol', instanceId, 'stoppedNote'));
    expect(await statusOf(instanceId)).toBe('completed');
  });
});

describe('event sub-processes', () => {
  it('an error start event (interrupting) catches an error end event of the process: the other paths are cancelled', async () => {
    const deployed = await deploy('event-subprocess-error');
    const def = definitionOf(deployed, 'cfErrorEventSub');

    const failing = await start('alice', def, { owner: ids.bob });
    expect(await todoKeys('bob', failing)).toEqual(['side', 'work']);
    await complete('bob', (await todos('bob', failing)).find((t) => t.taskDefinitionKey === 'work')!, 'no');
    await onlyTodo('bob', failing, 'repair');
    expect(await runningIn(failing)).toEqual(['onError', 'repair']);
    const history = await historyOf(failing);
    expect(entriesOf(history, 'side')).toEqual([expect.objectContaining({ outcome: 'cancelled' })]);
    expect(entriesOf(history, 'failed')).toEqual([expect.objectContaining({ historyActivityType: 'endEvent' })]);
    expect(entriesOf(history, 'errorStart')).toEqual([expect.objectContaining({ historyActivityType: 'startEvent' })]);
    expect(entriesOf(history, 'onError')).toEqual([expect.objectContaining({ historyActivityType: 'eventSubProcess' })]);
    await complete('bob', await onlyTodo('bob', failing, 'repair'));
    expect(await statusOf(failing)).toBe('completed');

    // without the error, the event sub-process never starts
    const passing = await start('alice', def, { owner: ids.bob });
    for (const task of await todos('bob', passing)) await complete('bob', task);
    expect(await statusOf(passing)).toBe('completed');
    expect(entriesOf(await historyOf(passing), 'onError')).toEqual([]);
  });

  it('a message start event: non-interrupting keeps the main path (and fires again), interrupting cancels it', async () => {
    const deployed = await deploy('event-subprocess-message');
    const instanceId = await start('alice', definitionOf(deployed, 'cfMessageEventSub'), { owner: ids.bob });
    expect(await todoKeys('bob', instanceId)).toEqual(['work']);

    const noted = await message('alice', { messageName: 'cfAddNote', processInstanceId: instanceId });
    expect(noted.status, noted.body.msg).toBe(200);
    expect(noted.body.data).toEqual({ processInstanceIds: [instanceId] });
    expect(await todoKeys('bob', instanceId)).toEqual(['readNote', 'work']);
    expect(await runningIn(instanceId)).toEqual(['onNote', 'readNote', 'work']);
    expect((await message('alice', { messageName: 'cfAddNote', processInstanceId: instanceId })).status).toBe(200);
    expect(await todoKeys('bob', instanceId)).toEqual(['readNote', 'readNote', 'work']);
    await complete('bob', (await todos('bob', instanceId)).find((t) => t.taskDefinitionKey === 'readNote')!);
    expect(await todoKeys('bob', instanceId)).toEqual(['readNote', 'work']);

    const cancelled = await message('alice', { messageName: 'cfCancelOrder', processInstanceId: instanceId });
    expect(cancelled.status, cancelled.body.msg).toBe(200);
    await onlyTodo('bob', instanceId, 'cancelled');
    expect(await runningIn(instanceId)).toEqual(['cancelled', 'onCancel']);
    const history = await historyOf(instanceId);
    expect(entriesOf(history, 'work')).toEqual([expect.objectContaining({ outcome: 'cancelled' })]);
    expect(entriesOf(history, 'readNote').map((e) => e.outcome).sort()).toEqual(['cancelled', 'pass']);
    expect(entriesOf(history, 'onNote').map((e) => e.historyActivityType)).toEqual(['eventSubProcess', 'eventSubProcess']);
    expect(entriesOf(history, 'onCancel').map((e) => e.historyActivityType)).toEqual(['eventSubProcess']);
    // the process's other subscriptions went with the interrupted scope
    expect((await message('alice', { messageName: 'cfAddNote', processInstanceId: instanceId })).status).toBe(404);
    await complete('bob', await onlyTodo('bob', instanceId, 'cancelled'));
    expect(await statusOf(instanceId)).toBe('completed');
  });

  it('a non-interrupting timer start event opens its sub-process beside the main path; the process ends when both did', async () => {
    const deployed = await deploy('event-subprocess-timer');
    const instanceId = await start('alice', definitionOf(deployed, 'cfTimerEventSub'), { owner: ids.bob });
    await fireTimers(HOUR / 2);
    expect(await todoKeys('bob', instanceId)).toEqual(['work']);
    expect(await fireTimers(2 * HOUR)).toBeGreaterThanOrEqual(1);
    expect(await todoKeys('bob', instanceId)).toEqual(['remind', 'work']);
    await fireTimers(5 * HOUR); // a duration fires once
    expect(await todoKeys('bob', instanceId)).toEqual(['remind', 'work']);

    await complete('bob', await (async () => (await todos('bob', instanceId)).find((t) => t.taskDefinitionKey === 'work')!)());
    expect(await statusOf(instanceId)).toBe('running');
    expect(await runningIn(instanceId)).toEqual(['onLate', 'remind']);
    await complete('bob', await onlyTodo('bob', instanceId, 'remind'));
    expect(await statusOf(instanceId)).toBe('completed');
  });
});

describe('errors across a call activity and from a handler', () => {
  it('an error end event of the called process is caught by the error boundary on the call activity: the child is deleted, the parent leaves by the boundary', async () => {
    const deployed = await deploy('call-activity-error');
    const parentId = await start('alice', definitionOf(deployed, 'cfCallErrorParent'), { owner: ids.dave });
    const childTask = (await list('dave', 'work/todo-list')).find((t) => t.taskDefinitionKey === 'childWork' && t.instanceId !== parentId)!;
    expect(childTask).toBeDefined();
    const childId = String(childTask.instanceId);
    expect(await runningIn(parentId)).toEqual(['callChild']);

    await complete('dave', childTask, 'no');
    expect(await statusOf(childId)).toBe('deleted');
    expect(await todos('dave', childId)).toEqual([]);
    await onlyTodo('dave', parentId, 'handleFailure');
    expect(await runningIn(parentId)).toEqual(['handleFailure']);
    const history = await historyOf(parentId);
    expect(entriesOf(history, 'callChild')[0]!.endTime).toBeTruthy();
    expect(entriesOf(history, 'childFailed')).toEqual([expect.objectContaining({ historyActivityType: 'boundaryEvent' })]);
    expect(entriesOf(history, 'afterChild')).toEqual([]);
    expect(entriesOf(await historyOf(childId), 'childFailedEnd')).toEqual([expect.objectContaining({ historyActivityType: 'endEvent' })]);
    await complete('dave', await onlyTodo('dave', parentId, 'handleFailure'));
    expect(await statusOf(parentId)).toBe('completed');
  });

  it('an error no one catches, in the child or the parent: the step is refused naming the error code, and nothing changes', async () => {
    const deployed = await deploy('call-activity-error-uncaught');
    const parentId = await start('alice', definitionOf(deployed, 'cfUncaughtParent'), { owner: ids.dave });
    const childTask = (await list('dave', 'work/todo-list')).find((t) => t.taskDefinitionKey === 'childWork' && t.instanceId !== parentId)!;
    const childId = String(childTask.instanceId);

    for (const lang of ['en', 'zh'] as const) {
      const refused = await post('dave', 'work/complete-task', { taskId: childTask.id, processInstanceId: childId, flag: 'ok' }, lang);
      expect(refused.status).toBe(400);
      expect(refused.body.msg).toContain('CF_NOBODY_CATCHES');
    }
    expect((await onlyTodo('dave', childId, 'childWork')).id).toBe(childTask.id);
    expect(await statusOf(childId)).toBe('running');
    expect(await statusOf(parentId)).toBe('running');
    expect(await runningIn(parentId)).toEqual(['callChild']);
    expect(entriesOf(await historyOf(childId), 'childFailedEnd')).toEqual([]);
  });

  it('a handler throwing BpmnError is caught by the error boundary of its code on the service task', async () => {
    const deployed = await deploy('service-task-bpmn-error');
    const def = definitionOf(deployed, 'cfServiceError');

    const rejected = await start('alice', def, { owner: ids.bob, amount: 500 });
    await onlyTodo('bob', rejected, 'rework');
    let history = await historyOf(rejected);
    expect(entriesOf(history, 'rejected')).toEqual([expect.objectContaining({ historyActivityType: 'boundaryEvent' })]);
    expect(entriesOf(history, 'accepted')).toEqual([]);
    expect(entriesOf(history, 'check')[0]!.endTime).toBeTruthy();

    const accepted = await start('alice', def, { owner: ids.bob, amount: 50 });
    await onlyTodo('bob', accepted, 'accepted');
    history = await historyOf(accepted);
    expect(entriesOf(history, 'rejected')).toEqual([]);
  });

  it('a handler\'s BpmnError no one catches: the step is refused naming the error code, the task stays open', async () => {
    const deployed = await deploy('service-task-bpmn-error-uncaught');
    const instanceId = await start('alice', definitionOf(deployed, 'cfServiceErrorUncaught'), { owner: ids.bob });
    const prepare = await onlyTodo('bob', instanceId, 'prepare');
    const refused = await post('bob', 'work/complete-task', { taskId: prepare.id, processInstanceId: instanceId, flag: 'ok', variables: { amount: 500 } });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toContain('CF_REJECTED');
    expect((await onlyTodo('bob', instanceId, 'prepare')).id).toBe(prepare.id);
    expect(entriesOf(await historyOf(instanceId), 'check')).toEqual([]);
    expect((await complete('bob', prepare, 'ok', { amount: 5 })).status).toBe('completed');
  });
});

describe('receive task', () => {
  it('a receive task with a messageRef waits until the message comes through the message API', async () => {
    const deployed = await deploy('receive-task');
    const instanceId = await start('alice', definitionOf(deployed, 'cfReceiveTask'), { owner: ids.bob }, 'CF-RECEIPT-1');
    expect(await todos('bob', instanceId)).toEqual([]);
    expect(await runningIn(instanceId)).toEqual(['waitReceipt']);
    expect((await message('alice', { messageName: 'cfSomethingElse', processInstanceId: instanceId })).status).toBe(404);

    const delivered = await message('alice', { messageName: 'cfReceiptArrived', businessKey: 'CF-RECEIPT-1', variables: { receiptNo: 'R-7' } });
    expect(delivered.status, delivered.body.msg).toBe(200);
    expect(delivered.body.data).toEqual({ processInstanceIds: [instanceId] });
    await onlyTodo('bob', instanceId, 'fileReceipt');
    const history = await historyOf(instanceId);
    expect(entriesOf(history, 'waitReceipt')).toEqual([expect.objectContaining({ historyActivityType: 'receiveTask' })]);
    expect(entriesOf(history, 'waitReceipt')[0]!.endTime).toBeTruthy();
  });

  it('a receive task without a messageRef waits until process/trigger names it (Flowable\'s runtimeService.trigger)', async () => {
    const deployed = await deploy('receive-task-no-message');
    const instanceId = await start('alice', definitionOf(deployed, 'cfReceiveNoMessage'));
    expect(await runningIn(instanceId)).toEqual(['cfBareReceive']);
    expect((await post('alice', 'process/trigger', { processInstanceId: instanceId, activityId: 'start' })).status).toBe(404);
    expect((await post('alice', 'process/trigger', { processInstanceId: instanceId, activityId: 'cfBareReceive' })).status).toBe(200);
    expect(await statusOf(instanceId)).toBe('completed');
    expect(await runningIn(instanceId)).toEqual([]);
  });
});

describe('multi-instance, second round', () => {
  it('a parallel multi-instance sub-process: each instance has its own task, its elementVariable visible inside; the completionCondition reads a variable the tasks set', async () => {
    const deployed = await deploy('multi-instance-subprocess');
    const instanceId = await start('alice', definitionOf(deployed, 'cfMiSubProcess'), { reviewers: [ids.bob, ids.carol, ids.dave], owner: ids.alice, stopReview: false });
    const byReviewer = new Map<string, Row>();
    for (const who of ['bob', 'carol', 'dave']) {
      const task = await onlyTodo(who, instanceId, 'reviewTask');
      expect(task.name).toBe(`Review by ${ids[who]}`);
      byReviewer.set(who, task);
    }
    expect(await runningIn(instanceId)).toEqual(expect.arrayContaining(['reviewRound', 'reviewTask']));

    await complete('bob', byReviewer.get('bob')!, 'ok', { stopReview: false });
    expect(await todos('alice', instanceId)).toEqual([]);
    expect((await onlyTodo('carol', instanceId, 'reviewTask')).id).toBe(byReviewer.get('carol')!.id);
    await complete('carol', byReviewer.get('carol')!, 'ok', { stopReview: true });
    // the condition holds: dave's instance is cancelled, the summary opens once
    expect(await todos('dave', instanceId)).toEqual([]);
    await onlyTodo('alice', instanceId, 'summary');
    expect(await runningIn(instanceId)).toEqual(['summary']);
    const reviews = entriesOf(await historyOf(instanceId), 'reviewTask');
    expect(reviews.map((e) => [e.assignee, e.outcome]).sort()).toEqual([[ids.bob, 'pass'], [ids.carol, 'pass'], [ids.dave, 'cancelled']].sort());
    // one sub-process activity per instance, all ended
    const rounds = entriesOf(await historyOf(instanceId), 'reviewRound');
    expect(rounds).toHaveLength(3);
    expect(rounds.every((e) => e.historyActivityType === 'subProcess' && e.endTime !== null)).toBe(true);
  });

  it('a sequential multi-instance call activity: one child at a time, the element and loopCounter mapped in, the completionCondition reading what a child mapped out', async () => {
    const deployed = await deploy('multi-instance-call-activity');
    const parentId = await start('alice', definitionOf(deployed, 'cfMiCaller'), { items: ['a', 'b', 'c'], owner: ids.carol });
    const seen = new Set<string>();
    const childTask = async () => {
      const open = (await list('carol', 'work/todo-list')).filter((t) => t.taskDefinitionKey === 'handleItem' && !seen.has(String(t.instanceId)));
      expect(open).toHaveLength(1);
      seen.add(String(open[0]!.instanceId));
      return open[0]!;
    };

    const first = await childTask();
    expect(first.name).toBe('Handle a (round 0)');
    await complete('carol', first, 'ok', { verdict: 'more' });
    expect(await statusOf(String(first.instanceId))).toBe('completed');
    const second = await childTask();
    expect(second.name).toBe('Handle b (round 1)');
    expect(second.instanceId).not.toBe(first.instanceId);
    await complete('carol', second, 'ok', { verdict: 'enough' });

    // the condition holds after the second child: no third one, the activity after runs once
    await onlyTodo('carol', parentId, 'afterAll');
    expect((await list('carol', 'work/todo-list')).filter((t) => t.taskDefinitionKey === 'handleItem')).toEqual([]);
    expect(entriesOf(await historyOf(parentId), 'callEach').every((e) => e.endTime !== null)).toBe(true);
    expect(await runningIn(parentId)).toEqual(['afterAll']);
  });
  it('an error boundary on a sequential multi-instance call activity catches a child\'s error: the loop ends there, no further child starts', async () => {
    const deployed = await deploy('multi-instance-call-error');
    const parentId = await start('alice', definitionOf(deployed, 'cfMiCallErrorParent'), { items: ['a', 'b', 'c'], owner: ids.hr1 });
    const handleOf = async () => {
      const open = (await list('hr1', 'work/todo-list')).filter((t) => t.taskDefinitionKey === 'handleItem');
      expect(open).toHaveLength(1);
      return open[0]!;
    };
    const first = await handleOf();
    expect(first.name).toBe('Handle a');
    await complete('hr1', first);
    const second = await handleOf();
    expect(second.name).toBe('Handle b');
    await complete('hr1', second, 'no');

    expect(await statusOf(String(second.instanceId), 'hr1')).toBe('deleted');
    expect((await list('hr1', 'work/todo-list')).filter((t) => t.taskDefinitionKey === 'handleItem')).toEqual([]);
    await onlyTodo('hr1', parentId, 'handleFailure');
    expect(await runningIn(parentId)).toEqual(['handleFailure']);
    const history = await historyOf(parentId);
    expect(entriesOf(history, 'callEach')).toHaveLength(2);
    expect(entriesOf(history, 'callEach').every((e) => e.endTime !== null)).toBe(true);
    expect(entriesOf(history, 'afterAll')).toEqual([]);
  });

  it('a completion condition that gives no boolean: the completing step is refused naming the activity, the task stays open', async () => {
    const deployed = await deploy('multi-instance-completion-not-boolean');
    const instanceId = await start('alice', definitionOf(deployed, 'cfMiNotBoolean'), { approvers: [ids.bob, ids.carol], decision: 'yes' });
    const bobs = await onlyTodo('bob', instanceId, 'cfSignNotBoolean');
    const refused = await post('bob', 'work/complete-task', { taskId: bobs.id, processInstanceId: instanceId, flag: 'ok' });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toContain('cfSignNotBoolean');
    expect((await onlyTodo('bob', instanceId, 'cfSignNotBoolean')).id).toBe(bobs.id);
    await complete('bob', bobs, 'ok', { decision: false });
    await complete('carol', await onlyTodo('carol', instanceId, 'cfSignNotBoolean'), 'ok', { decision: false });
    expect(await statusOf(instanceId)).toBe('completed');
  });

  it('a boundary event on a multi-instance activity watches the whole activity, not each instance: a non-interrupting timer fires once', async () => {
    const deployed = await deploy('multi-instance-boundary');
    const instanceId = await start('alice', definitionOf(deployed, 'cfMiBoundary'), { approvers: [ids.bob, ids.carol, ids.dave], owner: ids.alice });
    for (const who of ['bob', 'carol', 'dave']) await onlyTodo(who, instanceId, 'sign');
    expect(await fireTimers(2 * HOUR)).toBeGreaterThanOrEqual(1);
    await onlyTodo('alice', instanceId, 'chase');
    expect(entriesOf(await historyOf(instanceId), 'late')).toHaveLength(1);
    for (const who of ['bob', 'carol', 'dave']) await complete(who, await onlyTodo(who, instanceId, 'sign'));
    expect(await todoKeys('alice', instanceId)).toEqual(['archive', 'chase']);
  });
});

describe('terminate, links, repeating timers', () => {
  it('a terminate end event inside a sub-process ends only the sub-process: its other tasks are cancelled, the parent goes on after it', async () => {
    const deployed = await deploy('terminate-in-subprocess');
    const instanceId = await start('alice', definitionOf(deployed, 'cfTerminateSub'), { owner: ids.bob, worker: ids.carol });
    expect(await todoKeys('carol', instanceId)).toEqual(['outside', 'prepare']);
    await complete('bob', await onlyTodo('bob', instanceId, 'veto'));

    expect(await todoKeys('carol', instanceId)).toEqual(['outside']);
    await onlyTodo('bob', instanceId, 'afterInner');
    expect(await runningIn(instanceId)).toEqual(['afterInner', 'outside']);
    expect(await statusOf(instanceId)).toBe('running');
    const history = await historyOf(instanceId);
    expect(entriesOf(history, 'prepare')).toEqual([expect.objectContaining({ outcome: 'cancelled' })]);
    expect(entriesOf(history, 'inner')[0]!.endTime).toBeTruthy();
    expect(entriesOf(history, 'innerEnd')).toEqual([]);

    await complete('bob', await onlyTodo('bob', instanceId, 'afterInner'));
    expect(await statusOf(instanceId)).toBe('running');
    await complete('carol', await onlyTodo('carol', instanceId, 'outside'));
    expect(await statusOf(instanceId)).toBe('completed');
  });

  it('terminateAll in a called process ends the whole hierarchy: the calling instance ends too, its other tasks cancelled', async () => {
    const deployed = await deploy('terminate-all-in-child');
    const parentId = await start('alice', definitionOf(deployed, 'cfTerminateAllParent'), { owner: ids.dave });
    const stop = (await list('dave', 'work/todo-list')).find((t) => t.taskDefinitionKey === 'stopAll' && t.instanceId !== parentId)!;
    const childId = String(stop.instanceId);
    await onlyTodo('dave', parentId, 'parentWork');

    await complete('dave', stop);
    expect(await todos('dave', childId)).toEqual([]);
    expect(await todos('dave', parentId)).toEqual([]);
    expect(await statusOf(childId)).toBe('completed');
    expect(await statusOf(parentId)).toBe('completed');
    const history = await historyOf(parentId);
    expect(entriesOf(history, 'parentWork')).toEqual([expect.objectContaining({ outcome: 'cancelled' })]);
    expect(entriesOf(history, 'afterChild')).toEqual([]);
    expect(await runningIn(parentId)).toEqual([]);
  });

  it('a link throw event goes on at the link catch event of the same name', async () => {
    const deployed = await deploy('link-events');
    const instanceId = await start('alice', definitionOf(deployed, 'cfLink'), { owner: ids.bob });
    await complete('bob', await onlyTodo('bob', instanceId, 'first'));
    await onlyTodo('bob', instanceId, 'second');
    const history = await historyOf(instanceId);
    expect(entriesOf(history, 'goToSecond')).toEqual([expect.objectContaining({ historyActivityType: 'throwEvent' })]);
    expect(entriesOf(history, 'fromFirst')).toEqual([expect.objectContaining({ historyActivityType: 'intermediateCatchEvent' })]);
    expect(entriesOf(history, 'otherCatch')).toEqual([]);
    await complete('bob', await onlyTodo('bob', instanceId, 'second'));
    expect(await statusOf(instanceId)).toBe('completed');
  });

  it('a non-interrupting timer boundary with the cycle R2/PT1H fires twice, then no more', async () => {
    const deployed = await deploy('timer-cycle-boundary');
    const instanceId = await start('alice', definitionOf(deployed, 'cfTimerCycle'), { approver: ids.bob, owner: ids.carol });
    const approve = await onlyTodo('bob', instanceId, 'approve');
    await fireTimers(HOUR / 2);
    expect(await todoKeys('carol', instanceId)).toEqual([]);
    await fireTimers(1.5 * HOUR);
    expect(await todoKeys('carol', instanceId)).toEqual(['remind']);
    await fireTimers(2.5 * HOUR);
    expect(await todoKeys('carol', instanceId)).toEqual(['remind', 'remind']);
    await fireTimers(10 * HOUR);
    await fireTimers(20 * HOUR);
    expect(await todoKeys('carol', instanceId)).toEqual(['remind', 'remind']);
    expect((await onlyTodo('bob', instanceId, 'approve')).id).toBe(approve.id);
    expect(entriesOf(await historyOf(instanceId), 'everyHour')).toHaveLength(2);
  });
});

/** the model is refused at deploy in both languages, naming the element and its type; nothing is deployed */
async function expectRefused(file: string, processKey: string, elementId: string, elementType: RegExp) {
  const en = await uploadModels([file], 'alice', {}, 'en');
  expect(en.statusCode, en.body).toBe(400);
  expect(en.json().msg).toContain(elementId);
  expect(en.json().msg).toMatch(elementType);
  const zh = await uploadModels([file], 'alice', {}, 'zh');
  expect(zh.statusCode).toBe(400);
  expect(zh.json().msg).toContain(elementId);
  expect(zh.json().msg).not.toBe(en.json().msg);
  expect(await list('alice', 'manager/list', { processKey })).toEqual([]);
  return { en: String(en.json().msg), zh: String(zh.json().msg) };
}

describe('refused at deploy, naming the element', () => {
  for (const [file, key, elementId, type, what] of [
    ['refuse-timer-start', 'cfRefuseTimerStart', 'cfEveryMorning', /startEvent/i, /timer/i],
    ['refuse-escalation', 'cfRefuseEscalation', 'cfEscalateLate', /intermediateThrowEvent/i, /escalation/i],
    ['refuse-complex-gateway', 'cfRefuseComplex', 'cfComplexJoin', /complexGateway/i, /complex gateway/i],
    ['refuse-compensation-boundary', 'cfRefuseCompensation', 'cfUndoBooking', /boundaryEvent/i, /compensat/i],
    ['refuse-standard-loop', 'cfRefuseLoop', 'cfRetryLoop', /userTask/i, /standard loop/i],
    ['refuse-flow-across-subprocess', 'cfRefuseCrossing', 'cfJumpOut', /sequenceFlow/i, /sub-process/i],
    ['refuse-terminate-multi-instance', 'cfRefuseTerminateMi', 'cfStopAllRounds', /endEvent/i, /terminateMultiInstance/],
    ['refuse-link-without-catch', 'cfRefuseLink', 'cfJumpToPageTwo', /intermediateThrowEvent/i, /link catch event/i],
  ] as const) {
    it(`${file}: ${elementId}`, async () => {
      const { en } = await expectRefused(file, key, elementId, type);
      expect(en).toMatch(what);
    });
  }
});

describe('deleting an instance', () => {
  it('deleting a running parent deletes the child its call activity started; their tasks leave the work lists', async () => {
    const deployed = await deploy('delete-parent-with-child');
    const before = new Set(await instancesOfTodos('dave', ''));
    const parentId = await start('alice', definitionOf(deployed, 'cfDeleteParent'), { owner: ids.bob, childOwner: ids.dave });
    await onlyTodo('bob', parentId, 'parentWork');
    const childIds = (await instancesOfTodos('dave', parentId)).filter((i) => !before.has(i));
    expect(childIds).toHaveLength(1);
    const childId = childIds[0]!;
    await onlyTodo('dave', childId, 'childWork');

    const deleted = await post('alice', 'follow/delete-process-instance', { processInstanceId: parentId, deleteReason: 'withdrawn by the applicant' });
    expect(deleted.status, deleted.body.msg).toBe(200);
    expect(await todos('bob', parentId)).toEqual([]);
    expect(await todos('dave', childId)).toEqual([]);
    expect(await statusOf(parentId)).toBe('deleted');
    expect(await statusOf(childId)).toBe('deleted');
    expect((await list('alice', 'follow/list')).filter((r) => r.id === parentId || r.id === childId)).toEqual([]);
    expect(entriesOf(await historyOf(childId), 'childWork')).toEqual([expect.objectContaining({ outcome: 'cancelled' })]);
  });
});
