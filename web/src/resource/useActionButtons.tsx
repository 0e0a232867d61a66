import { nameFieldOf, t as text, type ResourceDef } from '@console/contract';
import type { ActionInput } from '@console/contract/action';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button } from 'antd';
import { useCallback, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { callAction } from '../api/action';
import { useLang } from '../i18n';
import { actionsEn, actionsZh } from '../i18n/actions';
import { addMessages } from '../i18n/lazy';
import { usePermissionCheck } from '../store/permissions';
import { testId } from '../testId';
import { actionButtons, doneMessage, namedRows, rowActionInput, shownOn, toolbarActionInput, type ActionButton, type ActionButtons } from './actionButtons';
import { resourceKeys } from './api';
import type { ResourceRecord } from './types';

addMessages('actions', { zh: actionsZh, en: actionsEn });

export interface ActionButtonsUi<Rec> {
  buttons: ActionButtons;
  /** the row buttons of one record */
  rowButtons: (record: Rec) => ReactNode[];
  /** the toolbar buttons over the selected records */
  toolbarButtons: (selected: readonly Rec[]) => ReactNode[];
}

/**
 * The generic page's action buttons (`actionButtons`): each asks for confirmation naming the action and the
 * rows, calls the action, says so and reloads the list; a failure is the server's message (the API client).
 */
export function useActionButtons<Rec extends ResourceRecord>(def: ResourceDef, reload: () => void): ActionButtonsUi<Rec> {
  const lang = useLang();
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const can = usePermissionCheck();
  const buttons = useMemo(() => actionButtons(def, can), [def, can]);
  const nameField = nameFieldOf(def);

  const run = useCallback(
    (b: ActionButton, input: Record<string, unknown>, rows: readonly Rec[]) => {
      const action = text(b.button.name, lang);
      const names = rows.map((r) => String(r[nameField as keyof Rec] ?? r.id));
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
        onOk: () =>
          callAction(b.action, input as ActionInput<typeof b.action>).then(
            (answer) => {
              void message.success(doneMessage(b.button, answer, lang) ?? t('actions.done', { action }));
              void queryClient.invalidateQueries({ queryKey: resourceKeys.all(def.path) });
              reload();
            },
            // the client has shown the server's message; close the dialog
            () => undefined,
          ),
      });
    },
    [def.path, lang, message, modal, nameField, queryClient, reload, t],
  );

  const rowButtons = useCallback(
    (record: Rec) =>
      buttons.row.filter((b) => shownOn(b.button, record)).map((b) => (
        <Button key={`action-${b.button.code}`} type="link" size="small" {...testId(`resource-row-action-${b.button.code}`)}
          onClick={() => run(b, rowActionInput(b, record.id), [record])}>
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

  return useMemo(() => ({ buttons, rowButtons, toolbarButtons }), [buttons, rowButtons, toolbarButtons]);
}
