import type { WebErrorRecord } from '@console/contract/envelope';
import { API } from '@console/contract/paths';
import { App, Button, Modal, Space, Table, Typography, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { request } from '../../api/client';
import { confirmInDialog } from '../../dialog/dialogFocus';
import { useErrorLog } from '../../store/errorLog';
import { testId } from '../../testId';

interface Row extends WebErrorRecord {
  key: number;
}

const wrap = { whiteSpace: 'pre-wrap', wordBreak: 'break-all', margin: 0 } as const;

/** The local error log: a table of the captured errors, upload to the server's error log, and clear. */
export function ErrorLogPanel({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const records = useErrorLog((s) => s.records);
  const [busy, setBusy] = useState(false);

  // newest first
  const rows = useMemo<Row[]>(() => records.map((r, i) => ({ ...r, key: i })).reverse(), [records]);

  const columns: TableColumnsType<Row> = [
    { title: t('tools.errorLog.type'), dataIndex: 'type', width: 80 },
    { title: t('tools.errorLog.url'), dataIndex: 'url', width: 200, render: (v: string) => <span style={wrap}>{v}</span> },
    { title: t('tools.errorLog.message'), dataIndex: 'message', width: 260, render: (v: string) => <span style={wrap}>{v}</span> },
    {
      title: t('tools.errorLog.stack'),
      dataIndex: 'stack',
      render: (v: string | undefined) =>
        v ? (
          <Typography.Paragraph ellipsis={{ rows: 3, expandable: true }} style={{ ...wrap, fontSize: 12 }}>
            {v}
          </Typography.Paragraph>
        ) : null,
    },
    { title: t('tools.errorLog.time'), dataIndex: 'time', width: 170 },
  ];

  const confirmUpload = () => {
    const sent = useErrorLog.getState().records;
    confirmInDialog(modal, {
      title: t('common.tip'),
      content: t('tools.errorLog.uploadConfirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: testId('confirm-ok'),
      cancelButtonProps: testId('confirm-cancel'),
      onOk: async () => {
        setBusy(true);
        try {
          await request<number>(API.logout, { method: 'POST', json: sent });
          useErrorLog.getState().remove(sent);
          void message.success(t('tools.errorLog.uploaded'));
        } catch {
          // the API client has shown why; the records stay for another try
        } finally {
          setBusy(false);
        }
      },
    });
  };

  const confirmClear = () => {
    confirmInDialog(modal, {
      title: t('common.tip'),
      content: t('tools.errorLog.clearConfirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: testId('confirm-ok'),
      cancelButtonProps: testId('confirm-cancel'),
      onOk: () => {
        useErrorLog.getState().clear();
        void message.success(t('tools.errorLog.cleared'));
      },
    });
  };

  const empty = records.length === 0;
  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={t('tools.errorLog.title')}
      width={1100}
      footer={
        <Space>
          <Button type="primary" disabled={empty} loading={busy} onClick={confirmUpload} data-testid="error-log-upload">
            {t('tools.errorLog.upload')}
          </Button>
          <Button danger disabled={empty} onClick={confirmClear} data-testid="error-log-clear">
            {t('tools.errorLog.clear')}
          </Button>
        </Space>
      }
    >
      <Table<Row>
        size="small"
        columns={columns}
        dataSource={rows}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        locale={{ emptyText: t('tools.errorLog.empty') }}
        scroll={{ y: 480 }}
        data-testid="error-log-table"
      />
    </Modal>
  );
}
