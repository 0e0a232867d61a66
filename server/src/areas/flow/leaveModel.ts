import { and, eq, ne } from 'drizzle-orm';
import { type Executor, schema } from '../../core/db/index.js';
import type { ProcessModel } from './bpmn/model.js';
import { categoryOfKey, FLOW_DICT } from './category.js';

/**
 * Whether a deployed process can serve the console's leave form. The form starts it with `applyUser`, `taskUser`
 * (the approver it picks) and `days`; BladeX's own LeaveProcess and the console's model both hand a task to
 * `${taskUser}`. The rule, read on the definition's compiled model: some user task has `${taskUser}` (or
 * `#{taskUser}`) as its assignee (`humanPerformer` too) or among its candidate users (`potentialOwner`'s `user(…)`
 * too), whichever namespace the model wrote it in. A model that gives no task to the approver would take the request
 * and never show it to the person chosen. Which processes the form is for is their category's: the `flow`
 * dictionary's items whose remark names the form (BladeX's flow routes), whatever the process key.
 */

const FORM_APPROVER = /^[$#]\{\s*taskUser\s*\}$/;

/** the business form's name in the `flow` dictionary's remarks (Saber's flow routes) */
export const LEAVE_FORM = 'leave';

/** why the leave form cannot start a process of its category (the web names it before the form opens) */
export type LeaveFormProblem = 'noApprover' | 'unreadable';

/** the ids of the user tasks a model gives to the form's approver */
export function approverTasks(model: ProcessModel): string[] {
  return Object.values(model.nodes)
    .filter((n) => n.type === 'userTask' && [n.assignee ?? '', ...(n.candidateUsers ?? [])].some((v) => FORM_APPROVER.test(v.trim())))
    .map((n) => n.id);
}

/** null when the form fits the model, else why not */
export const leaveFormProblem = (model: ProcessModel): LeaveFormProblem | null => (approverTasks(model).length ? null : 'noApprover');

/** the categories, as definitions keep them (`flow_1`), whose processes the leave form starts */
export async function leaveCategories(tx: Executor): Promise<Set<string>> {
  const items = await tx.select({ dictKey: schema.dict.dictKey }).from(schema.dict)
    .where(and(eq(schema.dict.code, FLOW_DICT), eq(schema.dict.remark, LEAVE_FORM), ne(schema.dict.parentId, '0'), eq(schema.dict.isDeleted, 0)));
  return new Set(items.map((i) => categoryOfKey(i.dictKey)));
}
