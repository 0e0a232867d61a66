import { ProFormRadio, ProFormTextArea } from '@ant-design/pro-components';
import { useTranslation } from 'react-i18next';
import { ActionDialog } from '../dialog/ActionDialog';
import { testId } from '../testId';
import type { DecideDef, Decision } from './actionButtons';

/** A comment's length when the resource does not say (the approvals' `comment` column). */
export const DECIDE_COMMENT_MAX = 255;

export interface DecideDialogProps {
  title: string;
  decide: DecideDef;
  /** the comment's label and length (the resource's field of that name, when it has one) */
  commentLabel?: string;
  commentMax?: number;
  /** the call; a rejection keeps the dialog open (the client has shown the server's message) */
  onSubmit: (decision: Decision, comment: string | undefined) => Promise<unknown>;
  onClose: () => void;
}

/**
 * A decide button's dialog (`ButtonDef.decide`): approve or reject, required, and a comment when the action takes
 * one. The form's fields carry the action's input keys, so that the server's field errors land on them.
 */
export function DecideDialog({ title, decide, commentLabel, commentMax, onSubmit, onClose }: DecideDialogProps) {
  const { t } = useTranslation();
  const option = (decision: Decision) => ({
    value: decision,
    label: <span {...testId(`resource-decide-${decision}`)}>{t(`actions.${decision}`)}</span>,
  });
  return (
    <ActionDialog
      open
      title={title}
      testid="resource-decide"
      onClose={onClose}
      onSubmit={(values) => {
        const comment = decide.comment === undefined ? undefined : values[decide.comment];
        return onSubmit(values[decide.field] as Decision, typeof comment === 'string' ? comment : undefined);
      }}
    >
      <ProFormRadio.Group
        name={decide.field}
        label={t('actions.decision')}
        radioType="button"
        options={[option('approve'), option('reject')]}
        rules={[{ required: true, message: t('actions.decisionRequired') }]}
      />
      {decide.comment !== undefined && (
        <ProFormTextArea
          name={decide.comment}
          label={commentLabel ?? t('actions.comment')}
          placeholder={t('actions.commentHint')}
          fieldProps={{ rows: 3, maxLength: commentMax ?? DECIDE_COMMENT_MAX, showCount: true, ...testId('resource-decide-comment') }}
        />
      )}
    </ActionDialog>
  );
}
