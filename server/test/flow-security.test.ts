import { beforeAll, describe, expect, it } from 'vitest';
import { compileBpmn } from '../src/areas/flow/bpmn/compile.js';
import { StepFailed } from '../src/areas/flow/bpmn/runtime/context.js';
import { DEFAULT_STEP_LIMITS, runStep } from '../src/areas/flow/bpmn/runtime/step.js';
import type { ProcessModel } from '../src/areas/flow/bpmn/model.js';
import { FLOW_ENGINE } from '../src/areas/flow/index.js';
import { BASIC, useServer } from './harness.js';
import { grantCodes } from './io-resource.js';
import { multipart } from './multipart.js';

/**
 * A tenant's workflow model never runs code on the server and never holds it (issue 23, items 1 and 2): every
 * construct that would run code is refused at deploy, naming the element; expressions read the process's
 * variables and nothing else, and one that fails is a 400 naming the element and the expression; a step that
 * never waits is stopped at its bound, rolled back, shown as an incident on the running-instances screen, and
 * the server answers everyone meanwhile; sequence flows without an id run.
 */
type Row = Record<string, unknown> & { id: string };
type Page = { records: Row[]; total: number };
const FLOW = '/api/blade-flow';
const T = '541742';
const NS = 'xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:flowable="http://flowable.org/bpmn"';
const model = (key: string, body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><definitions ${NS} id="d_${key}" targetNamespace="t"><process id="${key}" name="${key}" isExecutable="true">${body}</process></definitions>`;
/** what a script would do if it ran: read the server's process, and go on */
const PAYLOAD = `globalThis.flowPwned = typeof process; next();`;

const h = useServer();
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};

const post = (who: string, path: string, body: Record<string, unknown>, lang: 'zh' | 'en' = 'en') =>
  h.call<unknown>('POST', `${FLOW}/${path}`, { token: tokens[who], body, lang });
const list = async (who: string, path: string, query: Record<string, string | number> = {}) => {
  const res = await h.call<Page>('GET', `${FLOW}/${path}`, { token: tokens[who], query: { size: 50, ...query } });
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data.records;
};

function upload(who: string, filename: string, data: string) {
  const { payload, contentType } = multipart([{ name: 'files', filename, type: 'application/xml', data }]);
  return h.server.app.inject({
    method: 'POST', url: `${FLOW}/manager/deploy-upload`, payload,
    headers: { 'content-type': contentType, 'accept-language': 'en', authorization: BASIC, 'blade-auth': `bearer ${tokens[who]}` },
  });
}

/** deploys a model and answers its definition's id */
async function deploy(key: string, body: string): Promise<string> {
  const res = await upload('admin', `${key}.bpmn20.xml`, model(key, body));
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as Array<{ definitionId: string }>)[0]!.definitionId;
}

const start = (definitionId: string, variables: Record<string, unknown> = {}) =>
  post('admin', 'work/start-process', { processDefinitionId: definitionId, variables });

beforeAll(async () => {
  await grantCodes(h.server, ['work', 'work_start', 'work_todo', 'work_send'], ['admin']);
  ids.admin = await h.createUser(T, 'fs-admin', 'Flow#2026', ['admin']);
  tokens.admin = (await h.login(T, 'fs-admin', 'Flow#2026')).access_token;
  tokens.other = (await h.login('000000', 'admin', 'admin')).access_token;
});

describe('a model never runs code on the server', () => {
  const refusals: Array<[string, string, RegExp]> = [
    ['a script task', `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="steal"/>
      <scriptTask id="steal" scriptFormat="javascript"><script>${PAYLOAD}</script></scriptTask>
      <sequenceFlow id="f2" sourceRef="steal" targetRef="e"/><endEvent id="e"/>`, /ScriptTask steal: a script task runs code/],
    ['a condition in JavaScript', `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="g"/><exclusiveGateway id="g" default="f3"/>
      <sequenceFlow id="f2" sourceRef="g" targetRef="e"><conditionExpression xsi:type="tFormalExpression" language="javascript">${PAYLOAD}</conditionExpression></sequenceFlow>
      <sequenceFlow id="f3" sourceRef="g" targetRef="e"/><endEvent id="e"/>`, /SequenceFlow f2: the expression language "javascript" is a script/],
    ['an execution listener naming a class the server does not have', `<startEvent id="s"><extensionElements><flowable:executionListener event="start" class="com.evil.Steal"/></extensionElements></startEvent>
      <sequenceFlow id="f1" sourceRef="s" targetRef="e"/><endEvent id="e"/>`, /StartEvent s: the execution listener's server handler "com.evil.Steal" does not exist/],
    ['a task listener with an expression', `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="u"/>
      <userTask id="u" flowable:assignee="x"><extensionElements><flowable:taskListener event="create" expression="\${execution.setVariable('a', 1)}"/></extensionElements></userTask>
      <sequenceFlow id="f2" sourceRef="u" targetRef="e"/><endEvent id="e"/>`, /UserTask u: a task listener with an expression or a script runs code/],
    ['a service task naming a class the server does not have', `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="svc"/>
      <serviceTask id="svc" flowable:class="java.lang.Runtime"/><sequenceFlow id="f2" sourceRef="svc" targetRef="e"/><endEvent id="e"/>`,
    /ServiceTask svc: no server handler "java.lang.Runtime"/],
    ['a service task with an expression', `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="svc"/>
      <serviceTask id="svc" flowable:expression="\${environment.services.fs}"/><sequenceFlow id="f2" sourceRef="svc" targetRef="e"/><endEvent id="e"/>`,
    /ServiceTask svc: no server handler "fs"/],
    ['a class on a message event', `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="m"/>
      <intermediateThrowEvent id="m"><messageEventDefinition flowable:class="com.evil.Send"/></intermediateThrowEvent>
      <sequenceFlow id="f2" sourceRef="m" targetRef="e"/><endEvent id="e"/>`, /IntermediateThrowEvent m: class="com.evil.Send" names code to run/],
    ['a script in an input mapping', `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="u"/>
      <userTask id="u" flowable:assignee="x"><extensionElements><flowable:inputOutput><flowable:inputParameter name="a"><flowable:script scriptFormat="javascript">${PAYLOAD}</flowable:script></flowable:inputParameter></flowable:inputOutput></extensionElements></userTask>
      <sequenceFlow id="f2" sourceRef="u" targetRef="e"/><endEvent id="e"/>`, /UserTask u: flowable:Script runs code on the server/],
    ['a class in another namespace', `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="u"/>
      <userTask id="u" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" camunda:delegateExpression="\${steal}"/>
      <sequenceFlow id="f2" sourceRef="u" targetRef="e"/><endEvent id="e"/>`, /UserTask u: camunda:delegateExpression="\$\{steal\}" names code to run/],
    ['a property path to the host\'s Function', `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="u"/>
      <userTask id="u" flowable:assignee="\${environment.constructor.constructor.call(null,'return process')}"/>
      <sequenceFlow id="f2" sourceRef="u" targetRef="e"/><endEvent id="e"/>`, /UserTask u: the expression \$\{environment\.constructor/],
    ['a function call', `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="g"/><exclusiveGateway id="g" default="f3"/>
      <sequenceFlow id="f2" sourceRef="g" targetRef="e"><conditionExpression xsi:type="tFormalExpression">\${environment.services.exit(1)}</conditionExpression></sequenceFlow>
      <sequenceFlow id="f3" sourceRef="g" targetRef="e"/><endEvent id="e"/>`, /SequenceFlow f2: the expression \$\{environment\.services\.exit\(1\)\} cannot be read \(no function "exit"/],
  ];

  it.each(refusals)('refuses %s at upload, naming the element and why; nothing deploys, nothing runs', async (_what, body, reason) => {
    const key = `Code${refusals.findIndex(([w]) => w === _what)}`;
    const res = await upload('admin', `${key}.bpmn`, model(key, body));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().msg).toMatch(new RegExp(`^The file "${key}.bpmn" cannot be deployed: `));
    expect(res.json().msg).toMatch(reason);
    expect(await list('admin', 'manager/list', { processKey: key })).toEqual([]);
  });

  it('refuses a model\'s deploy with a script task the same way (zh), and a saved draft never runs', async () => {
    const made = await post('admin', 'model/submit', { modelKey: 'Steal', name: '窃取' });
    expect(made.status, made.body.msg).toBe(200);
    const id = (made.body.data as Row).id;
    const saved = await post('admin', 'model/submit', { id, xml: model('Steal', refusals[0]![1]) });
    expect(saved.status, saved.body.msg).toBe(200);
    const refused = await post('admin', 'model/deploy', { modelId: id }, 'zh');
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toMatch(/^流程模型有误, 无法部署: ScriptTask「steal」: 脚本任务会在服务器上运行代码/);
    expect(await list('admin', 'manager/list', { processKey: 'Steal' })).toEqual([]);
  });

  it('checks every process of the document, not only the executable one', async () => {
    const xml = model('Hidden', `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="e"/><endEvent id="e"/>`).replace('</definitions>',
      `<process id="Shelf" isExecutable="false"><startEvent id="s2"/><sequenceFlow id="f2" sourceRef="s2" targetRef="steal"/>
      <scriptTask id="steal" scriptFormat="javascript"><script>${PAYLOAD}</script></scriptTask></process></definitions>`);
    const res = await upload('admin', 'Hidden.bpmn', xml);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().msg).toMatch(/ScriptTask steal: a script task runs code/);
    expect(await list('admin', 'manager/list', { processKey: 'Hidden' })).toEqual([]);
  });

  it('refuses an unclosed expression of 200 KB at upload, naming the element (it no longer takes minutes to read)', async () => {
    const res = await upload('admin', 'Long.bpmn', model('Long', `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="u"/>
      <userTask id="u" flowable:assignee="${'${'.repeat(100_000)}"/><sequenceFlow id="f2" sourceRef="u" targetRef="e"/><endEvent id="e"/>`));
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toMatch(/UserTask u: .*longer than/);
  });

  it('a script task that reached the engine anyway is not run: the step fails by the engine\'s own refusal', async () => {
    // compile's check is bypassed: a clean task is turned into a script task in the compiled definition
    const [compiled] = await compileBpmn(model('Patched', `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="steal"/>
      <task id="steal"/><sequenceFlow id="f2" sourceRef="steal" targetRef="u"/><userTask id="u"/><sequenceFlow id="f3" sourceRef="u" targetRef="e"/><endEvent id="e"/>`), new Set());
    const definition = JSON.parse(compiled!.compiled) as ProcessModel & { nodes: Record<string, Record<string, unknown>> };
    Object.assign(definition.nodes.steal!, { type: 'scriptTask', scriptFormat: 'javascript', script: PAYLOAD });
    const ran = runStep(definition, null, { start: { variables: {}, initiator: null } }, { handlers: {}, limits: DEFAULT_STEP_LIMITS });
    await expect(ran).rejects.toBeInstanceOf(StepFailed);
    await expect(ran).rejects.toThrow(/steal: the engine does not run a scriptTask/);
  });
});

describe('multi-instance (countersign) runs, and a loop of any size is bounded', () => {
  it('a multi-instance user task over three approvers opens three tasks', async () => {
    const [compiled] = await compileBpmn(model('Countersign', `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="u"/>
      <userTask id="u" flowable:assignee="\${approver}"><multiInstanceLoopCharacteristics isSequential="false" flowable:collection="\${approvers}" flowable:elementVariable="approver"/></userTask>
      <sequenceFlow id="f2" sourceRef="u" targetRef="e"/><endEvent id="e"/>`), new Set());
    const step = await runStep(JSON.parse(compiled!.compiled) as ProcessModel, null, { start: { variables: { approvers: ['u-ann', 'u-ben', 'u-cy'] }, initiator: null } }, { handlers: {}, limits: DEFAULT_STEP_LIMITS });
    expect(step.status).toBe('running');
    expect(step.opened.map((t) => t.activityId)).toEqual(['u', 'u', 'u']);
  });

  it('refuses at upload a literal loop cardinality above the step\'s activity bound, naming the element', async () => {
    const res = await upload('admin', 'Many.bpmn', model('Many', `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="t"/>
      <task id="t"><multiInstanceLoopCharacteristics isSequential="true"><loopCardinality>200000</loopCardinality></multiInstanceLoopCharacteristics></task>
      <sequenceFlow id="f2" sourceRef="t" targetRef="e"/><endEvent id="e"/>`));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().msg).toMatch(/Task t: .*200000.*500/);
  });

  it.each([['sequential', 'true'], ['parallel', 'false']])('a %s loop of 100000 iterations from a variable is stopped: 400, an incident; everyone is answered', async (kind, sequential) => {
    const key = `Loop_${kind}`;
    const def = await deploy(key, `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="t"/>
      <task id="t"><multiInstanceLoopCharacteristics isSequential="${sequential}"><loopCardinality>\${n}</loopCardinality></multiInstanceLoopCharacteristics></task>
      <sequenceFlow id="f2" sourceRef="t" targetRef="e"/><endEvent id="e"/>`);
    const res = await start(def, { n: 100_000 });
    expect(res.status, res.body.msg).toBe(400);
    expect(res.body.msg).toMatch(/^The process was stopped, nothing was changed, and it is marked as an incident under Running instances: (more than 500 activities .*t$|the step ran longer than 5 s)/);
    expect((await h.call<Page>('GET', '/api/blade-system/dict/list', { token: tokens.other, query: { size: 5 } })).status).toBe(200);
    const [row] = await list('admin', 'follow/list', { processKey: key });
    expect(row).toMatchObject({ status: 'incident' });
  });
});

describe('expressions read the process\'s variables only', () => {
  it('an expression reaching past the variables fails its step with a 400 naming the element and the expression; nothing starts', async () => {
    const def = await deploy('Reach', `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="u"/>
      <userTask id="u" flowable:assignee="\${applicant['constructor']['constructor']}"/>
      <sequenceFlow id="f2" sourceRef="u" targetRef="e"/><endEvent id="e"/>`);
    const res = await start(def, { applicant: 'bob' });
    expect(res.status, res.body.msg).toBe(400);
    expect(res.body.msg).toBe('The process cannot go on: UserTask u: the expression ${applicant[\'constructor\'][\'constructor\']} cannot be evaluated: "constructor" cannot be read');
    const inherited = await deploy('Inherited', `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="g"/><exclusiveGateway id="g"/>
      <sequenceFlow id="f2" sourceRef="g" targetRef="u"><conditionExpression xsi:type="tFormalExpression">\${o['hasOwnProperty'] != null}</conditionExpression></sequenceFlow>
      <userTask id="u" flowable:assignee="x"/><sequenceFlow id="f3" sourceRef="u" targetRef="e"/><endEvent id="e"/>`);
    // an inherited property is not there: no way out of the gateway
    const none = await start(inherited, { o: { a: 1 } });
    expect(none.status).toBe(400);
    expect(none.body.msg).toBe('The process cannot go on: ExclusiveGateway g: no outgoing sequence flow can be taken: no condition holds and there is no default flow');
    expect((await list('admin', 'work/send-list')).filter((r) => ['Reach', 'Inherited'].includes(String(r.processKey)))).toEqual([]);
  });

  it('what Flowable models write still works: word operators, empty, environment.variables paths, #{…}', async () => {
    const def = await deploy('Words', `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="g"/><exclusiveGateway id="g" default="f4"/>
      <sequenceFlow id="f2" sourceRef="g" targetRef="long"><conditionExpression xsi:type="tFormalExpression">\${environment.variables.days gt 3 and not approved and empty comment}</conditionExpression></sequenceFlow>
      <sequenceFlow id="f3" sourceRef="g" targetRef="short"><conditionExpression xsi:type="tFormalExpression" language="juel">#{days le 3}</conditionExpression></sequenceFlow>
      <sequenceFlow id="f4" sourceRef="g" targetRef="short"/>
      <userTask id="long" flowable:assignee="\${applicant}"/><userTask id="short" flowable:assignee="#{applicant}"/>
      <sequenceFlow id="f5" sourceRef="long" targetRef="e"/><sequenceFlow id="f6" sourceRef="short" targetRef="e"/><endEvent id="e"/>`);
    for (const [days, step] of [[5, 'long'], [2, 'short']] as const) {
      const res = await start(def, { days, approved: false, comment: '', applicant: ids.admin });
      expect(res.status, res.body.msg).toBe(200);
      const instanceId = (res.body.data as { processInstanceId: string }).processInstanceId;
      const task = (await list('admin', 'work/todo-list')).find((r) => r.instanceId === instanceId);
      expect(task).toMatchObject({ taskDefinitionKey: step });
    }
  });
});

describe('no step holds the server', () => {
  const LOOP = `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="t"/><intermediateThrowEvent id="t"/>
    <sequenceFlow id="f2" sourceRef="t" targetRef="g"/><exclusiveGateway id="g" default="f3"/><sequenceFlow id="f3" sourceRef="g" targetRef="t"/>`;

  it('a start that never waits is stopped: 400, nothing half-written, an incident with its reason on the running-instances screen; everyone is answered', async () => {
    const def = await deploy('Spin', LOOP);
    const res = await start(def);
    expect(res.status, res.body.msg).toBe(400);
    expect(res.body.msg).toMatch(/^The process was stopped, nothing was changed, and it is marked as an incident under Running instances: (more than 500 activities ran without the process waiting|the step ran longer than 5 s)/);
    // another tenant signs in and lists; this tenant lists too
    const other = await h.login('000000', 'admin', 'admin');
    expect(other.access_token).toBeTruthy();
    expect((await h.call<Page>('GET', '/api/blade-system/dict/list', { token: other.access_token, query: { size: 5 } })).status).toBe(200);
    const follow = (await list('admin', 'follow/list', { processKey: 'Spin' }));
    expect(follow).toHaveLength(1);
    expect(follow[0]).toMatchObject({ status: 'incident', statusName: '异常中止' });
    expect(String(follow[0]!.incidentReason)).toMatch(/more than 500 activities|longer than 5 s/);
    expect((await list('admin', 'follow/list', { status: 'incident' })).map((r) => r.processKey)).toContain('Spin');
    // its history holds nothing of the stopped run, and the operator deletes it
    const history = await h.call<unknown[]>('GET', `${FLOW}/process/history-flow-list`, { token: tokens.admin, query: { processInstanceId: follow[0]!.id } });
    expect(history.status).toBe(200);
    const removed = await post('admin', 'follow/delete-process-instance', { processInstanceId: follow[0]!.id, deleteReason: 'a loop' });
    expect(removed.status, removed.body.msg).toBe(200);
    expect(await list('admin', 'follow/list', { processKey: 'Spin' })).toEqual([]);
  });

  it('a completion that loops is stopped and rolled back: the instance becomes an incident, its task can no longer be completed', async () => {
    const def = await deploy('SpinLater', `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="u"/><userTask id="u" flowable:assignee="\${applicant}"/>
      <sequenceFlow id="f1" sourceRef="u" targetRef="t"/><intermediateThrowEvent id="t"/>
      <sequenceFlow id="f2" sourceRef="t" targetRef="g"/><exclusiveGateway id="g" default="f3"/><sequenceFlow id="f3" sourceRef="g" targetRef="t"/>`);
    const started = await start(def, { applicant: ids.admin });
    expect(started.status, started.body.msg).toBe(200);
    const instanceId = (started.body.data as { processInstanceId: string }).processInstanceId;
    const task = (await list('admin', 'work/todo-list')).find((r) => r.instanceId === instanceId)!;
    const done = await post('admin', 'work/complete-task', { taskId: task.id, processInstanceId: instanceId, flag: 'ok', comment: 'go' });
    expect(done.status, done.body.msg).toBe(400);
    expect(done.body.msg).toMatch(/^The process was stopped, nothing was changed/);
    const [row] = await list('admin', 'follow/list', { processKey: 'SpinLater' });
    expect(row).toMatchObject({ id: instanceId, status: 'incident' });
    // rolled back: the task is still the open one
    expect((await list('admin', 'work/todo-list')).find((r) => r.instanceId === instanceId)).toMatchObject({ id: task.id, taskDefinitionKey: 'u' });
    const again = await post('admin', 'work/complete-task', { taskId: task.id, flag: 'ok' });
    expect(again.status).toBe(400);
    expect(again.body.msg).toMatch(/^The process instance was stopped as an incident \(see Running instances\): /);
  });

  it('a leave request whose process loops writes no request, and its incident shows once the transaction has rolled back', async () => {
    // a tenant may deploy any model under the leave key; one that can serve the leave form (a task goes to the
    // approver it picks, leaveModel.ts) is started by it, here into the loop (2 days: the approval is never reached)
    const def = await deploy('Leave', `${LOOP}<sequenceFlow id="f4" sourceRef="g" targetRef="approve">
      <conditionExpression xsi:type="tFormalExpression">\${days &gt; 1000}</conditionExpression></sequenceFlow>
      <userTask id="approve" flowable:assignee="\${taskUser}"/>`);
    const bobId = await h.createUser(T, 'fs-bob', 'Flow#2026', []);
    const res = await h.call<unknown>('POST', '/api/blade-desk/process/leave/start-process', {
      token: tokens.admin, lang: 'en',
      body: { processDefinitionId: def, startTime: '2026-12-01 09:00:00', endTime: '2026-12-02 18:00:00', days: 2, reason: 'loop', taskUser: bobId },
    });
    expect(res.status, res.body.msg).toBe(400);
    expect(res.body.msg).toMatch(/^The process was stopped, nothing was changed/);
    // written in a transaction of its own after the request's rolled back: a bounded wait for it
    let incident: Row | undefined;
    for (let i = 0; i < 100 && !incident; i++) {
      incident = (await list('admin', 'follow/list', { definitionId: def }))[0];
      if (!incident) await new Promise((r) => setTimeout(r, 100));
    }
    expect(incident).toMatchObject({ status: 'incident', processKey: 'Leave' });
    const detail = await h.call<unknown>('GET', '/api/blade-desk/process/leave/detail', { token: tokens.admin, query: { businessId: String(incident!.businessKey) } });
    expect(detail.status).toBe(404);
  });

  it('a timer that fires into a loop is stopped the same way: the scheduler marks the incident and no longer fires it', async () => {
    const def = await deploy('SpinOnTimer', `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="wait"/>
      <intermediateCatchEvent id="wait"><timerEventDefinition><timeDuration xsi:type="tFormalExpression">PT1S</timeDuration></timerEventDefinition></intermediateCatchEvent>
      <sequenceFlow id="f1" sourceRef="wait" targetRef="t"/><intermediateThrowEvent id="t"/>
      <sequenceFlow id="f2" sourceRef="t" targetRef="g"/><exclusiveGateway id="g" default="f3"/><sequenceFlow id="f3" sourceRef="g" targetRef="t"/>`);
    const started = await start(def);
    expect(started.status, started.body.msg).toBe(200);
    const instanceId = (started.body.data as { processInstanceId: string }).processInstanceId;
    // the server's scheduler fires the timer within a few ticks: a bounded wait for the incident
    let row: Row | undefined;
    for (let i = 0; i < 300 && row?.status !== 'incident'; i++) {
      row = (await list('admin', 'follow/list', { definitionId: def }))[0];
      if (row?.status !== 'incident') await new Promise((r) => setTimeout(r, 100));
    }
    expect(row).toMatchObject({ id: instanceId, status: 'incident' });
    expect(String(row!.incidentReason)).toMatch(/more than 500 activities|longer than 5 s/);
    expect(await h.server.ctx.services.get(FLOW_ENGINE).fireDue(new Date(Date.now() + 3600_000))).toBe(0);
  });

  it('a legal model whose sequence flows have no id runs, as Flowable runs it', async () => {
    const def = await deploy('NoIds', `<startEvent id="s"/><sequenceFlow sourceRef="s" targetRef="u"/><userTask id="u" flowable:assignee="\${applicant}"/>
      <sequenceFlow sourceRef="u" targetRef="g"/><exclusiveGateway id="g"/>
      <sequenceFlow sourceRef="g" targetRef="e"><conditionExpression xsi:type="tFormalExpression">\${pass}</conditionExpression></sequenceFlow>
      <sequenceFlow sourceRef="g" targetRef="u"><conditionExpression xsi:type="tFormalExpression">\${!pass}</conditionExpression></sequenceFlow>
      <endEvent id="e"/>`);
    const started = await start(def, { applicant: ids.admin });
    expect(started.status, started.body.msg).toBe(200);
    const instanceId = (started.body.data as { processInstanceId: string }).processInstanceId;
    for (const flag of ['no', 'ok']) {
      const task = (await list('admin', 'work/todo-list')).find((r) => r.instanceId === instanceId)!;
      expect(task).toMatchObject({ taskDefinitionKey: 'u' });
      const done = await post('admin', 'work/complete-task', { taskId: task.id, flag });
      expect(done.status, done.body.msg).toBe(200);
      expect((done.body.data as { status: string }).status).toBe(flag === 'ok' ? 'completed' : 'running');
    }
  });
});
