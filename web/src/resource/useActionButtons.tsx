import { nameFieldOf, t as text, type ResourceDef } from '@console/contract';
import type { ActionInput } from '@console/contract/action';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button } from 'antd';
import { Suspense, useCallback, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { callAction } from '../api/action';
import { useLang } from '../i18n';
import { actionsEn, actionsZh } from '../i18n/actions';
import { addMessages } from '../i18n/lazy';
import { lazy } from '../shell/chunkLoad';
import { usePermissionCheck } from '../store/permissions';
import { testId } from '../testId';
import {
  actionButtons, askInput, decideInput, doneMessage, namedRows, rowActionInput, rowName, shownOn, toolbarActionInput,
  type ActionButton, type ActionButtons, type RowActionButton,
} from './actionButtons';
import { resourceKeys } from './api';
import type { ResourceRecord } from './types';

addMessages('actions', { zh: actionsZh, en: actionsEn });

// a decide or an ask button's dialog loads when one is first opened
const DecideDialog = lazy(() => import('./DecideDialog').then((m) => ({ default: m.DecideDialog })));
const AskDialog = lazy(() => import('./AskDialog').then((m) => ({ default: m.AskDialog })));

export interface ActionButtonsUi<Rec> {
  buttons: ActionButtons;
  /** the row buttons of one record */
  rowButtons: (record: Rec) => ReactNode[];
  /** the toolbar buttons over the selected records */
  toolbarButtons: (selected: readonly Rec[]) => ReactNode[];
}

/**
 * The generic page's action buttons (`actionButtons`): each asks for confirmation naming the action and the
 * rows (a decide button: approve or reject, and a comment; an ask button: the value it asks), calls the action,
 * says so and reloads the list; a failure is the server's message (the API client). `dialog` is the open decide
 * or ask dialog, for the page to render.
 */
export function useActionButtons<Rec extends ResourceRecord>(def: ResourceDef, reload: () => void): { ui: ActionButtonsUi<Rec>; dialog: ReactNode } {
  const lang = useLang();
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const can = usePermissionCheck();
  const buttons = useMemo(() => actionButtons(def, can), [def, can]);
  const nameField = nameFieldOf(def);
  const [asking, setAsking] = useState<{ b: RowActionButton; record: Rec } | null>(null);

  const call = useCallback(
    (b: ActionButton, input: Record<string, unknown>) =>
      callAction(b.action, input as ActionInput<typeof b.action>).then((answer) => {
        const action = text(b.button.name, lang);
        void message.success(doneMessage(b.button, answer, lang) ?? t('actions.done', { action }));
        void queryClient.invalidateQueries({ queryKey: resourceKeys.all(def.path) });
        reload();
      }),
    [def.path, lang, message, queryClient, reload, t],
  );

  const run = useCallback(
    (b: ActionButton, input: Record<string, unknown>, rows: readonly Rec[]) => {
      const action = text(b.button.name, lang);
      const names = rows.map((r) => rowName(r, nameField));
      const named = namedRows(names, lang);
      const content = b.button.confirm
        ? text(b.button.confirm, lang)
        : names.length === 0
          ? t('actions.confirmNone', { action })
          : t(named.more ? 'actions.confirmMore' : 'actions.confirm', { action, names: named.names, more: named.more, total: names.length });
      modal.confirm({
        title: action,
        content,
        okText: t('common.ok'),
        cancelText: t('common.cancel'),
        okButtonProps: testId('confirm-ok'),
        cancelButtonProps: testId('confirm-cancel'),
        // the client has shown the server's message; close the dialog
        onOk: () => call(b, input).catch(() => undefined),
      });
    },
    [call, lang, modal, nameField, t],
  );

  const rowButtons = useCallback(
    (record: Rec) =>
      buttons.row.filter((b) => shownOn(b.button, record)).map((b) => (
        <Button key={`action-${b.button.code}`} type="link" size="small" {...testId(`resource-row-action-${b.button.code}`)}
          onClick={() => (b.input === 'decide' || b.input === 'ask' ? setAsking({ b, record }) : run(b, rowActionInput(b, record.id), [record]))}>
          {text(b.button.name, lang)}
        </Button>
      )),
    [buttons, lang, run],
  );

  const toolbarButtons = useCallback(
    (selected: readonly Rec[]) =>
      buttons.toolbar.map((b) => (
        <Button key={`action-${b.button.code}`} {...testId(`resource-action-${b.button.code}`)}
          onClick={() => {
            if (b.input === 'ids' && selected.length === 0) {
              void message.warning(t('resource.selectAtLeastOne'));
              return;
            }
            run(b, toolbarActionInput(b, selected.map((r) => r.id)), b.input === 'ids' ? selected : []);
          }}>
          {text(b.button.name, lang)}
        </Button>
      )),
    [buttons, lang, message, run, t],
  );

  const ui = useMemo(() => ({ buttons, rowButtons, toolbarButtons }), [buttons, rowButtons, toolbarButtons]);
  const dialog = asking && (
    <Suspense fallback={null}>
      <RowDialog
        key={`${asking.b.button.code}-${asking.record.id}`}
        def={def} b={asking.b} record={asking.record} nameField={nameField} call={call} onClose={() => setAsking(null)}
      />
    </Suspense>
  );
  return { ui, dialog };
}

interface RowDialogProps {
  def: ResourceDef;
  b: RowActionButton;
  record: ResourceRecord;
  nameField: string;
  /** calls the action, says so and reloads; a rejection keeps the dialog open */
  call: (b: ActionButton, input: Record<string, unknown>) => Promise<unknown>;
  onClose: () => void;
}

/** The dialog of a row button that asks first: a decide button's (approve or reject, a comment) or an ask button's. */
function RowDialog({ def, b, record, nameField, call, onClose }: RowDialogProps) {
  const lang = useLang();
  const { t } = useTranslation();
  const names = { action: text(b.button.name, lang), name: rowName(record, nameField) };
  const { decide, ask } = b.button;
  if (b.input === 'ask' && ask) {
    return <AskDialog title={t('actions.askTitle', names)} ask={ask} onSubmit={(value) => call(b, askInput(ask, record, value))} onClose={onClose} />;
  }
  if (b.input !== 'decide' || !decide) return null;
  const commentField = decide.comment === undefined ? undefined : def.fields[decide.comment];
  return (
    <DecideDialog
      title={t('actions.decideTitle', names)}
      decide={decide}
      commentLabel={commentField ? text(commentField.label, lang) : undefined}
      commentMax={commentField?.max}
      onSubmit={(decision, comment) => call(b, decideInput(decide, record.id, decision, comment))}
      onClose={onClose}
    />
  );
}
