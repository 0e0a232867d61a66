import type { Flow, Node, ProcessModel } from '../model.js';
import { type LocalText, typeLabel } from '../refusal.js';
import type { Execution } from './state.js';

/**
 * What a step's behaviours (tasks, gateways, events, multi-instance) see of the interpreter (run.ts), which
 * walks a process as Flowable's agenda does: an execution enters a node, the node's behaviour runs, the
 * execution leaves by the flows it selects or waits.
 */

/** a server handler behind service tasks and listeners: gets the visible variables, answers variables to set */
export type ServiceHandler = (variables: Readonly<Record<string, unknown>>) => Promise<Record<string, unknown> | void>;

/** A handler throws this to raise a BPMN error (caught by an error boundary or event sub-process with its code). */
export class BpmnError extends Error {
  constructor(readonly code: string, message?: string) {
    super(message ?? `BPMN error ${code}`);
  }
}

/** The process cannot go on (a failing handler, an expression that cannot be evaluated, no way out of a gateway). */
export class StepFailed extends Error {
  /** the reason in both languages, naming the element */
  readonly reason: LocalText;

  constructor(why: string | LocalText, readonly element?: { id: string; type: string }) {
    const text = typeof why === 'string' ? { zh: why, en: why } : why;
    const type = element ? typeLabel(element.type) : '';
    super(element ? `${type} ${element.id}: ${text.en}` : text.en);
    this.reason = element ? { zh: `${type}「${element.id}」: ${text.zh}`, en: `${type} ${element.id}: ${text.en}` } : text;
  }
}

/** The step did not reach a wait state within its bound of activities or of time: it is an incident (docs/workflow.md). */
export class StepStopped extends Error {}

/** The task or event named is not waiting in this instance (done, cancelled, or never there). */
export class TaskNotWaiting extends Error {}

export interface StepLimits {
  maxActivities: number;
  maxMs: number;
}

export interface OpenedTask {
  /** the task's visit id: unique in its instance, new each time the task is reached */
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

/** a call activity's request to start its process (the engine starts it in the same transaction) */
export interface CallRequest {
  executionId: string;
  visit: string;
  key: string;
  variables: Record<string, unknown>;
  businessKey: string | null;
}

export interface StepOutput {
  opened: Map<string, OpenedTask>;
  closed: Array<{ taskId: string; outcome: 'completed' | 'cancelled' }>;
  history: HistoryEvent[];
  calls: CallRequest[];
  /** process instances of call activities that were cancelled */
  cancelledCalls: string[];
  /** global signals thrown, for the other instances of the tenant */
  signals: Array<{ name: string; variables: Record<string, unknown> }>;
  /** an error no one in this instance caught: the calling process's call activity may */
  uncaughtError: { code: string; from: string } | null;
  /** a terminate end event with terminateAll ended the instance: the processes that called it end too */
  terminatedAll: boolean;
  /** the task ids (visits) whose assignee changed in this step, with the new one */
  assigned: Map<string, string | null>;
}

export interface Runtime {
  readonly model: ProcessModel;
  readonly now: Date;
  readonly out: StepOutput;
  readonly handlers: Readonly<Record<string, ServiceHandler>>;
  readonly businessKey: string | null;

  node(id: string): Node;
  flow(id: string): Flow;
  nextId(prefix: 'x' | 'v'): string;

  get(id: string): Execution | undefined;
  root(): Execution;
  add(e: Omit<Execution, 'id'>): Execution;
  /** the tokens and scopes directly in a scope execution (not its subscriptions) */
  children(scope: Execution): Execution[];
  /** the subscriptions watching an execution */
  subscriptions(of: Execution): Execution[];
  all(): Execution[];

  lookup(e: Execution, name: string): unknown;
  visible(e: Execution): Record<string, unknown>;
  setVariable(e: Execution, name: string, value: unknown): void;
  setVariables(e: Execution, vars: Record<string, unknown> | void | undefined): void;
  evaluate(e: Execution, text: string, where: Node | Flow): unknown;
  holds(e: Execution, flow: Flow): boolean;

  /** counts an activity against the step's bounds */
  count(where: string): void;
  record(event: HistoryEvent['event'], node: Node | { id: string; type: string; name: string | null }, visit: string | null, extra?: Partial<HistoryEvent>): void;
  /** runs `fn` after what is queued (Flowable's agenda) */
  push(fn: () => Promise<void> | void): void;

  /** removes an execution without a trace (a subscription that is no longer needed, a merged token) */
  drop(e: Execution): void;
  /** the execution arrives at its node: counted, a new visit, its start in the history, its start listeners */
  arrive(e: Execution): Promise<void>;
  /** queues the execution's arrival at its node and the node's behaviour */
  enter(e: Execution): void;
  /** the node's work is done: it leaves by the flows it selects (or completes its instance of a multi-instance body) */
  leave(e: Execution, flows?: string[]): Promise<void>;
  take(e: Execution, flowId: string): void;
  /** the token is done (an end event, a node without outgoing flows): its scope may complete */
  end(e: Execution): void;
  /** cancels an execution, what runs inside it and what watches it (tasks cancelled, subscriptions dropped) */
  cancel(e: Execution): Promise<void>;
  /** runs the listeners of a node for an event (execution listeners, or task listeners with `task`) */
  listen(e: Execution, node: Node, event: string, task?: boolean): Promise<void>;
  /** marks the instance ended (all its executions gone) */
  finish(): Promise<void>;
}
