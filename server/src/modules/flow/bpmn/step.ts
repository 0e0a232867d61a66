import { EventEmitter } from 'node:events';
import { Engine } from 'bpmn-engine';
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
/** The task named is not waiting in this instance (done, cancelled, or never there). */
export class TaskNotWaiting extends Error {}

/** the engine adds these to the variables on its own */
const ENGINE_KEYS = new Set(['fields', 'content', 'properties']);
const SETTLE_LIMIT_MS = 10_000;

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
  type: string;
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

/** Service and send tasks call the server handler their model names (flowable:class, delegateExpression or implementation). */
function serviceHandlers(handlers: Readonly<Record<string, ServiceHandler>>) {
  return (activity: Activity): void => {
    if (activity.type !== 'bpmn:ServiceTask' && activity.type !== 'bpmn:SendTask') return;
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
          handler(plainVariables(act.environment.variables)).then(
            (out) => callback(null, resultVariable ? { [resultVariable]: out ?? null } : out ?? {}),
            (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
          );
        },
      };
    };
  };
}

function settle(engine: Engine): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const onError = (err: Error) => {
      engine.removeListener('error', onError);
      reject(new StepFailed(err.message));
    };
    engine.once('error', onError);
    const check = () => {
      if (engine.state === 'error') return;
      if (engine.state !== 'running' || engine.activityStatus !== 'executing') {
        engine.removeListener('error', onError);
        return resolve();
      }
      if (Date.now() - started > SETTLE_LIMIT_MS) {
        engine.removeListener('error', onError);
        return reject(new StepFailed(`the process did not settle within ${SETTLE_LIMIT_MS / 1000} s (a service handler that does not answer?)`));
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

function collector() {
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
  listener.on('activity.start', (api: Api) => history.push(row('start', api)));
  const waited = new Set<string>();
  listener.on('wait', (api: Api) => {
    if (api.owner?.type !== 'bpmn:UserTask') return;
    waited.add(api.executionId);
    const b = api.owner.behaviour;
    const resolve = (e: unknown) => (typeof e === 'string' && e ? api.environment.resolveExpression(e, api) : e);
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
export async function runStep(name: string, compiled: string, input: StepInput, handlers: Readonly<Record<string, ServiceHandler>>): Promise<StepResult> {
  const engine = new Engine({
    name,
    sourceContext: loadCompiled(compiled),
    expressions: juelExpressions,
    // bpmn-engine types an extension's element as its base class; ours read the activity's events and behaviour
    extensions: { variablesFromOutput, services: serviceHandlers(handlers) } as never,
  });
  const c = collector();
  // a failure before the engine settles must not leave a live engine with timers behind
  const stop = async () => {
    if (engine.state === 'running') await engine.stop();
  };
  try {
    if ('start' in input) {
      await engine.execute({ listener: c.listener, variables: input.start.variables, ...(input.start.businessKey ? { businessKey: input.start.businessKey } : {}) });
    } else {
      engine.recover(structuredClone(input.resume.state) as never);
      await engine.resume({ listener: c.listener });
      await settle(engine);
      if (input.signal) {
        const { taskId, variables } = input.signal;
        if (!waitingTasks(engine).has(taskId)) throw new TaskNotWaiting(taskId);
        const { id: _id, executionId: _e, ...vars } = variables;
        engine.execution!.signal({ ...vars, executionId: taskId });
      }
    }
    await settle(engine);
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
    await stop();
  }
}

function processVariables(state: { definitions: Array<Record<string, unknown>> }): Record<string, unknown> | undefined {
  const def = state.definitions[0] as { execution?: { processes?: Array<{ environment?: { variables?: Record<string, unknown> } }> }; environment?: { variables?: Record<string, unknown> } } | undefined;
  return def?.execution?.processes?.[0]?.environment?.variables ?? def?.environment?.variables;
}
