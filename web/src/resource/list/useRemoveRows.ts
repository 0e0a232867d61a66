import type { RemoveImpact, ResourceDef } from '@console/contract';
import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { testId } from '../../testId';
import { resourceKeys, type ResourceApi } from '../api';
import type { ResourceRecord } from '../types';

/**
 * Delete with confirmation (a row's, or the selected rows'). The server's preview comes first
 * (docs/decisions.md, "No delete orphans anything"): rows still in use are not offered for deletion, the
 * dialog says why; otherwise it says what goes with them. Then says so, refreshes the resource's queries,
 * drops the deleted rows from the selection and reloads the list.
 */
export function useRemoveRows<Rec extends ResourceRecord>(def: ResourceDef, api: ResourceApi<Rec>, reload: () => void, setSelected: (update: (rows: Rec[]) => Rec[]) => void) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const ask = useCallback(
    (ids: string[], impact: RemoveImpact | undefined) => {
      if (impact?.refused) {
        modal.warning({ title: t('resource.deleteRefusedTitle'), content: impact.message, okText: t('common.ok'), okButtonProps: testId('confirm-ok') });
        return;
      }
      modal.confirm({
        // not 提示/Notice: on the Notices screen that reads as the screen's own name
        title: t('list.deleteTitle'),
        content: impact?.message || t('resource.deleteConfirm'),
        okText: t('common.ok'),
        cancelText: t('common.cancel'),
        okButtonProps: testId('confirm-ok'),
        cancelButtonProps: testId('confirm-cancel'),
        onOk: () =>
          api.remove(ids).then(
            () => {
              void message.success(t('resource.deleted'));
              void queryClient.invalidateQueries({ queryKey: resourceKeys.all(def.path) });
              setSelected((rows) => rows.filter((row) => !ids.includes(row.id)));
              reload();
            },
            // the client has shown the failure; close the dialog
            () => undefined,
          ),
      });
    },
    [api, def.path, message, modal, queryClient, reload, t, setSelected],
  );
  const confirmRemove = useCallback(
    // a preview that fails (rows gone meanwhile, the network) leaves the plain confirmation: the remove still checks
    (ids: string[]) => void api.removeImpact(ids).then((impact) => ask(ids, impact), () => ask(ids, undefined)),
    [api, ask],
  );
  const removeSelected = (selected: readonly Rec[]) => {
    if (selected.length === 0) {
      void message.warning(t('resource.selectAtLeastOne'));
      return;
    }
    confirmRemove(selected.map((row) => row.id));
  };
  return { confirmRemove, removeSelected };
}
