import { type Lang, msg } from '@console/contract';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AuthUser } from '../../core/context.js';
import type { Executor } from '../../core/db/index.js';
import { AppError, fieldError } from '../../core/errors.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { showDefinitions, showSentInstances, showTasks, processModeParam } from './bladeFields.js';
import { BpmnInvalid, processesOf } from './bpmn/compile.js';
import type { ProcessModel } from './bpmn/model.js';
import { leaveCategories, leaveFormProblem, type LeaveFormProblem } from './leaveModel.js';
import { flowDefinition, flowInstance, flowTask } from './tables.js';

/** a text[] literal of parameters (`ARRAY[$1, $2]::text[]`) */
const textArray = (values: readonly string[]): SQL => sql`ARRAY[${sql.join(values.map((v) => sql`${v}`), sql`, `)}]::text[]`;

/** the open tasks offered to the user and not yet claimed: as a candidate user, or through a role (by alias) */
export function offeredTo(user: AuthUser): SQL {
  const asUser = sql`${flowTask.candidateUsers} && ${textArray([user.userId])}`;
  const offered = user.roleAliases.length ? sql`(${asUser} or ${flowTask.candidateGroups} && ${textArray(user.roleAliases)})` : asUser;
  return and(eq(flowTask.status, 'open'), sql`${flowTask.assignee} is null`, offered)!;
}

const scope = (condition: (user: AuthUser) => SQL, more: ResourceHooks = {}): ResourceHooks => ({ scope: async (_tx, user) => condition(user), ...more });

/** each definition of a leave category: whether the leave form fits its model, said before the form opens */
async function withLeaveFormProblems(tx: Executor, rows: Array<Record<string, unknown>>, tenantId: string, modelOf: ModelOf): Promise<void> {
  const leave = rows.some((r) => typeof r.category === 'string') ? await leaveCategories(tx) : new Set<string>();
  for (const r of rows) {
    if (!(typeof r.category === 'string' && leave.has(r.category) && r.id)) r.formProblem = null;
    // a stored model this version cannot read (written by hand, or by an older one) is listed, not a 500
    else r.formProblem = await modelOf(tx, tenantId, String(r.id)).then(leaveFormProblem, (): LeaveFormProblem => 'unreadable');
  }
}

type ModelOf = (tx: Executor, tenantId: string, definitionId: string) => Promise<ProcessModel>;

/** 发起事务: the newest active version of each process, with whether its business form fits it */
export const workStartHooks = (modelOf: ModelOf): ResourceHooks => scope(() => and(eq(flowDefinition.suspended, 0), sql`not exists (select 1 from blade_flow_definition newer
    where newer.tenant_id = ${flowDefinition.tenantId} and newer.process_key = ${flowDefinition.processKey}
      and newer.version > ${flowDefinition.version} and newer.is_deleted = 0)`)!, {
  shown: async (tx, rows, user) => {
    await showDefinitions(tx, rows);
    await withLeaveFormProblems(tx, rows, user.tenantId, modelOf);
  },
  listParams: processModeParam,
});

/** the other work lists: the same tasks and instances, each seen from the caller, with BladeX's fields (bladeFields.ts) */
export const workListHooks = {
  claim: scope(offeredTo, { shown: showTasks }),
  todo: scope((user) => and(eq(flowTask.status, 'open'), eq(flowTask.assignee, user.userId))!, { shown: showTasks }),
  send: scope((user) => eq(flowInstance.startUser, user.userId), { shown: showSentInstances }),
  done: scope((user) => and(eq(flowTask.status, 'completed'), eq(flowTask.completedBy, user.userId))!, { shown: showTasks }),
  // running instances, and the incidents among them (a step stopped at its bound), until they are deleted
  follow: scope(() => inArray(flowInstance.status, ['running', 'incident'])),
};

/** 流程管理: every deployed version, with Flowable's suspension state; Saber's `mode` accepted */
export const flowManagerHooks = (): ResourceHooks => ({ shown: showDefinitions, listParams: processModeParam });

const MODEL_KEY = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** the diagram of a new model: its process, keyed by the model key, with a start event to draw from */
export function blankModel(key: string, name: string): string {
  const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI"
  xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:flowable="http://flowable.org/bpmn"
  id="definitions_${esc(key)}" targetNamespace="http://www.flowable.org/processdef">
  <process id="${esc(key)}" name="${esc(name)}" isExecutable="true">
    <startEvent id="start" name="${esc(name)}" />
  </process>
  <bpmndi:BPMNDiagram id="diagram_${esc(key)}">
    <bpmndi:BPMNPlane id="plane_${esc(key)}" bpmnElement="${esc(key)}">
      <bpmndi:BPMNShape id="start_di" bpmnElement="start">
        <dc:Bounds x="180" y="160" width="36" height="36" />
      </bpmndi:BPMNShape>
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</definitions>
`;
}

/** one of the diagram's processes has the model's key: deploying a model deploys the key the operator sees */
async function checkDiagram(xml: string, modelKey: string, lang: Lang): Promise<void> {
  let keys: string[];
  try {
    keys = (await processesOf(xml)).map((p) => p.key);
  } catch (e) {
    if (e instanceof BpmnInvalid) throw fieldError('flowModelInvalid', lang, 'xml', { detail: e.text(lang).slice(0, 500) });
    throw e;
  }
  if (!keys.includes(modelKey)) throw fieldError('flowModelKeyMismatch', lang, 'xml', { key: keys.join(', '), modelKey });
}

/**
 * Models: a new one gets a diagram with its key; a saved diagram must be readable BPMN of the model's key (the full
 * check, handlers and expressions, is the deployment's); each saved diagram is a new version.
 */
export const flowModelHooks = (): ResourceHooks => ({
  inspect(input, c) {
    const key = input.modelKey;
    if (typeof key === 'string' && key !== '' && !MODEL_KEY.test(key)) return { errors: { modelKey: msg('flowModelKeyFormat', c.lang) } };
    return {};
  },
  async beforeSave(_tx: Executor, values, c) {
    delete values.version;
    const modelKey = String(values.modelKey ?? c.stored?.modelKey ?? '');
    if (c.mode === 'create') {
      if (typeof values.xml === 'string' && values.xml.trim() !== '') await checkDiagram(values.xml, modelKey, c.lang);
      else values.xml = blankModel(modelKey, String(values.name ?? modelKey));
      values.version = 1;
      return;
    }
    if (typeof values.xml === 'string' && values.xml !== c.stored?.xml) {
      if (values.xml.trim() === '') throw fieldError('flowModelInvalid', c.lang, 'xml', { detail: 'empty' });
      await checkDiagram(values.xml, modelKey, c.lang);
      values.version = Number(c.stored?.version ?? 0) + 1;
    } else if (values.xml === null) {
      delete values.xml;
    }
  },
});

/** a refusal for a call on a task or instance the caller cannot see or act on */
export const instanceMissing = () => new AppError(404, 'flowInstanceMissing');
