import { describe, expect, it } from 'vitest';
import { compileBpmn, loadModel } from '../src/areas/flow/bpmn/compile.js';
import { approverTasks as approverTasksOf } from '../src/areas/flow/leaveModel.js';

/** The rule a Leave version must meet to serve the leave form (leaveModel.ts): a user task goes to `${taskUser}`. */

const NS: Record<string, string> = { flowable: 'http://flowable.org/bpmn', camunda: 'http://camunda.org/schema/1.0/bpmn', activiti: 'http://activiti.org/bpmn' };
const doc = (tasks: string, ns = 'flowable', root = '') => `<?xml version="1.0" encoding="UTF-8"?>
<${root}definitions xmlns${root ? `:${root.slice(0, -1)}` : ''}="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:${ns}="${NS[ns]}">
  <${root}process id="Leave" name="请假流程" isExecutable="true">
    <${root}startEvent id="start" ${ns}:initiator="applyUser" />
    ${tasks}
  </${root}process>
</${root}definitions>`;

/** the approver's tasks of a model, read from its compiled form */
const approverTasks = async (xml: string) => approverTasksOf(loadModel((await compileBpmn(xml, new Set()))[0]!.compiled));

describe('which user tasks a leave model gives to the form\'s approver', async () => {
  it('finds BladeX\'s shape (hrTask to ${taskUser}, the others to roles, the applicant\'s own step) and the console\'s', async () => {
    const bladex = doc(`
      <userTask id="hrTask" name="人事审批" flowable:assignee="\${taskUser}"><extensionElements /></userTask>
      <userTask id="managerTak" name="经理审批" flowable:candidateGroups="manager"></userTask>
      <userTask id="bossTask" name="老板审批" flowable:candidateGroups="boss"></userTask>
      <userTask id="userTask" name="调整申请" flowable:assignee="\${applyUser}"></userTask>`);
    expect(await approverTasks(bladex)).toEqual(['hrTask']);
    expect(await approverTasks(doc('<userTask id="managerApproval" name="审批人审批" flowable:assignee="${taskUser}" />'))).toEqual(['managerApproval']);
  });

  it('takes #{taskUser}, a candidate users list, single quotes, and any namespace', async () => {
    expect(await approverTasks(doc(`<userTask id="a" flowable:candidateUsers="admin, \${taskUser}" />`))).toEqual(['a']);
    expect(await approverTasks(doc(`<userTask id='b' camunda:assignee='#{ taskUser }' />`, 'camunda'))).toEqual(['b']);
    expect(await approverTasks(doc(`<bpmn:userTask id="c" activiti:assignee="\${taskUser}"></bpmn:userTask>`, 'activiti', 'bpmn:'))).toEqual(['c']);
    expect(await approverTasks(doc(`<userTask id="d"><humanPerformer><resourceAssignmentExpression><formalExpression>\${taskUser}</formalExpression></resourceAssignmentExpression></humanPerformer></userTask>`))).toEqual(['d']);
  });

  it('finds none where no task goes to the approver: other variables, roles only, a commented-out task, another attribute', async () => {
    expect(await approverTasks(doc(`<userTask id="a" flowable:assignee="\${manager}" flowable:candidateGroups="hr" />`))).toEqual([]);
    expect(await approverTasks(doc(`<userTask id="a" flowable:assignee="\${taskUsers}" />`))).toEqual([]);
    expect(await approverTasks(doc(`<!-- <userTask id="old" flowable:assignee="\${taskUser}" /> --><userTask id="a" flowable:assignee="\${applyUser}" />`))).toEqual([]);
    expect(await approverTasks(doc(`<userTask id="a" name="\${taskUser}" flowable:dueDate="\${taskUser}" />`))).toEqual([]);
    expect(await approverTasks(doc(`<task id="s" flowable:assignee="\${taskUser}" />`))).toEqual([]);
  });
});
