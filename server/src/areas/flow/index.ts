import { readFileSync } from 'node:fs';
import {
  flowFollowResource, flowManagerResource, flowModelResource, workClaimResource, workDoneResource, workSendResource,
  workStartResource, workTodoResource,
} from '@console/contract/areas/flow/index';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { type Executor, schema } from '../../core/db/index.js';
import { serviceKey } from '../../core/services.js';
import { nextId } from '../../core/ids.js';
import { bind, type DataStep, defineArea, provide } from '../../core/area.js';
import { DEMO_TENANT, type DictSeed, seedDicts } from '../../seed/steps.js';
import { compileBpmn } from './bpmn/compile.js';
import { deployChecked, FlowEngine, type FlowService } from './engine.js';
import { LEAVE_PROCESS_KEY, registerLeave } from './leave.js';
import { flowManagerHooks, flowModelHooks, workListHooks, workStartHooks } from './lists.js';
import { registerFlowRoutes } from './routes.js';
import { upgradeEngineState } from './upgrade.js';
import { flowDefinition, flowInstance, flowModel, flowTask } from './tables.js';

/** the workflow engine (BPMN): deployments, instances, tasks, its timer scheduler */
export const FLOW_ENGINE = serviceKey<FlowEngine>('flow.engine');
export type { FlowEngine } from './engine.js';

/** the server handlers service tasks of deployed models may call, by name (flowable:class or delegateExpression) */
export const FLOW_SERVICES: Record<string, FlowService> = {};

/** the leave request (apply → approver → HR above 3 days → end; a rejection returns to the applicant) */
export const LEAVE_MODEL = readFileSync(new URL('./leave.bpmn20.xml', import.meta.url), 'utf8');
/**
 * the leave process's category, `flow_` and the `flow` dictionary's key whose remark names the form route (`leave`):
 * Saber's flow routes are keyed `<code>_<dictKey>` (BladeX's definitions are categorised so)
 */
export const LEAVE_CATEGORY = 'flow_1';

const FLOW_DICTS: DictSeed[] = [
  { code: 'flow', name: '流程分类', nameEn: 'Process category', items: [['1', '请假流程', 'Leave', 'leave'], ['2', '通用审批', 'General approval']] },
  { code: 'flow_suspended', name: '流程状态', nameEn: 'Process state', items: [['0', '激活', 'Active'], ['1', '挂起', 'Suspended']] },
  { code: 'flow_instance_status', name: '流程实例状态', nameEn: 'Instance state', items: [['running', '运行中', 'Running'], ['completed', '已完成', 'Completed'], ['deleted', '已删除', 'Deleted'], ['incident', '异常中止', 'Incident']] },
  { code: 'flow_outcome', name: '办理结果', nameEn: 'Outcome', items: [['pass', '通过', 'Passed'], ['reject', '驳回', 'Rejected']] },
];

/** the tables that keep a process category, all of them written with a definition's */
const CATEGORISED = ['blade_flow_model', 'blade_flow_deployment', 'blade_flow_definition', 'blade_flow_instance', 'blade_flow_task'] as const;

/** a tenant's sample leave process, ready to start: the process deployed, and the HR role its HR step is offered to */
async function deploySampleLeave(tx: Executor, tenantId: string): Promise<void> {
  const [hr] = await tx.select({ id: schema.role.id }).from(schema.role)
    .where(and(eq(schema.role.tenantId, tenantId), eq(schema.role.roleAlias, 'hr'), eq(schema.role.isDeleted, 0)));
  if (!hr) await tx.insert(schema.role).values({ id: nextId(), tenantId, parentId: '0', roleName: '人事', roleNameEn: 'HR', roleAlias: 'hr', sort: 10 });
  const checked = await compileBpmn(LEAVE_MODEL, new Set(Object.keys(FLOW_SERVICES)));
  await deployChecked(tx, tenantId, checked, { xml: LEAVE_MODEL, source: 'upload', category: LEAVE_CATEGORY }, null);
}

const FLOW_DATA_STEPS: DataStep[] = [{
  // the demo tenant gets the leave process deployed, and the HR role its HR step is offered to
  name: '1201-flow-leave',
  run: (tx) => deploySampleLeave(tx, DEMO_TENANT),
}, {
  // the workflow's dictionaries; the leave process deployed before categories existed gets its own
  name: '1202-flow-dicts',
  async run(tx) {
    await seedDicts(tx, FLOW_DICTS);
    await tx.update(flowDefinition).set({ category: LEAVE_CATEGORY }).where(and(eq(flowDefinition.processKey, LEAVE_PROCESS_KEY), isNull(flowDefinition.category)));
  },
}, {
  // an instance whose step was stopped at its bound (issue 23): the state's label, where 1202 ran before it existed
  name: '2301-flow-incident-state',
  async run(tx) {
    const items = await tx.select({ id: schema.dict.id, parentId: schema.dict.parentId, dictKey: schema.dict.dictKey, sort: schema.dict.sort })
      .from(schema.dict).where(and(eq(schema.dict.code, 'flow_instance_status'), eq(schema.dict.isDeleted, 0)));
    const header = items.find((d) => d.dictKey === '-1');
    if (!header || items.some((d) => d.dictKey === 'incident')) return;
    await tx.insert(schema.dict).values({
      id: nextId(), parentId: header.id, code: 'flow_instance_status', dictKey: 'incident', dictValue: '异常中止', dictValueEn: 'Incident',
      sort: Math.max(...items.map((d) => d.sort)) + 1,
    });
  },
}, {
  // definitions and instances saved by the engine before issue 25, in the interpreter's form (upgrade.ts)
  name: '2501-flow-interpreter-state',
  run: (tx) => upgradeEngineState(tx, new Set(Object.keys(FLOW_SERVICES))),
}, {
  // categories are kept as BladeX keeps them (`flow_1`, issue 25): the rows written with the bare dictionary key
  name: '2501-flow-category-prefixed',
  async run(tx) {
    for (const table of CATEGORISED) {
      await tx.execute(sql`update ${sql.identifier(table)} set category = 'flow_' || category
        where category is not null and category <> '' and left(category, 5) <> 'flow_'`);
    }
  },
}, {
  // work lists named the starter by account before issue 26: the user's name, as the engine writes it now
  name: '2601-flow-starter-names',
  async run(tx) {
    await tx.execute(sql`update blade_flow_instance i set start_user_name = coalesce(nullif(u.real_name, ''), nullif(u.name, ''), i.start_user_name)
      from blade_user u where u.id = i.start_user`);
    await tx.execute(sql`update blade_flow_task t set start_user_name = i.start_user_name from blade_flow_instance i
      where i.id = t.instance_id and t.start_user_name is distinct from i.start_user_name`);
  },
}];

/** The workflow engine: BPMN models, deployments, instances and tasks, the work lists and the leave request (docs/workflow.md). */
export const flowArea = defineArea({
  name: 'flow',
  services: [provide(FLOW_ENGINE, (ctx) => new FlowEngine(ctx, FLOW_SERVICES))],
  resources: [
    bind(flowModelResource, flowModel, flowModelHooks),
    bind(flowManagerResource, flowDefinition, flowManagerHooks),
    bind(flowFollowResource, flowInstance, () => workListHooks.follow),
    bind(workStartResource, flowDefinition, (ctx) => workStartHooks((tx, tenantId, id) => ctx.services.get(FLOW_ENGINE).modelOf(tx, tenantId, id))),
    bind(workClaimResource, flowTask, () => workListHooks.claim),
    bind(workTodoResource, flowTask, () => workListHooks.todo),
    bind(workSendResource, flowInstance, () => workListHooks.send),
    bind(workDoneResource, flowTask, () => workListHooks.done),
  ],
  routes: (app, ctx) => {
    const flow = ctx.services.get(FLOW_ENGINE);
    registerFlowRoutes(app, ctx, flow);
    registerLeave(app, ctx, flow);
  },
  dataSteps: FLOW_DATA_STEPS,
  // a new tenant's 发起事务 offers the sample leave process, as the demo tenant's does
  tenantSetup: deploySampleLeave,
  start(ctx, log) {
    // timers that came due while the server was down fire at once
    const flow = ctx.services.get(FLOW_ENGINE);
    flow.startScheduler((e) => log.error({ err: e }, 'workflow timer failed'));
    return { stop: () => flow.stop() };
  },
});
