/**
 * Strings of the generic page's action buttons (resource/useActionButtons.tsx): lazy, registered by the list
 * page's chunk (i18n/lazy.ts), so the first page after sign-in does not carry them.
 */
export const actionsZh = {
  confirm: '确定对{{names}}执行「{{action}}」?',
  confirmMore: '确定对{{names}}等 {{total}} 条数据执行「{{action}}」?',
  confirmNone: '确定执行「{{action}}」?',
  done: '「{{action}}」执行成功',
  // a decide button's dialog (ButtonDef.decide)
  decideTitle: '{{action}}「{{name}}」',
  decision: '审批结果',
  approve: '通过',
  reject: '驳回',
  decisionRequired: '请选择通过或驳回',
  comment: '审批意见',
  commentHint: '选填',
  // an ask button's dialog (ButtonDef.ask): its field's label and message are the button's
  askTitle: '{{action}}「{{name}}」',
};

export const actionsEn: typeof actionsZh = {
  confirm: 'Run “{{action}}” on {{names}}?',
  confirmMore: 'Run “{{action}}” on {{names}} and {{more}} more ({{total}} in all)?',
  confirmNone: 'Run “{{action}}”?',
  done: '“{{action}}” done',
  decideTitle: '{{action}}: “{{name}}”',
  decision: 'Decision',
  approve: 'Approve',
  reject: 'Reject',
  decisionRequired: 'Please choose approve or reject',
  comment: 'Comment',
  commentHint: 'Optional',
  askTitle: '{{action}}: “{{name}}”',
};
