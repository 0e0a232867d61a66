import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BpmnInvalid, compileBpmn } from '../src/areas/flow/bpmn/compile.js';
import { juelToJexl } from '../src/areas/flow/bpmn/expressions.js';
import { runStep, type ServiceHandler, StepFailed, type StepResult, TaskNotWaiting } from '../src/areas/flow/bpmn/step.js';

/**
 * The workflow runtime without a database (issue 12): models checked before they deploy, the leave process
 * through both branches and a rejection, each step recovered from JSON only, a timer that escalates, services.
 */
const LEAVE = readFileSync(new URL('../src/areas/flow/leave.bpmn20.xml', import.meta.url), 'utf8');
const NS = 'xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:flowable="http://flowable.org/bpmn"';
const model = (body: string, id = 'p') => `<?xml version="1.0" encoding="UTF-8"?><definitions ${NS} id="d" targetNamespace="t"><process id="${id}" isExecutable="true">${body}</process></definitions>`;

const ESCALATION = model(`
  <startEvent id="start" /><sequenceFlow id="f1" sourceRef="start" targetRef="review" />
  <userTask id="review" name="Review" flowable:assignee="\${reviewer}" />
  <boundaryEvent id="late" attachedToRef="review" cancelActivity="true"><timerEventDefinition><timeDuration xsi:type="tFormalExpression">\${escalateAfter}</timeDuration></timerEventDefinition></boundaryEvent>
  <sequenceFlow id="f2" sourceRef="review" targetRef="notify" />
  <sequenceFlow id="f3" sourceRef="late" targetRef="director" />
  <userTask id="director" name="Director" flowable:candidateGroups="directors, board" />
  <sequenceFlow id="f4" sourceRef="director" targetRef="notify" />
  <serviceTask id="notify" name="Notify" flowable:delegateExpression="\${notifyApplicant}" flowable:resultVariable="notified" />
  <sequenceFlow id="f5" sourceRef="notify" targetRef="end" /><endEvent id="end" />`, 'escalation');

/** a parallel split to two reviews (one offered to users named by a variable), joined, then a sub-process with its own task */
const PARALLEL = model(`
  <startEvent id="start" /><sequenceFlow id="f1" sourceRef="start" targetRef="split" />
  <parallelGateway id="split" />
  <sequenceFlow id="f2" sourceRef="split" targetRef="legal" /><sequenceFlow id="f3" sourceRef="split" targetRef="finance" />
  <userTask id="legal" name="Legal" flowable:candidateUsers="\${lawyers}" />
  <userTask id="finance" name="Finance" flowable:assignee="\${cfo}" />
  <sequenceFlow id="f4" sourceRef="legal" targetRef="join" /><sequenceFlow id="f5" sourceRef="finance" targetRef="join" />
  <parallelGateway id="join" />
  <sequenceFlow id="f6" sourceRef="join" targetRef="signing" />
  <subProcess id="signing" name="Signing">
    <startEvent id="subStart" /><sequenceFlow id="s1" sourceRef="subStart" targetRef="sign" />
    <userTask id="sign" name="Sign" flowable:assignee="\${initiator}" />
    <sequenceFlow id="s2" sourceRef="sign" targetRef="subEnd" /><endEvent id="subEnd" />
  </subProcess>
  <sequenceFlow id="f7" sourceRef="signing" targetRef="check" />
  <exclusiveGateway id="check" default="f9" />
  <sequenceFlow id="f8" sourceRef="check" targetRef="done"><conditionExpression xsi:type="tFormalExpression">\${signedBy == initiator}</conditionExpression></sequenceFlow>
  <sequenceFlow id="f9" sourceRef="check" targetRef="odd" />
  <endEvent id="done" /><endEvent id="odd" />`, 'contract');

const noServices = new Set<string>();
const json = (r: StepResult) => JSON.parse(JSON.stringify(r.state)) as Record<string, unknown>;

async function leave(variables: Record<string, unknown>) {
  const { compiled } = await compileBpmn(LEAVE, noServices);
  const first = await runStep('i1', compiled, { start: { variables } }, {});
  let state = json(first);
  const complete = async (taskId: string, vars: Record<string, unknown>) => {
    const r = await runStep('i1', compiled, { resume: { state }, signal: { taskId, variables: vars } }, {});
    if (r.state) state = json(r);
    return r;
  };
  return { first, complete };
}

describe('parallel paths and sub-processes', () => {
  it('opens both branches at once, joins them, runs the sub-process\'s task and copies out what it set', async () => {
    const { compiled } = await compileBpmn(PARALLEL, noServices);
    const first = await runStep('c1', compiled, { start: { variables: { lawyers: 'u-ann,u-ben', cfo: 'u-cfo', initiator: 'u-ivy' } } }, {});
    expect(first.opened.map((t) => [t.activityId, t.assignee, t.candidateUsers])).toEqual([['legal', null, ['u-ann', 'u-ben']], ['finance', 'u-cfo', []]]);
    const legal = first.opened.find((t) => t.activityId === 'legal')!;
    const finance = first.opened.find((t) => t.activityId === 'finance')!;
    // one branch done: the join waits for the other
    const half = await runStep('c1', compiled, { resume: { state: json(first) }, signal: { taskId: legal.taskId, variables: { pass: true } } }, {});
    expect(half.status).toBe('running');
    expect(half.closed).toEqual([{ taskId: legal.taskId, outcome: 'completed' }]);
    // a recovered step announces its waiting tasks again (saving them is idempotent): only the other branch waits
    expect(half.opened.map((t) => t.taskId)).toEqual([finance.taskId]);
    const joined = await runStep('c1', compiled, { resume: { state: json(half) }, signal: { taskId: finance.taskId, variables: { pass: true } } }, {});
    expect(joined.opened.map((t) => [t.activityId, t.assignee])).toEqual([['sign', 'u-ivy']]);
    expect(joined.history.filter((h) => h.event === 'take').map((h) => h.elementId)).toEqual(expect.arrayContaining(['f5', 'f6', 's1']));
    const signed = await runStep('c1', compiled, { resume: { state: json(joined) }, signal: { taskId: joined.opened[0]!.taskId, variables: { signedBy: 'u-ivy' } } }, {});
    expect(signed.status).toBe('completed');
    expect(signed.variables.signedBy).toBe('u-ivy');
    expect(signed.history.filter((h) => h.event === 'end').map((h) => h.elementId)).toContain('done');
  });
});

describe('models', () => {
  it('reads the leave model: its key, name and a compiled definition', async () => {
    const c = await compileBpmn(LEAVE, noServices);
    expect(c).toMatchObject({ key: 'Leave', name: '请假流程' });
    expect(JSON.parse(c.compiled)).toBeTruthy();
  });

  it('refuses what cannot run, with the parser\'s or the checker\'s words', async () => {
    const refused = async (xml: string, services = noServices) => {
      const e = await compileBpmn(xml, services).then(() => null, (err: unknown) => err);
      expect(e, xml.slice(0, 80)).toBeInstanceOf(BpmnInvalid);
      return (e as Error).message;
    };
    expect(await refused('this is not xml')).toMatch(/unparsable content/);
    expect(await refused('<?xml version="1.0"?><html><body/></html>')).toMatch(/failed to parse document as <bpmn:Definitions>/);
    expect(await refused(model('<startEvent id="s" /><sequenceFlow id="f" sourceRef="s" targetRef="ghost" />'))).toMatch(/unresolved reference <ghost>/);
    expect(await refused(model('<startEvent id="s" /><startEvent id="s" />'))).toMatch(/duplicate ID <s>/);
    expect(await refused(model('<startEvent id="s" />').replace('isExecutable="true"', 'isExecutable="false"'))).toMatch(/no executable process/);
    expect(await refused(model('<startEvent id="s" /><sequenceFlow id="f" sourceRef="s" targetRef="e"><conditionExpression xsi:type="tFormalExpression">${days &gt;}</conditionExpression></sequenceFlow><endEvent id="e" />')))
      .toMatch(/SequenceFlow f: the expression \$\{days >\} cannot be read/);
    expect(await refused(ESCALATION)).toMatch(/no server handler "notifyApplicant"/);
    await expect(compileBpmn(ESCALATION, new Set(['notifyApplicant']))).resolves.toMatchObject({ key: 'escalation' });
  });

  it('reads JUEL words as operators, never inside strings', () => {
    expect(juelToJexl('days gt 3 and not approved')).toBe('days > 3 && ! approved');
    expect(juelToJexl('reason == "not gt and"')).toBe('reason == "not gt and"');
  });
});

describe('the leave process, each step recovered from JSON', () => {
  it('a short leave: the approver passes it and it ends', async () => {
    const { first, complete } = await leave({ applyUser: 'u-alice', taskUser: 'u-bob', days: 2 });
    expect(first.status).toBe('running');
    expect(first.opened).toEqual([expect.objectContaining({ activityId: 'managerApproval', name: '审批人审批', assignee: 'u-bob', candidateGroups: [] })]);
    expect(JSON.stringify(first.state)).not.toContain('"source"');
    const done = await complete(first.opened[0]!.taskId, { pass: true, comment: 'ok' });
    expect(done).toMatchObject({ status: 'completed', state: null, closed: [{ taskId: first.opened[0]!.taskId, outcome: 'completed' }] });
    expect(done.history.filter((h) => h.event === 'take').map((h) => h.elementId)).toEqual(['flowManagerDecision', 'flowManagerPassed', 'flowShortLeave']);
    expect(done.variables).toMatchObject({ applyUser: 'u-alice', days: 2, pass: true });
  });

  it('a long leave goes on to HR (a candidate group); a rejection returns to the applicant, who resubmits', async () => {
    const { first, complete } = await leave({ applyUser: 'u-alice', taskUser: 'u-bob', days: 5 });
    const rejected = await complete(first.opened[0]!.taskId, { pass: false });
    expect(rejected.opened).toEqual([expect.objectContaining({ activityId: 'adjust', assignee: 'u-alice' })]);
    const resubmitted = await complete(rejected.opened[0]!.taskId, { pass: true, days: 4 });
    const again = resubmitted.opened[0]!;
    expect(again).toMatchObject({ activityId: 'managerApproval', assignee: 'u-bob' });
    expect(again.taskId).not.toBe(first.opened[0]!.taskId);
    // the old task id is gone: completing it again is refused, never silently ignored
    await expect(complete(first.opened[0]!.taskId, { pass: true })).rejects.toBeInstanceOf(TaskNotWaiting);
    const toHr = await complete(again.taskId, { pass: true });
    expect(toHr.opened).toEqual([expect.objectContaining({ activityId: 'hrApproval', assignee: null, candidateGroups: ['hr'] })]);
    const done = await complete(toHr.opened[0]!.taskId, { pass: true });
    expect(done.status).toBe('completed');
    expect(done.variables.days).toBe(4);
  });
});

describe('timers and services', () => {
  const notified: Array<Record<string, unknown>> = [];
  const handlers: Record<string, ServiceHandler> = {
    notifyApplicant: async (vars) => {
      notified.push({ ...vars });
      return { at: 'now' };
    },
  };

  it('a timer keeps its time across a recovery and escalates to the group; the service runs once and answers a variable', async () => {
    const { compiled } = await compileBpmn(ESCALATION, new Set(Object.keys(handlers)));
    const before = Date.now();
    // long enough that the recovery below comes before it on a loaded machine (it ran after a 0.4 s one in CI)
    const first = await runStep('t1', compiled, { start: { variables: { reviewer: 'u-bob', escalateAfter: 'PT2S' } } }, handlers);
    expect(first.dueAt!.getTime()).toBeGreaterThanOrEqual(before + 2000);
    expect(first.dueAt!.getTime()).toBeLessThanOrEqual(Date.now() + 2000);
    // recovered before it is due: still waiting, the same due time
    const early = await runStep('t1', compiled, { resume: { state: json(first) } }, handlers);
    expect(Math.abs(early.dueAt!.getTime() - first.dueAt!.getTime())).toBeLessThanOrEqual(5);
    expect(early.opened.map((t) => t.activityId)).toEqual(['review']);
    await new Promise((r) => setTimeout(r, Math.max(0, first.dueAt!.getTime() - Date.now()) + 50));
    const fired = await runStep('t1', compiled, { resume: { state: json(early) } }, handlers);
    expect(fired.closed).toEqual([{ taskId: first.opened[0]!.taskId, outcome: 'cancelled' }]);
    expect(fired.opened).toEqual([expect.objectContaining({ activityId: 'director', candidateGroups: ['directors', 'board'] })]);
    expect(fired.dueAt).toBeNull();
    const done = await runStep('t1', compiled, { resume: { state: json(fired) }, signal: { taskId: fired.opened[0]!.taskId, variables: { pass: true } } }, handlers);
    expect(done.status).toBe('completed');
    expect(notified).toHaveLength(1);
    expect(done.variables.notified).toEqual({ at: 'now' });
  });

  it('a failing service fails the step, and the saved state stays as it was', async () => {
    const { compiled } = await compileBpmn(ESCALATION, new Set(['notifyApplicant']));
    const first = await runStep('t2', compiled, { start: { variables: { reviewer: 'u-bob', escalateAfter: 'PT1H' } } }, handlers);
    const saved = JSON.stringify(first.state);
    const failing = { notifyApplicant: async () => { throw new Error('SMTP down'); } };
    await expect(runStep('t2', compiled, { resume: { state: json(first) }, signal: { taskId: first.opened[0]!.taskId, variables: {} } }, failing))
      .rejects.toThrow(StepFailed);
    expect(JSON.stringify(first.state)).toBe(saved);
    const retried = await runStep('t2', compiled, { resume: { state: JSON.parse(saved) as Record<string, unknown> }, signal: { taskId: first.opened[0]!.taskId, variables: {} } }, handlers);
    expect(retried.status).toBe('completed');
  });
});
