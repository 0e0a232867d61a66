import { t as text } from '@console/contract';
import { ProFormText } from '@ant-design/pro-components';
import { ActionDialog } from '../dialog/ActionDialog';
import { useLang } from '../i18n';
import { testId } from '../testId';
import type { AskDef } from './actionButtons';

export interface AskDialogProps {
  title: string;
  ask: AskDef;
  /** the call with the typed value; a rejection keeps the dialog open (the client has shown the server's message) */
  onSubmit: (value: string) => Promise<unknown>;
  onClose: () => void;
}

/**
 * An ask button's dialog (`ButtonDef.ask`): the one value the action needs, required, at most `max` long, in
 * capitals as typed when the button says so. The form's field carries the action's input key, so that the
 * server's field error lands on it.
 */
export function AskDialog({ title, ask, onSubmit, onClose }: AskDialogProps) {
  const lang = useLang();
  return (
    <ActionDialog
      open
      title={title}
      testid="resource-ask"
      onClose={onClose}
      onSubmit={(values) => {
        const value = values[ask.field];
        return onSubmit(typeof value === 'string' ? value : '');
      }}
    >
      <ProFormText
        name={ask.field}
        label={text(ask.label, lang)}
        rules={[{ required: true, whitespace: true, message: text(ask.required, lang) }]}
        normalize={(value: unknown) => (ask.upperCase && typeof value === 'string' ? value.toUpperCase() : value)}
        fieldProps={{ maxLength: ask.max, ...testId('resource-ask-input') }}
      />
    </ActionDialog>
  );
}
