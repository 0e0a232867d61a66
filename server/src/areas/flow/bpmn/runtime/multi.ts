import type { Node } from '../model.js';
import { type Runtime, StepFailed } from './context.js';
import { subscribeBoundaries } from './events.js';
import type { Execution } from './state.js';

/**
 * Multi-instance activities as Flowable runs them (Parallel- and SequentialMultiInstanceBehavior): a body
 * execution holds nrOfInstances, nrOfCompletedInstances and nrOfActiveInstances; each instance is a child with
 * its own loopCounter and element variable, and does the activity on its own (a user task per approver). When the
 * completion condition holds, or all are done, the rest are cancelled and the body leaves.
 */

const where = (node: Node) => ({ id: node.id, type: node.type });
const COUNTERS = ['nrOfInstances', 'nrOfCompletedInstances', 'nrOfActiveInstances'] as const;

type Behave = (e: Execution, node: Node) => Promise<void>;

/** the items of the loop: the collection (an expression, or a variable's name), or as many as the cardinality */
function itemsOf(rt: Runtime, e: Execution, node: Node): unknown[] {
  const loop = node.loop!;
  if (loop.collection) {
    const text = loop.collection;
    const value = /[$#]\{/.test(text) ? rt.evaluate(e, text, node) : rt.lookup(e, text);
    if (!Array.isArray(value)) {
      throw new StepFailed(`the multi-instance collection "${text}" is not a list (it is ${value === undefined ? 'not set' : JSON.stringify(value)?.slice(0, 80)})`, where(node));
    }
    return value;
  }
  const n = Number(rt.evaluate(e, loop.cardinality!, node));
  if (!Number.isInteger(n) || n < 0) throw new StepFailed(`the loop cardinality "${loop.cardinality}" is not a whole number ≥ 0`, where(node));
  return Array.from({ length: n }, () => undefined);
}

async function spawn(rt: Runtime, body: Execution, node: Node, index: number, items: unknown[], behave: Behave): Promise<void> {
  const loop = node.loop!;
  const vars: Record<string, unknown> = { loopCounter: index };
  if (loop.elementVariable) vars[loop.elementVariable] = items[index] ?? null;
  if (loop.elementIndexVariable) vars[loop.elementIndexVariable] = index;
  const x = rt.add({ parent: body.id, node: node.id, instance: true, vars });
  await rt.arrive(x);
  return behave(x, node);
}

/** Starts a multi-instance body at `e` and its first instance, or all of them (parallel). */
export async function startMulti(rt: Runtime, e: Execution, node: Node, behave: Behave): Promise<void> {
  const items = itemsOf(rt, e, node);
  const n = items.length;
  const parallel = !node.loop!.sequential;
  e.multi = true;
  e.wait = 'scope';
  e.vars = { ...e.vars, nrOfInstances: n, nrOfCompletedInstances: 0, nrOfActiveInstances: parallel ? n : Math.min(1, n), ...(node.loop!.collection ? { [itemsKey(node)]: items } : {}) };
  subscribeBoundaries(rt, e, node);
  if (n === 0) return finishBody(rt, e, node);
  const instances = parallel ? n : 1;
  for (let i = 0; i < instances; i++) await spawn(rt, e, node, i, items, behave);
}

/** the body keeps its list, so that a sequential loop takes the next item from what it started with */
const itemsKey = (node: Node) => `__items_${node.id}`;

async function finishBody(rt: Runtime, body: Execution, node: Node): Promise<void> {
  for (const c of rt.children(body)) await rt.cancel(c);
  delete body.multi;
  delete body.wait;
  if (body.vars) {
    for (const k of COUNTERS) delete body.vars[k];
    delete body.vars[itemsKey(node)];
    if (!Object.keys(body.vars).length) delete body.vars;
  }
  await rt.leave(body);
}

/** Flowable refuses a completion condition that gives no boolean (MultiInstanceActivityBehavior.completionConditionSatisfied) */
function completionMet(rt: Runtime, x: Execution, condition: string, node: Node): boolean {
  const value = rt.evaluate(x, condition, node);
  if (typeof value === 'boolean') return value;
  throw new StepFailed({
    zh: `多实例完成条件 ${condition} 的值是 ${JSON.stringify(value) ?? '未定义'}, 不是 true 或 false`,
    en: `the multi-instance completion condition ${condition} gives ${JSON.stringify(value) ?? 'nothing'}, not true or false`,
  }, where(node));
}

/** One instance is done: the counters move, the completion condition is read, and the body goes on or waits for the rest. */
export async function instanceDone(rt: Runtime, x: Execution, behave: Behave): Promise<void> {
  const body = rt.get(x.parent!)!;
  const node = rt.node(x.node!);
  const counters = body.vars!;
  counters.nrOfCompletedInstances = Number(counters.nrOfCompletedInstances) + 1;
  counters.nrOfActiveInstances = Number(counters.nrOfActiveInstances) - 1;
  const condition = node.loop!.completion;
  const met = condition ? completionMet(rt, x, condition, node) : false;
  rt.drop(x);
  const n = Number(counters.nrOfInstances);
  const completed = Number(counters.nrOfCompletedInstances);
  if (met || completed >= n) return finishBody(rt, body, node);
  if (node.loop!.sequential) {
    counters.nrOfActiveInstances = 1;
    const items = (counters[itemsKey(node)] as unknown[] | undefined) ?? Array.from({ length: n }, () => undefined);
    await spawn(rt, body, node, completed, items, behave);
  }
}
