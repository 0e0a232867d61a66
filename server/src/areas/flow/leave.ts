import { isIdText } from '@console/contract';
import { leaveActions, type LeaveRecord } from '@console/contract/areas/flow/index';
import { and, desc, eq, inArray, isNotNull, isNull, ne, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { type Executor, schema } from '../../core/db/index.js';
import { stmt } from '../../core/db/raw.js';
import { fieldError, forbidden, notFound } from '../../core/errors.js';
import { nextId } from '../../core/ids.js';
import { mountAction } from '../../core/resource/actions.js';
import { formatDateTime, parseDateTime } from '../../core/time.js';
import type { FlowEngine } from './engine.js';
import { flowDefinition, flowInstance, flowTask, processLeave } from './tables.js';
import { leaveCategories, leaveFormProblem } from './leaveModel.js';
import { activeUsers } from './people.js';
import { mayViewInstance } from './view.js';

/** the sample leave model's process key (leave.bpmn20.xml); the form serves any process of a leave category that fits it */
export const LEAVE_PROCESS_KEY = 'Leave';
/** the newest comment an approver (not the applicant) gave on the request's process */
async function latestApproval(tx: Executor, instance: typeof flowInstance.$inferSelect): Promise<string | null> {
  const [done] = await tx.select({ comment: flowTask.comment }).from(flowTask)
    .where(and(eq(flowTask.instanceId, instance.id), eq(flowTask.status, 'completed'), isNotNull(flowTask.comment), ne(flowTask.comment, ''),
      instance.startUser ? or(isNull(flowTask.completedBy), ne(flowTask.completedBy, instance.startUser)) : undefined))
    .orderBy(desc(flowTask.endTime), desc(flowTask.id)).limit(1);
  return done?.comment ?? null;
}


/**
 * The leave request (blade-desk/process/leave): the request and its process instance are written in one
 * transaction; each approver's comment is kept on the request as the process moves.
 */
export function registerLeave(app: FastifyInstance, ctx: AppContext, flow: FlowEngine): void {
  // whatever the version's task ids (the console's managerApproval / hrApproval, BladeX's managerTak / bossTask…),
  // a step the applicant did not do is an approver's decision; the applicant's own (adjusting the request) is not
  // (a request written by the form, whatever its process's key; an approval without a comment keeps the last one)
  // (written with the step's own rows, in its one statement)
  flow.onTaskCompletedWrite(({ instance, comment, user }) => {
    if (user.userId === instance.startUser || !comment || !isIdText(instance.businessKey)) return null;
    return stmt`update blade_process_leave set approval_comment = ${comment}, update_user = ${user.userId}, update_time = ${new Date().toISOString()}::timestamptz
      where id = ${instance.businessKey} and process_instance_id = ${instance.id}`;
  });

  mountAction(app, ctx, leaveActions.startProcess, async (input, { tx, user, lang }) => {
    const startTime = parseDateTime(input.startTime);
    const endTime = parseDateTime(input.endTime);
    if (!startTime) throw fieldError('badDate', lang, 'startTime', { field: lang === 'en' ? 'Start' : '开始时间' });
    if (!endTime) throw fieldError('badDate', lang, 'endTime', { field: lang === 'en' ? 'End' : '结束时间' });
    if (endTime < startTime) throw fieldError('leaveDatesOrder', lang, 'endTime');
    if (input.taskUser === user.userId) throw fieldError('leaveApproverSelf', lang, 'taskUser');
    const [approver] = await tx.select({ id: schema.user.id }).from(schema.user)
      .where(and(eq(schema.user.id, input.taskUser), eq(schema.user.tenantId, user.tenantId), eq(schema.user.isDeleted, 0), eq(schema.user.status, 1)));
    if (!approver) throw fieldError('leaveApproverUnknown', lang, 'taskUser');
    // the version the operator picked, an older one too, as BladeX's form starts the definition id in its route
    const [def] = await tx.select({ id: flowDefinition.id, category: flowDefinition.category, name: flowDefinition.name, version: flowDefinition.version })
      .from(flowDefinition).where(and(eq(flowDefinition.tenantId, user.tenantId), eq(flowDefinition.id, input.processDefinitionId), eq(flowDefinition.isDeleted, 0)));
    if (def && !(def.category && (await leaveCategories(tx)).has(def.category))) throw fieldError('flowNotLeave', lang, 'processDefinitionId');
    if (def && leaveFormProblem(await flow.modelOf(tx, user.tenantId, def.id))) throw fieldError('leaveModelNoApprover', lang, 'processDefinitionId', { name: def.name, version: def.version });
    const id = nextId();
    const now = new Date();
    await tx.insert(processLeave).values({
      id, tenantId: user.tenantId, processDefinitionId: input.processDefinitionId, startTime, endTime, days: input.days, reason: input.reason,
      taskUser: input.taskUser, applyTime: now, createUser: user.userId, createTime: now, updateUser: user.userId, updateTime: now,
    });
    const { instanceId } = await flow.startIn(tx, user, input.processDefinitionId, { applyUser: user.userId, taskUser: input.taskUser, days: input.days }, id);
    await tx.update(processLeave).set({ processInstanceId: instanceId }).where(eq(processLeave.id, id));
    return { businessId: id, processInstanceId: instanceId };
  });

  mountAction(app, ctx, leaveActions.approvers, ({ keyword }, { tx, user }) => activeUsers(tx, user.tenantId, keyword, user.userId));

  mountAction(app, ctx, leaveActions.detail, async ({ businessId }, { tx, user, granted }) => {
    const [leave] = await tx.select().from(processLeave).where(and(eq(processLeave.id, businessId), eq(processLeave.isDeleted, 0)));
    if (!leave) throw notFound();
    const [instance] = leave.processInstanceId ? await tx.select().from(flowInstance).where(eq(flowInstance.id, leave.processInstanceId)) : [];
    if (leave.createUser !== user.userId && !(instance && await mayViewInstance(tx, user, granted, instance))) throw forbidden('flowViewDenied');
    const ids = [leave.taskUser, leave.createUser].filter((v): v is string => !!v);
    const users = await tx.select({ id: schema.user.id, realName: schema.user.realName, name: schema.user.name }).from(schema.user).where(inArray(schema.user.id, ids));
    const nameOf = (id: string | null) => {
      const u = users.find((x) => String(x.id) === id);
      return u ? u.realName || u.name || null : null;
    };
    const record: LeaveRecord = {
      id: String(leave.id), processDefinitionId: String(leave.processDefinitionId), processInstanceId: leave.processInstanceId ? String(leave.processInstanceId) : null,
      startTime: formatDateTime(leave.startTime)!, endTime: formatDateTime(leave.endTime)!, days: leave.days, reason: leave.reason,
      taskUser: String(leave.taskUser), taskUserName: nameOf(String(leave.taskUser)),
      applyUser: String(leave.createUser ?? ''), applyUserName: nameOf(leave.createUser ? String(leave.createUser) : null) ?? instance?.startUserName ?? null,
      applyTime: formatDateTime(leave.applyTime)!, approvalComment: (instance && await latestApproval(tx, instance)) ?? leave.approvalComment,
      processStatus: instance?.status ?? null,
    };
    return record;
  });
}
