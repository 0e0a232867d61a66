import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { inTenant, schema } from '../src/core/db/index.js';
import { nextId } from '../src/core/ids.js';
import { uploadBpmn } from './flow-conformance-kit.js';
import { useServer } from './harness.js';
import { grantCodes } from './io-resource.js';

/**
 * BladeX's own leave model (the shape of blade-flow's LeaveProcess.bpmn20.xml, fixtures/flow/bladex-leave.bpmn20.xml;
 * FLOW_BLADEX_LEAVE=<path> runs this against another copy of the file) uploaded into a tenant: it becomes the newest
 * version of `Leave`, the console's leave form starts it, and it runs the approve and reject paths as BladeX does:
 * the initiator variable is the applicant, the conditions on the flows leaving each task read the approver's flag.
 */

type Row = Record<string, unknown> & { id: string };
type Page = { records: Row[] };
const FLOW = '/api/blade-flow';
const T = '541742';
const MODEL = readFileSync(process.env.FLOW_BLADEX_LEAVE ?? new URL('./fixtures/flow/bladex-leave.bpmn20.xml', import.meta.url), 'utf8');

const h = useServer();
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};
let definitionId = '';

const list = async (who: string, path: string) => {
  const res = await h.call<Page>('GET', `${FLOW}/${path}`, { token: tokens[who], query: { size: 200 } });
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data.records;
};
const post = (who: string, path: string, body: Record<string, unknown>) => h.call<unknown>('POST', path, { token: tokens[who], body, lang: 'en' });
const taskOf = async (who: string, listName: 'todo-list' | 'claim-list', instanceId: string) =>
  (await list(who, `work/${listName}`)).filter((r) => r.instanceId === instanceId).map((r) => ({ id: r.id, key: r.taskDefinitionKey, name: r.name }));

async function act(who: string, instanceId: string, flag: 'ok' | 'no', claim = false) {
  const [task] = await taskOf(who, claim ? 'claim-list' : 'todo-list', instanceId);
  expect(task, `${who} has a task in ${instanceId}`).toBeDefined();
  if (claim) expect((await post(who, `${FLOW}/work/claim-task`, { taskId: task!.id })).status).toBe(200);
  const done = await post(who, `${FLOW}/work/complete-task`, { taskId: task!.id, processInstanceId: instanceId, flag, comment: `${who}: ${flag}` });
  expect(done.status, done.body.msg).toBe(200);
  return task!;
}

const apply = async (days: number) => {
  const res = await post('alice', '/api/blade-desk/process/leave/start-process', {
    processDefinitionId: definitionId, startTime: '2026-12-01 09:00:00', endTime: '2026-12-05 18:00:00', days, reason: '探亲', taskUser: ids.bob,
  });
  expect(res.status, res.body.msg).toBe(200);
  return (res.body.data as { processInstanceId: string }).processInstanceId;
};

const statusOf = async (instanceId: string) => (await list('alice', 'work/send-list')).find((r) => r.id === instanceId)?.status;

async function view(instanceId: string) {
  const res = await h.call<{ flow: Array<{ historyActivityId: string; historyActivityType: string; endTime: string | null }> }>(
    'GET', `${FLOW}/process/model-view`, { token: tokens.alice, query: { processInstanceId: instanceId } });
  expect(res.status).toBe(200);
  return res.body.data.flow;
}

beforeAll(async () => {
  await inTenant(h.server.ctx.db, { tenantId: T }, (tx) => tx.insert(schema.role).values([
    { id: nextId(), tenantId: T, roleName: '经理', roleAlias: 'manager', sort: 20 },
    { id: nextId(), tenantId: T, roleName: '老板', roleAlias: 'boss', sort: 21 },
  ]));
  await grantCodes(h.server, ['work', 'work_start', 'work_claim', 'work_todo', 'work_send', 'work_done'], ['manager', 'boss']);
  for (const [account, roles] of [['bl-alice', ['admin']], ['bl-bob', ['admin']], ['bl-mgr', ['manager']], ['bl-boss', ['boss']]] as Array<[string, string[]]>) {
    const key = account.slice(3);
    ids[key] = await h.createUser(T, account, 'Leave#2026', roles);
    tokens[key] = (await h.login(T, account, 'Leave#2026')).access_token;
  }
  const res = await uploadBpmn(h, tokens.alice!, [{ filename: 'LeaveProcess.bpmn20.xml', data: MODEL }]);
  expect(res.statusCode, res.body).toBe(200);
  const [deployed] = res.json().data as Array<{ definitionId: string; processKey: string; version: number }>;
  // the seed deployed the console's own leave model as version 1: BladeX's is the newest version of the key
  expect(deployed).toMatchObject({ processKey: 'Leave', version: 2 });
  definitionId = deployed!.definitionId;
  const startable = (await list('alice', 'work/start-list')).filter((r) => r.processKey === 'Leave');
  expect(startable.map((r) => r.id)).toEqual([definitionId]);
});

describe("BladeX's leave model, unchanged", () => {
  it('approve: HR (the approver the form named), then the manager group for 3 days or less, then the end', async () => {
    const instanceId = await apply(2);
    expect(await taskOf('bob', 'todo-list', instanceId)).toEqual([expect.objectContaining({ key: 'hrTask', name: '人事审批' })]);
    await act('bob', instanceId, 'ok');
    // the condition ${pass} on the flow leaving hrTask read the approver's flag: on to the gateway, and the manager group
    expect(await taskOf('alice', 'todo-list', instanceId)).toEqual([]);
    expect(await taskOf('boss', 'claim-list', instanceId)).toEqual([]);
    await act('mgr', instanceId, 'ok', true);
    expect(await statusOf(instanceId)).toBe('completed');
    const flow = await view(instanceId);
    expect(flow.filter((f) => f.endTime === null)).toEqual([]);
    expect(flow.filter((f) => f.historyActivityType === 'sequenceFlow').map((f) => f.historyActivityId)).toEqual(['flow1', 'hrPassFlow', 'judgeLess', 'managerPassFlow']);
    expect(flow.filter((f) => f.historyActivityType !== 'sequenceFlow').map((f) => f.historyActivityId)).toEqual(['start', 'hrTask', 'judgeTask', 'managerTak', 'end']);
  });

  it('reject: HR rejects to the applicant (the initiator), who applies again; the boss for more than 3 days rejects; the applicant closes it', async () => {
    const instanceId = await apply(5);
    await act('bob', instanceId, 'no');
    // userTask's assignee is ${applyUser}, the variable flowable:initiator set to the applicant
    expect(await taskOf('alice', 'todo-list', instanceId)).toEqual([expect.objectContaining({ key: 'userTask', name: '调整申请' })]);
    await act('alice', instanceId, 'ok');
    await act('bob', instanceId, 'ok');
    expect(await taskOf('mgr', 'claim-list', instanceId)).toEqual([]);
    await act('boss', instanceId, 'no', true);
    expect(await taskOf('alice', 'todo-list', instanceId)).toEqual([expect.objectContaining({ key: 'userTask' })]);
    await act('alice', instanceId, 'no');
    expect(await statusOf(instanceId)).toBe('completed');
    const taken = (await view(instanceId)).filter((f) => f.historyActivityType === 'sequenceFlow').map((f) => f.historyActivityId);
    expect(taken).toEqual(['flow1', 'hrNotPassFlow', 'userPassFlow', 'hrPassFlow', 'judgeMore', 'bossNotPassFlow', 'userNotPassFlow']);
  });
});
