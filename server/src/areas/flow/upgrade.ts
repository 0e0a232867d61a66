import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../core/db/index.js';
import { BpmnInvalid, compileBpmn, loadModel } from './bpmn/compile.js';
import { MODEL_FORMAT, type ProcessModel } from './bpmn/model.js';
import { type Execution, type InstanceState, isState, STATE_FORMAT } from './bpmn/runtime/state.js';
import { flowDefinition, flowInstance, flowTask } from './tables.js';

/**
 * Definitions and instances saved by the engine before issue 25 (bpmn-engine's JSON) carried over to the
 * interpreter's: each definition compiled again from its XML; each instance rebuilt from its open tasks (rows
 * of their own, so nothing of the old engine's state needs reading), inside their sub-process scopes, with the
 * boundary events of each task armed again (a timer keeps the instance's due time). An instance waiting
 * somewhere else than at a user task cannot be rebuilt that way: it becomes an incident, with the reason.
 */

const UNCONVERTIBLE = 'saved by the workflow engine before its upgrade while waiting at an event, which the upgrade cannot carry over: delete it and start it again';

async function recompile(tx: Executor, services: ReadonlySet<string>): Promise<Map<string, ProcessModel>> {
  const models = new Map<string, ProcessModel>();
  const defs = await tx.select({ id: flowDefinition.id, xml: flowDefinition.xml, processKey: flowDefinition.processKey, compiled: flowDefinition.compiled }).from(flowDefinition);
  for (const d of defs) {
    const stored = loadModel(d.compiled);
    if (stored.format === MODEL_FORMAT) {
      models.set(d.id, stored);
      continue;
    }
    try {
      const all = await compileBpmn(d.xml, services, { maxActivities: Number.MAX_SAFE_INTEGER });
      const mine = all.find((p) => p.key === d.processKey);
      if (!mine) continue;
      await tx.update(flowDefinition).set({ compiled: mine.compiled, startMessages: mine.startMessages }).where(eq(flowDefinition.id, d.id));
      models.set(d.id, loadModel(mine.compiled));
    } catch (e) {
      // a model the checks now refuse keeps its old form: its instances become incidents below
      if (!(e instanceof BpmnInvalid)) throw e;
    }
  }
  return models;
}

/** the state of an instance waiting at `tasks`, or null when it cannot be rebuilt from them */
export function stateFromTasks(model: ProcessModel, variables: Record<string, unknown>, tasks: Array<{ executionId: string; taskDefinitionKey: string }>, dueAt: Date | null): InstanceState | null {
  if (!tasks.length || tasks.some((t) => model.nodes[t.taskDefinitionKey]?.type !== 'userTask')) return null;
  const state: InstanceState = { format: STATE_FORMAT, seq: 0, executions: [] };
  const add = (e: Omit<Execution, 'id'>): Execution => {
    const x = { id: `x${++state.seq}`, ...e };
    state.executions.push(x);
    return x;
  };
  const root = add({ parent: null, node: null, vars: { ...variables } });
  const scopes = new Map<string | null, Execution>([[null, root]]);
  const scopeOf = (scope: string | null): Execution => {
    const known = scopes.get(scope);
    if (known) return known;
    const parent = scopeOf(model.nodes[scope!]!.scope);
    const x = add({ parent: parent.id, node: scope, wait: 'scope', visit: `v${state.seq + 1}` });
    scopes.set(scope, x);
    return x;
  };
  const bodies = new Map<string, Execution>();
  for (const t of tasks) {
    const node = model.nodes[t.taskDefinitionKey]!;
    let parent = scopeOf(node.scope);
    if (node.loop) {
      const body = bodies.get(node.id) ?? add({ parent: parent.id, node: node.id, multi: true, wait: 'scope', vars: { nrOfInstances: 0, nrOfCompletedInstances: 0, nrOfActiveInstances: 0 } });
      bodies.set(node.id, body);
      body.vars!.nrOfInstances = Number(body.vars!.nrOfInstances) + 1;
      body.vars!.nrOfActiveInstances = Number(body.vars!.nrOfActiveInstances) + 1;
      parent = body;
    }
    const token = add({ parent: parent.id, node: node.id, visit: t.executionId, wait: 'task', ...(node.loop ? { instance: true as const, vars: { loopCounter: 0 } } : {}) });
    for (const b of node.boundaries ?? []) {
      const ev = model.nodes[b]!.event;
      if (ev?.kind === 'timer') add({ parent: parent.id, node: b, watches: token.id, timer: { due: (dueAt ?? new Date()).toISOString() } });
      if (ev?.kind === 'message') add({ parent: parent.id, node: b, watches: token.id, message: ev.message });
      if (ev?.kind === 'signal') add({ parent: parent.id, node: b, watches: token.id, signal: ev.signal });
    }
  }
  return state;
}

/** The data step: every definition and running instance of every tenant in the interpreter's form. */
export async function upgradeEngineState(tx: Executor, services: ReadonlySet<string>): Promise<void> {
  const models = await recompile(tx, services);
  const instances = await tx.select().from(flowInstance).where(inArray(flowInstance.status, ['running', 'incident']));
  for (const instance of instances) {
    if (instance.state === null || isState(instance.state)) continue;
    const model = models.get(instance.definitionId);
    const tasks = await tx.select({ executionId: flowTask.executionId, taskDefinitionKey: flowTask.taskDefinitionKey }).from(flowTask)
      .where(and(eq(flowTask.instanceId, instance.id), eq(flowTask.status, 'open')));
    const state = model ? stateFromTasks(model, instance.variables as Record<string, unknown>, tasks, instance.dueAt) : null;
    if (state) {
      await tx.update(flowInstance).set({ state, waitsMessages: [...new Set(state.executions.filter((e) => e.message).map((e) => e.message!))], waitsSignals: [...new Set(state.executions.filter((e) => e.signal).map((e) => e.signal!))] })
        .where(eq(flowInstance.id, instance.id));
    } else {
      await tx.update(flowInstance).set({ status: 'incident', incidentReason: UNCONVERTIBLE, dueAt: null }).where(eq(flowInstance.id, instance.id));
    }
  }
}
