import { readFileSync } from 'node:fs';
import { beforeAll, expect } from 'vitest';
import { FLOW_ENGINE } from '../src/areas/flow/index.js';
import { BASIC, type Harness, useServer } from './harness.js';
import { grantCodes } from './io-resource.js';
import { multipart } from './multipart.js';

/**
 * What the Flowable conformance suites (flow-conformance*.test.ts) share: a server with the tenant's users
 * (alice, bob, carol, dave: admin; hr1: hr; platform: the platform tenant's admin), and the HTTP calls each
 * test observes the engine through: deploys, starts, work lists, completions, history, diagram, timers, messages.
 * The models are in fixtures/flow/conformance/.
 */

export type Row = Record<string, unknown> & { id: string };
export type Page = { records: Row[]; total: number };
export type Deployed = { tenantId: string; deploymentId: string; definitionId: string; processKey: string; name: string; version: number };
export type HistoryItem = {
  historyActivityId: string; historyActivityType: string; assignee: string | null; createTime: string | null; endTime: string | null; outcome: string | null;
};
type ViewItem = { historyActivityId: string; historyActivityType: string; endTime: string | null };

export const FLOW = '/api/blade-flow';
/** the tenant the users work in */
export const T = '541742';
/** the platform tenant (another tenant than T) */
export const PLATFORM = '000000';
export const WORK_CODES = ['work', 'work_start', 'work_claim', 'work_todo', 'work_send', 'work_done'];
export const HOUR = 3_600_000;

export const model = (name: string) => readFileSync(new URL(`./fixtures/flow/conformance/${name}.bpmn20.xml`, import.meta.url), 'utf8');
export const entriesOf = (history: HistoryItem[], activityId: string) => history.filter((e) => e.historyActivityId === activityId);

/** Starts the server for the test file, creates the users before the tests, and answers the helpers. */
export interface BpmnFile {
  filename: string;
  data: string;
}

/** `manager/deploy-upload` as the console sends it: multipart files and fields, in a language */
export function uploadBpmn(h: Harness, token: string, files: BpmnFile[], fields: Record<string, string> = {}, lang: 'zh' | 'en' = 'en') {
  const { payload, contentType } = multipart([
    ...Object.entries(fields).map(([name, data]) => ({ name, data })),
    ...files.map((f) => ({ name: 'files', filename: f.filename, type: 'application/xml', data: f.data })),
  ]);
  return h.server.app.inject({
    method: 'POST', url: `${FLOW}/manager/deploy-upload`, payload,
    headers: { 'content-type': contentType, 'accept-language': lang, authorization: BASIC, 'blade-auth': `bearer ${token}` },
  });
}

/** the work API calls of a test, as one of its users (by the name its tokens are kept under) */
export function flowCalls(h: Harness, tokens: Record<string, string>) {
  const list = async (who: string, path: string, query: Record<string, string | number> = {}) => {
    const res = await h.call<Page>('GET', `${FLOW}/${path}`, { token: tokens[who], query: { size: 50, ...query } });
    expect(res.status, res.body.msg).toBe(200);
    return res.body.data.records;
  };
  const post = (who: string, path: string, body: Record<string, unknown>, lang: 'zh' | 'en' = 'zh') =>
    h.call<unknown>('POST', path.startsWith('/') ? path : `${FLOW}/${path}`, { token: tokens[who], body, lang });
  const get = (who: string, path: string, query: Record<string, string>) => h.call<unknown>('GET', path.startsWith('/') ? path : `${FLOW}/${path}`, { token: tokens[who], query });
  return { list, post, get };
}

export function useConformance() {
  const h: Harness = useServer();
  const tokens: Record<string, string> = {};
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    await grantCodes(h.server, WORK_CODES, ['hr']);
    for (const [account, roles] of [['cf-alice', ['admin']], ['cf-bob', ['admin']], ['cf-carol', ['admin']], ['cf-dave', ['admin']], ['cf-hr1', ['hr']]] as Array<[string, string[]]>) {
      const key = account.slice(3);
      ids[key] = await h.createUser(T, account, 'Flow#2026', roles);
      tokens[key] = (await h.login(T, account, 'Flow#2026')).access_token;
    }
    tokens.platform = (await h.login(PLATFORM, 'admin', 'admin')).access_token;
  });

  const list = async (who: string, path: string, query: Record<string, string | number> = {}) => {
    const res = await h.call<Page>('GET', `${FLOW}/${path}`, { token: tokens[who], query: { size: 500, ...query } });
    expect(res.status, res.body.msg).toBe(200);
    return res.body.data.records;
  };
  const post = (who: string, path: string, body: Record<string, unknown>, lang: 'zh' | 'en' = 'en') =>
    h.call<unknown>('POST', `${FLOW}/${path}`, { token: tokens[who], body, lang });
  const get = (who: string, path: string, query: Record<string, string>) => h.call<unknown>('GET', `${FLOW}/${path}`, { token: tokens[who], query });

  const upload = (who: string, files: BpmnFile[], fields: Record<string, string> = {}, lang: 'zh' | 'en' = 'en') => uploadBpmn(h, tokens[who]!, files, fields, lang);
  const uploadModels = (names: string[], who = 'alice', fields: Record<string, string> = {}, lang: 'zh' | 'en' = 'en') =>
    upload(who, names.map((n) => ({ filename: `${n}.bpmn20.xml`, data: model(n) })), fields, lang);

  /** deploys the models (one upload) and answers one entry per executable process */
  async function deploy(...names: string[]): Promise<Deployed[]> {
    const res = await uploadModels(names);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Deployed[];
  }
  function definitionOf(deployed: Deployed[], processKey: string): string {
    const found = deployed.find((d) => d.processKey === processKey);
    expect(found, `${processKey} is deployed`).toBeDefined();
    return found!.definitionId;
  }

  async function start(who: string, processDefinitionId: string, variables: Record<string, unknown> = {}, businessKey?: string): Promise<string> {
    const res = await post(who, 'work/start-process', { processDefinitionId, variables, ...(businessKey ? { businessKey } : {}) });
    expect(res.status, res.body.msg).toBe(200);
    const { processInstanceId } = res.body.data as { processInstanceId: string };
    expect(processInstanceId).toBeTruthy();
    return processInstanceId;
  }

  const todos = async (who: string, instanceId: string) => (await list(who, 'work/todo-list')).filter((r) => r.instanceId === instanceId);
  const claimables = async (who: string, instanceId: string) => (await list(who, 'work/claim-list')).filter((r) => r.instanceId === instanceId);
  /** the one task `who` has to do in the instance, of that step */
  async function onlyTodo(who: string, instanceId: string, taskDefinitionKey: string): Promise<Row> {
    const mine = await todos(who, instanceId);
    expect(mine.map((t) => t.taskDefinitionKey), `${who}'s tasks`).toEqual([taskDefinitionKey]);
    return mine[0]!;
  }

  async function complete(who: string, task: Row, flag = 'ok', variables?: Record<string, unknown>) {
    const res = await post(who, 'work/complete-task', { taskId: task.id, processInstanceId: task.instanceId, flag, ...(variables ? { variables } : {}) });
    expect(res.status, res.body.msg).toBe(200);
    return res.body.data as { processInstanceId: string; status: string };
  }

  /** the instance as its starter's send-list shows it */
  async function sent(starter: string, instanceId: string): Promise<Row> {
    const row = (await list(starter, 'work/send-list')).find((r) => r.id === instanceId);
    expect(row, `instance ${instanceId} in ${starter}'s send-list`).toBeDefined();
    return row!;
  }
  const statusOf = async (instanceId: string, starter = 'alice') => (await sent(starter, instanceId)).status;

  async function historyOf(instanceId: string, who = 'alice'): Promise<HistoryItem[]> {
    const res = await get(who, 'process/history-flow-list', { processInstanceId: instanceId });
    expect(res.status, res.body.msg).toBe(200);
    return res.body.data as HistoryItem[];
  }

  async function viewOf(instanceId: string, who = 'alice'): Promise<{ xml: string; flow: ViewItem[] }> {
    const res = await get(who, 'process/model-view', { processInstanceId: instanceId });
    expect(res.status, res.body.msg).toBe(200);
    return res.body.data as { xml: string; flow: ViewItem[] };
  }
  /**
   * The elements the diagram marks running. A boundary event still waiting is left out: whether Flowable shows one as
   * an active activity is not what these tests check (one that fired is checked in the history).
   */
  const runningIn = async (instanceId: string, who = 'alice') => (await viewOf(instanceId, who)).flow
    .filter((f) => f.endTime === null && f.historyActivityType !== 'boundaryEvent').map((f) => f.historyActivityId).sort();

  const fireTimers = (aheadMs: number) => h.server.ctx.services.get(FLOW_ENGINE).fireDue(new Date(Date.now() + aheadMs));

  const message = (who: string, body: Record<string, unknown>, lang: 'zh' | 'en' = 'en') => post(who, 'process/message', body, lang);

  return {
    h, tokens, ids, list, post, get, upload, uploadModels, deploy, definitionOf, start, todos, claimables, onlyTodo, complete, sent, statusOf,
    historyOf, viewOf, runningIn, fireTimers, message,
  };
}
