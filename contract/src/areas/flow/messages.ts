import type { I18nText } from '../../i18n.js';

/** Messages of the flow area (processes, tasks and the leave process); merged into the contract's `messages` by the area registry. */
export const flowMessages = {
  flowBpmnInvalid: { zh: '流程模型有误, 无法部署: {detail}', en: 'The process model cannot be deployed: {detail}' },
  flowDefinitionMissing: { zh: '流程定义不存在', en: 'No such process definition' },
  flowDefinitionSuspended: { zh: '流程「{name}」已挂起, 不能发起', en: 'The process "{name}" is suspended and cannot be started' },
  flowInstanceEnded: { zh: '流程实例已结束', en: 'The process instance has ended' },
  flowTaskMissing: { zh: '任务不存在或已办结', en: 'No such task, or it is done' },
  flowTaskNotOffered: { zh: '该任务未分派给您', en: 'This task is not offered to you' },
  flowTaskClaimed: { zh: '该任务已被他人签收', en: 'Someone else has claimed this task' },
  flowTaskClaimFirst: { zh: '请先签收该任务', en: 'Claim this task first' },
  flowStepFailed: { zh: '流程无法继续: {reason}', en: 'The process cannot go on: {reason}' },
  flowStepStopped: {
    zh: '流程已被中止, 未做任何更改, 并在流程跟踪中标记为异常: {reason}',
    en: 'The process was stopped, nothing was changed, and it is marked as an incident under Running instances: {reason}',
  },
  flowInstanceIncident: { zh: '流程实例异常已中止, 请在流程跟踪中查看原因: {reason}', en: 'The process instance was stopped as an incident (see Running instances): {reason}' },
  flowModelInvalid: { zh: '流程图无法读取: {detail}', en: 'The diagram cannot be read: {detail}' },
  flowModelKeyMismatch: { zh: '流程图的流程标识「{key}」与模型标识「{modelKey}」不一致', en: 'The diagram\'s process key "{key}" differs from the model key "{modelKey}"' },
  flowModelKeyFormat: { zh: '模型标识须以字母开头, 只含字母、数字、下划线或连字符', en: 'The model key starts with a letter and holds only letters, digits, _ or -' },
  flowDeploymentRunning: { zh: '「{name}」仍有 {count} 个运行中的流程实例, 请先在流程跟踪中删除', en: '"{name}" still has {count} running instances: delete them under Running instances first' },
  flowFilesRequired: { zh: '请选择要部署的流程文件', en: 'Please choose the process files to deploy' },
  flowFileType: { zh: '文件「{name}」不是 .bpmn 或 .bpmn20.xml 文件', en: 'The file "{name}" is not a .bpmn or .bpmn20.xml file' },
  flowFileInvalid: { zh: '文件「{name}」无法部署: {detail}', en: 'The file "{name}" cannot be deployed: {detail}' },
  flowFileTooLarge: { zh: '文件「{name}」超过 {max}', en: 'The file "{name}" exceeds {max}' },
  flowMessageNotWaiting: { zh: '没有流程实例在等待消息「{name}」', en: 'No process instance waits for the message "{name}"' },
  flowMessageNoStart: { zh: '没有以消息「{name}」开始的流程', en: 'No process starts with the message "{name}"' },
  flowInstanceMissing: { zh: '流程实例不存在', en: 'No such process instance' },
  flowViewDenied: { zh: '您无权查看该流程', en: 'You may not view this process' },
  flowNotLeave: { zh: '所选流程不是请假流程', en: 'The chosen process is not the leave process' },
  flowCategoryUnknown: {
    zh: '流程分类「{category}」不存在, 请选择「流程分类」字典 (flow) 中的一项',
    en: 'No process category "{category}": choose an item of the Process category dictionary (flow)',
  },
  flowModeUnknown: { zh: '流程模式「{mode}」无效, 应为 1 (通用流程) 或 2 (定制流程)', en: 'The process mode "{mode}" is not 1 (common) or 2 (tenant\'s own)' },
  leaveModelNoApprover: {
    zh: '流程「{name}」(版本 {version}) 不能用于请假表单: 它没有把任何任务分派给表单选择的审批人 (任务的办理人或候选人须为 ${taskUser})',
    en: 'The process "{name}" (version {version}) cannot serve the leave form: none of its tasks goes to the approver the form picks (a task\'s assignee or candidate users must be ${taskUser})',
  },
  leaveDatesOrder: { zh: '结束时间不能早于开始时间', en: 'The end cannot be before the start' },
  leaveApproverUnknown: { zh: '审批人不存在或已停用', en: 'No such approver, or the approver is disabled' },
  leaveApproverSelf: { zh: '审批人不能是申请人本人', en: 'You cannot approve your own leave' },
} as const satisfies Record<string, I18nText>;
