import type { ProcessModel } from './bpmn/model.js';

/**
 * Whether a deployed leave process (key `Leave`) can serve the console's leave form. The form starts it with
 * `applyUser`, `taskUser` (the approver it picks) and `days`; BladeX's own LeaveProcess and the console's model both
 * hand a task to `${taskUser}`. The rule, read on the definition's compiled model: some user task has `${taskUser}`
 * (or `#{taskUser}`) as its assignee (`humanPerformer` too) or among its candidate users (`potentialOwner`'s
 * `user(…)` too), whichever namespace the model wrote it in. A model that gives no task to the approver would take
 * the request and never show it to the person chosen.
 */

const FORM_APPROVER = /^[$#]\{\s*taskUser\s*\}$/;

/** the ids of the user tasks a model gives to the form's approver */
export function approverTasks(model: ProcessModel): string[] {
  return Object.values(model.nodes)
    .filter((n) => n.type === 'userTask' && [n.assignee ?? '', ...(n.candidateUsers ?? [])].some((v) => FORM_APPROVER.test(v.trim())))
    .map((n) => n.id);
}
