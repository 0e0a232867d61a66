/**
 * The engine's share of one `complete-task` step (issue 25): the pure engine step, in-process, with no database,
 * no transaction and no HTTP, on instances saved by the server and waiting at a user task.
 *
 * `engineCompleteStep` is the one place that names the engine. It calls the interpreter's `runStep`
 * (bpmn/runtime/step.ts) as `StepDriver.advance` does for `FlowEngine.complete`: the definition's model (parsed once,
 * as the engine keeps it), the instance's saved state, the task's visit completed with the completion's variables,
 * no service handlers (the leave model has none), the server's step bounds. (Before issue 25 it recovered a
 * bpmn-engine from the state and signalled the task: `runStep(instanceId, compiled, { resume, signal }, {}, limits)`.)
 */
import { loadModel } from '@console/server/src/areas/flow/bpmn/compile.js';
import type { ProcessModel } from '@console/server/src/areas/flow/bpmn/model.js';
import type { StepLimits } from '@console/server/src/areas/flow/bpmn/runtime/context.js';
import type { InstanceState } from '@console/server/src/areas/flow/bpmn/runtime/state.js';
import { runStep } from '@console/server/src/areas/flow/bpmn/runtime/step.js';

/** An instance as `complete-task` finds it: the definition's compiled form, the state saved by its last step, the task. */
export interface WaitingInstance {
  instanceId: string;
  compiled: string;
  state: Record<string, unknown>;
  /** the waiting task's execution id (blade_flow_task.execution_id) */
  executionId: string;
}

/** The variables `complete-task` gives a task completed with flag 'ok' and a comment. */
const APPROVED = { pass: true, comment: '同意' };

/** One engine step completing the instance's task; answers whether the instance ended (the short leaves do). */
const models = new Map<string, ProcessModel>();

export async function engineCompleteStep(w: WaitingInstance, limits: StepLimits): Promise<{ ended: boolean }> {
  let model = models.get(w.compiled);
  if (!model) models.set(w.compiled, (model = loadModel(w.compiled)));
  const r = await runStep(model, w.state as unknown as InstanceState, { complete: { taskId: w.executionId, variables: APPROVED } }, { handlers: {}, limits });
  return { ended: r.status === 'completed' };
}

/**
 * Times one engine step, ms. Nothing is saved, so the instance stays as it was and can be stepped again. Fails when
 * the step does not end its instance: the figure would not be the same work as a `complete-task` of a short leave.
 */
export async function timeEngineStep(w: WaitingInstance, limits: StepLimits): Promise<number> {
  const t = performance.now();
  const { ended } = await engineCompleteStep(w, limits);
  const elapsed = performance.now() - t;
  if (!ended) throw new Error(`engine step on instance ${w.instanceId} did not end it`);
  return elapsed;
}
