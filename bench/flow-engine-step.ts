/**
 * The engine's share of one `complete-task` step (issue 25): the pure engine step, in-process, with no database,
 * no transaction and no HTTP, on instances saved by the server and waiting at a user task.
 *
 * `engineCompleteStep` is the one place that names the engine. Today it calls `runStep` (bpmn/step.ts) exactly as
 * `FlowEngine.complete` does through `FlowEngine.step`: the instance id, the definition's compiled form, its saved
 * state to resume, the task's execution id signalled with the completion's variables, no service handlers (the
 * leave model has none), the server's step bounds. After an engine rewrite, point it at the new step function.
 */
import { runStep, type StepLimits } from '@console/server/src/areas/flow/bpmn/step.js';

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
export async function engineCompleteStep(w: WaitingInstance, limits: StepLimits): Promise<{ ended: boolean }> {
  const r = await runStep(w.instanceId, w.compiled, { resume: { state: w.state }, signal: { taskId: w.executionId, variables: APPROVED } }, {}, limits);
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
