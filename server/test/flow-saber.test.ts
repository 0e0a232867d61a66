import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { inTenant } from '../src/core/db/index.js';
import { flowArea } from '../src/areas/flow/index.js';
import { flowDefinition, flowModel, flowTask, processLeave } from '../src/areas/flow/tables.js';
import { type BpmnFile, FLOW, type Page, type Row, T, uploadBpmn, WORK_CODES } from './flow-conformance-kit.js';
import { useServer } from './harness.js';
import { grantCodes } from './io-resource.js';

/**
 * An unmodified Saber console on the workflow (issue 25): categories as Saber sends them (`flow_1`, its flow route
 * keys), BladeX's field names in the work lists beside the console's, and the leave form with new versions of the
 * leave process (one that can serve it, one that cannot).
 */

const LEAVE_PATH = '/api/blade-desk/process/leave';
const LEAVE = readFileSync(new URL('../src/areas/flow/leave.bpmn20.xml', import.meta.url), 'utf8');

const h = useServer();
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};

const call = (who: string, path: string, query: Record<string, string | number> = {}, lang: 'zh' | 'en' = 'zh') =>
  h.call<Page>('GET', `${FLOW}/${path}`, { token: tokens[who], query: { size: 50, ...query }, lang });
const list = async (who: string, path: string, query: Record<string, string | number> = {}) => {
  const res = await call(who, path, query);
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data.records;
};
const post = (who: string, path: string, body: Record<string, unknown>, lang: 'zh' | 'en' = 'zh') =>
  h.call<unknown>('POST', path.startsWith('/') ? path : `${FLOW}/${path}`, { token: tokens[who], body, lang });

const upload = (who: string, files: BpmnFile[], fields: Record<string, string> = {}, lang: 'zh' | 'en' = 'en') => uploadBpmn(h, tokens[who]!, files, fields, lang);

const applyLeave = (who: string, processDefinitionId: string, lang: 'zh' | 'en' = 'zh') => post(who, `${LEAVE_PATH}/start-process`, {
  processDefinitionId, startTime: '2026-12-01 09:00:00', endTime: '2026-12-02 18:00:00', days: 2, reason: '家中有事', taskUser: ids.bob!,
}, lang);

/** Saber's flow routes (store/modules/dict.js): `${code}_${dictKey}` → remark, from `dict/dictionary?code=flow` */
async function saberFlowRoutes(): Promise<Array<{ routeKey: string; routeValue: string }>> {
  const res = await h.call<Array<{ code: string; dictKey: string; remark: string }>>('GET', '/api/blade-system/dict/dictionary', { token: tokens.alice, query: { code: 'flow' } });
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data.map((item) => ({ routeKey: `${item.code}_${item.dictKey}`, routeValue: item.remark }));
}
/** Saber's util/flow.js flowRoute */
const flowRoute = (routes: Array<{ routeKey: string; routeValue: string }>, category: unknown) => routes.find((r) => r.routeKey === category)?.routeValue;

const startRow = async (key: string) => (await list('alice', 'work/start-list')).find((r) => r.processKey === key)!;

beforeAll(async () => {
  await grantCodes(h.server, WORK_CODES, ['hr']);
  for (const [account, roles] of [['fs-alice', ['admin']], ['fs-bob', ['admin']], ['fs-hr1', ['hr']], ['fs-eve', []]] as Array<[string, string[]]>) {
    const key = account.slice(3);
    ids[key] = await h.createUser(T, account, 'Flow#2026', roles);
    tokens[key] = (await h.login(T, account, 'Flow#2026')).access_token;
  }
  tokens.platform = (await h.login('000000', 'admin', 'admin')).access_token;
  ids.leaveV1 = (await startRow('Leave')).id;
});

describe('categories as Saber sends them', () => {
  it('the seeded leave is under flow_1, the key of Saber\'s flow route to the leave form', async () => {
    const leave = await startRow('Leave');
    expect(leave).toMatchObject({ category: 'flow_1', categoryName: '请假流程' });
    // start.vue: `/work/process/${flowRoute(this.flowRoutes, row.category)}/form/${row.id}`
    expect(`/work/process/${flowRoute(await saberFlowRoutes(), leave.category)}/form/${leave.id}`).toBe(`/work/process/leave/form/${leave.id}`);
  });

  it('a model takes flow_2 or 2 alike, keeps flow_2 and names it; an unknown category is refused, naming it, and nothing is saved', async () => {
    const saber = await post('alice', 'model/submit', { modelKey: 'Purchase', name: '采购审批', category: 'flow_2' });
    expect(saber.status, saber.body.msg).toBe(200);
    expect(saber.body.data).toMatchObject({ category: 'flow_2', categoryName: '通用审批' });
    const consoleForm = await post('alice', 'model/submit', { modelKey: 'Errand', name: '外出申请', category: '2' });
    expect(consoleForm.body.data).toMatchObject({ category: 'flow_2', categoryName: '通用审批' });
    ids.purchaseModel = (saber.body.data as Row).id;

    for (const lang of ['zh', 'en'] as const) {
      const unknown = await post('alice', 'model/submit', { modelKey: 'Ghost', name: '幽灵', category: 'flow_9' }, lang);
      expect(unknown.status).toBe(400);
      expect(unknown.body.msg).toContain('flow_9');
    }
    expect((await post('alice', 'model/submit', { id: ids.purchaseModel!, category: '9' }, 'en')).body.data).toEqual({ category: 'Category: 9 is not one of its options' });
    expect(await list('alice', 'model/list', { modelKey: 'Ghost' })).toEqual([]);
    expect((await list('alice', 'model/list', { modelKey: 'Purchase' }))[0]).toMatchObject({ category: 'flow_2' });
  });

  it('deploying a model or uploading files takes Saber\'s flow_1; an unknown category is refused in both languages before anything is deployed', async () => {
    const deployed = await post('alice', 'model/deploy', { modelId: ids.purchaseModel!, category: 'flow_1' });
    expect(deployed.status, deployed.body.msg).toBe(200);
    expect((await list('alice', 'manager/list', { processKey: 'Purchase' }))[0]).toMatchObject({ category: 'flow_1', categoryName: '请假流程' });
    const bare = await post('alice', 'model/deploy', { modelId: ids.purchaseModel!, category: '2' });
    expect((await list('alice', 'manager/list', { processKey: 'Purchase', version: (bare.body.data as Row[])[0]!.version as number }))[0]).toMatchObject({ category: 'flow_2', categoryName: '通用审批' });

    const zh = await post('alice', 'model/deploy', { modelId: ids.purchaseModel!, category: 'flow_9' });
    expect(zh.status).toBe(400);
    expect(zh.body.msg).toBe('流程分类「flow_9」不存在, 请选择「流程分类」字典 (flow) 中的一项');
    const en = await upload('alice', [{ filename: 'leave.bpmn20.xml', data: LEAVE }], { category: 'expense' });
    expect(en.statusCode).toBe(400);
    expect(en.json().msg).toBe('No process category "expense": choose an item of the Process category dictionary (flow)');
    expect((await list('alice', 'manager/list', { processKey: 'Purchase' })).length).toBe(2);
    expect((await list('alice', 'manager/list', { processKey: 'Leave' })).length).toBe(1);

    const errand = LEAVE.replaceAll('"Leave"', '"Errand"').replace('name="请假流程"', 'name="外出申请"');
    const uploaded = await upload('alice', [{ filename: 'errand.bpmn20.xml', data: errand }], { category: 'flow_2' });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect(await startRow('Errand')).toMatchObject({ category: 'flow_2', categoryName: '通用审批' });
  });

  it('the lists filter by category in either form, as one item (flow_1 is not flow_10)', async () => {
    for (const category of ['flow_1', '1']) {
      const rows = await list('alice', 'work/start-list', { category });
      expect(rows.map((r) => r.processKey).sort(), category).toEqual(['Leave']);
    }
    expect((await list('alice', 'work/start-list', { category: 'flow_2' })).map((r) => r.processKey).sort()).toEqual(['Errand', 'Purchase']);
    expect(await list('alice', 'work/start-list', { category: 'flow_10' })).toEqual([]);
    // no substring match: `low_1` names no category
    expect(await list('alice', 'work/start-list', { category: 'low_1' })).toEqual([]);
    // manager.vue sends the bare key (its search overrides the prefixed one), and `mode`
    expect((await list('alice', 'manager/list', { category: '2', mode: 1 })).map((r) => r.processKey).sort()).toEqual(['Errand', 'Purchase']);
    const mode = await call('alice', 'work/start-list', { mode: 3 }, 'en');
    expect(mode.status).toBe(400);
    expect(mode.body.msg).toBe('The process mode "3" is not 1 (common) or 2 (tenant\'s own)');
  });
});

describe('BladeX\'s fields in the work lists', () => {
  it('start-list answers FlowProcess\'s names: key, deploymentTime, suspensionState, categoryName', async () => {
    const leave = (await list('alice', 'work/start-list', { mode: 1, name: '请假' })).find((r) => r.processKey === 'Leave')!;
    expect(leave).toMatchObject({ key: 'Leave', tenantId: T, version: 1, suspensionState: 1, category: 'flow_1', categoryName: '请假流程' });
    expect(leave.deploymentTime).toBe(leave.createTime);
    expect((await post('alice', 'manager/change-state', { processId: ids.leaveV1!, state: 'suspend' })).status).toBe(200);
    expect((await list('alice', 'manager/list', { processKey: 'Leave' }))[0]).toMatchObject({ key: 'Leave', suspended: 1, suspensionState: 2 });
    expect((await post('alice', 'manager/change-state', { processId: ids.leaveV1!, state: 'active' })).status).toBe(200);
  });

  it('a tenant\'s administrator holds the codes of Saber\'s row buttons (发起, 签收, 处理, 详情, 跟踪)', async () => {
    const res = await h.call<Array<{ code: string; children?: unknown[] }>>('GET', '/api/blade-system/menu/buttons', { token: tokens.alice });
    expect(res.status, res.body.msg).toBe(200);
    const codes = new Set<string>();
    const walk = (nodes: Array<{ code: string; children?: unknown[] }>) => nodes.forEach((n) => { codes.add(n.code); walk((n.children ?? []) as typeof nodes); });
    walk(res.body.data);
    for (const code of ['work_start_flow', 'work_start_image', 'work_claim_sign', 'work_claim_detail', 'work_claim_follow', 'work_todo_handle', 'work_todo_detail',
      'work_todo_follow', 'work_send_detail', 'work_send_follow', 'work_done_detail', 'work_done_follow']) expect(codes, code).toContain(code);
  });

  it('todo, claim, done and send answer BladeFlow\'s names, and Saber completes and claims with them', async () => {
    const applied = await applyLeave('alice', ids.leaveV1!);
    expect(applied.status, applied.body.msg).toBe(200);
    const { businessId, processInstanceId } = applied.body.data as { businessId: string; processInstanceId: string };

    // todo.vue: search by processDefinitionName and category (flowCategory), route by taskId/processInstanceId/businessId
    const [todo] = await list('bob', 'work/todo-list', { processDefinitionName: '请假', category: 'flow_1' });
    expect(todo).toMatchObject({
      taskId: todo!.id, taskName: '审批人审批', name: '审批人审批', processInstanceId, instanceId: processInstanceId,
      processDefinitionId: ids.leaveV1!, definitionId: ids.leaveV1!, processDefinitionName: '请假流程', processDefinitionKey: 'Leave',
      processDefinitionVersion: 1, businessId, businessTable: null, businessKey: businessId, category: 'flow_1', categoryName: '请假流程',
    });
    expect(await list('bob', 'work/todo-list', { processDefinitionName: '采购' })).toEqual([]);
    const routes = await saberFlowRoutes();
    expect(`/work/process/${flowRoute(routes, todo!.category)}/handle/${todo!.taskId}/${todo!.processInstanceId}/${todo!.businessId}`)
      .toBe(`/work/process/leave/handle/${todo!.id}/${processInstanceId}/${businessId}`);

    const sent = (await list('alice', 'work/send-list', { category: 'flow_1' })).find((r) => r.processInstanceId === processInstanceId)!;
    expect(sent).toMatchObject({
      id: processInstanceId, processDefinitionName: '请假流程', processDefinitionKey: 'Leave', processDefinitionVersion: 1, processDefinitionId: ids.leaveV1!,
      taskId: todo!.id, taskName: '审批人审批', processIsFinished: 'unfinished', businessId, categoryName: '请假流程',
    });

    // the handle page completes with the row's taskId and processInstanceId (a leave of 5 days goes on to HR)
    const long = await post('alice', `${LEAVE_PATH}/start-process`, {
      processDefinitionId: ids.leaveV1!, startTime: '2026-12-01 09:00:00', endTime: '2026-12-05 18:00:00', days: 5, reason: '探亲', taskUser: ids.bob!,
    });
    const longId = (long.body.data as { processInstanceId: string }).processInstanceId;
    const longTodo = (await list('bob', 'work/todo-list')).find((r) => r.processInstanceId === longId)!;
    expect((await post('bob', 'work/complete-task', { taskId: longTodo.taskId, processInstanceId: longTodo.processInstanceId, flag: 'ok', comment: '同意' })).status).toBe(200);
    const offered = (await list('hr1', 'work/claim-list', { category: 'flow_1' })).find((r) => r.processInstanceId === longId)!;
    expect(offered).toMatchObject({ taskName: '人事审批', processDefinitionName: '请假流程', processDefinitionVersion: 1, businessId: longTodo.businessId });
    expect((await post('hr1', 'work/claim-task', { taskId: offered.taskId })).status).toBe(200);
    const hrTodo = (await list('hr1', 'work/todo-list')).find((r) => r.processInstanceId === longId)!;
    expect((await post('hr1', 'work/complete-task', { taskId: hrTodo.taskId, processInstanceId: longId, flag: 'ok', comment: '已备案' })).status).toBe(200);

    const done = (await list('bob', 'work/done-list', { processDefinitionName: '请假' })).find((r) => r.processInstanceId === longId)!;
    expect(done).toMatchObject({ taskName: '审批人审批', processDefinitionKey: 'Leave', processDefinitionVersion: 1, businessId: longTodo.businessId, comment: '同意' });
    const finished = (await list('alice', 'work/send-list')).find((r) => r.processInstanceId === longId)!;
    expect(finished).toMatchObject({ processIsFinished: 'finished', status: 'completed', taskName: '人事审批' });
  });

  it('the lists\' permissions and tenants are unchanged: no menu, no list; another tenant sees none of them, by any name', async () => {
    for (const path of ['work/start-list', 'work/claim-list', 'work/todo-list', 'work/send-list', 'work/done-list', 'manager/list']) {
      expect((await call('eve', path, { mode: 1 })).status, path).toBe(403);
    }
    const mine = await list('alice', 'work/send-list');
    expect(mine.length).toBeGreaterThan(0);
    for (const path of ['work/send-list', 'work/done-list', 'work/todo-list', 'work/claim-list']) {
      const theirs = await list('platform', path, { processDefinitionName: '请假' });
      expect(theirs.some((r) => mine.some((m) => m.id === r.processInstanceId || m.id === r.id)), path).toBe(false);
    }
    expect((await list('platform', 'work/start-list', { category: 'flow_2' })).some((r) => r.processKey === 'Purchase')).toBe(false);
    // the aliases name fields, not columns of other tables
    expect((await call('bob', 'work/todo-list', { processDefinitionVersion: 1 })).status).toBe(400);
  });
});

describe('the leave form and new versions of the leave process', () => {
  it('a new version with other task ids and another name is the newest, keeps the category, serves the form and keeps the approver\'s comment', async () => {
    const renamed = LEAVE.replace('name="请假流程"', 'name="请假申请 (新版)"').replaceAll('managerApproval', 'managerTak').replaceAll('hrApproval', 'bossTask');
    const up = await upload('alice', [{ filename: 'LeaveProcess.bpmn20.xml', data: renamed }]);
    expect(up.statusCode, up.body).toBe(200);
    const v2 = await startRow('Leave');
    expect(v2).toMatchObject({ version: 2, name: '请假申请 (新版)', category: 'flow_1', categoryName: '请假流程' });
    ids.leaveV2 = v2.id;

    const applied = await applyLeave('alice', v2.id);
    expect(applied.status, applied.body.msg).toBe(200);
    const { businessId, processInstanceId } = applied.body.data as { businessId: string; processInstanceId: string };
    const todo = (await list('bob', 'work/todo-list')).find((r) => r.processInstanceId === processInstanceId)!;
    expect(todo).toMatchObject({ taskDefinitionKey: 'managerTak', processDefinitionVersion: 2, processDefinitionName: '请假申请 (新版)' });
    // rejected: the applicant's own step (adjusting) keeps the approver's comment
    expect((await post('bob', 'work/complete-task', { taskId: todo.taskId, flag: 'no', comment: '时间冲突' })).status).toBe(200);
    const adjust = (await list('alice', 'work/todo-list')).find((r) => r.processInstanceId === processInstanceId)!;
    expect((await post('alice', 'work/complete-task', { taskId: adjust.taskId, flag: 'ok', comment: '已改期' })).status).toBe(200);
    const again = (await list('bob', 'work/todo-list')).find((r) => r.processInstanceId === processInstanceId)!;
    let leave = (await h.call<Row>('GET', `${LEAVE_PATH}/detail`, { token: tokens.alice, query: { businessId } })).body.data;
    expect(leave.approvalComment).toBe('时间冲突');
    expect((await post('bob', 'work/complete-task', { taskId: again.taskId, flag: 'ok', comment: '同意' })).status).toBe(200);
    leave = (await h.call<Row>('GET', `${LEAVE_PATH}/detail`, { token: tokens.alice, query: { businessId } })).body.data;
    expect(leave).toMatchObject({ approvalComment: '同意', processStatus: 'completed', processDefinitionId: v2.id });
  });

  it('the form starts the version it is given, an older one too, as BladeX\'s form starts the definition in its route', async () => {
    const applied = await applyLeave('alice', ids.leaveV1!);
    expect(applied.status, applied.body.msg).toBe(200);
    const { processInstanceId } = applied.body.data as { processInstanceId: string };
    expect((await list('bob', 'work/todo-list')).find((r) => r.processInstanceId === processInstanceId)).toMatchObject({ processDefinitionVersion: 1, taskDefinitionKey: 'managerApproval' });
  });

  it('a Leave version that gives no task to the approver the form picks is refused at the form, saying why, and nothing is written', async () => {
    const hrOnly = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn" targetNamespace="http://www.flowable.org/processdef">
  <process id="Leave" name="人事直批" isExecutable="true">
    <startEvent id="start" />
    <sequenceFlow id="f1" sourceRef="start" targetRef="hr" />
    <!-- <userTask id="old" flowable:assignee="\${taskUser}" /> -->
    <userTask id="hr" name="人事审批" flowable:assignee="\${manager}" flowable:candidateGroups="hr" />
    <sequenceFlow id="f2" sourceRef="hr" targetRef="end" />
    <endEvent id="end" />
  </process>
</definitions>`;
    const up = await upload('alice', [{ filename: 'leave.bpmn', data: hrOnly }], { category: 'flow_1' });
    expect(up.statusCode, up.body).toBe(200);
    const v3 = await startRow('Leave');
    expect(v3).toMatchObject({ version: 3, name: '人事直批' });
    const before = (await list('alice', 'work/send-list')).length;
    const zh = await applyLeave('alice', v3.id);
    expect(zh.status).toBe(400);
    expect(zh.body.msg).toBe('流程「人事直批」(版本 3) 不能用于请假表单: 它没有把任何任务分派给表单选择的审批人 (任务的办理人或候选人须为 ${taskUser})');
    const en = await applyLeave('alice', v3.id, 'en');
    expect(en.body.data).toEqual({ processDefinitionId: 'The process "人事直批" (version 3) cannot serve the leave form: none of its tasks goes to the approver the form picks (a task\'s assignee or candidate users must be ${taskUser})' });
    expect((await list('alice', 'work/send-list')).length).toBe(before);
    const written = await inTenant(h.server.ctx.db, { tenantId: T }, (tx) => tx.select({ id: processLeave.id }).from(processLeave).where(eq(processLeave.processDefinitionId, v3.id)));
    expect(written).toEqual([]);
    // the versions that can still serve it still do
    expect((await applyLeave('alice', ids.leaveV2!)).status).toBe(200);
  });
});

describe('data written before categories were prefixed', () => {
  it('the data step rewrites bare keys to flow_<key>, and leaves prefixed ones as they are', async () => {
    const db = h.server.ctx.db;
    await inTenant(db, { tenantId: T }, async (tx) => {
      await tx.update(flowDefinition).set({ category: '1' }).where(eq(flowDefinition.id, ids.leaveV1!));
      await tx.update(flowModel).set({ category: '2' }).where(eq(flowModel.id, ids.purchaseModel!));
      await tx.update(flowTask).set({ category: '1' }).where(eq(flowTask.definitionId, ids.leaveV1!));
    });
    expect((await list('alice', 'manager/list', { processKey: 'Leave', version: 1 }))[0]).toMatchObject({ category: '1', categoryName: '请假流程' });
    const step = flowArea.dataSteps!.find((s) => s.name === '2501-flow-category-prefixed')!;
    await db.transaction((tx) => step.run(tx));
    const [def] = await inTenant(db, { tenantId: T }, (tx) => tx.select({ category: flowDefinition.category }).from(flowDefinition).where(eq(flowDefinition.id, ids.leaveV1!)));
    expect(def!.category).toBe('flow_1');
    expect((await list('alice', 'model/list', { modelKey: 'Purchase' }))[0]).toMatchObject({ category: 'flow_2' });
    const tasks = await inTenant(db, { tenantId: T }, (tx) => tx.select({ category: flowTask.category }).from(flowTask).where(eq(flowTask.definitionId, ids.leaveV1!)));
    expect(tasks.length).toBeGreaterThan(0);
    expect(new Set(tasks.map((t) => t.category))).toEqual(new Set(['flow_1']));
    expect((await list('alice', 'work/start-list', { category: 'flow_2' })).map((r) => r.category)).toEqual(['flow_2', 'flow_2']);
  });
});
