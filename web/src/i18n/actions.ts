/**
 * Strings of the generic page's action buttons (resource/useActionButtons.tsx): lazy, registered by the list
 * page's chunk (i18n/lazy.ts), so the first page after sign-in does not carry them.
 */
export const actionsZh = {
  confirm: '确定对{{names}}执行「{{action}}」?',
  confirmMore: '确定对{{names}}等 {{total}} 条数据执行「{{action}}」?',
  confirmNone: '确定执行「{{action}}」?',
  done: '「{{action}}」执行成功',
};

export const actionsEn: typeof actionsZh = {
  confirm: 'Run “{{action}}” on {{names}}?',
  confirmMore: 'Run “{{action}}” on {{names}} and {{more}} more ({{total}} in all)?',
  confirmNone: 'Run “{{action}}”?',
  done: '“{{action}}” done',
};
