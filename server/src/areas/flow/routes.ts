import multipart from '@fastify/multipart';
import {
  BPMN_MAX_CHARS, deployedSchema, FLOW_DEPLOY_UPLOAD, flowFollowResource, flowManagerResource, flowModelResource,
  flowProcessActions, workClaimResource, workStartResource, workTodoResource,
} from '@console/contract/areas/flow/index';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { isPlatformAdmin, requireUser } from '../../core/access.js';
import { binary, multipartBody } from '../../core/apiDocs.js';
import type { AppContext, AuthUser } from '../../core/context.js';
import { inTenant } from '../../core/db/index.js';
import { envelopeOf, ok } from '../../core/envelope.js';
import { AppError, badRequest, forbidden, notFound } from '../../core/errors.js';
import { mountAction, mountOutsideTransaction, parseInput } from '../../core/resource/actions.js';
import { usableTenant } from '../../core/tenants.js';
import { brokenMultipart } from '../../core/uploads.js';
import { BpmnInvalid, type CompiledProcess } from './bpmn/compile.js';
import type { FlowEngine } from './engine.js';
import { givenCategory } from './category.js';
import { activeUsers, groupRoles } from './people.js';
import { flowDefinition, flowInstance, flowModel } from './tables.js';
import { historyOf, mayViewInstance, modelViewOf } from './view.js';

const MAX_FILES = 20;

/** The tenants a deployment goes to: the caller's by default; others only for the platform's administrators, and only live ones. */
async function deployTenants(ctx: AppContext, user: AuthUser, asked: readonly string[] | undefined): Promise<string[]> {
  const tenants = asked?.length ? [...new Set(asked)] : [user.tenantId];
  if (tenants.some((t) => t !== user.tenantId) && !isPlatformAdmin(user)) throw forbidden('platformAdminOnly');
  for (const t of tenants) {
    if (t === user.tenantId) continue;
    if ((await usableTenant(ctx.db, t)).problem) throw badRequest('tenantUnknownId', { tenantId: t });
  }
  return tenants;
}

const uploadFields = z.object({
  category: z.string().trim().max(64).optional(),
  tenantIds: z.string().max(2000).optional(),
});


/** the menus whose screens show a process definition's diagram (deployments, start a process, models) */
const DEFINITION_DIAGRAM_READERS = ['flow_manager', 'work_start', 'flow_model'];
export function registerFlowRoutes(app: FastifyInstance, ctx: AppContext, flow: FlowEngine): void {
  // ---- models ----
  mountOutsideTransaction(app, flowModelResource.actions.deploy, async ({ modelId, category, tenantIds }, { user, lang }) => {
    const given = await givenCategory(ctx, category, lang);
    const tenants = await deployTenants(ctx, user, tenantIds);
    const [model] = await inTenant(ctx.db, { tenantId: user.tenantId }, (tx) => tx.select().from(flowModel)
      .where(and(eq(flowModel.id, modelId), eq(flowModel.tenantId, user.tenantId), eq(flowModel.isDeleted, 0))));
    if (!model) throw notFound();
    return flow.deploy(user, { xml: model.xml ?? '', name: model.name, category: given ?? model.category ?? undefined, tenantIds: tenants, source: 'model' });
  });

  mountAction(app, ctx, flowModelResource.actions.assignees, async ({ keyword }, { tx, user }) => ({
    users: await activeUsers(tx, user.tenantId, keyword), roles: await groupRoles(tx, user.tenantId, keyword),
  }));

  // ---- deployments ----
  mountAction(app, ctx, flowManagerResource.actions.changeState, async ({ processId, state }, { tx, user }) => {
    const [changed] = await tx.update(flowDefinition).set({ suspended: state === 'suspend' ? 1 : 0 })
      .where(and(eq(flowDefinition.tenantId, user.tenantId), eq(flowDefinition.id, processId), eq(flowDefinition.isDeleted, 0))).returning({ id: flowDefinition.id });
    if (!changed) throw notFound();
    return true;
  });

  mountAction(app, ctx, flowManagerResource.actions.deleteDeployment, async ({ deploymentIds }, { tx }) => {
    const defs = await tx.select({ id: flowDefinition.id, name: flowDefinition.name, deploymentId: flowDefinition.deploymentId }).from(flowDefinition)
      .where(and(inArray(flowDefinition.deploymentId, deploymentIds), eq(flowDefinition.isDeleted, 0)));
    // all or nothing: an unknown, deleted or other tenant's deployment aborts the call
    if (new Set(defs.map((d) => d.deploymentId)).size !== deploymentIds.length) throw notFound();
    const running = await tx.select({ definitionId: flowInstance.definitionId, n: sql<number>`count(*)::int` }).from(flowInstance)
      .where(and(inArray(flowInstance.definitionId, defs.map((d) => d.id)), eq(flowInstance.status, 'running'))).groupBy(flowInstance.definitionId);
    const busy = running.find((r) => r.n > 0);
    if (busy) throw badRequest('flowDeploymentRunning', { name: defs.find((d) => d.id === busy.definitionId)!.name, count: busy.n });
    // the definitions stay (ended instances still show their diagram); they can no longer be started nor listed
    await tx.update(flowDefinition).set({ isDeleted: 1 }).where(inArray(flowDefinition.deploymentId, deploymentIds));
    return true;
  });

  void app.register(async (scoped) => {
    await scoped.register(multipart, { limits: { fileSize: BPMN_MAX_CHARS, files: MAX_FILES, fields: 10, parts: MAX_FILES + 10 } });
    scoped.post(FLOW_DEPLOY_UPLOAD, {
      config: { access: { permission: 'flow_manager_upload' }, title: { zh: '流程管理: 部署上传', en: 'Process management: deploy an upload' }, fieldLabels: flowManagerResource.fields },
      schema: {
        tags: ['blade-flow'],
        summary: 'Deployments: deploy uploaded models (multipart: "files", one or more .bpmn / .bpmn20.xml; "category"; "tenantIds"); all or none',
        docsOnly: {
          ...multipartBody({ files: z.array(binary()).min(1), ...uploadFields.shape }),
          response: { 200: envelopeOf(z.array(deployedSchema)) },
        },
      },
    }, async (req) => {
      const user = requireUser(req);
      if (!req.isMultipart()) throw badRequest('fileNotMultipart');
      const text: Record<string, string> = {};
      const files: Array<{ name: string; xml: string }> = [];
      try {
        for await (const part of req.parts()) {
          if (part.type === 'field') {
            text[part.fieldname] = String(part.value);
            continue;
          }
          const name = part.filename || part.fieldname;
          if (!/\.(bpmn|bpmn20\.xml|xml)$/i.test(name)) {
            part.file.resume();
            throw badRequest('flowFileType', { name });
          }
          const bytes = await part.toBuffer();
          if (part.file.truncated) throw badRequest('flowFileTooLarge', { name, max: '1 MB' });
          files.push({ name, xml: bytes.toString('utf8') });
        }
      } catch (e) {
        if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw badRequest('flowFileTooLarge', { name: '', max: '1 MB' });
        brokenMultipart(e);
      }
      const fields = parseInput(uploadFields, text, req.lang);
      const category = await givenCategory(ctx, fields.category, req.lang);
      if (!files.length) throw badRequest('flowFilesRequired');
      const tenants = await deployTenants(ctx, user, fields.tenantIds?.split(',').map((s) => s.trim()).filter(Boolean));
      const checked: Array<{ checked: CompiledProcess[]; xml: string }> = [];
      for (const f of files) {
        try {
          checked.push({ checked: await flow.compile(f.xml), xml: f.xml });
        } catch (e) {
          if (e instanceof BpmnInvalid) throw badRequest('flowFileInvalid', { name: f.name, detail: { zh: e.text('zh').slice(0, 500), en: e.text('en').slice(0, 500) } });
          throw e;
        }
      }
      const deployed = await flow.deployCompiled(user, checked.map((c) => ({ ...c, category, source: 'upload' as const })), tenants);
      return ok(deployed, req.lang);
    });
  });

  // ---- running instances ----
  mountOutsideTransaction(app, flowFollowResource.actions.deleteInstance, async ({ processInstanceId, deleteReason }, { user }) => {
    await flow.deleteInstance(user, processInstanceId, deleteReason);
    return true;
  });

  // ---- work ----
  mountOutsideTransaction(app, workStartResource.actions.startProcess, async ({ processDefinitionId, businessKey, variables }, { user }) => {
    const { instanceId } = await flow.start(user, processDefinitionId, variables ?? {}, businessKey);
    return { processInstanceId: instanceId };
  });
  mountOutsideTransaction(app, workClaimResource.actions.claimTask, async ({ taskId }, { user }) => {
    await flow.claim(user, taskId);
    return true;
  });
  mountOutsideTransaction(app, workTodoResource.actions.completeTask, async ({ taskId, processInstanceId, flag, comment, variables }, { user }) => {
    const done = await flow.complete(user, taskId, { pass: flag === 'ok', comment, variables, instanceId: processInstanceId });
    return { processInstanceId: done.instanceId, status: done.status };
  });

  // ---- messages ----
  mountOutsideTransaction(app, flowProcessActions.message, async (input, { user }) => ({ processInstanceIds: await flow.message(user, input) }));
  mountOutsideTransaction(app, flowProcessActions.trigger, async (input, { user }) => {
    await flow.trigger(user, input);
    return true;
  });
  mountOutsideTransaction(app, flowProcessActions.startByMessage, async ({ messageName, businessKey, variables }, { user }) => {
    const { instanceId } = await flow.startByMessage(user, messageName, variables ?? {}, businessKey);
    return { processInstanceId: instanceId };
  });

  // ---- what happened ----
  mountAction(app, ctx, flowProcessActions.modelView, async ({ processInstanceId, processDefinitionId }, { tx, user, granted }) => {
    if (processInstanceId) {
      const [instance] = await tx.select().from(flowInstance).where(and(eq(flowInstance.tenantId, user.tenantId), eq(flowInstance.id, processInstanceId)));
      if (!instance) throw new AppError(404, 'flowInstanceMissing');
      if (!(await mayViewInstance(tx, user, granted, instance))) throw forbidden('flowViewDenied');
      return modelViewOf(tx, user.tenantId, instance.definitionId, instance.id);
    }
    // a definition's diagram alone is for the screens that list definitions
    if (!DEFINITION_DIAGRAM_READERS.some((code) => granted.has(code))) throw forbidden('forbidden', { code: DEFINITION_DIAGRAM_READERS.join(' | ') });
    return modelViewOf(tx, user.tenantId, processDefinitionId!, null);
  });
  mountAction(app, ctx, flowProcessActions.historyFlowList, async ({ processInstanceId }, { tx, user, granted }) => {
    const [instance] = await tx.select().from(flowInstance).where(and(eq(flowInstance.tenantId, user.tenantId), eq(flowInstance.id, processInstanceId)));
    if (!instance) throw new AppError(404, 'flowInstanceMissing');
    if (!(await mayViewInstance(tx, user, granted, instance))) throw forbidden('flowViewDenied');
    return historyOf(tx, user.tenantId, instance.id);
  });
}
