import { EventEmitter } from 'node:events';
import { Engine } from 'bpmn-engine';
import { Timers } from 'bpmn-elements';
import { loadCompiled, serviceName } from './compile.js';
import { juelExpressions } from './expressions.js';

/**
 * One step of a process instance, with nothing kept in memory between steps: an engine is built from the
 * compiled definition, started or recovered from its saved state, signalled, and run until it settles (every
 * token waits for a person or a timer, or the process ended). What the step did comes back as data (the new
 * state, the earliest timer, the user tasks opened and closed, the history); the caller writes it in the same
 * transaction as the read, so a crash at any moment leaves the last settled state (docs/workflow.md).
 */

/** a server handler behind service tasks: gets the process variables, answers variables to set */
export type ServiceHandler = (variables: Readonly<Record<string, unknown>>) => Promise<Record<string, unknown> | void>;

export interface OpenedTask {
  /** the engine's execution id: stable across recoveries, new each time the task is reached again */
  taskId: string;
  activityId: string;
  name: string;
  assignee: string | null;
  candidateUsers: string[];
  candidateGroups: string[];
  formKey: string | null;
}

export interface HistoryEvent {
  event: 'start' | 'end' | 'take' | 'cancel';
  elementId: string;
  elementType: string;
  elementName: string | null;
  executionId: string | null;
  sourceId: string | null;
  targetId: string | null;
  at: Date;
}

export interface StepResult {
  status: 'running' | 'completed';
  /** the engine's state (its definition left out: the caller keeps that); null once completed */
  state: Record<string, unknown> | null;
  /** the earliest timer to fire, if any */
  dueAt: Date | null;
  variables: Record<string, unknown>;
  opened: OpenedTask[];
  closed: Array<{ taskId: string; outcome: 'completed' | 'cancelled' }>;
  history: HistoryEvent[];
}

export type StepInput =
  | { start: { variables: Record<string, unknown>; businessKey?: string } }
  | { resume: { state: Record<string, unknown> }; signal?: { taskId: string; variables: Record<string, unknown> } };

/** The process cannot go on (a failing handler, an expression that cannot be evaluated, no way out of a gateway). */
export class StepFailed extends Error {}
/**
 * The step did not reach a wait state within its bound of activities or of time (a loop without a wait, a
 * handler that does not answer): it was stopped, and the instance is an incident (docs/workflow.md).
 */
export class StepStopped extends Error {}

/** how far one step may run before it is stopped: activities started, and wall-clock time */
export interface StepLimits {
  maxActivities: number;
  maxMs: number;
}

export const DEFAULT_STEP_LIMITS: StepLimits = { maxActivities: 500, maxMs: 5000 };
/** The task named is not waiting in this instance (done, cancelled, or never there). */
export class TaskNotWaiting extends Error {}

/** the engine adds these to the variables on its own */
const ENGINE_KEYS = new Set(['fields', 'content', 'properties']);
/** how long a failed engine is given to stop before it is dropped */
const STOP_GRACE_MS = 200;
/** expression languages a condition may declare and that are read as expressions (compile.ts) */
const EXPRESSION_LANGUAGES = new Set(['juel', 'http://www.w3.org/1999/xpath']);

/* bpmn-engine's event objects are loosely typed; these are the parts read here */
type Api = {
  id: string;
  name?: string;
  type: string;
  executionId: string;
  owner?: { type: string; name?: string; behaviour: Record<string, unknown>; isSubProcess?: boolean };
  content: { output?: unknown; sourceId?: string; targetId?: string; state?: string };
  messageProperties?: { timestamp?: number };
  environment: { resolveExpression(expr: string, api: unknown): unknown; variables: Record<string, unknown>; assignVariables(v: Record<string, unknown>): void };
  getPostponed?: () => Api[];
};
type Activity = {
  id: string;
  type: string;
  broker: { subscribeTmp(exchange: string, pattern: string, fn: (key: string, message: { content: { isMultiInstance?: boolean } }) => void, options: object): unknown };
  isSubProcess?: boolean;
  behaviour: Record<string, unknown>;
  environment: Api['environment'];
  on(event: string, fn: (api: Api) => void): void;
};

function list(v: unknown): string[] {
  if (v === null || v === undefined || v === '') return [];
  return (Array.isArray(v) ? v : String(v).split(',')).map((s) => String(s).trim()).filter(Boolean);
}

function plainVariables(v: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(v ?? {}).filter(([k]) => !ENGINE_KEYS.has(k)));
}

/**
 * A task's or a service's output becomes process variables as the activity ends (before the gateways after it
 * read them), in the enclosing sub-processes too (a sub-process runs on a copy of the variables).
 */
function variablesFromOutput(activity: Activity, context?: { owner?: unknown }): void {
  if (activity.type === 'bpmn:Process' || activity.isSubProcess) return;
  activity.on('end', (api) => {
    let out = api.content.output;
    if (Array.isArray(out)) out = out[0];
    if (!out || typeof out !== 'object' || Array.isArray(out)) return;
    const { id: _id, executionId: _e, ...vars } = out as Record<string, unknown>;
    activity.environment.assignVariables(vars);
    const seen = new Set<unknown>([activity.environment]);
    type Owner = { type: string; environment: Api['environment']; context?: { owner?: Owner } };
    for (let o = context?.owner as Owner | undefined; o && !seen.has(o); o = o.context?.owner) {
      seen.add(o);
      if (!seen.has(o.environment)) {
        seen.add(o.environment);
        o.environment.assignVariables(vars);
      }
      if (o.type === 'bpmn:Process') break;
    }
  });
}

/**
 * The iterations of a multi-instance activity: the engine starts each one (`execute.start` on the activity's
 * execution exchange) without an `activity.start`, synchronously, so each is counted by the guard like an activity.
 */
function loopIterations(guard: Guard) {
  return (activity: Activity): void => {
    if (!activity.behaviour.loopCharacteristics) return;
    activity.broker.subscribeTmp('execution', 'execute.start', (_key, message) => {
      if (message.content.isMultiInstance) guard.count(activity.id);
    }, { noAck: true });
  };
}

/** Service and send tasks call the server handler their model names (flowable:class, delegateExpression or implementation). */
function serviceHandlers(handlers: Readonly<Record<string, ServiceHandler>>, guard: Guard) {
  return (activity: Activity): void => {
    if (activity.type !== 'bpmn:ServiceTask' && activity.type !== 'bpmn:SendTask' && activity.type !== 'bpmn:BusinessRuleTask') return;
    const b = activity.behaviour;
    const name = serviceName(b);
    if (!name) return;
    const resultVariable = typeof b.resultVariable === 'string' ? b.resultVariable : undefined;
    // the engine calls `new behaviour.Service(activity)`: a function, not an arrow
    b.Service = function ServerHandler(act: Activity) {
      return {
        execute(_msg: unknown, callback: (err: Error | null, out?: unknown) => void) {
          const handler = handlers[name];
          if (!handler) return callback(new Error(`no server handler "${name}"`));
          // the engine goes on inside the callback: what it throws there (a bound reached) is the step's failure
          handler(plainVariables(act.environment.variables)).then(
            (out) => guard.run(() => callback(null, resultVariable ? { [resultVariable]: out ?? null } : out ?? {})),
            (err: unknown) => guard.run(() => callback(err instanceof Error ? err : new Error(String(err)))),
          );
        },
      };
    };
  };
}

/**
 * Bounds a step and keeps its first failure. bpmn-engine runs a path without a wait state synchronously (a loop
 * of events and gateways never returns, and overflows the stack after about a thousand activities), so no timer
 * can interrupt it: the listener counts activities and checks the time at each, and past a bound it throws,
 * again at every later activity, which unwinds the engine's synchronous run up to whoever called into it (this
 * code: execute, resume, signal, a timer or a handler's answer). The engine is then dropped, never reused.
 */
class Guard {
  private activities = 0;
  private readonly started = Date.now();
  failure: Error | null = null;

  constructor(private readonly limits: StepLimits) {}

  /** at each activity started */
  count(elementId: string): void {
    if (this.failure) throw this.failure;
    this.activities++;
    if (this.activities > this.limits.maxActivities) {
      this.fail(new StepStopped(`more than ${this.limits.maxActivities} activities ran without the process waiting (a loop without a user task or a timer?), the last one ${elementId}`));
    } else if (Date.now() - this.started > this.limits.maxMs) {
      this.fail(new StepStopped(`the step ran longer than ${this.limits.maxMs / 1000} s without the process waiting, the last activity ${elementId}`));
    }
    if (this.failure) throw this.failure;
  }

  /** at every wait for the engine: the time bound, for a handler that does not answer */
  checkTime(): void {
    if (!this.failure && Date.now() - this.started > this.limits.maxMs) {
      this.fail(new StepStopped(`the step ran longer than ${this.limits.maxMs / 1000} s without the process waiting (a service handler that does not answer?)`));
    }
  }

  fail(err: unknown): void {
    if (this.failure) return;
    if (err instanceof StepStopped || err instanceof StepFailed || err instanceof TaskNotWaiting) this.failure = err;
    // the engine recursed deeper than the stack: a path without a wait state, stopped by the runtime
    else if (err instanceof RangeError && /call stack/i.test(err.message)) this.failure = new StepStopped('the process ran too many activities without waiting (a loop without a user task or a timer?)');
    else this.failure = new StepFailed(err instanceof Error ? err.message : String(err));
  }

  /** runs a call into the engine; what it throws becomes the step's failure */
  run(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.fail(err);
    }
  }
}

/** timers whose callbacks run under the guard (an exception in a timer's callback would otherwise crash the server) */
function guardedTimers(guard: Guard) {
  return new Timers({
    setTimeout: ((fn: (...args: unknown[]) => void, delay: number, ...args: unknown[]) => setTimeout(() => guard.run(() => fn(...args)), delay)) as typeof setTimeout,
    clearTimeout,
  });
}

/** bpmn-engine's default would run a script in node:vm, which is no sandbox: a script is never run */
function noScripts() {
  const refuse = (id: unknown, language: unknown): never => {
    throw new StepFailed(`${String(id)}: the server runs no scripts (${String(language)})`);
  };
  const scriptLanguage = (activity: { behaviour?: { scriptFormat?: unknown; conditionExpression?: { language?: unknown } } }) =>
    activity.behaviour?.scriptFormat ?? activity.behaviour?.conditionExpression?.language;
  const isExpressionLanguage = (language: unknown) => !language || (typeof language === 'string' && EXPRESSION_LANGUAGES.has(language.trim().toLowerCase()));
  return {
    register(activity: { id?: unknown; type?: unknown; behaviour?: { scriptFormat?: unknown; conditionExpression?: { language?: unknown } } }) {
      const language = scriptLanguage(activity);
      if (activity.type === 'bpmn:ScriptTask' || !isExpressionLanguage(language)) refuse(activity.id, language ?? 'a script task');
      return undefined;
    },
    getScript(language: unknown, activity: { id?: unknown }) {
      if (isExpressionLanguage(language)) return undefined;
      return refuse(activity?.id, language);
    },
  };
}

function settle(engine: Engine, guard: Guard): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error & { source?: { content?: { id?: string; type?: string } } }) => {
      const source = err.source?.content;
      guard.fail(new StepFailed(source?.id ? `${(source.type ?? '').replace('bpmn:', '')} ${source.id}: ${err.message}`.trim() : err.message));
    };
    engine.once('error', onError);
    const check = () => {
      guard.checkTime();
      if (guard.failure) {
        engine.removeListener('error', onError);
        return reject(guard.failure);
      }
      if (engine.state === 'error') return setImmediate(check);
      if (engine.state !== 'running' || engine.activityStatus !== 'executing') {
        engine.removeListener('error', onError);
        return resolve();
      }
      setImmediate(check);
    };
    check();
  });
}

/** the user tasks waiting in the engine, sub-processes included */
function waitingTasks(engine: Engine): Set<string> {
  const out = new Set<string>();
  // a recovered sub-process lists itself among its postponed children: each execution is walked once
  const seen = new Set<string>();
  const walk = (apis: Api[]) => {
    for (const a of apis) {
      if (seen.has(a.executionId)) continue;
      seen.add(a.executionId);
      if (a.content.state === 'wait' && a.owner?.type === 'bpmn:UserTask') out.add(a.executionId);
      if (a.owner?.isSubProcess && a.getPostponed) walk(a.getPostponed());
    }
  };
  walk(engine.execution!.getPostponed() as unknown as Api[]);
  return out;
}

function collector(guard: Guard) {
  const listener = new EventEmitter();
  const opened = new Map<string, OpenedTask>();
  const closed: StepResult['closed'] = [];
  const history: HistoryEvent[] = [];
  const ended = new Set<string>();
  const at = (api: Api) => new Date(api.messageProperties?.timestamp ?? Date.now());
  const typeOf = (api: Api) => api.owner?.type ?? api.type;
  const row = (event: HistoryEvent['event'], api: Api, extra: Partial<HistoryEvent> = {}): HistoryEvent => ({
    event, elementId: api.id, elementType: typeOf(api), elementName: api.name ?? api.owner?.name ?? null, executionId: api.executionId ?? null,
    sourceId: null, targetId: null, at: at(api), ...extra,
  });
  listener.on('activity.start', (api: Api) => {
    guard.count(api.id);
    history.push(row('start', api));
  });
  const waited = new Set<string>();
  listener.on('wait', (api: Api) => {
    if (api.owner?.type !== 'bpmn:UserTask') return;
    waited.add(api.executionId);
    const b = api.owner.behaviour;
    const resolve = (e: unknown) => {
      if (typeof e !== 'string' || !e) return e;
      try {
        return api.environment.resolveExpression(e, api);
      } catch (err) {
        guard.fail(new StepFailed(`UserTask ${api.id}: ${(err as Error).message}`));
        throw guard.failure;
      }
    };
    const assignee = resolve(b.assignee);
    opened.set(api.executionId, {
      taskId: api.executionId, activityId: api.id, name: api.name ?? api.id,
      assignee: assignee === null || assignee === undefined || assignee === '' ? null : String(assignee),
      candidateUsers: list(resolve(b.candidateUsers)), candidateGroups: list(resolve(b.candidateGroups)),
      formKey: typeof b.formKey === 'string' ? b.formKey : null,
    });
  });
  listener.on('activity.end', (api: Api) => {
    ended.add(api.executionId);
    history.push(row('end', api));
  });
  listener.on('activity.leave', (api: Api) => {
    // a task on a path not taken leaves too (discarded): only a task that waited was ever open (a resume
    // announces every waiting task again)
    if (api.owner?.type !== 'bpmn:UserTask' || !waited.has(api.executionId)) return;
    const outcome = ended.has(api.executionId) ? 'completed' : 'cancelled';
    closed.push({ taskId: api.executionId, outcome });
    if (outcome === 'cancelled') history.push(row('cancel', api));
  });
  listener.on('flow.take', (api: Api) => history.push(row('take', api, {
    elementType: 'bpmn:SequenceFlow', executionId: null, sourceId: api.content.sourceId ?? null, targetId: api.content.targetId ?? null,
  })));
  return { listener, opened, closed, history };
}

/** Runs one step: start, or recover (firing the timers now due) and optionally complete a waiting task. */
export async function runStep(
  name: string, compiled: string, input: StepInput, handlers: Readonly<Record<string, ServiceHandler>>, limits: StepLimits = DEFAULT_STEP_LIMITS,
): Promise<StepResult> {
  const guard = new Guard(limits);
  const engine = new Engine({
    name,
    sourceContext: loadCompiled(compiled),
    expressions: juelExpressions,
    scripts: noScripts(),
    timers: guardedTimers(guard),
    // bpmn-engine types an extension's element as its base class; ours read the activity's events and behaviour
    extensions: { variablesFromOutput, loops: loopIterations(guard), services: serviceHandlers(handlers, guard) } as never,
  } as never);
  const c = collector(guard);
  /** a call into the engine: synchronous in part, then a promise; either way its failure is the guard's */
  const call = async (fn: () => unknown): Promise<void> => {
    try {
      await fn();
    } catch (err) {
      guard.fail(err);
    }
    if (guard.failure) throw guard.failure;
  };
  try {
    if ('start' in input) {
      await call(() => engine.execute({ listener: c.listener, variables: input.start.variables, ...(input.start.businessKey ? { businessKey: input.start.businessKey } : {}) }));
    } else {
      await call(() => engine.recover(structuredClone(input.resume.state) as never));
      await call(() => engine.resume({ listener: c.listener }));
      await settle(engine, guard);
      if (input.signal) {
        const { taskId, variables } = input.signal;
        if (!waitingTasks(engine).has(taskId)) throw new TaskNotWaiting(taskId);
        const { id: _id, executionId: _e, ...vars } = variables;
        await call(() => engine.execution!.signal({ ...vars, executionId: taskId }));
      }
    }
    await settle(engine, guard);
    const running = engine.state === 'running';
    const full = engine.execution!.getState() as unknown as { definitions: Array<Record<string, unknown>> };
    const variables = plainVariables(processVariables(full));
    let state: Record<string, unknown> | null = null;
    let dueAt: Date | null = null;
    if (running) {
      for (const d of full.definitions) delete d.source;
      state = full as unknown as Record<string, unknown>;
      const timers = (engine.environment as unknown as { timers: { executing: Array<{ expireAt: Date | string }> } }).timers.executing;
      if (timers.length) dueAt = new Date(Math.min(...timers.map((t) => new Date(t.expireAt).getTime())));
    }
    // a task re-announced on resume is still open: only tasks not closed in this step are reported opened
    const closedIds = new Set(c.closed.map((t) => t.taskId));
    return {
      status: running ? 'running' : 'completed', state, dueAt, variables,
      opened: [...c.opened.values()].filter((t) => !closedIds.has(t.taskId)), closed: c.closed, history: c.history,
    };
  } finally {
    await stopEngine(engine, guard);
  }
}

/**
 * Stops the engine and its timers. After a failure the engine may be in any state, and its stop may never
 * settle (it did not for a loop stopped by the stack): it is given a moment, then dropped.
 */
async function stopEngine(engine: Engine, guard: Guard): Promise<void> {
  const timers = (engine.environment as unknown as { timers?: { executing: unknown[]; clearTimeout(ref: unknown): void } }).timers;
  try {
    for (const t of timers?.executing ?? []) timers!.clearTimeout(t);
    if (engine.state !== 'running') return;
    const stopped = engine.stop();
    if (!guard.failure) return await stopped;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([stopped.catch(() => undefined), new Promise((r) => { timer = setTimeout(r, STOP_GRACE_MS); })]);
    clearTimeout(timer);
  } catch {
    // a broken engine's stop: it is dropped anyway
  }
}

function processVariables(state: { definitions: Array<Record<string, unknown>> }): Record<string, unknown> | undefined {
  const def = state.definitions[0] as { execution?: { processes?: Array<{ environment?: { variables?: Record<string, unknown> } }> }; environment?: { variables?: Record<string, unknown> } } | undefined;
  return def?.execution?.processes?.[0]?.environment?.variables ?? def?.environment?.variables;
}
