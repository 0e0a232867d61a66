import { describe, expect, it } from 'vitest';
import { approverTasks } from '../src/areas/flow/leaveModel.js';

/** The rule a Leave version must meet to serve the leave form (leaveModel.ts): a user task goes to `${taskUser}`. */

const doc = (tasks: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn" xmlns:camunda="http://camunda.org/schema/1.0/bpmn">
  <process id="Leave" name="请假流程" isExecutable="true">
    <startEvent id="start" flowable:initiator="applyUser" />
    ${tasks}
  </process>
</definitions>`;

describe('which user tasks a leave model gives to the form\'s approver', () => {
  it('finds BladeX\'s shape (hrTask to ${taskUser}, the others to roles, the applicant\'s own step) and the console\'s', () => {
    const bladex = doc(`
      <userTask id="hrTask" name="人事审批" flowable:assignee="\${taskUser}"><extensionElements /></userTask>
      <userTask id="managerTak" name="经理审批" flowable:candidateGroups="manager"></userTask>
      <userTask id="bossTask" name="老板审批" flowable:candidateGroups="boss"></userTask>
      <userTask id="userTask" name="调整申请" flowable:assignee="\${applyUser}"></userTask>`);
    expect(approverTasks(bladex)).toEqual(['hrTask']);
    expect(approverTasks(doc('<userTask id="managerApproval" name="审批人审批" flowable:assignee="${taskUser}" />'))).toEqual(['managerApproval']);
  });

  it('takes #{taskUser}, a candidate users list, single quotes, and any namespace', () => {
    expect(approverTasks(doc(`<userTask id="a" flowable:candidateUsers="admin, \${taskUser}" />`))).toEqual(['a']);
    expect(approverTasks(doc(`<userTask id='b' camunda:assignee='#{ taskUser }' />`))).toEqual(['b']);
    expect(approverTasks(doc(`<bpmn:userTask id="c" activiti:assignee="\${taskUser}"></bpmn:userTask>`))).toEqual(['c']);
  });

  it('finds none where no task goes to the approver: other variables, roles only, a commented-out task, another attribute', () => {
    expect(approverTasks(doc(`<userTask id="a" flowable:assignee="\${manager}" flowable:candidateGroups="hr" />`))).toEqual([]);
    expect(approverTasks(doc(`<userTask id="a" flowable:assignee="\${taskUsers}" />`))).toEqual([]);
    expect(approverTasks(doc(`<!-- <userTask id="old" flowable:assignee="\${taskUser}" /> --><userTask id="a" flowable:assignee="\${applyUser}" />`))).toEqual([]);
    expect(approverTasks(doc(`<userTask id="a" name="\${taskUser}" flowable:dueDate="\${taskUser}" />`))).toEqual([]);
    expect(approverTasks(doc(`<serviceTask id="s" flowable:assignee="\${taskUser}" />`))).toEqual([]);
  });
});
