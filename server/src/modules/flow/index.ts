import { readFileSync } from 'node:fs';
import { and, eq } from 'drizzle-orm';
import { schema } from '../../core/db/index.js';
import { nextId } from '../../core/ids.js';
import type { DataStep } from '../../seed/runner.js';
import { DEMO_TENANT } from '../../seed/steps.js';
import type { FeatureModule } from '../feature.js';
import { compileBpmn } from './bpmn/compile.js';
import { deployChecked, FlowEngine, type FlowService } from './engine.js';

/** the server handlers service tasks of deployed models may call, by name (flowable:class or delegateExpression) */
export const FLOW_SERVICES: Record<string, FlowService> = {};

/** the leave request (apply → approver → HR above 3 days → end; a rejection returns to the applicant) */
export const LEAVE_MODEL = readFileSync(new URL('./leave.bpmn20.xml', import.meta.url), 'utf8');

const FLOW_DATA_STEPS: DataStep[] = [{
  // the demo tenant gets the leave process deployed, and the HR role its HR step is offered to
  name: '1201-flow-leave',
  async run(tx) {
    const [hr] = await tx.select({ id: schema.role.id }).from(schema.role)
      .where(and(eq(schema.role.tenantId, DEMO_TENANT), eq(schema.role.roleAlias, 'hr'), eq(schema.role.isDeleted, 0)));
    if (!hr) await tx.insert(schema.role).values({ id: nextId(), tenantId: DEMO_TENANT, roleName: '人事', roleNameEn: 'HR', roleAlias: 'hr', sort: 10 });
    const checked = await compileBpmn(LEAVE_MODEL, new Set(Object.keys(FLOW_SERVICES)));
    await deployChecked(tx, DEMO_TENANT, checked, { xml: LEAVE_MODEL, source: 'upload' }, null);
  },
}];

/** The workflow engine: BPMN models, deployments, instances and tasks (docs/workflow.md). */
export const flowFeature: FeatureModule = {
  name: 'flow',
  routes: (_app, ctx) => {
    ctx.flow = new FlowEngine(ctx, FLOW_SERVICES);
  },
  dataSteps: FLOW_DATA_STEPS,
};
