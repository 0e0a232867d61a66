/**
 * An instance's state between steps, as Flowable keeps it in its execution table: a tree of executions (the
 * process's root, a scope per sub-process and multi-instance body, a token per path) with their local
 * variables, and the subscriptions (timers, messages, signals) of boundary events, event sub-processes and
 * event-based gateways. Plain JSON, saved after every step.
 */

export type WaitKind =
  /** a user task's execution */
  | 'task'
  /** an intermediate catch event or a receive task */
  | 'event'
  /** a token that arrived at a joining gateway */
  | 'join'
  /** a call activity waiting for its process */
  | 'call'
  /** an event-based gateway waiting for one of its events */
  | 'gateway'
  /** a scope (sub-process, multi-instance body) whose children run */
  | 'scope';

export interface Execution {
  id: string;
  /** the scope execution it runs in; null for the process's root */
  parent: string | null;
  /** the node it is at; null for the root */
  node: string | null;
  /** the current visit of that node: a user task's id, and what history pairs a start and an end by */
  visit?: string;
  wait?: WaitKind;
  /** its local variables; the root's are the process variables */
  vars?: Record<string, unknown>;
  /** a multi-instance body: its instances are its children */
  multi?: true;
  /** one instance of a multi-instance body */
  instance?: true;
  /** what a waiting event or subscription waits for */
  timer?: { due: string; repeat?: number | null; every?: string };
  message?: string;
  signal?: string;
  /**
   * a subscription (a boundary event, an event sub-process's start, an event-based gateway's event): the
   * execution whose activity or scope it watches, and it is no token of its own
   */
  watches?: string;
  /** a call activity's process instance */
  child?: string;
}

export interface InstanceState {
  format: typeof STATE_FORMAT;
  /** the counter of execution and visit ids */
  seq: number;
  executions: Execution[];
}

export const STATE_FORMAT = 2;

export const isState = (v: unknown): v is InstanceState => !!v && typeof v === 'object' && (v as InstanceState).format === STATE_FORMAT;
