/**
 * Whether a deployed leave process (key `Leave`) can serve the console's leave form. The form starts it with
 * `applyUser`, `taskUser` (the approver it picks) and `days`; BladeX's own LeaveProcess and the console's model both
 * hand a task to `${taskUser}`. The rule, checked on the definition's BPMN: some user task has `${taskUser}` (or
 * `#{taskUser}`) as its assignee or as one of its candidate users, in any namespace (flowable:, activiti:, camunda:).
 * A model that gives no task to the approver would take the request and never show it to the person chosen.
 */

const USER_TASK = /<(?:[\w.-]+:)?userTask\b([^>]*)>/g;
const ASSIGNING = /(?:^|\s)(?:[\w.-]+:)?(?:assignee|candidateUsers)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const FORM_APPROVER = /^[$#]\{\s*taskUser\s*\}$/;

/** the ids (or positions) of the user tasks a model gives to the form's approver */
export function approverTasks(xml: string): string[] {
  const out: string[] = [];
  let n = 0;
  for (const task of xml.replace(/<!--[\s\S]*?-->/g, '').matchAll(USER_TASK)) {
    n++;
    const attrs = task[1] ?? '';
    const values = [...attrs.matchAll(ASSIGNING)].flatMap((a) => (a[1] ?? a[2] ?? '').split(',').map((v) => v.trim()));
    if (values.some((v) => FORM_APPROVER.test(v))) out.push(/\bid\s*=\s*["']([^"']*)["']/.exec(attrs)?.[1] ?? `#${n}`);
  }
  return out;
}

const KNOWN = 500;
const served = new Map<string, boolean>();

/** the same, kept per definition (a definition never changes once deployed) */
export function servesLeaveForm(definitionId: string, xml: string): boolean {
  let ok = served.get(definitionId);
  if (ok === undefined) {
    ok = approverTasks(xml).length > 0;
    if (served.size >= KNOWN) served.delete(served.keys().next().value as string);
    served.set(definitionId, ok);
  }
  return ok;
}
