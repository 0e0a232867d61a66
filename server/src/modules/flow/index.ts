import type { FeatureModule } from '../feature.js';
import { FlowEngine, type FlowService } from './engine.js';

/** the server handlers service tasks of deployed models may call, by name (flowable:class or delegateExpression) */
export const FLOW_SERVICES: Record<string, FlowService> = {};

/** The workflow engine: BPMN models, deployments, instances and tasks (docs/workflow.md). */
export const flowFeature: FeatureModule = {
  name: 'flow',
  routes: (_app, ctx) => {
    ctx.flow = new FlowEngine(ctx, FLOW_SERVICES);
  },
};
