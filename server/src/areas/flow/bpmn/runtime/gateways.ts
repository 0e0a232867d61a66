import type { Node, ProcessModel } from '../model.js';
import { type Runtime, StepFailed } from './context.js';
import { waitFor } from './events.js';
import type { Execution } from './state.js';

/** Gateways as Flowable runs them (ExclusiveGateway-, ParallelGateway-, InclusiveGateway-, EventBasedGatewayActivityBehavior). */

const where = (node: Node) => ({ id: node.id, type: node.type });

/**
 * The flows an activity or a gateway leaves by: those whose condition holds (a flow without one holds),
 * the default left aside; the default when none holds; `first` for an exclusive gateway.
 */
export function selectFlows(rt: Runtime, e: Execution, node: Node, first: boolean): string[] {
  const chosen: string[] = [];
  for (const id of node.outgoing) {
    if (id === node.default) continue;
    if (rt.holds(e, rt.flow(id))) {
      chosen.push(id);
      if (first) break;
    }
  }
  if (!chosen.length && node.default) chosen.push(node.default);
  if (!chosen.length && node.outgoing.length) {
    throw new StepFailed({
      zh: '没有可走的流出顺序流: 没有条件成立, 也没有默认流',
      en: 'no outgoing sequence flow can be taken: no condition holds and there is no default flow',
    }, where(node));
  }
  return chosen;
}

export async function exclusive(rt: Runtime, e: Execution, node: Node): Promise<void> {
  await rt.leave(e, selectFlows(rt, e, node, true));
}

const joined = (rt: Runtime, e: Execution, node: Node) =>
  rt.all().filter((x) => x.parent === e.parent && x.node === node.id && x.wait === 'join' && !x.watches);

/** the other tokens at the joining gateway are merged into `e`, which goes on */
function merge(rt: Runtime, e: Execution, node: Node): void {
  for (const w of joined(rt, e, node)) if (w !== e) rt.drop(w);
  delete e.wait;
}

/** a token that waits at a join has done its visit there (Flowable ends its activity instance at once) */
function waitAtJoin(rt: Runtime, e: Execution, node: Node): void {
  e.wait = 'join';
  if (e.visit) rt.record('end', node, e.visit);
  delete e.visit;
}

/** a fork leaves by every flow; a join waits until as many tokens as it has incoming flows arrived in its scope */
export async function parallel(rt: Runtime, e: Execution, node: Node): Promise<void> {
  if (node.incoming.length > 1) {
    e.wait = 'join';
    if (joined(rt, e, node).length < node.incoming.length) return waitAtJoin(rt, e, node);
    merge(rt, e, node);
  }
  await rt.leave(e, node.outgoing);
}

const reachCache = new WeakMap<ProcessModel, Map<string, Set<string>>>();

/** the nodes reachable from a node by sequence flows (and the flows of its boundary events) */
function reachable(model: ProcessModel, from: string): Set<string> {
  let byModel = reachCache.get(model);
  if (!byModel) reachCache.set(model, (byModel = new Map()));
  const known = byModel.get(from);
  if (known) return known;
  const seen = new Set<string>();
  const queue = [from];
  while (queue.length) {
    const id = queue.pop()!;
    const n = model.nodes[id];
    if (!n) continue;
    const next = [...n.outgoing.map((f) => model.flows[f]!.target), ...(n.boundaries ?? [])];
    for (const t of next) if (!seen.has(t)) {
      seen.add(t);
      queue.push(t);
    }
  }
  byModel.set(from, seen);
  return seen;
}

/** whether another token of the scope can still arrive at the inclusive join (Flowable's executeInclusiveGatewayLogic) */
function canStillArrive(rt: Runtime, e: Execution, node: Node): boolean {
  return rt.all().some((x) => x !== e && !x.watches && x.parent === e.parent && x.node && !(x.node === node.id && x.wait === 'join')
    && (x.node === node.id || reachable(rt.model, x.node).has(node.id)));
}

export async function inclusive(rt: Runtime, e: Execution, node: Node): Promise<void> {
  if (node.incoming.length > 1) {
    e.wait = 'join';
    if (canStillArrive(rt, e, node)) return waitAtJoin(rt, e, node);
    merge(rt, e, node);
  }
  await rt.leave(e, selectFlows(rt, e, node, false));
}

/**
 * Inclusive joins whose last possible token went elsewhere (it ended, or took another way) go on now (Flowable's
 * ExecuteInactiveBehaviorsOperation). Answers whether one went on.
 */
export async function wakeInclusiveJoins(rt: Runtime): Promise<boolean> {
  for (const e of rt.all()) {
    if (e.wait !== 'join' || !e.node) continue;
    const node = rt.node(e.node);
    if (node.type !== 'inclusiveGateway' || canStillArrive(rt, e, node)) continue;
    merge(rt, e, node);
    await rt.leave(e, selectFlows(rt, e, node, false));
    return true;
  }
  return false;
}

/** waits for the first of the events after it: each is subscribed, the first to come takes the token */
export function eventBased(rt: Runtime, e: Execution, node: Node): void {
  e.wait = 'gateway';
  for (const id of node.outgoing) {
    const target = rt.node(rt.flow(id).target);
    if (target.type !== 'intermediateCatchEvent' && target.type !== 'receiveTask') {
      throw new StepFailed(`an event-based gateway leads to catching events only, not to ${target.type} ${target.id}`, where(node));
    }
    rt.add({ parent: e.parent, node: target.id, watches: e.id, ...waitFor(rt, e, target) });
  }
}
