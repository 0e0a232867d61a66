import {
  flowFollowResource, flowManagerResource, flowModelResource, workClaimResource, workDoneResource, workSendResource,
  workStartResource, workTodoResource,
} from '@console/contract/areas/flow/index';
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, smallint, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { auditColumns, id, searchGramsIndexes, tenantColumn, ts, withSearchGrams } from '../../core/db/columns.js';

/**
 * The workflow engine's tables (docs/workflow.md), every one a tenant's (row-level security). A definition is
 * immutable once deployed (a new deployment of the same key is a new version): a running instance always
 * recovers against the definition it started on. An instance's engine state is saved after every step; its
 * user tasks and its history are rows of their own, written in the same transaction.
 */

export const flowModel = pgTable(
  'blade_flow_model',
  withSearchGrams(flowModelResource, {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    modelKey: varchar('model_key', { length: 64 }).notNull(),
    name: varchar('name', { length: 100 }).notNull(),
    category: varchar('category', { length: 64 }),
    description: varchar('description', { length: 500 }),
    xml: text('xml'),
    version: integer('version').notNull().default(1),
    ...auditColumns(),
  }),
  (t) => [
    uniqueIndex('uq_flow_model_key').on(t.tenantId, t.modelKey).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t, { modelKeyGrams: 'ix_flow_model_key_grams' }),
  ],
);

export const flowDeployment = pgTable(
  'blade_flow_deployment',
  {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    name: varchar('name', { length: 255 }).notNull(),
    category: varchar('category', { length: 64 }),
    /** where the model came from: a model of the modeler, or an uploaded file */
    source: varchar('source', { length: 16 }).notNull(),
    deployTime: ts('deploy_time').notNull().defaultNow(),
    deployUser: id('deploy_user'),
  },
  (t) => [index('ix_flow_deployment_time').on(t.tenantId, t.deployTime.desc())],
);

export const flowDefinition = pgTable(
  'blade_flow_definition',
  withSearchGrams([flowManagerResource, workStartResource], {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    deploymentId: id('deployment_id').notNull(),
    processKey: varchar('process_key', { length: 64 }).notNull(),
    name: varchar('name', { length: 255 }).notNull(),
    version: integer('version').notNull(),
    category: varchar('category', { length: 64 }),
    xml: text('xml').notNull(),
    /** the runtime's model of the checked process (bpmn/model.ts): steps run from it, no XML is parsed again */
    compiled: text('compiled').notNull(),
    /** the names of the messages that start it (message start events) */
    startMessages: text('start_messages').array().notNull().default(sql`'{}'::text[]`),
    suspended: smallint('suspended').notNull().default(0),
    createTime: ts('create_time').notNull().defaultNow(),
    /** a deleted deployment's definitions stay for the instances that ran on them (their diagrams) */
    isDeleted: smallint('is_deleted').notNull().default(0),
  }),
  (t) => [
    ...searchGramsIndexes(t),
    uniqueIndex('uq_flow_definition_version').on(t.tenantId, t.processKey, t.version),
    index('ix_flow_definition_deployment').on(t.deploymentId),
  ],
);

export const flowInstance = pgTable(
  'blade_flow_instance',
  withSearchGrams([flowFollowResource, workSendResource], {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    definitionId: id('definition_id').notNull(),
    processKey: varchar('process_key', { length: 64 }).notNull(),
    processName: varchar('process_name', { length: 255 }).notNull(),
    category: varchar('category', { length: 64 }),
    businessKey: varchar('business_key', { length: 64 }),
    startUser: id('start_user'),
    startUserName: varchar('start_user_name', { length: 100 }),
    /** when it started (the lists' `createTime`) */
    createTime: ts('start_time').notNull().defaultNow(),
    endTime: ts('end_time'),
    /** running, completed, deleted, incident (a step stopped at its bound: docs/workflow.md) */
    status: varchar('status', { length: 16 }).notNull(),
    deleteReason: varchar('delete_reason', { length: 500 }),
    /** why a step was stopped, for an incident */
    incidentReason: varchar('incident_reason', { length: 500 }),
    /** the engine's state after the last step (null once ended) */
    state: jsonb('state'),
    variables: jsonb('variables').notNull().default({}),
    /** the earliest timer of the instance: the scheduler resumes it then */
    dueAt: ts('due_at'),
    /** the messages and signals it waits for (events, boundary events, event sub-processes) */
    waitsMessages: text('waits_messages').array().notNull().default(sql`'{}'::text[]`),
    waitsSignals: text('waits_signals').array().notNull().default(sql`'{}'::text[]`),
    /** a process started by a call activity: the calling instance and the call activity's execution */
    superInstanceId: id('super_instance_id'),
    superExecutionId: varchar('super_execution_id', { length: 100 }),
    updateTime: ts('update_time').notNull().defaultNow(),
  }),
  (t) => [
    ...searchGramsIndexes(t),
    index('ix_flow_instance_due').on(t.dueAt).where(sql`status = 'running' and due_at is not null`),
    index('ix_flow_instance_start_user').on(t.tenantId, t.startUser, t.createTime.desc()),
    index('ix_flow_instance_status').on(t.tenantId, t.status, t.createTime.desc()),
    index('ix_flow_instance_definition').on(t.definitionId),
    index('ix_flow_instance_super').on(t.superInstanceId).where(sql`super_instance_id is not null`),
    index('ix_flow_instance_messages').using('gin', t.waitsMessages).where(sql`status = 'running'`),
    index('ix_flow_instance_signals').using('gin', t.waitsSignals).where(sql`status = 'running'`),
  ],
);

export const flowTask = pgTable(
  'blade_flow_task',
  withSearchGrams([workClaimResource, workTodoResource, workDoneResource], {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    instanceId: id('instance_id').notNull(),
    /** the engine's execution id of the task (stable across recoveries, new on each visit) */
    executionId: varchar('execution_id', { length: 100 }).notNull(),
    taskDefinitionKey: varchar('task_definition_key', { length: 64 }).notNull(),
    name: varchar('name', { length: 255 }).notNull(),
    // the instance's, copied so that a work list is one indexed read of this table
    definitionId: id('definition_id'),
    processName: varchar('process_name', { length: 255 }),
    category: varchar('category', { length: 64 }),
    businessKey: varchar('business_key', { length: 64 }),
    startUserName: varchar('start_user_name', { length: 100 }),
    assignee: varchar('assignee', { length: 64 }),
    candidateUsers: text('candidate_users').array().notNull().default(sql`'{}'::text[]`),
    candidateGroups: text('candidate_groups').array().notNull().default(sql`'{}'::text[]`),
    createTime: ts('create_time').notNull().defaultNow(),
    claimTime: ts('claim_time'),
    endTime: ts('end_time'),
    /** open, completed, cancelled (a timer or a deleted instance ended it) */
    status: varchar('status', { length: 16 }).notNull().default('open'),
    /** pass or reject, as completed */
    outcome: varchar('outcome', { length: 16 }),
    comment: varchar('comment', { length: 1000 }),
    completedBy: varchar('completed_by', { length: 64 }),
  }),
  (t) => [
    ...searchGramsIndexes(t),
    uniqueIndex('uq_flow_task_execution').on(t.instanceId, t.executionId),
    index('ix_flow_task_assignee').on(t.tenantId, t.assignee, t.createTime.desc()).where(sql`status = 'open'`),
    index('ix_flow_task_candidates').using('gin', t.candidateGroups).where(sql`status = 'open' and assignee is null`),
    index('ix_flow_task_candidate_users').using('gin', t.candidateUsers).where(sql`status = 'open' and assignee is null`),
    index('ix_flow_task_done').on(t.tenantId, t.completedBy, t.endTime.desc()).where(sql`status = 'completed'`),
    index('ix_flow_task_instance').on(t.instanceId, t.createTime),
  ],
);

export const flowHistory = pgTable(
  'blade_flow_history',
  {
    /** increasing within a step (ids are time-ordered), so the history reads back in order */
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    instanceId: id('instance_id').notNull(),
    /** start, end, take (a sequence flow), cancel (a task a timer or a deletion ended) */
    event: varchar('event', { length: 8 }).notNull(),
    elementId: varchar('element_id', { length: 100 }).notNull(),
    elementType: varchar('element_type', { length: 64 }).notNull(),
    elementName: varchar('element_name', { length: 255 }),
    executionId: varchar('execution_id', { length: 100 }),
    sourceId: varchar('source_id', { length: 100 }),
    targetId: varchar('target_id', { length: 100 }),
    at: ts('at').notNull(),
  },
  (t) => [index('ix_flow_history_instance').on(t.instanceId, t.id)],
);

/** A leave request (BladeX's blade_process_leave): the business record of the leave process, `businessKey` of its instance. */
export const processLeave = pgTable(
  'blade_process_leave',
  {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    processDefinitionId: id('process_definition_id').notNull(),
    processInstanceId: id('process_instance_id'),
    startTime: ts('start_time').notNull(),
    endTime: ts('end_time').notNull(),
    days: integer('days').notNull(),
    reason: varchar('reason', { length: 500 }).notNull(),
    /** the approver's user id */
    taskUser: id('task_user').notNull(),
    applyTime: ts('apply_time').notNull().defaultNow(),
    /** the last approver's comment */
    approvalComment: varchar('approval_comment', { length: 1000 }),
    ...auditColumns(),
  },
  (t) => [index('ix_process_leave_instance').on(t.processInstanceId)],
);
