import { z } from 'zod';
import { defineActions, idsParamSchema, okOutput } from '../../action.js';
import { type ButtonDef, defineResource, idInput } from '../../resource.js';

/**
 * The workflow (api.md "/api/blade-flow", domain.md "Workflow", docs/workflow.md): models edited with the bpmn.io
 * modeler and deployed, process definitions (deployments), running instances, and each user's five work lists.
 * The work lists are views of the same tasks and instances, each with its own menu, scope and path.
 */

const FLOW = '/api/blade-flow';
const WORK = `${FLOW}/work`;
/** the leave request's calls (BladeX's blade-desk) */
export const LEAVE_PATH = '/api/blade-desk/process/leave';

const PROCESS_NAME = { type: 'string', label: { zh: '流程名称', en: 'Process' }, max: 255, search: 'like', width: 160 } as const;
const PROCESS_KEY = { type: 'string', label: { zh: '流程标识', en: 'Process key' }, max: 64, search: 'equal', width: 130 } as const;
/** stored as BladeX stores a definition's category, `flow_<dictKey>` (`flow_1`): Saber's flow routes are keyed by it */
const CATEGORY = { type: 'string', label: { zh: '流程分类', en: 'Category' }, dict: 'flow', dictPrefixed: true, max: 64, search: 'equal', width: 110 } as const;
const BUSINESS_KEY = { type: 'string', label: { zh: '业务编号', en: 'Business key' }, max: 64, search: 'like', width: 170 } as const;
const STARTER = { type: 'string', label: { zh: '发起人', en: 'Started by' }, max: 100, search: 'like', width: 100 } as const;
const INSTANCE_ID = { type: 'id', label: { zh: '流程实例', en: 'Instance' }, list: false, search: 'equal', aliases: ['processInstanceId'] } as const;
const DEFINITION_ID = { type: 'id', label: { zh: '流程定义', en: 'Definition' }, list: false, aliases: ['processDefinitionId'] } as const;

// BladeX's names in its work lists (BladeFlow, Saber's src/views/work/*.vue) and process lists (FlowProcess)
const AS_DEFINITION_NAME = { aliases: ['processDefinitionName'] } as const;
/** the definition's version, read for each page (BladeFlow's processDefinitionVersion) */
const DEFINITION_VERSION = { type: 'int', label: { zh: '流程版本', en: 'Version' }, list: false, form: false, virtual: true } as const;
/** the process key of the task's definition, read for each page (BladeFlow's processDefinitionKey) */
const DEFINITION_KEY = { type: 'string', label: { zh: '流程标识', en: 'Process key' }, list: false, form: false, virtual: true } as const;
/** BladeX's business key is `<table>:<id>`: its parts (a key without a colon is the id itself) */
const BUSINESS_TABLE = { type: 'string', label: { zh: '业务表', en: 'Business table' }, list: false, form: false, virtual: true } as const;
const BUSINESS_ID = { type: 'string', label: { zh: '业务主键', en: 'Business id' }, list: false, form: false, virtual: true } as const;
/** Flowable's suspension state of a definition: 1 active, 2 suspended (FlowProcess.suspensionState) */
const SUSPENSION_STATE = { type: 'int', label: { zh: '状态', en: 'State' }, list: false, form: false, virtual: true } as const;
/** finished or unfinished (BladeFlow.processIsFinished): whether the instance completed */
const PROCESS_IS_FINISHED = { type: 'string', label: { zh: '流程进度', en: 'Progress' }, list: false, form: false, virtual: true } as const;

/** BPMN files and models are parsed whole: a model stays far below this */
export const BPMN_MAX_CHARS = 1_000_000;

/** A deployment into one tenant: the process definition it made. */
export const deployedSchema = z.object({
  tenantId: z.string(), deploymentId: z.string(), definitionId: z.string(), processKey: z.string(), name: z.string(), version: z.number(),
});

/** `tenantIds` of a deployment: '000000,541742' (BladeX) or an array; absent or empty means the caller's tenant */
const tenantIdsInput = z.union([z.string().max(2000), z.array(z.string().max(12)).max(200)])
  .transform((v) => [...new Set((Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean))])
  .refine((ids) => ids.every((id) => /^\d{6}$/.test(id)));

export const flowModelResource = defineResource({
  code: 'flow_model',
  path: `${FLOW}/model`,
  title: { zh: '模型管理', en: 'Models' },
  scope: 'tenant',
  nameField: 'name',
  page: 'custom',
  menu: {
    parent: 'flow', route: '/flow/model', name: { zh: '模型管理', en: 'Models' }, sort: 1, icon: 'iconfont iconicon_compile',
    buttons: [
      { code: 'flow_model_design', name: { zh: '模型设计', en: 'Design' }, alias: 'design', placement: 'row', custom: true },
      { code: 'flow_model_deploy', name: { zh: '部署', en: 'Deploy' }, alias: 'deploy', placement: 'row', action: 'deploy', custom: true },
    ],
  },
  fields: {
    modelKey: {
      type: 'string', label: { zh: '模型标识', en: 'Model key' }, required: { zh: '请输入模型标识', en: 'Please enter the model key' }, max: 64, unique: true, immutable: true,
      search: 'like', width: 140, help: { zh: '字母开头, 字母、数字、下划线或连字符; 即流程标识', en: 'A letter, then letters, digits, _ or -; it becomes the process key' },
    },
    name: { type: 'string', label: { zh: '模型名称', en: 'Name' }, required: { zh: '请输入模型名称', en: 'Please enter the name' }, max: 100, search: 'like', width: 160 },
    category: CATEGORY,
    description: { type: 'text', label: { zh: '模型描述', en: 'Description' }, max: 500 },
    version: { type: 'int', label: { zh: '版本', en: 'Version' }, form: false, width: 70 },
    xml: { type: 'text', label: { zh: '流程图 (BPMN XML)', en: 'Diagram (BPMN XML)' }, max: BPMN_MAX_CHARS, list: false, form: false },
  },
  actions: defineActions(`${FLOW}/model`, {
    deploy: {
      method: 'POST', permission: 'flow_model_deploy', title: { zh: '模型管理: 部署', en: 'Models: deploy' },
      input: z.object({ modelId: idInput, category: z.string().trim().max(64).optional(), tenantIds: tenantIdsInput.optional() }),
      output: z.array(deployedSchema),
    },
    /** the designer's pickers: the tenant's active users (a task's assignee, candidate users) and roles by alias (candidate groups) */
    assignees: {
      method: 'GET', permission: 'flow_model_design', title: { zh: '模型设计: 办理人', en: 'Design: assignees' },
      input: z.object({ keyword: z.string().trim().max(64).optional() }),
      output: z.object({
        users: z.array(z.object({ id: z.string(), account: z.string(), realName: z.string().nullable() })),
        roles: z.array(z.object({ alias: z.string(), name: z.string() })),
      }),
    },
  }),
});

export const flowManagerResource = defineResource({
  code: 'flow_manager',
  path: `${FLOW}/manager`,
  title: { zh: '流程管理', en: 'Deployments' },
  scope: 'tenant',
  nameField: 'name',
  readOnly: true,
  buttons: { add: false, edit: false, delete: false },
  page: 'custom',
  menu: {
    parent: 'flow', route: '/flow/manager', name: { zh: '流程管理', en: 'Deployments' }, sort: 2, icon: 'iconfont iconicon_ding',
    buttons: [
      { code: 'flow_manager_upload', name: { zh: '部署上传', en: 'Upload' }, alias: 'upload', placement: 'toolbar', custom: true },
      { code: 'flow_manager_state', name: { zh: '变更状态', en: 'Change state' }, alias: 'state', placement: 'row', action: 'changeState', custom: true },
      { code: 'flow_manager_delete', name: { zh: '删除部署', en: 'Delete deployment' }, alias: 'delete', placement: 'row', action: 'deleteDeployment', custom: true },
    ],
  },
  fields: {
    name: { ...PROCESS_NAME, label: { zh: '流程名称', en: 'Name' } },
    processKey: { ...PROCESS_KEY, aliases: ['key'] },
    version: { type: 'int', label: { zh: '版本', en: 'Version' }, sortable: true, width: 70 },
    category: CATEGORY,
    suspended: { type: 'int', label: { zh: '状态', en: 'State' }, dict: 'flow_suspended', search: 'equal', width: 80 },
    suspensionState: SUSPENSION_STATE,
    deploymentId: { type: 'id', label: { zh: '部署编号', en: 'Deployment' }, list: false, search: 'equal' },
    createTime: { type: 'datetime', label: { zh: '部署时间', en: 'Deployed at' }, sortable: true, search: 'dateRange', aliases: ['deploymentTime'] },
  },
  actions: defineActions(`${FLOW}/manager`, {
    changeState: {
      segment: 'change-state', method: 'POST', permission: 'flow_manager_state', title: { zh: '流程管理: 变更状态', en: 'Deployments: change state' },
      input: z.object({ processId: idInput, state: z.enum(['active', 'suspend']) }), output: okOutput,
    },
    deleteDeployment: {
      segment: 'delete-deployment', method: 'POST', permission: 'flow_manager_delete', title: { zh: '流程管理: 删除部署', en: 'Deployments: delete' },
      input: z.object({ deploymentIds: idsParamSchema }), output: okOutput,
    },
  }),
});

/** `manager/deploy-upload`: multipart `files` (.bpmn / .bpmn20.xml), `category`, `tenantIds` (needs flow_manager_upload) */
export const FLOW_DEPLOY_UPLOAD = `${FLOW}/manager/deploy-upload`;

export const flowFollowResource = defineResource({
  code: 'flow_follow',
  path: `${FLOW}/follow`,
  title: { zh: '流程跟踪', en: 'Running instances' },
  scope: 'tenant',
  nameField: 'processName',
  readOnly: true,
  buttons: { add: false, edit: false, delete: false },
  page: 'custom',
  menu: {
    parent: 'flow', route: '/flow/follow', name: { zh: '流程跟踪', en: 'Running instances' }, sort: 3, icon: 'iconfont iconicon_search',
    buttons: [
      { code: 'flow_follow_delete', name: { zh: '删除实例', en: 'Delete instance' }, alias: 'delete', placement: 'row', action: 'deleteInstance', custom: true },
    ],
  },
  fields: {
    processName: PROCESS_NAME,
    processKey: PROCESS_KEY,
    category: CATEGORY,
    businessKey: BUSINESS_KEY,
    startUserName: STARTER,
    definitionId: DEFINITION_ID,
    /** running, or incident: a step stopped at its bound (docs/workflow.md), with its reason */
    status: { type: 'string', label: { zh: '流程状态', en: 'State' }, dict: 'flow_instance_status', max: 16, search: 'equal', width: 90 },
    incidentReason: { type: 'string', label: { zh: '异常原因', en: 'Incident' }, max: 500, width: 260 },
    createTime: { type: 'datetime', label: { zh: '开始时间', en: 'Started at' }, sortable: true, search: 'dateRange' },
  },
  actions: defineActions(`${FLOW}/follow`, {
    deleteInstance: {
      segment: 'delete-process-instance', method: 'POST', permission: 'flow_follow_delete', title: { zh: '流程跟踪: 删除实例', en: 'Running instances: delete' },
      input: z.object({ processInstanceId: idInput, deleteReason: z.string().trim().min(1).max(500) }), output: okOutput,
    },
  }),
});

/** the fields of a task row in the work lists (the instance's name, key and starter are copied onto each task) */
const taskFields = {
  id: { type: 'id', label: { zh: '任务编号', en: 'Task' }, list: false, form: false, aliases: ['taskId'] },
  name: { type: 'string', label: { zh: '当前环节', en: 'Step' }, max: 255, width: 130, aliases: ['taskName'] },
  processName: { ...PROCESS_NAME, ...AS_DEFINITION_NAME },
  category: CATEGORY,
  businessKey: BUSINESS_KEY,
  businessTable: BUSINESS_TABLE,
  businessId: BUSINESS_ID,
  startUserName: STARTER,
  instanceId: INSTANCE_ID,
  definitionId: DEFINITION_ID,
  processDefinitionKey: DEFINITION_KEY,
  processDefinitionVersion: DEFINITION_VERSION,
  taskDefinitionKey: { type: 'string', label: { zh: '环节标识', en: 'Step key' }, max: 64, list: false },
  createTime: { type: 'datetime', label: { zh: '到达时间', en: 'Arrived at' }, sortable: true, search: 'dateRange' },
  /** open, completed, or cancelled (a timer or a deleted instance ended it) */
  status: { type: 'string', label: { zh: '任务状态', en: 'Task state' }, max: 16, list: false },
} as const;

/**
 * Saber's row buttons of a work list (src/views/work/*.vue shows each only to a holder of its code, as BladeX seeds
 * them); this console's own pages draw their buttons themselves (`custom`), guarded by the calls' permissions
 */
const saberButton = (code: string, alias: string, zh: string, en: string, action?: string) => (
  { code, name: { zh, en }, alias, placement: 'row' as const, custom: true as const, ...(action ? { action } : {}) });
const detailButton = (list: string) => saberButton(`${list}_detail`, 'detail', '详情', 'Detail');
const followButton = (list: string) => saberButton(`${list}_follow`, 'follow', '跟踪', 'Follow');

const workMenu = (route: string, zh: string, en: string, sort: number, buttons: ButtonDef[]) => ({
  parent: 'work', route, name: { zh, en }, sort, icon: 'iconfont iconicon_doc', buttons,
});

export const workStartResource = defineResource({
  code: 'work_start',
  path: WORK,
  routes: { list: 'start-list', detail: 'start-detail' },
  title: { zh: '发起事务', en: 'Start' },
  scope: 'tenant',
  nameField: 'name',
  readOnly: true,
  buttons: { add: false, edit: false, delete: false },
  page: 'custom',
  defaultSort: { field: 'name', order: 'asc' },
  menu: workMenu('/work/start', '发起事务', 'Start', 1, [
    saberButton('work_start_flow', 'flow', '发起', 'Start', 'startProcess'), saberButton('work_start_image', 'image', '流程图', 'Diagram'),
  ]),
  fields: {
    name: { ...PROCESS_NAME, sortable: true },
    processKey: { ...PROCESS_KEY, aliases: ['key'] },
    category: CATEGORY,
    version: { type: 'int', label: { zh: '版本', en: 'Version' }, width: 70 },
    suspensionState: SUSPENSION_STATE,
    createTime: { type: 'datetime', label: { zh: '部署时间', en: 'Deployed at' }, sortable: true, aliases: ['deploymentTime'] },
    /**
     * why its category's business form cannot start this process (`noApprover`: no task goes to the form's
     * approver; `unreadable`: the stored model cannot be compiled), read from the compiled model; null where the form fits or the category has none
     */
    formProblem: { type: 'string', label: { zh: '表单适用', en: 'Form fit' }, list: false, form: false, virtual: true },
  },
  actions: defineActions(WORK, {
    /** starts any process without a business form of its own (the leave request has `leave/start-process`) */
    startProcess: {
      segment: 'start-process', method: 'POST', permission: 'work_start', title: { zh: '发起事务', en: 'Start a process' },
      input: z.object({
        processDefinitionId: idInput, businessKey: z.string().trim().max(64).optional(),
        variables: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/), z.unknown()).optional(),
      }),
      output: z.object({ processInstanceId: z.string() }),
    },
  }),
});

export const workClaimResource = defineResource({
  code: 'work_claim',
  path: WORK,
  routes: { list: 'claim-list', detail: 'claim-detail' },
  title: { zh: '待签事务', en: 'To claim' },
  scope: 'tenant',
  nameField: 'name',
  readOnly: true,
  buttons: { add: false, edit: false, delete: false },
  page: 'custom',
  menu: workMenu('/work/claim', '待签事务', 'To claim', 2, [
    saberButton('work_claim_sign', 'sign', '签收', 'Claim', 'claimTask'), detailButton('work_claim'), followButton('work_claim'),
  ]),
  fields: taskFields,
  actions: defineActions(WORK, {
    claimTask: {
      segment: 'claim-task', method: 'POST', permission: 'work_claim', title: { zh: '签收任务', en: 'Claim a task' },
      input: z.object({ taskId: idInput }), output: okOutput,
    },
  }),
});

export const workTodoResource = defineResource({
  code: 'work_todo',
  path: WORK,
  routes: { list: 'todo-list', detail: 'todo-detail' },
  title: { zh: '待办事务', en: 'To do' },
  scope: 'tenant',
  nameField: 'name',
  readOnly: true,
  buttons: { add: false, edit: false, delete: false },
  page: 'custom',
  menu: workMenu('/work/todo', '待办事务', 'To do', 3, [
    saberButton('work_todo_handle', 'handle', '处理', 'Handle', 'completeTask'), detailButton('work_todo'), followButton('work_todo'),
  ]),
  fields: { ...taskFields, claimTime: { type: 'datetime', label: { zh: '签收时间', en: 'Claimed at' }, list: false } },
  actions: defineActions(WORK, {
    completeTask: {
      segment: 'complete-task', method: 'POST', permission: 'work_todo', title: { zh: '办理任务', en: 'Complete a task' },
      input: z.object({
        taskId: idInput, processInstanceId: idInput.optional(),
        /** 'ok' passes; any other value, or none, rejects (BladeX) */
        flag: z.string().max(16).optional(),
        comment: z.string().trim().max(1000).optional(),
        variables: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/), z.unknown()).optional(),
      }),
      output: z.object({ processInstanceId: z.string(), status: z.string() }),
    },
  }),
});

export const workSendResource = defineResource({
  code: 'work_send',
  path: WORK,
  routes: { list: 'send-list', detail: 'send-detail' },
  title: { zh: '已发事务', en: 'Sent' },
  scope: 'tenant',
  nameField: 'processName',
  readOnly: true,
  buttons: { add: false, edit: false, delete: false },
  page: 'custom',
  menu: workMenu('/work/send', '已发事务', 'Sent', 4, [detailButton('work_send'), followButton('work_send')]),
  fields: {
    id: { type: 'id', label: { zh: '流程实例', en: 'Instance' }, list: false, form: false, aliases: ['processInstanceId'] },
    processName: { ...PROCESS_NAME, ...AS_DEFINITION_NAME },
    processKey: { ...PROCESS_KEY, list: false, aliases: ['processDefinitionKey'] },
    category: CATEGORY,
    businessKey: BUSINESS_KEY,
    businessTable: BUSINESS_TABLE,
    businessId: BUSINESS_ID,
    status: { type: 'string', label: { zh: '流程状态', en: 'State' }, dict: 'flow_instance_status', max: 16, search: 'equal', width: 90 },
    processIsFinished: PROCESS_IS_FINISHED,
    definitionId: DEFINITION_ID,
    processDefinitionVersion: DEFINITION_VERSION,
    /** the step it waits at, else the last one done (BladeFlow's taskId / taskName on 已发事务) */
    taskId: { type: 'id', label: { zh: '任务编号', en: 'Task' }, list: false, form: false, virtual: true },
    taskName: { type: 'string', label: { zh: '当前环节', en: 'Step' }, list: false, form: false, virtual: true },
    createTime: { type: 'datetime', label: { zh: '发起时间', en: 'Started at' }, sortable: true, search: 'dateRange' },
    endTime: { type: 'datetime', label: { zh: '结束时间', en: 'Ended at' }, sortable: true },
    deleteReason: { type: 'string', label: { zh: '删除原因', en: 'Deletion reason' }, max: 500, list: false },
  },
});

export const workDoneResource = defineResource({
  code: 'work_done',
  path: WORK,
  routes: { list: 'done-list', detail: 'done-detail' },
  title: { zh: '办结事务', en: 'Done' },
  scope: 'tenant',
  nameField: 'name',
  readOnly: true,
  buttons: { add: false, edit: false, delete: false },
  page: 'custom',
  defaultSort: { field: 'endTime', order: 'desc' },
  menu: workMenu('/work/done', '办结事务', 'Done', 5, [detailButton('work_done'), followButton('work_done')]),
  fields: {
    ...taskFields,
    name: { ...taskFields.name, label: { zh: '办理环节', en: 'Step' } },
    outcome: { type: 'string', label: { zh: '办理结果', en: 'Outcome' }, dict: 'flow_outcome', max: 16, search: 'equal', width: 90 },
    comment: { type: 'string', label: { zh: '审批意见', en: 'Comment' }, max: 1000, width: 180 },
    endTime: { type: 'datetime', label: { zh: '办理时间', en: 'Done at' }, sortable: true, search: 'dateRange' },
  },
});

/** One step of an instance's history (`process/history-flow-list`): who, what, when, with which comment. */
export const flowHistoryItem = z.object({
  historyActivityId: z.string(),
  historyActivityName: z.string().nullable(),
  historyActivityType: z.string(),
  assignee: z.string().nullable(),
  assigneeName: z.string().nullable(),
  createTime: z.string().nullable(),
  endTime: z.string().nullable(),
  /** pass, reject, or cancelled (a timer or a deletion ended the task) */
  outcome: z.string().nullable(),
  comment: z.string().nullable(),
  durationMs: z.number().nullable(),
});
export type FlowHistoryItem = z.infer<typeof flowHistoryItem>;

/** The diagram and what happened on it (`process/model-view`): activities visited (endTime null: running) and flows taken. */
export const flowModelView = z.object({
  xml: z.string(),
  flow: z.array(z.object({ historyActivityId: z.string(), historyActivityType: z.string(), endTime: z.string().nullable() })),
});

export const flowProcessActions = defineActions(`${FLOW}/process`, {
  modelView: {
    segment: 'model-view', method: 'GET', permission: null, title: { zh: '流程图', en: 'Process diagram' },
    input: z.object({ processInstanceId: idInput.optional(), processDefinitionId: idInput.optional() })
      .refine((v) => v.processInstanceId !== undefined || v.processDefinitionId !== undefined, { params: { kind: 'required' }, path: ['processInstanceId'] }),
    output: flowModelView,
  },
  historyFlowList: {
    segment: 'history-flow-list', method: 'GET', permission: null, title: { zh: '流转记录', en: 'Process history' },
    input: z.object({ processInstanceId: idInput }), output: z.array(flowHistoryItem),
  },
  /** delivers a message to the instances waiting for it (an intermediate catch, a receive task, a boundary event, an event sub-process), by instance or business key */
  message: {
    segment: 'message', method: 'POST', permission: 'flow_follow', title: { zh: '发送消息', en: 'Deliver a message' },
    input: z.object({
      messageName: z.string().trim().min(1).max(255), processInstanceId: idInput.optional(), businessKey: z.string().trim().max(64).optional(),
      variables: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/), z.unknown()).optional(),
    }).refine((v) => v.processInstanceId !== undefined || v.businessKey !== undefined, { params: { kind: 'required' }, path: ['processInstanceId'] }),
    output: z.object({ processInstanceIds: z.array(z.string()) }),
  },
  /** moves an instance waiting at a receive task without a message (or a catching event) on, by the activity's id (Flowable's trigger) */
  trigger: {
    segment: 'trigger', method: 'POST', permission: 'flow_follow', title: { zh: '触发等待', en: 'Trigger a wait' },
    input: z.object({
      processInstanceId: idInput, activityId: z.string().trim().min(1).max(100),
      variables: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/), z.unknown()).optional(),
    }),
    output: okOutput,
  },
  /** starts the newest process of the tenant with a message start event of that name */
  startByMessage: {
    segment: 'start-by-message', method: 'POST', permission: 'work_start', title: { zh: '以消息发起流程', en: 'Start by a message' },
    input: z.object({
      messageName: z.string().trim().min(1).max(255), businessKey: z.string().trim().max(64).optional(),
      variables: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/), z.unknown()).optional(),
    }),
    output: z.object({ processInstanceId: z.string() }),
  },
});

const leaveDate = z.string().trim().regex(/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/);

/** A leave request as `leave/detail` answers it, with its process. */
export const leaveRecord = z.object({
  id: z.string(),
  processDefinitionId: z.string(),
  processInstanceId: z.string().nullable(),
  startTime: z.string(),
  endTime: z.string(),
  days: z.number(),
  reason: z.string(),
  taskUser: z.string(),
  taskUserName: z.string().nullable(),
  applyUser: z.string(),
  applyUserName: z.string().nullable(),
  applyTime: z.string(),
  approvalComment: z.string().nullable(),
  /** running, completed or deleted */
  processStatus: z.string().nullable(),
});
export type LeaveRecord = z.infer<typeof leaveRecord>;

export const leaveActions = defineActions(LEAVE_PATH, {
  startProcess: {
    segment: 'start-process', method: 'POST', permission: 'work_start', title: { zh: '请假申请', en: 'Apply for leave' },
    input: z.object({
      processDefinitionId: idInput, startTime: leaveDate, endTime: leaveDate,
      days: z.coerce.number().int().min(1).max(365), reason: z.string().trim().min(1).max(500), taskUser: idInput,
    }),
    output: z.object({ businessId: z.string(), processInstanceId: z.string() }),
  },
  /** the tenant's active users an applicant may choose as approver (not the applicant), by name or account */
  approvers: {
    method: 'GET', permission: 'work_start', title: { zh: '请假审批人', en: 'Leave approvers' },
    input: z.object({ keyword: z.string().trim().max(64).optional() }),
    output: z.array(z.object({ id: z.string(), account: z.string(), realName: z.string().nullable() })),
  },
  detail: {
    method: 'GET', permission: null, title: { zh: '请假详情', en: 'Leave request' },
    input: z.object({ businessId: idInput }), output: leaveRecord,
  },
});
