import type { Node } from '../model.js';
import { nodesIn } from '../model.js';
import { type Runtime, StepFailed } from './context.js';
import type { Execution } from './state.js';
import { addDuration, dueOf, TimerTextError } from './timers.js';

/**
 * Events as Flowable runs them: what an event waits for, the subscriptions of boundary events, event
 * sub-processes and event-based gateways, their firing (interrupting or not), and BPMN errors caught by the
 * nearest matching boundary or event sub-process.
 */

/** what a catching event waits for: a timer's due time, a message's or a signal's name */
export function waitFor(rt: Runtime, e: Execution, node: Node): Pick<Execution, 'timer' | 'message' | 'signal'> {
  const ev = node.event;
  if (ev?.kind === 'timer') {
    const value = rt.evaluate(e, ev.timer.expression, node);
    try {
      const { due, repeat, every } = dueOf(rt.now, ev.timer.type, value);
      return { timer: { due: due.toISOString(), ...(every ? { repeat: repeat ?? null, every } : {}) } };
    } catch (err) {
      if (err instanceof TimerTextError) throw new StepFailed(err.message, { id: node.id, type: node.type });
      throw err;
    }
  }
  if (ev?.kind === 'message') return { message: ev.message };
  if (ev?.kind === 'signal') return { signal: ev.signal };
  throw new StepFailed('this event waits for nothing the engine delivers', { id: node.id, type: node.type });
}

/**
 * an activity that waits gets the subscriptions of its boundary events (an error boundary is found when an error is
 * thrown); a multi-instance activity gets them once, on its body (Flowable creates them on the multi-instance root
 * execution, ContinueProcessOperation.executeMultiInstanceSynchronous, and not for each instance)
 */
export function subscribeBoundaries(rt: Runtime, e: Execution, node: Node): void {
  if (e.instance) return;
  for (const id of node.boundaries ?? []) {
    const b = rt.node(id);
    if (b.event?.kind === 'error') continue;
    rt.add({ parent: e.parent, node: id, watches: e.id, ...waitFor(rt, e, b) });
  }
}

/** a scope (the process, a sub-process) that starts gets the subscriptions of its event sub-processes' start events */
export function subscribeEventSubProcesses(rt: Runtime, scope: Execution, scopeNode: string | null): void {
  for (const sub of nodesIn(rt.model, scopeNode)) {
    if (sub.type !== 'subProcess' || !sub.triggeredByEvent) continue;
    for (const child of sub.children ?? []) {
      const start = rt.node(child);
      if (start.type !== 'startEvent' || start.event?.kind === 'error' || start.event?.kind === 'none') continue;
      rt.add({ parent: scope.id, node: start.id, watches: scope.id, ...waitFor(rt, scope, start) });
    }
  }
}

/** a timer that repeats waits again for its next time, while repetitions are left */
function rearm(sub: Execution): boolean {
  const t = sub.timer;
  if (!t?.every || t.repeat === 0) return false;
  sub.timer = { due: addDuration(new Date(t.due), t.every).toISOString(), repeat: t.repeat === null || t.repeat === undefined ? null : t.repeat - 1, every: t.every };
  return true;
}

/** starts an event sub-process in its scope (the start event's subscription fired, or an error reached it) */
async function startEventSubProcess(rt: Runtime, scope: Execution, start: Node): Promise<void> {
  const sub = rt.node(start.scope!);
  if (start.interrupting !== false) {
    for (const c of rt.children(scope)) await rt.cancel(c);
    for (const s of rt.subscriptions(scope)) if (s.parent === scope.id) rt.drop(s);
  }
  const body = rt.add({ parent: scope.id, node: sub.id, wait: 'scope' });
  await rt.arrive(body);
  subscribeEventSubProcesses(rt, body, sub.id);
  rt.enter(rt.add({ parent: body.id, node: start.id }));
}

/** a boundary event's activity is cancelled (interrupting) or kept, and a token leaves by the boundary's flows */
async function boundaryFired(rt: Runtime, sub: Execution, node: Node, host: Execution | undefined): Promise<void> {
  if (node.interrupting !== false) {
    rt.drop(sub);
    if (host) await rt.cancel(host);
  } else if (!rearm(sub) && sub.timer) {
    rt.drop(sub);
  }
  const token = rt.add({ parent: sub.parent, node: node.id });
  await rt.arrive(token);
  await rt.leave(token);
}

/** an event-based gateway's event came: the gateway's other events are dropped, its token goes on through this one */
async function gatewayEventFired(rt: Runtime, node: Node, gateway: Execution): Promise<void> {
  for (const s of rt.subscriptions(gateway)) rt.drop(s);
  const gatewayNode = rt.node(gateway.node!);
  rt.record('end', gatewayNode, gateway.visit ?? null);
  const flow = gatewayNode.outgoing.find((f) => rt.flow(f).target === node.id);
  if (flow) rt.record('take', { id: flow, type: 'sequenceFlow', name: rt.flow(flow).name }, null, { sourceId: gateway.node, targetId: node.id });
  delete gateway.wait;
  gateway.node = node.id;
  await rt.arrive(gateway);
  await rt.leave(gateway);
}

/** Fires what waits: a catching event, a receive task, a boundary event, an event sub-process's start or a gateway's event. */
export async function fire(rt: Runtime, e: Execution, variables?: Record<string, unknown>): Promise<void> {
  const node = rt.node(e.node!);
  const watched = e.watches ? rt.get(e.watches) : undefined;
  if (variables) rt.setVariables(watched ?? e, variables);
  if (!e.watches) {
    delete e.timer;
    delete e.message;
    delete e.signal;
    delete e.wait;
    return rt.leave(e);
  }
  if (node.type === 'boundaryEvent') return boundaryFired(rt, e, node, watched);
  if (node.type === 'startEvent') {
    if (!watched) return rt.drop(e);
    if (node.interrupting === false && !rearm(e) && e.timer) rt.drop(e);
    return startEventSubProcess(rt, watched, node);
  }
  if (watched) return gatewayEventFired(rt, node, watched);
  rt.drop(e);
}

/** Delivers a message to the first execution of the instance waiting for it; false when none waits. */
export async function deliverMessage(rt: Runtime, name: string, variables: Record<string, unknown>): Promise<boolean> {
  const waiting = rt.all().find((e) => e.message === name);
  if (!waiting) return false;
  await fire(rt, waiting, variables);
  return true;
}

/** Delivers a signal to every execution of the instance waiting for it; answers how many. */
export async function deliverSignal(rt: Runtime, name: string, variables: Record<string, unknown>): Promise<number> {
  const waiting = rt.all().filter((e) => e.signal === name);
  for (const e of waiting) if (rt.get(e.id)) await fire(rt, e, variables);
  return waiting.length;
}

/** Fires the timers due by `now`, earliest first (a timer made while firing waits for the next step). */
export async function fireTimers(rt: Runtime, now: Date): Promise<number> {
  const due = rt.all().filter((e) => e.timer && new Date(e.timer.due) <= now).sort((a, b) => a.timer!.due.localeCompare(b.timer!.due));
  let fired = 0;
  for (const e of due) {
    if (!rt.get(e.id)) continue;
    fired++;
    await fire(rt, e);
  }
  return fired;
}

/** the error boundary or error start of `candidates` that catches `code`: its own code first, else a catch-all */
function catcher(candidates: Node[], code: string): Node | undefined {
  const errors = candidates.filter((n) => n.event?.kind === 'error');
  return errors.find((n) => n.event?.kind === 'error' && n.event.code === code) ?? errors.find((n) => n.event?.kind === 'error' && n.event.code === null);
}

/** the error start event of an event sub-process directly in a scope's contents */
function errorStartIn(rt: Runtime, scopeNode: string | null, code: string): Node | undefined {
  const starts = nodesIn(rt.model, scopeNode).filter((n) => n.type === 'subProcess' && n.triggeredByEvent)
    .flatMap((s) => (s.children ?? []).map((c) => rt.node(c)).filter((c) => c.type === 'startEvent'));
  return catcher(starts, code);
}

/**
 * A BPMN error raised at `from` (an error end event, or a handler's BpmnError): the nearest catcher, walking up
 * the scopes, takes it (an event sub-process in a scope before the scope's own boundary events, as Flowable
 * looks). Answers false when none in this instance catches it.
 */
export async function throwError(rt: Runtime, from: Execution, code: string): Promise<boolean> {
  for (let e: Execution | undefined = from; e; e = e.parent ? rt.get(e.parent) : undefined) {
    const contentScope = e.parent === null ? null : e.wait === 'scope' && !e.multi ? e.node : undefined;
    if (contentScope !== undefined) {
      const start = errorStartIn(rt, contentScope, code);
      if (start) {
        await startEventSubProcess(rt, e, start);
        return true;
      }
    }
    if (e.node && !e.instance) {
      const boundary = catcher((rt.node(e.node).boundaries ?? []).map((b) => rt.node(b)), code);
      if (boundary) {
        await rt.cancel(e);
        const token = rt.add({ parent: e.parent, node: boundary.id });
        await rt.arrive(token);
        await rt.leave(token);
        return true;
      }
    }
  }
  return false;
}
