/**
 * A countersign (会签, issue 25) over the HTTP API: a parallel multi-instance user task, one task per approver.
 * The demo tenant's admin starts it for the approvers; each approver in turn finds their task in `todo-list` and
 * completes it. A failing call does not stop the bench: it is recorded (which call, HTTP status, message) and the
 * other approvers go on, so the report says how far the countersign got.
 */

/**
 * Flowable reads `flowable:collection` as a variable's name or as an expression; BladeX's modeler writes either.
 * Both are measured: `approvers` (the form issue 25 names) and `${approvers}`.
 */
export const COUNTERSIGN_VARIANTS = [
  { name: 'name', key: 'BenchCountersign', collection: 'approvers' },
  { name: 'expression', key: 'BenchCountersignExpr', collection: '${approvers}' },
] as const;
export type CountersignVariant = (typeof COUNTERSIGN_VARIANTS)[number];

export const countersignModel = (v: CountersignVariant) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn"
  id="definitions_${v.key}" targetNamespace="http://www.flowable.org/processdef">
  <process id="${v.key}" name="会签 (bench)" isExecutable="true">
    <startEvent id="start"/>
    <sequenceFlow id="f1" sourceRef="start" targetRef="sign"/>
    <userTask id="sign" name="会签" flowable:assignee="\${approver}"><multiInstanceLoopCharacteristics isSequential="false" flowable:collection="${v.collection}" flowable:elementVariable="approver"/></userTask>
    <sequenceFlow id="f2" sourceRef="sign" targetRef="end"/>
    <endEvent id="end"/>
  </process>
</definitions>
`;

/** One HTTP call's answer, failed or not. */
export interface Answer<D> {
  ok: boolean;
  status: number;
  code: number;
  msg: string;
  data: D;
}

export type Attempt = <D>(headers: Record<string, string>, method: 'GET' | 'POST', url: string, opts?: { body?: object; query?: Record<string, string> }) => Promise<Answer<D>>;

export interface CallFailure {
  /** the call and who made it, e.g. "complete-task (approver 2 of 20)" */
  call: string;
  status: number;
  code: number;
  msg: string;
}

export interface CountersignRun {
  instanceId: string | null;
  /** start-process until the complete-task that ended the instance, ms; null when it did not end */
  totalMs: number | null;
  /** each successful complete-task, ms */
  completions: number[];
  /** each todo-list call that looked for the approver's task, ms */
  lookups: number[];
  failures: CallFailure[];
  /** a complete-task answered 'completed' before the last approver (should never happen) */
  endedEarly: boolean;
}

const WORK = '/api/blade-flow/work';
const short = (s: string) => (s.length > 200 ? `${s.slice(0, 200)}…` : s);

/** Starts a countersign for `signers` (their user ids and request headers) and has each complete their task. */
export async function runCountersign(
  attempt: Attempt, admin: Record<string, string>, definitionId: string, signers: ReadonlyArray<{ userId: string; headers: Record<string, string> }>,
): Promise<CountersignRun> {
  const run: CountersignRun = { instanceId: null, totalMs: null, completions: [], lookups: [], failures: [], endedEarly: false };
  const fail = (call: string, a: Answer<unknown>) => run.failures.push({ call, status: a.status, code: a.code, msg: short(a.msg) });
  const t0 = performance.now();
  const started = await attempt<{ processInstanceId: string }>(admin, 'POST', `${WORK}/start-process`, {
    body: { processDefinitionId: definitionId, variables: { approvers: signers.map((s) => s.userId) } },
  });
  if (!started.ok) {
    fail('start-process', started);
    return run;
  }
  const instanceId = started.data.processInstanceId;
  run.instanceId = instanceId;
  for (const [i, s] of signers.entries()) {
    const who = `(approver ${i + 1} of ${signers.length})`;
    const tl = performance.now();
    const todo = await attempt<{ records: Array<{ id: string; instanceId: string }> }>(s.headers, 'GET', `${WORK}/todo-list`, { query: { current: '1', size: '20', instanceId } });
    run.lookups.push(performance.now() - tl);
    if (!todo.ok) {
      fail(`todo-list ${who}`, todo);
      continue;
    }
    const task = todo.data.records.find((r) => r.instanceId === instanceId);
    if (!task) {
      run.failures.push({ call: `todo-list ${who}`, status: todo.status, code: todo.code, msg: 'no task of the countersign in the approver\'s todo list' });
      continue;
    }
    const tc = performance.now();
    const done = await attempt<{ status: string }>(s.headers, 'POST', `${WORK}/complete-task`, { body: { taskId: task.id, processInstanceId: instanceId, flag: 'ok' } });
    const now = performance.now();
    if (!done.ok) {
      fail(`complete-task ${who}`, done);
      continue;
    }
    run.completions.push(now - tc);
    if (done.data.status === 'completed') {
      run.totalMs = now - t0;
      if (i < signers.length - 1) run.endedEarly = true;
    }
  }
  return run;
}
