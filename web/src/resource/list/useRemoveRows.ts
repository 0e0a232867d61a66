import type { ResourceDef } from '@console/contract';
import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { testId } from '../../testId';
import { resourceKeys, type ResourceApi } from '../api';
import type { ResourceRecord } from '../types';

/**
 * Delete with confirmation (a row's, or the selected rows'): says so, refreshes the resource's queries,
 * drops the deleted rows from the selection and reloads the list.
 */
export function useRemoveRows<Rec extends ResourceRecord>(def: ResourceDef, api: ResourceApi<Rec>, reload: () => void, setSelected: (update: (rows: Rec[]) => Rec[]) => void) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const confirmRemove = useCallback(
    (ids: string[]) => {
      modal.confirm({
        // not 提示/Notice: on the Notices screen that reads as the screen's own name
        title: t('list.deleteTitle'),
        content: t('resource.deleteConfirm'),
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
  const removeSelected = (selected: readonly Rec[]) => {
    if (selected.length === 0) {
      void message.warning(t('resource.selectAtLeastOne'));
      return;
    }
    confirmRemove(selected.map((row) => row.id));
  };
  return { confirmRemove, removeSelected };
}
