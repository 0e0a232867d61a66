import { ProFormTextArea } from '@ant-design/pro-components';
import { t as text } from '@console/contract';
import { batchResource, certResource } from '@console/contract/areas/production/index';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Empty, List, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callAction } from '../../api/action';
import { useLang } from '../../i18n';
import { addMessages } from '../../i18n/lazy';
import { productionEn, productionZh } from './i18n';
import { resourceKeys } from '../../resource/api';
import { ResourcePage } from '../../resource/ResourcePage';
import type { ResourceRecord } from '../../resource/types';
import { usePermissionCheck } from '../../store/permissions';
import { ActionDialog } from '../../dialog/ActionDialog';
import type { CustomPageProps } from '../../shell/area';
import { testId } from '../../testId';

addMessages('production', { zh: productionZh, en: productionEn });

type Rec = ResourceRecord<typeof batchResource.fields>;

/**
 * Batches: the generic page (its devices open from each row, `within`) plus 生产记录 (`batch_log`): a new
 * production note, saved with its author and time, above the batch's earlier notes.
 */
export function BatchPage({ def }: CustomPageProps) {
  const lang = useLang();
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const can = usePermissionCheck();
  const allocate = (row: Rec, reload: () => void) => {
    modal.confirm({
      title: t('production.allocate.button'),
      content: t('production.allocate.confirm', { batchNo: row.batchNo ?? '' }),
      okButtonProps: testId('confirm-ok'),
      onOk: () => callAction(certResource.actions.allocate, { batchId: row.id }).then(
        (r) => {
          void message.success(t('production.allocate.done', { allocated: r.allocated, missing: r.missing }));
          reload();
        },
        () => undefined,
      ),
    });
  };
  const [noting, setNoting] = useState<{ row: Rec; reload: () => void } | null>(null);
  const logButton = batchResource.menu!.buttons!.find((b) => b.code === 'batch_log')!;
  return (
    <>
      <ResourcePage
        def={def}
        extraRowActions={(row, { reload }) => [
          can('cert_import') && (
            <Button key="allocate" type="link" size="small" data-testid="batch-row-allocate" onClick={() => allocate(row as Rec, reload)}>
              {t('production.allocate.button')}
            </Button>
          ),
          can(logButton.code) && (
            <Button key="log" type="link" size="small" data-testid="batch-row-log" onClick={() => setNoting({ row: row as Rec, reload })}>
              {text(logButton.name, lang)}
            </Button>
          ),
        ]}
      />
      {noting && <BatchLogDialog row={noting.row} onClose={() => setNoting(null)} onSaved={noting.reload} />}
    </>
  );
}

function BatchLogDialog({ row, onClose, onSaved }: { row: Rec; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const history = useQuery({
    queryKey: [...resourceKeys.all(batchResource.path), 'log-history', row.id],
    queryFn: () => callAction(batchResource.actions.logHistory, { id: row.id }),
    staleTime: 0,
  });
  return (
    <ActionDialog
      open
      title={t('production.batchLog.title', { batchNo: row.batchNo ?? '' })}
      testid="batch-log"
      onClose={onClose}
      onSubmit={async (values) => {
        await callAction(batchResource.actions.editLog, { id: row.id, log: String(values.log ?? '') });
        void message.success(t('production.batchLog.saved'));
        void queryClient.invalidateQueries({ queryKey: resourceKeys.all(batchResource.path) });
        onSaved();
      }}
    >
      <ProFormTextArea
        name="log"
        label={t('production.batchLog.note')}
        placeholder={t('production.batchLog.notePlaceholder')}
        fieldProps={{ rows: 4, maxLength: 2000, showCount: true }}
        rules={[{ required: true, whitespace: true, message: t('production.batchLog.required') }]}
      />
      <Typography.Title level={5}>{t('production.batchLog.history')}</Typography.Title>
      <Spin spinning={history.isPending}>
        <List
          size="small"
          data-testid="batch-log-history"
          dataSource={history.data ?? []}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('production.batchLog.none')} /> }}
          style={{ maxHeight: 260, overflow: 'auto' }}
          renderItem={(item) => (
            <List.Item key={item.id}>
              <List.Item.Meta title={<Typography.Text style={{ whiteSpace: 'pre-wrap' }}>{item.log}</Typography.Text>} description={`${item.createUserName ?? item.createUser} · ${item.createTime}`} />
            </List.Item>
          )}
        />
      </Spin>
    </ActionDialog>
  );
}
