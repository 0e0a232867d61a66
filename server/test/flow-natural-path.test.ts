import { readFileSync } from 'node:fs';
import { and, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { processLeave } from '../src/areas/flow/tables.js';
import { inTenant, schema } from '../src/core/db/index.js';
import { FLOW, flowCalls, type Page, type Row, T, uploadBpmn, WORK_CODES } from './flow-conformance-kit.js';
import { md5, useServer } from './harness.js';
import { grantCodes } from './io-resource.js';

/**
 * The workflow's natural path (issue 26): the leave form serves any process of a leave category that fits it,
 * whatever its key, and the start list says beforehand which one it does not fit and why; a new tenant gets the
 * sample leave process ready to start; the leave detail shows the latest approval comment; the work lists name the
 * starter by name, not by account.
 */

const LEAVE_PATH = '/api/blade-desk/process/leave';
const SYS = '/api/blade-system';
const LEAVE = readFileSync(new URL('../src/areas/flow/leave.bpmn20.xml', import.meta.url), 'utf8');
/** the sample model under another key (and name) */
const rekeyed = (key: string, name: string) => LEAVE.replaceAll('"Leave"', `"${key}"`).replace('name="请假流程"', `name="${name}"`);
/** a leave-category process that gives no task to the form's approver */
const NO_APPROVER = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn" targetNamespace="x">
  <process id="Trip" name="出差申请" isExecutable="true">
    <startEvent id="s" />
    <sequenceFlow id="f1" sourceRef="s" targetRef="boss" />
    <userTask id="boss" name="老板审批" flowable:candidateGroups="boss" />
    <sequenceFlow id="f2" sourceRef="boss" targetRef="e" />
    <endEvent id="e" />
  </process>
</definitions>`;

const h = useServer();
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};

const { list, post } = flowCalls(h, tokens);
const applyLeave = (who: string, processDefinitionId: string | undefined, lang: 'zh' | 'en' = 'zh', over: Record<string, unknown> = {}) => post(who, `${LEAVE_PATH}/start-process`, {
  processDefinitionId: processDefinitionId ?? '', startTime: '2026-12-01 09:00:00', endTime: '2026-12-02 18:00:00', days: 2, reason: '家中有事', taskUser: ids.bob, ...over,
}, lang);
const deploy = async (filename: string, data: string, category: string) => {
  const res = await uploadBpmn(h, tokens.alice!, [{ filename, data }], { category });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: Array<{ definitionId: string }> }).data[0]!.definitionId;
};
const leaveCount = async () => (await inTenant(h.server.ctx.db, { tenantId: T }, (tx) => tx.select({ id: processLeave.id }).from(processLeave))).length;

beforeAll(async () => {
  await grantCodes(h.server, WORK_CODES, ['hr']);
  ids.alice = await h.createUser(T, 'np-alice', 'Flow#2026', ['admin'], { realName: '李爱丽' });
  ids.bob = await h.createUser(T, 'np-bob', 'Flow#2026', ['admin'], { realName: '王博' });
  ids.hr = await h.createUser(T, 'np-hr', 'Flow#2026', ['hr'], { realName: '赵人事' });
  for (const who of ['alice', 'bob', 'hr']) tokens[who] = (await h.login(T, `np-${who}`, 'Flow#2026')).access_token;
  tokens.platform = (await h.login('000000', 'admin', 'admin')).access_token;
  ids.vacation = await deploy('vacation.bpmn20.xml', rekeyed('Vacation', '年假申请'), '1');
  ids.trip = await deploy('trip.bpmn20.xml', NO_APPROVER, '1');
  ids.general = await deploy('general.bpmn20.xml', rekeyed('Purchase', '采购审批'), '2');
});

describe('the leave form and the processes of its category', () => {
  it('the start list says, per process, whether the leave form fits it: any key of a leave category that gives a task to ${taskUser}', async () => {
    const rows = await list('alice', 'work/start-list');
    const byKey = Object.fromEntries(rows.map((r) => [r.processKey, r]));
    expect(byKey.Leave).toMatchObject({ category: 'flow_1', formProblem: null });
    expect(byKey.Vacation).toMatchObject({ id: ids.vacation, category: 'flow_1', formProblem: null });
    expect(byKey.Trip).toMatchObject({ id: ids.trip, category: 'flow_1', formProblem: 'noApprover' });
    // a category without a business form: nothing to say
    expect(byKey.Purchase).toMatchObject({ id: ids.general, category: 'flow_2', formProblem: null });
  });

  it('starts a leave request on a process whose key is not Leave; the detail shows the latest approval comment, which an approval without one keeps', async () => {
    const started = await applyLeave('alice', ids.vacation, 'zh', { days: 5 });
    expect(started.status, started.body.msg).toBe(200);
    const { businessId, processInstanceId } = started.body.data as { businessId: string; processInstanceId: string };
    const todo = (await list('bob', 'work/todo-list')).find((r) => r.instanceId === processInstanceId)!;
    // the starter by name, not by account
    expect(todo).toMatchObject({ processName: '年假申请', startUserName: '李爱丽', category: 'flow_1' });
    expect((await post('bob', 'work/complete-task', { taskId: todo.id, flag: 'ok', comment: '同意, 注意交接' })).status).toBe(200);
    const detailOf = async () => (await h.call<Row>('GET', `${LEAVE_PATH}/detail`, { token: tokens.alice, query: { businessId } })).body.data;
    expect(await detailOf()).toMatchObject({ approvalComment: '同意, 注意交接', processStatus: 'running' });

    const offered = (await list('hr', 'work/claim-list')).find((r) => r.instanceId === processInstanceId)!;
    expect(offered.startUserName).toBe('李爱丽');
    expect((await post('hr', 'work/claim-task', { taskId: offered.id })).status).toBe(200);
    expect((await post('hr', 'work/complete-task', { taskId: offered.id, flag: 'ok' })).status).toBe(200);
    expect(await detailOf()).toMatchObject({ approvalComment: '同意, 注意交接', processStatus: 'completed' });
    const sent = (await list('alice', 'work/send-list')).find((r) => r.id === processInstanceId)!;
    expect(sent).toMatchObject({ status: 'completed', businessKey: businessId });
  });

  it('refuses, naming the process, a leave-category process that gives no task to the approver, and writes nothing (zh, en)', async () => {
    const before = await leaveCount();
    const zh = await applyLeave('alice', ids.trip, 'zh');
    expect(zh.status).toBe(400);
    expect(zh.body.msg).toContain('流程「出差申请」(版本 1) 不能用于请假表单');
    const en = await applyLeave('alice', ids.trip, 'en');
    expect(en.status).toBe(400);
    expect(en.body.msg).toContain('"出差申请"');
    expect(en.body.data).toHaveProperty('processDefinitionId');
    expect(await leaveCount()).toBe(before);
  });

  it('refuses a process of a category without the leave form, whatever it looks like (zh, en)', async () => {
    const before = await leaveCount();
    const zh = await applyLeave('alice', ids.general, 'zh');
    expect([zh.status, zh.body.msg]).toEqual([400, '所选流程不是请假流程']);
    const en = await applyLeave('alice', ids.general, 'en');
    expect([en.status, en.body.msg]).toEqual([400, 'The chosen process is not the leave process']);
    expect(await leaveCount()).toBe(before);
  });

  it('another tenant cannot start, nor see, this tenant\'s processes', async () => {
    const res = await post('platform', `${LEAVE_PATH}/start-process`, {
      processDefinitionId: ids.vacation, startTime: '2026-12-01 09:00:00', endTime: '2026-12-02 18:00:00', days: 2, reason: 'x', taskUser: ids.bob,
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    const platformStart = await h.call<Page>('GET', `${FLOW}/work/start-list`, { token: tokens.platform, query: { size: 50 } });
    expect(platformStart.body.data.records.map((r) => r.id)).not.toContain(ids.vacation);
  });
});

describe('a new tenant', () => {
  it('gets the sample leave process ready to start, with the HR role its HR step is offered to', async () => {
    const workMenus = (await inTenant(h.server.ctx.db, { tenantId: '000000' }, (tx) => tx.select({ id: schema.menu.id }).from(schema.menu)
      .where(and(inArray(schema.menu.code, WORK_CODES), eq(schema.menu.isDeleted, 0))))).map((m) => m.id);
    expect(workMenus.length).toBe(WORK_CODES.length);
    const pkg = await h.call<Row>('POST', `${SYS}/tenant-package/submit`, { token: tokens.platform, body: { packageName: '流程版', menuId: workMenus.join(',') } });
    expect(pkg.status, pkg.body.msg).toBe(200);
    const created = await h.call<Row>('POST', `${SYS}/tenant/submit`, {
      token: tokens.platform, body: { tenantName: '流程新租户', linkman: '张三', packageId: pkg.body.data.id, adminPassword: md5('Flow#Admin2026') },
    });
    expect(created.status, created.body.msg).toBe(200);
    // a password set in the form is not answered back
    expect(created.body.data).not.toHaveProperty('adminPassword');
    const tenantId = String(created.body.data.tenantId);
    const admin = (await h.login(tenantId, 'admin', 'Flow#Admin2026')).access_token;
    const start = await h.call<Page>('GET', `${FLOW}/work/start-list`, { token: admin, query: { size: 50 } });
    expect(start.status, start.body.msg).toBe(200);
    expect(start.body.data.records.map((r) => [r.processKey, r.name, r.category, r.formProblem, r.suspensionState])).toEqual([['Leave', '请假流程', 'flow_1', null, 1]]);
    const hr = await inTenant(h.server.ctx.db, { tenantId }, (tx) => tx.select({ id: schema.role.id }).from(schema.role)
      .where(and(eq(schema.role.tenantId, tenantId), eq(schema.role.roleAlias, 'hr'), eq(schema.role.isDeleted, 0))));
    expect(hr.length).toBe(1);
    // the new tenant's process is its own: the demo tenant's list is unchanged
    expect((await list('alice', 'work/start-list')).filter((r) => r.processKey === 'Leave').length).toBe(1);
  });
});

describe('the designer\'s pickers', () => {
  type People = { users: Array<{ id: string; account: string; realName: string | null }>; roles: Array<{ alias: string; name: string }> };
  const people = (who: string, keyword?: string) => h.call<People>('GET', `${FLOW}/model/assignees`, { token: tokens[who], query: keyword ? { keyword } : {} });

  it('offers the tenant\'s active users by name or account and its roles by alias, to whoever designs models', async () => {
    const byName = await people('alice', '王博');
    expect(byName.status, byName.body.msg).toBe(200);
    expect(byName.body.data.users).toEqual([{ id: ids.bob, account: 'np-bob', realName: '王博' }]);
    const hr = await people('alice', 'hr');
    expect(hr.body.data.roles.map((r) => r.alias)).toContain('hr');
    expect(hr.body.data.users.map((u) => u.account)).toContain('np-hr');
  });

  it('is refused to a user who may not design models, and shows no other tenant\'s people', async () => {
    expect((await people('hr')).status).toBe(403);
    const platform = await people('platform', 'np-');
    expect(platform.status).toBe(200);
    expect(platform.body.data.users).toEqual([]);
  });
});
