import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BpmnInvalid, compileBpmn, loadModel } from '../src/areas/flow/bpmn/compile.js';
import { juelToJexl } from '../src/areas/flow/bpmn/expressions.js';
import { DEFAULT_STEP_LIMITS, runStep, type StepInput, type StepResult } from '../src/areas/flow/bpmn/runtime/step.js';
import { type ServiceHandler, StepFailed, TaskNotWaiting } from '../src/areas/flow/bpmn/runtime/context.js';
import type { InstanceState } from '../src/areas/flow/bpmn/runtime/state.js';

/**
 * The workflow runtime without a database (issues 12, 25): models checked before they deploy, the leave process
 * through both branches and a rejection, each step from the JSON the last one saved, a timer that escalates, services.
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

/** an instance of the first process of `xml`, each step run from the JSON of the state the last one answered */
async function instance(xml: string, handlers: Record<string, ServiceHandler> = {}) {
  const [compiled] = await compileBpmn(xml, new Set(Object.keys(handlers)));
  const model = loadModel(compiled!.compiled);
  let state: InstanceState | null = null;
  const step = async (input: StepInput): Promise<StepResult> => {
    const r = await runStep(model, state === null ? null : JSON.parse(JSON.stringify(state)) as InstanceState, input, { handlers, limits: DEFAULT_STEP_LIMITS });
    state = r.state;
    return r;
  };
  return {
    step,
    start: (variables: Record<string, unknown>, initiator: string | null = null) => step({ start: { variables, initiator } }),
    complete: (taskId: string, variables: Record<string, unknown>) => step({ complete: { taskId, variables } }),
    timers: (now: Date) => step({ timers: { now } }),
    saved: () => state,
    restore: (s: InstanceState | null) => {
      state = s;
    },
  };
}

describe('parallel paths and sub-processes', () => {
  it('opens both branches at once, joins them, runs the sub-process\'s task and copies out what it set', async () => {
    const i = await instance(PARALLEL);
    const first = await i.start({ lawyers: 'u-ann,u-ben', cfo: 'u-cfo', initiator: 'u-ivy' });
    expect(first.opened.map((t) => [t.activityId, t.assignee, t.candidateUsers])).toEqual([['legal', null, ['u-ann', 'u-ben']], ['finance', 'u-cfo', []]]);
    const legal = first.opened.find((t) => t.activityId === 'legal')!;
    const finance = first.opened.find((t) => t.activityId === 'finance')!;
    // one branch done: the join waits for the other
    const half = await i.complete(legal.taskId, { pass: true });
    expect(half.status).toBe('running');
    expect(half.closed).toEqual([{ taskId: legal.taskId, outcome: 'completed' }]);
    expect(half.opened).toEqual([]);
    const joined = await i.complete(finance.taskId, { pass: true });
    expect(joined.opened.map((t) => [t.activityId, t.assignee])).toEqual([['sign', 'u-ivy']]);
    expect(joined.history.filter((h) => h.event === 'take').map((h) => h.elementId)).toEqual(['f5', 'f6', 's1']);
    const signed = await i.complete(joined.opened[0]!.taskId, { signedBy: 'u-ivy' });
    expect(signed.status).toBe('completed');
    expect(signed.variables.signedBy).toBe('u-ivy');
    expect(signed.history.filter((h) => h.event === 'end').map((h) => h.elementId)).toEqual(['sign', 'subEnd', 'signing', 'check', 'done']);
  });
});

describe('models', () => {
  it('reads the leave model: its key, name and a compiled definition', async () => {
    const [c] = await compileBpmn(LEAVE, noServices);
    expect(c).toMatchObject({ key: 'Leave', name: '请假流程' });
    expect(loadModel(c!.compiled)).toMatchObject({ key: 'Leave', format: 2 });
  });

  it('refuses what cannot run, naming the element and why, in both languages', async () => {
    const refused = async (xml: string, services = noServices) => {
      const e = await compileBpmn(xml, services).then(() => null, (err: unknown) => err);
      expect(e, xml.slice(0, 80)).toBeInstanceOf(BpmnInvalid);
      return e as BpmnInvalid;
    };
    expect((await refused('this is not xml')).text('en')).toMatch(/the XML cannot be read: unparsable content/);
    expect((await refused('this is not xml')).text('zh')).toMatch(/XML 无法解析/);
    expect((await refused('<?xml version="1.0"?><html><body/></html>')).message).toMatch(/failed to parse document as <bpmn:Definitions>/);
    const ghost = await refused(model('<startEvent id="s" /><sequenceFlow id="f" sourceRef="s" targetRef="ghost" />'));
    expect(ghost.text('en')).toBe('SequenceFlow f: targetRef refers to "ghost", which the model does not have');
    expect(ghost.text('zh')).toBe('SequenceFlow「f」: targetRef 引用的元素「ghost」不存在');
    expect((await refused(model('<startEvent id="s" /><startEvent id="s" />'))).text('en')).toBe('StartEvent s: the element id appears twice');
    expect((await refused(model('<startEvent id="s" /><bogusElement id="b" />'))).text('en')).toBe('the element <bogusElement> is not BPMN this server reads');
    expect((await refused(model('<startEvent id="s" />').replace('isExecutable="true"', 'isExecutable="false"'))).message).toMatch(/no executable process/);
    const badCondition = await refused(model('<startEvent id="s" /><sequenceFlow id="f" sourceRef="s" targetRef="e"><conditionExpression xsi:type="tFormalExpression">${days &gt;}</conditionExpression></sequenceFlow><endEvent id="e" />'));
    expect(badCondition.text('en')).toMatch(/^SequenceFlow f: the expression \$\{days >\} cannot be read/);
    expect(badCondition.text('zh')).toMatch(/^SequenceFlow「f」: 表达式 \$\{days >\} 无法读取/);
    expect((await refused(ESCALATION)).text('en')).toMatch(/ServiceTask notify: no server handler "notifyApplicant"/);
    await expect(compileBpmn(ESCALATION, new Set(['notifyApplicant']))).resolves.toMatchObject([{ key: 'escalation' }]);
  });

  it('deploys what Flowable deploys: an errorRef naming no <error> is the code itself; a Flowable Design extension element it does not know', async () => {
    const i = await instance(model(`<startEvent id="s"><extensionElements><flowable:work-form-field-validation>false</flowable:work-form-field-validation></extensionElements></startEvent>
      <sequenceFlow id="f1" sourceRef="s" targetRef="sub"/>
      <subProcess id="sub"><startEvent id="ss"/><sequenceFlow id="sf" sourceRef="ss" targetRef="fail"/><endEvent id="fail"><errorEventDefinition errorRef="E42"/></endEvent></subProcess>
      <boundaryEvent id="caught" attachedToRef="sub"><errorEventDefinition errorRef="E42"/></boundaryEvent>
      <sequenceFlow id="f2" sourceRef="sub" targetRef="ok"/><endEvent id="ok"/>
      <sequenceFlow id="f3" sourceRef="caught" targetRef="handle"/><userTask id="handle"/><sequenceFlow id="f4" sourceRef="handle" targetRef="ok"/>`));
    const first = await i.start({});
    expect(first.opened.map((t) => t.activityId)).toEqual(['handle']);
    // a listener or a script hidden in an unknown extension element is still refused
    await expect(compileBpmn(model('<startEvent id="s"><extensionElements><flowable:evilListener class="x"/></extensionElements></startEvent>'), noServices)).rejects.toBeInstanceOf(BpmnInvalid);
  });

  it('a receive task without a message waits to be triggered; a service expression calling a method is refused as such', async () => {
    const i = await instance(model(`<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="wait"/><receiveTask id="wait"/>
      <sequenceFlow id="f2" sourceRef="wait" targetRef="t"/><userTask id="t" flowable:assignee="\${who}"/><sequenceFlow id="f3" sourceRef="t" targetRef="e"/><endEvent id="e"/>`));
    const first = await i.start({});
    expect(first).toMatchObject({ status: 'running', opened: [] });
    const moved = await i.step({ trigger: { activityId: 'wait', variables: { who: 'u-ann' } } });
    expect(moved).toMatchObject({ delivered: 1, opened: [expect.objectContaining({ activityId: 't', assignee: 'u-ann' })] });
    expect((await i.step({ trigger: { activityId: 'wait', variables: {} } })).delivered).toBe(0);
    const refused = await compileBpmn(model(`<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="svc"/>
      <serviceTask id="svc" flowable:expression="\${execution.setVariable('a', 1)}"/><sequenceFlow id="f2" sourceRef="svc" targetRef="e"/><endEvent id="e"/>`), noServices).catch((e: unknown) => e);
    expect((refused as BpmnInvalid).text('en')).toMatch(/^ServiceTask svc: the expression "execution.setVariable\('a', 1\)" calls a method/);
  });

  it('reads JUEL words as operators, never inside strings', () => {
    expect(juelToJexl('days gt 3 and not approved')).toBe('days > 3 && ! approved');
    expect(juelToJexl('reason == "not gt and"')).toBe('reason == "not gt and"');
  });
});

describe('the leave process, each step from JSON', () => {
  it('a short leave: the approver passes it and it ends', async () => {
    const i = await instance(LEAVE);
    const first = await i.start({ applyUser: 'u-alice', taskUser: 'u-bob', days: 2 });
    expect(first.status).toBe('running');
    expect(first.opened).toEqual([expect.objectContaining({ activityId: 'managerApproval', name: '审批人审批', assignee: 'u-bob', candidateGroups: [] })]);
    const done = await i.complete(first.opened[0]!.taskId, { pass: true, comment: 'ok' });
    expect(done).toMatchObject({ status: 'completed', state: null, closed: [{ taskId: first.opened[0]!.taskId, outcome: 'completed' }] });
    expect(done.history.filter((h) => h.event === 'take').map((h) => h.elementId)).toEqual(['flowManagerDecision', 'flowManagerPassed', 'flowShortLeave']);
    expect(done.variables).toMatchObject({ applyUser: 'u-alice', days: 2, pass: true });
  });

  it('a long leave goes on to HR (a candidate group); a rejection returns to the applicant, who resubmits', async () => {
    const i = await instance(LEAVE);
    const first = await i.start({ applyUser: 'u-alice', taskUser: 'u-bob', days: 5 });
    const rejected = await i.complete(first.opened[0]!.taskId, { pass: false });
    expect(rejected.opened).toEqual([expect.objectContaining({ activityId: 'adjust', assignee: 'u-alice' })]);
    const resubmitted = await i.complete(rejected.opened[0]!.taskId, { pass: true, days: 4 });
    const again = resubmitted.opened[0]!;
    expect(again).toMatchObject({ activityId: 'managerApproval', assignee: 'u-bob' });
    expect(again.taskId).not.toBe(first.opened[0]!.taskId);
    // the old task id is gone: completing it again is refused, never silently ignored
    await expect(i.complete(first.opened[0]!.taskId, { pass: true })).rejects.toBeInstanceOf(TaskNotWaiting);
    const toHr = await i.complete(again.taskId, { pass: true });
    expect(toHr.opened).toEqual([expect.objectContaining({ activityId: 'hrApproval', assignee: null, candidateGroups: ['hr'] })]);
    const done = await i.complete(toHr.opened[0]!.taskId, { pass: true });
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

  it('a timer fires at its time, not before; it escalates to the group; the service runs once and answers a variable', async () => {
    const i = await instance(ESCALATION, handlers);
    const before = Date.now();
    const first = await i.start({ reviewer: 'u-bob', escalateAfter: 'PT2H' });
    expect(first.dueAt!.getTime()).toBeGreaterThanOrEqual(before + 7_200_000);
    expect(first.dueAt!.getTime()).toBeLessThanOrEqual(Date.now() + 7_200_000);
    const early = await i.timers(new Date(first.dueAt!.getTime() - 1000));
    expect(early).toMatchObject({ delivered: 0, opened: [], closed: [], dueAt: first.dueAt });
    const fired = await i.timers(first.dueAt!);
    expect(fired.closed).toEqual([{ taskId: first.opened[0]!.taskId, outcome: 'cancelled' }]);
    expect(fired.opened).toEqual([expect.objectContaining({ activityId: 'director', candidateGroups: ['directors', 'board'] })]);
    expect(fired.dueAt).toBeNull();
    const done = await i.complete(fired.opened[0]!.taskId, { pass: true });
    expect(done.status).toBe('completed');
    expect(notified).toHaveLength(1);
    expect(done.variables.notified).toEqual({ at: 'now' });
  });

  it('a repeating timer that does not move is refused when it is armed, naming the element', async () => {
    const i = await instance(model(`<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="u"/><userTask id="u"/>
      <boundaryEvent id="again" attachedToRef="u" cancelActivity="false"><timerEventDefinition><timeCycle>\${every}</timeCycle></timerEventDefinition></boundaryEvent>
      <sequenceFlow id="f2" sourceRef="again" targetRef="e2"/><endEvent id="e2"/><sequenceFlow id="f3" sourceRef="u" targetRef="e"/><endEvent id="e"/>`));
    await expect(i.start({ every: 'R/PT0S' })).rejects.toThrow(/BoundaryEvent again: "R\/PT0S" repeats without time passing/);
    expect((await i.start({ every: 'R2/PT1H' })).dueAt).not.toBeNull();
  });

  it('a failing service fails the step, and the saved state stays as it was', async () => {
    let failing = true;
    const flaky: Record<string, ServiceHandler> = {
      notifyApplicant: async () => {
        if (failing) throw new Error('SMTP down');
        return {};
      },
    };
    const i = await instance(ESCALATION, flaky);
    const first = await i.start({ reviewer: 'u-bob', escalateAfter: 'PT1H' });
    const saved = JSON.stringify(i.saved());
    await expect(i.complete(first.opened[0]!.taskId, {})).rejects.toThrow(StepFailed);
    expect(JSON.stringify(i.saved())).toBe(saved);
    failing = false;
    const retried = await i.complete(first.opened[0]!.taskId, {});
    expect(retried.status).toBe('completed');
  });
});
