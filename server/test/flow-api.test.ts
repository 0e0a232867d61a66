import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { type BpmnFile, FLOW, flowCalls, type Row, T, uploadBpmn, WORK_CODES } from './flow-conformance-kit.js';
import { useServer } from './harness.js';
import { grantCodes } from './io-resource.js';

/**
 * The workflow over HTTP (issue 12): models saved and deployed, uploads all or none, suspension and deletion,
 * the leave request through the work lists (claim races, rejections), the diagram and history, and who may do
 * and see what: permission codes, the task's candidates, and tenants.
 */

const LEAVE_PATH = '/api/blade-desk/process/leave';
const LEAVE = readFileSync(new URL('../src/areas/flow/leave.bpmn20.xml', import.meta.url), 'utf8');

const h = useServer();
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};

const { list, post, get } = flowCalls(h, tokens);

const upload = (who: string, files: BpmnFile[], fields: Record<string, string> = {}, lang: 'zh' | 'en' = 'en') => uploadBpmn(h, tokens[who]!, files, fields, lang);

const applyLeave = (who: string, over: Record<string, unknown> = {}, lang: 'zh' | 'en' = 'zh') => post(who, `${LEAVE_PATH}/start-process`, {
  processDefinitionId: ids.leaveDef, startTime: '2026-12-01 09:00:00', endTime: '2026-12-02 18:00:00', days: 2, reason: '家中有事', taskUser: ids.bob, ...over,
}, lang);

const todoOf = async (who: string, instanceId: string) => (await list(who, 'work/todo-list')).find((r) => r.instanceId === instanceId);

beforeAll(async () => {
  await grantCodes(h.server, WORK_CODES, ['hr']);
  for (const [account, roles] of [['fa-alice', ['admin']], ['fa-bob', ['admin']], ['fa-hr1', ['hr']], ['fa-hr2', ['hr']], ['fa-eve', []]] as Array<[string, string[]]>) {
    const key = account.slice(3);
    ids[key] = await h.createUser(T, account, 'Flow#2026', roles);
    tokens[key] = (await h.login(T, account, 'Flow#2026')).access_token;
  }
  tokens.platform = (await h.login('000000', 'admin', 'admin')).access_token;
  // the seed deployed the leave process in the demo tenant: the start list offers it, under its category
  const startable = await list('alice', 'work/start-list');
  const leave = startable.find((r) => r.processKey === 'Leave')!;
  expect(leave).toMatchObject({ name: '请假流程', category: 'flow_1', categoryName: '请假流程' });
  ids.leaveDef = leave.id;
});

describe('models', () => {
  it('a new model gets a diagram of its key; a diagram of another key or unreadable is refused, and changes nothing; each saved diagram is a version', async () => {
    const made = await post('alice', 'model/submit', { modelKey: 'Purchase', name: '采购审批', category: '2' });
    expect(made.status, made.body.msg).toBe(200);
    const model = made.body.data as Row;
    expect(model).toMatchObject({ modelKey: 'Purchase', version: 1 });
    expect(String(model.xml)).toContain('<process id="Purchase"');

    const badKey = await post('alice', 'model/submit', { modelKey: '1abc', name: 'x' });
    expect(badKey.status).toBe(400);
    expect(badKey.body.data).toHaveProperty('modelKey');

    const other = await post('alice', 'model/submit', { id: model.id, xml: LEAVE }, 'en');
    expect(other.status).toBe(400);
    expect(other.body.msg).toBe('The diagram\'s process key "Leave" differs from the model key "Purchase"');
    const broken = await post('alice', 'model/submit', { id: model.id, xml: '<definitions><process' }, 'en');
    expect(broken.status).toBe(400);
    expect(broken.body.msg).toMatch(/^The diagram cannot be read: /);

    const drawn = LEAVE.replaceAll('"Leave"', '"Purchase"').replace('name="请假流程"', 'name="采购审批"');
    const saved = await post('alice', 'model/submit', { id: model.id, xml: drawn });
    expect(saved.status, saved.body.msg).toBe(200);
    expect((saved.body.data as Row).version).toBe(2);
    const detail = (await get('alice', 'model/detail', { id: model.id })).body.data as Row;
    expect(detail).toMatchObject({ version: 2, xml: drawn.trim() });
    ids.purchaseModel = model.id;
  });

  it('deploys a model as the next version of its key, into the caller\'s tenant only unless a platform administrator asks', async () => {
    const deployed = await post('alice', 'model/deploy', { modelId: ids.purchaseModel });
    expect(deployed.status, deployed.body.msg).toBe(200);
    expect(deployed.body.data).toEqual([expect.objectContaining({ tenantId: T, processKey: 'Purchase', name: '采购审批', version: 1 })]);
    const again = await post('alice', 'model/deploy', { modelId: ids.purchaseModel, category: '2' });
    expect((again.body.data as Row[])[0]!.version).toBe(2);
    // the start list offers the newest version only; the deployments list has both
    const startable = (await list('alice', 'work/start-list')).filter((r) => r.processKey === 'Purchase');
    expect(startable.map((r) => r.version)).toEqual([2]);
    expect((await list('alice', 'manager/list', { processKey: 'Purchase' })).map((r) => r.version).sort()).toEqual([1, 2]);

    const elsewhere = await post('alice', 'model/deploy', { modelId: ids.purchaseModel, tenantIds: '000000' });
    expect(elsewhere.status).toBe(403);
    // a model that cannot run is refused at deployment with the parser's message
    const model = (await post('alice', 'model/submit', { modelKey: 'Broken', name: '坏模型' })).body.data as Row;
    const xml = String(model.xml).replace('<startEvent id="start"', '<serviceTask id="call" flowable:class="nowhere" /><startEvent id="start"');
    expect((await post('alice', 'model/submit', { id: model.id, xml })).status).toBe(200);
    const refused = await post('alice', 'model/deploy', { modelId: model.id }, 'en');
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toContain('no server handler "nowhere"');
    expect(await list('alice', 'manager/list', { processKey: 'Broken' })).toEqual([]);
  });
});

describe('deployments', () => {
  it('an upload deploys every file or none, naming the file at fault', async () => {
    const second = LEAVE.replaceAll('"Leave"', '"Errand"').replace('name="请假流程"', 'name="外出申请"');
    const bad = await upload('alice', [{ filename: 'errand.bpmn20.xml', data: second }, { filename: 'broken.bpmn', data: '<definitions' }]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toMatch(/^The file "broken.bpmn" cannot be deployed: /);
    expect(await list('alice', 'manager/list', { processKey: 'Errand' })).toEqual([]);
    const wrongType = await upload('alice', [{ filename: 'leave.txt', data: LEAVE }]);
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().msg).toBe('The file "leave.txt" is not a .bpmn or .bpmn20.xml file');
    expect((await upload('alice', [])).json().msg).toBe('Please choose the process files to deploy');
    expect((await upload('alice', [{ filename: 'leave.bpmn20.xml', data: LEAVE }], { tenantIds: '000000' })).statusCode).toBe(403);
    expect((await upload('eve', [{ filename: 'leave.bpmn20.xml', data: LEAVE }])).statusCode).toBe(403);

    const good = await upload('alice', [{ filename: 'errand.bpmn20.xml', data: second }, { filename: 'leave.bpmn20.xml', data: LEAVE }], { category: '1' });
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json().data.map((d: Row) => [d.processKey, d.version])).toEqual([['Errand', 1], ['Leave', 2]]);
    const leave = (await list('alice', 'work/start-list')).find((r) => r.processKey === 'Leave')!;
    expect(leave.version).toBe(2);
    ids.leaveDef = leave.id;
  });

  it('a platform administrator deploys into the tenants named; an unknown tenant is refused before anything is deployed', async () => {
    const unknown = await upload('platform', [{ filename: 'leave.bpmn20.xml', data: LEAVE }], { tenantIds: `${T},999999` });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().msg).toBe('No tenant 999999');
    const both = await upload('platform', [{ filename: 'leave.bpmn20.xml', data: LEAVE }], { tenantIds: `000000,${T}`, category: '1' });
    expect(both.statusCode, both.body).toBe(200);
    expect(both.json().data.map((d: Row) => [d.tenantId, d.version])).toEqual([['000000', 1], [T, 3]]);
    const leave = (await list('alice', 'work/start-list')).find((r) => r.processKey === 'Leave')!;
    ids.leaveDef = leave.id;
  });

  it('a suspended process cannot be started; a deployment with running instances cannot be deleted; a deleted one is gone from the lists', async () => {
    const errand = (await list('alice', 'manager/list', { processKey: 'Errand' }))[0]!;
    expect((await post('alice', 'manager/change-state', { processId: errand.id, state: 'suspend' })).status).toBe(200);
    expect((await list('alice', 'manager/list', { processKey: 'Errand' }))[0]).toMatchObject({ suspended: 1, suspendedName: '挂起' });
    const refused = await post('alice', 'work/start-process', { processDefinitionId: errand.id }, 'en');
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe('The process "外出申请" is suspended and cannot be started');
    expect((await list('alice', 'work/start-list')).some((r) => r.processKey === 'Errand')).toBe(false);
    expect((await post('eve', 'manager/change-state', { processId: errand.id, state: 'active' })).status).toBe(403);
    expect((await post('alice', 'manager/change-state', { processId: errand.id, state: 'active' })).status).toBe(200);

    const started = await post('alice', 'work/start-process', { processDefinitionId: errand.id, businessKey: 'E-1', variables: { applyUser: ids.alice, taskUser: ids.bob, days: 1 } });
    expect(started.status, started.body.msg).toBe(200);
    const instanceId = (started.body.data as { processInstanceId: string }).processInstanceId;
    const busy = await post('alice', 'manager/delete-deployment', { deploymentIds: errand.deploymentId }, 'en');
    expect(busy.status).toBe(400);
    expect(busy.body.msg).toBe('"外出申请" still has 1 running instances: delete them under Running instances first');

    const following = await list('alice', 'follow/list', { businessKey: 'E-1' });
    expect(following.map((r) => r.id)).toEqual([instanceId]);
    expect((await post('alice', 'follow/delete-process-instance', { processInstanceId: instanceId })).status).toBe(400);
    expect((await post('eve', 'follow/delete-process-instance', { processInstanceId: instanceId, deleteReason: '重复提交' })).status).toBe(403);
    expect((await post('alice', 'follow/delete-process-instance', { processInstanceId: instanceId, deleteReason: '重复提交' })).status).toBe(200);
    expect(await list('alice', 'follow/list', { businessKey: 'E-1' })).toEqual([]);
    const sent = (await list('alice', 'work/send-list', { businessKey: 'E-1' }))[0]!;
    expect(sent).toMatchObject({ status: 'deleted', statusName: '已删除', deleteReason: '重复提交' });
    expect(await todoOf('bob', instanceId)).toBeUndefined();

    expect((await post('alice', 'manager/delete-deployment', { deploymentIds: errand.deploymentId })).status).toBe(200);
    expect(await list('alice', 'manager/list', { processKey: 'Errand' })).toEqual([]);
    expect((await post('alice', 'manager/delete-deployment', { deploymentIds: errand.deploymentId })).status).toBe(404);
    // an ended instance still shows its diagram
    const view = await get('alice', 'process/model-view', { processInstanceId: instanceId });
    expect(view.status).toBe(200);
    expect((view.body.data as { xml: string }).xml).toContain('id="Errand"');
  });
});

describe('messages and triggers', () => {
  const WAITING = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn" targetNamespace="t">
  <message id="paid" name="Paid" />
  <process id="Waiting" name="等待">
    <startEvent id="s" /><sequenceFlow id="f1" sourceRef="s" targetRef="wait" />
    <receiveTask id="wait" name="等待回执" /><sequenceFlow id="f2" sourceRef="wait" targetRef="pay" />
    <intermediateCatchEvent id="pay"><messageEventDefinition messageRef="paid" /></intermediateCatchEvent><sequenceFlow id="f3" sourceRef="pay" targetRef="t" />
    <userTask id="t" flowable:assignee="\${owner}" /><sequenceFlow id="f4" sourceRef="t" targetRef="e" /><endEvent id="e" />
  </process>
</definitions>`;

  it('a receive task is triggered and a message delivered by whoever follows the tenant\'s processes; nothing waiting is a 404 naming it; other tenants reach nothing', async () => {
    const res = await upload('alice', [{ filename: 'waiting.bpmn20.xml', data: WAITING }]);
    expect(res.statusCode, res.body).toBe(200);
    const [deployed] = res.json().data as Array<{ definitionId: string }>;
    const started = await post('alice', 'work/start-process', { processDefinitionId: deployed!.definitionId, businessKey: 'W-1', variables: { owner: ids.bob } });
    const instanceId = (started.body.data as { processInstanceId: string }).processInstanceId;
    const trigger = { processInstanceId: instanceId, activityId: 'wait' };
    expect((await post('eve', 'process/trigger', trigger)).status).toBe(403);
    expect((await post('platform', 'process/trigger', trigger)).status).toBe(404);
    const early = await post('alice', 'process/message', { messageName: 'Paid', processInstanceId: instanceId }, 'en');
    expect(early.status).toBe(404);
    expect(early.body.msg).toBe('No process instance waits for the message "Paid"');
    const wrong = await post('alice', 'process/trigger', { processInstanceId: instanceId, activityId: 'pay' }, 'zh');
    expect(wrong.status).toBe(404);
    expect(wrong.body.msg).toBe('该流程实例没有在「pay」等待');
    expect((await post('alice', 'process/trigger', trigger)).status).toBe(200);
    expect((await post('eve', 'process/message', { messageName: 'Paid', businessKey: 'W-1' })).status).toBe(403);
    expect((await post('platform', 'process/message', { messageName: 'Paid', businessKey: 'W-1' })).status).toBe(404);
    const paid = await post('alice', 'process/message', { messageName: 'Paid', businessKey: 'W-1', variables: { amount: 12 } });
    expect(paid.status, paid.body.msg).toBe(200);
    expect(paid.body.data).toEqual({ processInstanceIds: [instanceId] });
    expect(await todoOf('bob', instanceId)).toMatchObject({ taskDefinitionKey: 't' });
    expect((await post('alice', 'process/message', { messageName: 'Paid', businessKey: 'W-1' })).status).toBe(404);
  });
});

describe('the leave request', () => {
  it('refuses a request it cannot route, naming the field, and starts nothing', async () => {
    const before = (await list('alice', 'work/send-list')).length;
    const order = await applyLeave('alice', { endTime: '2026-11-30 09:00:00' }, 'en');
    expect(order.status).toBe(400);
    expect(order.body.data).toEqual({ endTime: 'The end cannot be before the start' });
    const self = await applyLeave('alice', { taskUser: ids.alice }, 'en');
    expect(self.body.data).toEqual({ taskUser: 'You cannot approve your own leave' });
    const nobody = await applyLeave('alice', { taskUser: '12345' }, 'en');
    expect(nobody.body.data).toEqual({ taskUser: 'No such approver, or the approver is disabled' });
    const missing = await applyLeave('alice', { reason: '' }, 'en');
    expect(missing.status).toBe(400);
    expect(missing.body.data).toHaveProperty('reason');
    const purchase = (await list('alice', 'work/start-list')).find((r) => r.processKey === 'Purchase')!;
    expect((await applyLeave('alice', { processDefinitionId: purchase.id }, 'en')).body.data).toEqual({ processDefinitionId: 'The chosen process is not the leave process' });
    expect((await applyLeave('eve')).status).toBe(403);
    expect((await list('alice', 'work/send-list')).length).toBe(before);
  });

  it('offers an applicant the tenant\'s other active users as approvers, without the user screen\'s permission', async () => {
    const all = (await get('hr1', `${LEAVE_PATH}/approvers`, {})).body.data as Row[];
    expect(all.some((u) => u.id === ids.bob)).toBe(true);
    expect(all.some((u) => u.id === ids.hr1)).toBe(false);
    expect((await h.call('GET', '/api/blade-system/user/list', { token: tokens.hr1 })).status).toBe(403);
    const found = (await get('hr1', `${LEAVE_PATH}/approvers`, { keyword: 'fa-bo' })).body.data as Row[];
    expect(found.map((u) => [u.id, u.account, u.realName])).toEqual([[ids.bob, 'fa-bob', 'fa-bob']]);
    expect((await get('hr1', `${LEAVE_PATH}/approvers`, { keyword: '%' })).body.data).toEqual([]);
    expect((await get('eve', `${LEAVE_PATH}/approvers`, {})).status).toBe(403);
    expect(((await get('platform', `${LEAVE_PATH}/approvers`, { keyword: 'fa-' })).body.data as Row[])).toEqual([]);
  });

  it('a long leave: the approver, then HR (one of two claims wins), then the end; the lists, the history and the diagram follow it', async () => {
    const applied = await applyLeave('alice', { days: 5, endTime: '2026-12-05 18:00:00' });
    expect(applied.status, applied.body.msg).toBe(200);
    const { businessId, processInstanceId } = applied.body.data as { businessId: string; processInstanceId: string };

    const todo = (await todoOf('bob', processInstanceId))!;
    expect(todo).toMatchObject({ name: '审批人审批', processName: '请假流程', businessKey: businessId, startUserName: 'fa-alice', category: 'flow_1', taskDefinitionKey: 'managerApproval' });
    expect((await get('bob', 'work/todo-detail', { id: todo.id })).body.data).toMatchObject({ taskDefinitionKey: 'managerApproval' });
    // nobody else sees it, completes it or reads its history
    expect(await todoOf('hr1', processInstanceId)).toBeUndefined();
    expect((await get('hr1', 'work/todo-detail', { id: todo.id })).status).toBe(404);
    expect((await post('hr1', 'work/complete-task', { taskId: todo.id, flag: 'ok' })).status).toBe(403);
    expect((await post('eve', 'work/complete-task', { taskId: todo.id, flag: 'ok' })).status).toBe(403);
    expect((await get('eve', 'process/history-flow-list', { processInstanceId })).status).toBe(403);
    expect((await get('eve', `${LEAVE_PATH}/detail`, { businessId })).status).toBe(403);
    // the task belongs to its instance
    expect((await post('bob', 'work/complete-task', { taskId: todo.id, processInstanceId: ids.leaveDef, flag: 'ok' })).status).toBe(404);

    const approved = await post('bob', 'work/complete-task', { taskId: todo.id, processInstanceId, flag: 'ok', comment: '同意, 注意交接' });
    expect(approved.status, approved.body.msg).toBe(200);
    expect(approved.body.data).toEqual({ processInstanceId, status: 'running' });
    expect((await list('bob', 'work/done-list')).find((r) => r.instanceId === processInstanceId)).toMatchObject({ outcome: 'pass', outcomeName: '通过', comment: '同意, 注意交接' });

    // HR: offered to both members of the role, claimed by one
    const offered = (await list('hr1', 'work/claim-list')).find((r) => r.instanceId === processInstanceId)!;
    expect(offered).toMatchObject({ name: '人事审批', taskDefinitionKey: 'hrApproval' });
    expect((await list('hr2', 'work/claim-list')).some((r) => r.id === offered.id)).toBe(true);
    expect((await list('bob', 'work/claim-list')).some((r) => r.id === offered.id)).toBe(false);
    expect((await post('hr1', 'work/complete-task', { taskId: offered.id, flag: 'ok' }, 'en')).body.msg).toBe('Claim this task first');
    const claims = await Promise.all([post('hr1', 'work/claim-task', { taskId: offered.id }), post('hr2', 'work/claim-task', { taskId: offered.id })]);
    expect(claims.map((c) => c.status).sort()).toEqual([200, 409]);
    const winner = claims[0]!.status === 200 ? 'hr1' : 'hr2';
    const loser = winner === 'hr1' ? 'hr2' : 'hr1';
    expect(await todoOf(loser, processInstanceId)).toBeUndefined();
    expect((await list(loser, 'work/claim-list')).some((r) => r.id === offered.id)).toBe(false);
    const hrTodo = (await todoOf(winner, processInstanceId))!;
    expect(hrTodo.id).toBe(offered.id);
    const done = await post(winner, 'work/complete-task', { taskId: hrTodo.id, processInstanceId, flag: 'ok', comment: '已备案' });
    expect(done.body.data).toEqual({ processInstanceId, status: 'completed' });
    expect((await post(winner, 'work/complete-task', { taskId: hrTodo.id, flag: 'ok' })).status).toBe(404);

    const sent = (await list('alice', 'work/send-list')).find((r) => r.id === processInstanceId)!;
    expect(sent).toMatchObject({ status: 'completed', statusName: '已完成', businessKey: businessId });
    expect(sent.endTime).toBeTruthy();

    const history = (await get('alice', 'process/history-flow-list', { processInstanceId })).body.data as Row[];
    expect(history.map((r) => [r.historyActivityId, r.assigneeName, r.outcome, r.comment])).toEqual([
      ['start', 'fa-alice', null, null],
      ['managerApproval', 'fa-bob', 'pass', '同意, 注意交接'],
      ['hrApproval', `fa-${winner}`, 'pass', '已备案'],
      ['end', null, null, null],
    ]);
    expect(history.every((r) => r.endTime !== null)).toBe(true);

    const view = (await get(winner, 'process/model-view', { processInstanceId })).body.data as { xml: string; flow: Row[] };
    expect(view.xml).toContain('id="Leave"');
    const visited = view.flow.map((f) => `${f.historyActivityType}:${f.historyActivityId}`);
    expect(visited).toEqual(expect.arrayContaining(['startEvent:start', 'userTask:managerApproval', 'exclusiveGateway:daysDecision', 'userTask:hrApproval', 'endEvent:end',
      'sequenceFlow:flowToManager', 'sequenceFlow:flowLongLeave', 'sequenceFlow:flowHrPassed']));
    expect(visited).not.toContain('sequenceFlow:flowShortLeave');
    expect(view.flow.every((f) => f.endTime !== null)).toBe(true);

    const leave = (await get('bob', `${LEAVE_PATH}/detail`, { businessId })).body.data as Row;
    expect(leave).toMatchObject({ days: 5, reason: '家中有事', taskUser: ids.bob, taskUserName: 'fa-bob', applyUserName: 'fa-alice', approvalComment: '已备案', processStatus: 'completed' });
  });

  it('a rejection returns to the applicant, who withdraws; the running step is the one without an end', async () => {
    const { processInstanceId } = (await applyLeave('alice')).body.data as { processInstanceId: string };
    const todo = (await todoOf('bob', processInstanceId))!;
    expect((await post('bob', 'work/complete-task', { taskId: todo.id, flag: 'no', comment: '时间冲突' })).status).toBe(200);
    const adjust = (await todoOf('alice', processInstanceId))!;
    expect(adjust).toMatchObject({ taskDefinitionKey: 'adjust', name: '调整申请' });
    const running = (await get('alice', 'process/model-view', { processInstanceId })).body.data as { flow: Row[] };
    expect(running.flow.filter((f) => f.endTime === null).map((f) => f.historyActivityId)).toEqual(['adjust']);
    expect(running.flow.map((f) => f.historyActivityId)).toContain('flowManagerRejected');
    expect((await post('alice', 'work/complete-task', { taskId: adjust.id })).status).toBe(200);
    const sent = (await list('alice', 'work/send-list')).find((r) => r.id === processInstanceId)!;
    expect(sent.status).toBe('completed');
    const history = (await get('alice', 'process/history-flow-list', { processInstanceId })).body.data as Row[];
    expect(history.map((r) => [r.historyActivityId, r.outcome])).toEqual([['start', null], ['managerApproval', 'reject'], ['adjust', 'reject'], ['withdrawn', null]]);
  });
});

describe('who sees what', () => {
  it('a user without the work menus lists nothing of them; another tenant sees none of this tenant\'s processes', async () => {
    for (const path of ['work/start-list', 'work/claim-list', 'work/todo-list', 'work/send-list', 'work/done-list', 'follow/list', 'manager/list', 'model/list']) {
      expect((await h.call('GET', `${FLOW}/${path}`, { token: tokens.eve })).status, path).toBe(403);
    }
    const { processInstanceId } = (await applyLeave('alice')).body.data as { processInstanceId: string };
    const todo = (await todoOf('bob', processInstanceId))!;
    for (const path of ['work/send-list', 'work/done-list', 'work/todo-list', 'follow/list']) {
      expect((await list('platform', path)).some((r) => r.id === processInstanceId || r.instanceId === processInstanceId), path).toBe(false);
    }
    expect((await list('platform', 'model/list')).some((r) => r.modelKey === 'Purchase')).toBe(false);
    expect((await get('platform', 'process/model-view', { processInstanceId })).status).toBe(404);
    expect((await get('platform', 'process/history-flow-list', { processInstanceId })).status).toBe(404);
    expect((await post('platform', 'work/claim-task', { taskId: todo.id })).status).toBe(404);
    expect((await post('platform', 'work/complete-task', { taskId: todo.id, flag: 'ok' })).status).toBe(404);
    expect((await post('platform', 'follow/delete-process-instance', { processInstanceId, deleteReason: 'x' })).status).toBe(404);
    expect((await post('platform', 'manager/change-state', { processId: ids.leaveDef, state: 'suspend' })).status).toBe(404);
    expect((await post('platform', 'work/start-process', { processDefinitionId: ids.leaveDef })).status).toBe(404);
  });
});
