import type { FlowHistoryItem } from '@console/contract/areas/flow/index';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { AuthUser } from '../../core/context.js';
import { type Executor, schema } from '../../core/db/index.js';
import { AppError } from '../../core/errors.js';
import { formatDateTime } from '../../core/time.js';
import { isCandidate } from './engine.js';
import { flowDefinition, flowHistory, flowInstance, flowTask } from './tables.js';

type InstanceRow = typeof flowInstance.$inferSelect;
type HistoryRow = typeof flowHistory.$inferSelect;

/** 'bpmn:UserTask' → 'userTask' (Flowable's activity types) */
const activityType = (type: string) => {
  const bare = type.replace(/^bpmn:/, '');
  return bare.charAt(0).toLowerCase() + bare.slice(1);
};

/**
 * Who may see an instance's diagram and history: whoever follows the tenant's processes (flow_follow), its starter,
 * and whoever was offered, holds or did one of its tasks.
 */
export async function mayViewInstance(tx: Executor, user: AuthUser, granted: ReadonlySet<string>, instance: InstanceRow): Promise<boolean> {
  if (granted.has('flow_follow') || instance.startUser === user.userId) return true;
  const tasks = await tx.select({ assignee: flowTask.assignee, completedBy: flowTask.completedBy, candidateUsers: flowTask.candidateUsers, candidateGroups: flowTask.candidateGroups })
    .from(flowTask).where(eq(flowTask.instanceId, instance.id));
  return tasks.some((t) => t.assignee === user.userId || t.completedBy === user.userId || isCandidate(t, user));
}

interface Activity {
  row: HistoryRow;
  endTime: Date | null;
  cancelled: boolean;
}

/** the activities an instance visited, in order, each with when it ended (null: it is running) */
function activitiesOf(events: readonly HistoryRow[]): Activity[] {
  const out: Activity[] = [];
  const open = new Map<string, Activity>();
  for (const e of events) {
    if (e.event === 'take') continue;
    const key = `${e.executionId ?? ''}|${e.elementId}`;
    if (e.event === 'start') {
      if (open.has(key)) continue; // a recovered step announces its waiting activity again
      const a: Activity = { row: e, endTime: null, cancelled: false };
      open.set(key, a);
      out.push(a);
      continue;
    }
    const a = open.get(key);
    if (!a) continue;
    a.endTime = e.at;
    a.cancelled = e.event === 'cancel';
    open.delete(key);
  }
  return out;
}

const historyRows = (tx: Executor, tenantId: string, instanceId: string) =>
  tx.select().from(flowHistory).where(and(eq(flowHistory.tenantId, tenantId), eq(flowHistory.instanceId, instanceId))).orderBy(asc(flowHistory.id));

/** `process/model-view`: the definition's diagram, and for an instance the activities visited and the flows taken */
export async function modelViewOf(tx: Executor, tenantId: string, definitionId: string, instanceId: string | null) {
  const [def] = await tx.select({ xml: flowDefinition.xml }).from(flowDefinition).where(and(eq(flowDefinition.tenantId, tenantId), eq(flowDefinition.id, definitionId)));
  if (!def) throw new AppError(404, 'flowDefinitionMissing');
  if (!instanceId) return { xml: def.xml, flow: [] };
  const events = await historyRows(tx, tenantId, instanceId);
  const flow = [
    ...activitiesOf(events).map((a) => ({ historyActivityId: a.row.elementId, historyActivityType: activityType(a.row.elementType), endTime: formatDateTime(a.endTime) })),
    ...events.filter((e) => e.event === 'take').map((e) => ({ historyActivityId: e.elementId, historyActivityType: 'sequenceFlow', endTime: formatDateTime(e.at) })),
  ];
  return { xml: def.xml, flow };
}

/** `process/history-flow-list`: each activity of an instance with who did it, when, how and with which comment */
export async function historyOf(tx: Executor, tenantId: string, instanceId: string): Promise<FlowHistoryItem[]> {
  const activities = activitiesOf(await historyRows(tx, tenantId, instanceId));
  const tasks = await tx.select().from(flowTask).where(and(eq(flowTask.tenantId, tenantId), eq(flowTask.instanceId, instanceId)));
  const taskOf = new Map(tasks.map((t) => [t.executionId, t]));
  const [instance] = await tx.select({ startUser: flowInstance.startUser, startUserName: flowInstance.startUserName }).from(flowInstance).where(and(eq(flowInstance.tenantId, tenantId), eq(flowInstance.id, instanceId)));
  const userIds = [...new Set([instance?.startUser ?? null, ...tasks.flatMap((t) => [t.assignee, t.completedBy])].filter((v): v is string => !!v && /^\d{1,19}$/.test(v)))];
  const names = new Map<string, string>();
  if (userIds.length) {
    const users = await tx.select({ id: schema.user.id, realName: schema.user.realName, name: schema.user.name }).from(schema.user)
      .where(and(eq(schema.user.tenantId, tenantId), inArray(schema.user.id, userIds)));
    for (const u of users) names.set(String(u.id), u.realName || u.name || String(u.id));
  }
  return activities
    .filter((a) => !/Gateway$|SequenceFlow$/.test(a.row.elementType))
    .map((a) => {
      const task = a.row.executionId ? taskOf.get(a.row.executionId) : undefined;
      const isStart = a.row.elementType === 'bpmn:StartEvent';
      const who = task ? (task.completedBy ?? task.assignee) : isStart ? instance?.startUser ?? null : null;
      const whoName = who ? names.get(who) ?? (isStart ? instance?.startUserName ?? null : null) : null;
      return {
        historyActivityId: a.row.elementId,
        historyActivityName: a.row.elementName,
        historyActivityType: activityType(a.row.elementType),
        assignee: who,
        assigneeName: whoName,
        createTime: formatDateTime(a.row.at),
        endTime: formatDateTime(a.endTime),
        outcome: a.cancelled ? 'cancelled' : task?.outcome ?? null,
        comment: task?.comment ?? null,
        durationMs: a.endTime ? a.endTime.getTime() - a.row.at.getTime() : null,
      };
    });
}
