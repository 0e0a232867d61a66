import { isIdText } from '@console/contract';
import { leaveActions, type LeaveRecord } from '@console/contract/areas/flow/index';
import { and, asc, eq, ilike, inArray, ne, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { schema } from '../../core/db/index.js';
import { fieldError, forbidden, notFound } from '../../core/errors.js';
import { nextId } from '../../core/ids.js';
import { mountAction } from '../../core/resource/actions.js';
import { formatDateTime, parseDateTime } from '../../core/time.js';
import type { FlowEngine } from './engine.js';
import { flowDefinition, flowInstance, processLeave } from './tables.js';
import { approverTasks } from './leaveModel.js';
import { mayViewInstance } from './view.js';

/** the leave model's process key (leave.bpmn20.xml) */
export const LEAVE_PROCESS_KEY = 'Leave';
/** the approver choice shows this many users; more are found by typing */
const APPROVERS_SHOWN = 50;

/**
 * The leave request (blade-desk/process/leave): the request and its process instance are written in one
 * transaction; each approver's comment is kept on the request as the process moves.
 */
export function registerLeave(app: FastifyInstance, ctx: AppContext, flow: FlowEngine): void {
  // whatever the version's task ids (the console's managerApproval / hrApproval, BladeX's managerTak / bossTask…),
  // a step the applicant did not do is an approver's decision; the applicant's own (adjusting the request) is not
  flow.onTaskCompleted(LEAVE_PROCESS_KEY, async (tx, { instance, comment, user }) => {
    if (user.userId === instance.startUser || !isIdText(instance.businessKey)) return;
    await tx.update(processLeave).set({ approvalComment: comment, updateUser: user.userId, updateTime: new Date() })
      .where(and(eq(processLeave.id, instance.businessKey), eq(processLeave.processInstanceId, instance.id)));
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
    const [def] = await tx.select({ id: flowDefinition.id, processKey: flowDefinition.processKey, name: flowDefinition.name, version: flowDefinition.version })
      .from(flowDefinition).where(and(eq(flowDefinition.id, input.processDefinitionId), eq(flowDefinition.isDeleted, 0)));
    if (def && def.processKey !== LEAVE_PROCESS_KEY) throw fieldError('flowNotLeave', lang, 'processDefinitionId');
    if (def && !approverTasks(await flow.modelOf(tx, def.id)).length) throw fieldError('leaveModelNoApprover', lang, 'processDefinitionId', { name: def.name, version: def.version });
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

  mountAction(app, ctx, leaveActions.approvers, async ({ keyword }, { tx, user }) => {
    const pattern = keyword ? `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
    const rows = await tx.select({ id: schema.user.id, account: schema.user.account, realName: schema.user.realName }).from(schema.user)
      .where(and(eq(schema.user.tenantId, user.tenantId), eq(schema.user.isDeleted, 0), eq(schema.user.status, 1), ne(schema.user.id, user.userId),
        pattern ? or(ilike(schema.user.realName, pattern), ilike(schema.user.account, pattern)) : undefined))
      .orderBy(asc(schema.user.account)).limit(APPROVERS_SHOWN);
    return rows.map((r) => ({ id: String(r.id), account: r.account, realName: r.realName }));
  });

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
      applyTime: formatDateTime(leave.applyTime)!, approvalComment: leave.approvalComment, processStatus: instance?.status ?? null,
    };
    return record;
  });
}
