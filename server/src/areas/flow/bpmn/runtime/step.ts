import type { ProcessModel } from '../model.js';
import { type OpenedTask, type ServiceHandler, StepFailed, type StepLimits, type StepOutput, TaskNotWaiting } from './context.js';
import { evaluateExpression } from '../expressions.js';
import { deliverMessage, deliverSignal, fire, fireTimers, throwError } from './events.js';
import { Interpreter } from './run.js';
import type { InstanceState } from './state.js';
import { assignTask, callEnded, completeTask } from './tasks.js';

/**
 * One step of a process instance: the state read, the input applied, the agenda run until every execution
 * waits or the process ended, and what happened answered as data for the engine to write in the same
 * transaction (docs/workflow.md). Nothing is kept in memory between steps.
 */

export type StepInput =
  | { start: { variables: Record<string, unknown>; initiator: string | null; message?: string } }
  | { complete: { taskId: string; variables: Record<string, unknown> } }
  | { assign: { taskId: string; assignee: string | null } }
  | { timers: { now: Date } }
  | { message: { name: string; variables: Record<string, unknown> } }
  /** a receive task (or an intermediate catch event) waiting at `activityId` goes on (Flowable's trigger) */
  | { trigger: { activityId: string; variables: Record<string, unknown> } }
  | { signal: { name: string; variables: Record<string, unknown> } }
  | { callEnded: { executionId: string; variables: Record<string, unknown> } }
  | { callFailed: { executionId: string; code: string } }
  /** the called process ended by a terminate end event with terminateAll: the caller ends too */
  | { callTerminatedAll: { executionId: string } };

export interface StepOptions {
  handlers: Readonly<Record<string, ServiceHandler>>;
  limits: StepLimits;
  businessKey?: string | null;
  /** the instance was started by a call activity: an error it does not catch goes to its caller */
  called?: boolean;
  now?: Date;
}

/** what the step did (the interpreter's output, tasks opened as a list), and where the instance now stands */
export interface StepResult extends Omit<StepOutput, 'opened'> {
  status: 'running' | 'completed';
  state: InstanceState | null;
  /** the earliest timer of the instance */
  dueAt: Date | null;
  variables: Record<string, unknown>;
  opened: OpenedTask[];
  /** the messages and signals the instance waits for now */
  waitsFor: { messages: string[]; signals: string[] };
  /** how many waiting executions the input reached (a message, a signal, timers) */
  delivered: number;
}

export const DEFAULT_STEP_LIMITS: StepLimits = { maxActivities: 500, maxMs: 5000 };

async function apply(rt: Interpreter, input: StepInput): Promise<number> {
  if ('start' in input) {
    rt.start(input.start.variables, input.start.initiator, input.start.message);
    return 1;
  }
  if ('timers' in input) return fireTimers(rt, input.timers.now);
  if ('message' in input) return (await deliverMessage(rt, input.message.name, input.message.variables)) ? 1 : 0;
  if ('signal' in input) return deliverSignal(rt, input.signal.name, input.signal.variables);
  if ('trigger' in input) {
    const e = rt.all().find((x) => x.node === input.trigger.activityId && x.wait === 'event' && !x.watches);
    if (!e) return 0;
    rt.push(() => fire(rt, e, input.trigger.variables));
    return 1;
  }
  if ('complete' in input || 'assign' in input) {
    const taskId = 'complete' in input ? input.complete.taskId : input.assign.taskId;
    const e = rt.all().find((x) => x.visit === taskId && x.wait === 'task');
    if (!e) throw new TaskNotWaiting(taskId);
    if ('complete' in input) rt.push(() => completeTask(rt, e, input.complete.variables));
    else rt.push(() => assignTask(rt, e, input.assign.assignee));
    return 1;
  }
  const executionId = 'callEnded' in input ? input.callEnded.executionId : 'callFailed' in input ? input.callFailed.executionId : input.callTerminatedAll.executionId;
  const e = rt.get(executionId);
  if (!e || e.wait !== 'call') throw new TaskNotWaiting(executionId);
  if ('callTerminatedAll' in input) {
    rt.push(() => rt.terminatedByCall());
  } else if ('callEnded' in input) {
    const childVars = input.callEnded.variables;
    rt.push(() => callEnded(rt, e, childVars, (text) => evaluateExpression(text, childVars)));
  } else {
    const code = input.callFailed.code;
    rt.push(async () => {
      if (!(await throwError(rt, e, code))) rt.out.uncaughtError = { code, from: e.node ?? '' };
    });
  }
  return 1;
}

/** Runs one step of an instance of `model` from `state` (null for a start). */
export async function runStep(model: ProcessModel, state: InstanceState | null, input: StepInput, options: StepOptions): Promise<StepResult> {
  const current: InstanceState = state ? structuredClone(state) : Interpreter.fresh();
  const rt = new Interpreter(model, current, options.handlers, options.limits, options.now ?? new Date(), options.businessKey ?? null);
  const delivered = await apply(rt, input);
  await rt.drain();
  const uncaught = rt.out.uncaughtError;
  if (uncaught) {
    if (!options.called) {
      throw new StepFailed({
        zh: `错误「${uncaught.code}」没有被任何错误边界事件或事件子流程捕获 (抛出于 ${uncaught.from})`,
        en: `no error boundary event or event sub-process catches the error "${uncaught.code}" (thrown at ${uncaught.from})`,
      });
    }
    if (!rt.ended) await rt.finish();
  }
  const root = current.executions.find((e) => e.parent === null && !e.watches);
  const running = !rt.ended && !!root;
  const timers = current.executions.filter((e) => e.timer).map((e) => new Date(e.timer!.due).getTime());
  const closedIds = new Set(rt.out.closed.map((c) => c.taskId));
  return {
    status: running ? 'running' : 'completed',
    state: running ? current : null,
    dueAt: running && timers.length ? new Date(Math.min(...timers)) : null,
    variables: { ...(root?.vars ?? {}) },
    opened: [...rt.out.opened.values()].filter((t) => !closedIds.has(t.taskId)),
    closed: rt.out.closed.filter((c) => !rt.out.opened.has(c.taskId)),
    history: rt.out.history,
    calls: rt.out.calls,
    cancelledCalls: rt.out.cancelledCalls,
    signals: rt.out.signals,
    uncaughtError: uncaught,
    terminatedAll: rt.out.terminatedAll,
    assigned: rt.out.assigned,
    waitsFor: {
      messages: running ? [...new Set(current.executions.filter((e) => e.message).map((e) => e.message!))] : [],
      signals: running ? [...new Set(current.executions.filter((e) => e.signal).map((e) => e.signal!))] : [],
    },
    delivered,
  };
}
