import type { Node, VariableMapping } from '../model.js';
import { BpmnError, type Runtime, StepFailed, StepStopped } from './context.js';
import { subscribeBoundaries, throwError } from './events.js';
import type { Execution } from './state.js';

/** User tasks, service tasks and call activities as Flowable runs them. */

const where = (node: Node) => ({ id: node.id, type: node.type });

/** an assignee or candidates expression's value as user or group ids: a list, or a comma-separated text */
function ids(value: unknown): string[] {
  if (value === null || value === undefined || value === '') return [];
  const items = Array.isArray(value) ? value : String(value).split(',');
  return items.map((v) => String(v).trim()).filter(Boolean);
}

/** Opens a user task: its assignee and candidates resolved now, its boundary events armed, its listeners run. */
export async function openTask(rt: Runtime, e: Execution, node: Node): Promise<void> {
  const assigneeValue = node.assignee ? rt.evaluate(e, node.assignee, node) : null;
  const assignee = ids(assigneeValue)[0] ?? null;
  const candidateUsers = [...new Set((node.candidateUsers ?? []).flatMap((c) => ids(rt.evaluate(e, c, node))))];
  const candidateGroups = [...new Set((node.candidateGroups ?? []).flatMap((c) => ids(rt.evaluate(e, c, node))))];
  e.wait = 'task';
  rt.out.opened.set(e.visit!, {
    taskId: e.visit!, activityId: node.id, name: String(node.name ? rt.evaluate(e, node.name, node) ?? '' : node.id).slice(0, 255) || node.id, assignee, candidateUsers, candidateGroups,
    formKey: node.formKey ? String(rt.evaluate(e, node.formKey, node) ?? '') || null : null,
  });
  subscribeBoundaries(rt, e, node);
  if (assignee) await rt.listen(e, node, 'assignment', true);
  await rt.listen(e, node, 'create', true);
}

/** Completes a waiting user task: its variables set (in the process, unless a scope holds them), then it leaves. */
export async function completeTask(rt: Runtime, e: Execution, variables: Record<string, unknown>): Promise<void> {
  const node = rt.node(e.node!);
  rt.setVariables(e, variables);
  await rt.listen(e, node, 'complete', true);
  // Flowable deletes a completed task from the runtime, firing its delete listeners too (TaskHelper.completeTask)
  await rt.listen(e, node, 'delete', true);
  rt.out.closed.push({ taskId: e.visit!, outcome: 'completed' });
  delete e.wait;
  await rt.leave(e);
}

/** A claim or a reassignment: the task's assignment listeners run. */
export async function assignTask(rt: Runtime, e: Execution, assignee: string | null): Promise<void> {
  rt.out.assigned.set(e.visit!, assignee);
  await rt.listen(e, rt.node(e.node!), 'assignment', true);
}

/** A service task calls its server handler with the visible variables; what it answers becomes variables. */
export async function runService(rt: Runtime, e: Execution, node: Node, remainingMs: () => number): Promise<void> {
  const handler = rt.handlers[node.handler!];
  if (!handler) throw new StepFailed(`no server handler "${node.handler}"`, where(node));
  let timer: NodeJS.Timeout | undefined;
  let out: Record<string, unknown> | void;
  try {
    out = await Promise.race([
      handler(rt.visible(e)),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new StepStopped(`the step ran longer than its bound waiting for the handler "${node.handler}" of ${node.id}`)), Math.max(0, remainingMs()));
      }),
    ]);
  } catch (err) {
    if (err instanceof BpmnError) {
      if (await throwError(rt, e, err.code)) return;
      rt.out.uncaughtError = { code: err.code, from: node.id };
      return;
    }
    if (err instanceof StepStopped || err instanceof StepFailed) throw err;
    throw new StepFailed(err instanceof Error ? err.message : String(err), where(node));
  } finally {
    clearTimeout(timer);
  }
  if (node.resultVariable) rt.setVariable(e, node.resultVariable, out ?? null);
  else rt.setVariables(e, out);
  await rt.leave(e);
}

function mapped(mappings: VariableMapping[], read: (m: VariableMapping) => unknown, into: (name: string, value: unknown) => void): void {
  for (const m of mappings) if (m.target !== '*') into(m.target, read(m));
}

/** A call activity asks the engine to start its process (by key) with the variables it passes in, and waits. */
export function callProcess(rt: Runtime, e: Execution, node: Node): void {
  const call = node.call!;
  const key = String(rt.evaluate(e, call.element, node) ?? '').trim();
  if (!key) throw new StepFailed(`the called process "${call.element}" resolves to no key`, where(node));
  const variables: Record<string, unknown> = call.inheritVariables ? { ...rt.visible(e) } : {};
  mapped(call.inputs, (m) => (m.sourceExpression ? rt.evaluate(e, m.sourceExpression, node) : rt.lookup(e, m.source ?? m.target)), (k, v) => {
    variables[k] = v ?? null;
  });
  const businessKey = call.businessKey ? String(rt.evaluate(e, call.businessKey, node) ?? '') || null : call.inheritBusinessKey ? rt.businessKey : null;
  e.wait = 'call';
  subscribeBoundaries(rt, e, node);
  rt.out.calls.push({ executionId: e.id, visit: e.visit!, key, variables, businessKey });
}

/** The called process ended: its variables come out as mapped, and the call activity leaves. */
export async function callEnded(rt: Runtime, e: Execution, childVariables: Record<string, unknown>, evaluateInChild: (text: string) => unknown): Promise<void> {
  const node = rt.node(e.node!);
  const call = node.call!;
  if (call.outputs.some((m) => m.target === '*')) rt.setVariables(e, childVariables);
  mapped(call.outputs, (m) => (m.sourceExpression ? evaluateInChild(m.sourceExpression) : childVariables[m.source ?? m.target]), (k, v) => rt.setVariable(e, k, v ?? null));
  delete e.wait;
  await rt.leave(e);
}
