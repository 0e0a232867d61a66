import { InboxOutlined } from '@ant-design/icons';
import { type ResourceDef, t as text } from '@console/contract';
import { type ImportProgress, ioRoutes } from '@console/contract/io';
import { Alert, Button, Checkbox, Modal, Progress, Space, Table, Upload, type UploadFile } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { ApiError, buildUrl, callHeaders, request, type Query } from '../api/client';
import { useLang } from '../i18n';
import { toastError } from '../shell/feedback';
import { testId } from '../testId';

/**
 * Export and import of a resource whose definition declares `io` (loaded when first used, so the list
 * page does not carry it). The texts live here for the same reason.
 */
const TEXT = {
  zh: {
    title: '导入', template: '下载导入模板', choose: '点击或将 .xlsx / .csv 文件拖到这里', covering: '覆盖已有数据 (按唯一字段更新)',
    start: '开始导入', running: '正在导入…', done: '导入成功: {n} 条', failed: '导入失败, 未写入任何数据', row: '行号', message: '错误信息', close: '关闭',
    chooseBundle: '点击或将 .xlsx / .csv 文件, 或含表格及其引用文件 (如证书) 的 .zip 拖到这里', report: '下载错误报告', reportName: '导入错误报告',
    progress: '已检查 {processed} / {total} 行, 已写入 {succeeded} 行',
  },
  en: {
    title: 'Import', template: 'Download the import template', choose: 'Click or drop an .xlsx / .csv file here', covering: 'Update existing records (matched by the unique field)',
    start: 'Start import', running: 'Importing…', done: 'Imported: {n} records', failed: 'The import failed; nothing was written', row: 'Row', message: 'Error', close: 'Close',
    chooseBundle: 'Click or drop an .xlsx / .csv file, or a .zip of the sheet and the files it names (certificates), here', report: 'Download the error report', reportName: 'import-errors',
    progress: 'Checked {processed} of {total} rows, written {succeeded}',
  },
};

function filenameOf(disposition: string | null): string | undefined {
  const m = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? '');
  try {
    return m?.[1] ? decodeURIComponent(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Fetches a file of the API (with the caller's token and language) and saves it (named as the server names it); a refusal is toasted. */
export async function downloadFile(path: string, query: Query = {}, fallbackName = 'export.xlsx'): Promise<void> {
  const res = await fetch(buildUrl(path, query), { headers: callHeaders(), credentials: 'include' });
  if (!res.ok || (res.headers.get('content-type') ?? '').includes('json')) {
    let message = res.statusText;
    try {
      message = ((await res.json()) as { msg?: string }).msg ?? message;
    } catch { /* not JSON */ }
    toastError(message);
    throw new ApiError(message, res.status);
  }
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = filenameOf(res.headers.get('content-disposition')) ?? fallbackName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/** The list's current filters and sort, without paging: what the export takes; as an .xlsx, or a CSV (`format=csv`). */
export function exportResource(def: ResourceDef, listQuery: Query, format: 'xlsx' | 'csv' = 'xlsx'): Promise<void> {
  const { current: _c, size: _s, ...filters } = listQuery;
  return downloadFile(ioRoutes(def).export!.path, format === 'csv' ? { ...filters, format } : filters, `export.${format}`);
}

export interface ImportDialogProps {
  def: ResourceDef;
  open: boolean;
  onClose: () => void;
  /** rows were written: reload the list */
  onImported: () => void;
}

/** A cell of a CSV file: quoted when it holds a comma, a quote or a line break; a leading =+-@ is defused (CSV injection). */
function csvCell(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Saves the job's per-row errors as a UTF-8 CSV (with a BOM, so that Excel reads the Chinese right). */
function saveReport(job: ImportProgress, tx: (typeof TEXT)['zh'], title: string): void {
  const lines = [[tx.row, tx.message], ...job.errors.map((e) => [e.row, e.message])].map((cells) => cells.map(csvCell).join(','));
  const blob = new Blob([`\uFEFF${lines.join('\r\n')}\r\n`], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `${title}-${tx.reportName}.csv`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Template link, upload, a progress bar while the job runs, then the per-row errors (also as a file) or the count written. */
export function ImportDialog({ def, open, onClose, onImported }: ImportDialogProps) {
  const tx = TEXT[useLang()] as (typeof TEXT)['zh'];
  const routes = ioRoutes(def).import!;
  const hasUnique = Object.values(def.fields).some((f) => f.unique && f.form !== false);
  const bundle = def.io?.import?.bundle === true;
  const lang = useLang();
  const [file, setFile] = useState<UploadFile | null>(null);
  const [covering, setCovering] = useState(false);
  const [job, setJob] = useState<ImportProgress | null>(null);
  const [busy, setBusy] = useState(false);
  const alive = useRef(true);
  useEffect(() => () => {
    alive.current = false;
  }, []);

  const start = async () => {
    const raw = file?.originFileObj;
    if (!raw) return;
    setBusy(true);
    setJob(null);
    try {
      const body = new FormData();
      body.append('file', raw, raw.name);
      const { id } = await request<{ id: string }>(routes.path, { method: 'POST', multipart: body, query: covering ? { isCovering: 1 } : {} });
      for (;;) {
        if (!alive.current) return;
        const state = await request<ImportProgress>(routes.progress, { query: { id } });
        setJob(state);
        if (state.status !== 'running') {
          if (state.status === 'done') onImported();
          break;
        }
        await new Promise((r) => setTimeout(r, 700));
      }
    } catch {
      // the client has shown the failure
    } finally {
      if (alive.current) setBusy(false);
    }
  };

  const percent = !job ? 0 : job.status !== 'running' ? 100 : job.total ? Math.round((100 * (job.processed + job.succeeded)) / (2 * job.total)) : 0;
  return (
    <Modal open={open} title={tx.title} onCancel={onClose} width={640} destroyOnHidden
      footer={[
        <Button key="close" onClick={onClose}>{tx.close}</Button>,
        <Button key="start" type="primary" loading={busy} disabled={!file} onClick={() => void start()} {...testId('import-start')}>{tx.start}</Button>,
      ]}>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Button type="link" style={{ paddingInline: 0 }} onClick={() => void downloadFile(routes.template).catch(() => undefined)} {...testId('import-template')}>{tx.template}</Button>
        <Upload.Dragger accept={bundle ? '.xlsx,.csv,.zip' : '.xlsx,.csv'} maxCount={1} fileList={file ? [file] : []} beforeUpload={() => false}
          onChange={({ fileList }) => { setFile(fileList.at(-1) ?? null); setJob(null); }} onRemove={() => setFile(null)} {...testId('import-file')}>
          <p className="ant-upload-drag-icon"><InboxOutlined /></p>
          <p className="ant-upload-text">{bundle ? tx.chooseBundle : tx.choose}</p>
        </Upload.Dragger>
        {hasUnique && <Checkbox checked={covering} onChange={(e) => setCovering(e.target.checked)}>{tx.covering}</Checkbox>}
        {(busy || job) && <Progress percent={percent} status={job?.status === 'failed' ? 'exception' : job?.status === 'done' ? 'success' : 'active'} {...testId('import-progress')} />}
        {job?.status === 'running' && (
          <span {...testId('import-running')}>
            {job.total ? tx.progress.replace('{processed}', String(job.processed)).replace('{total}', String(job.total)).replace('{succeeded}', String(job.succeeded)) : tx.running}
          </span>
        )}
        {job?.status === 'done' && <Alert type="success" showIcon message={tx.done.replace('{n}', String(job.succeeded))} {...testId('import-done')} />}
        {job?.status === 'failed' && (
          <>
            <Alert type="error" showIcon message={tx.failed}
              action={<Button size="small" onClick={() => saveReport(job, tx, text(def.title, lang))} {...testId('import-report')}>{tx.report}</Button>} />
            <Table size="small" rowKey={(e) => `${e.row}:${e.message}`} dataSource={job.errors} pagination={{ pageSize: 8, hideOnSinglePage: true }}
              columns={[{ title: tx.row, dataIndex: 'row', width: 80 }, { title: tx.message, dataIndex: 'message' }]} {...testId('import-errors')} />
          </>
        )}
      </Space>
    </Modal>
  );
}
