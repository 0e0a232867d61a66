import { DeleteOutlined, DownloadOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import type { ResourceDef } from '@console/contract';
import { ioRoutes } from '@console/contract/io';
import { Button, Dropdown } from 'antd';
import type { TFunction } from 'i18next';
import { cloneElement, type ReactElement, type ReactNode, type RefObject, useMemo, useState } from 'react';
import type { Query } from '../../api/client';
import type { AllowedButtons } from '../permissions';
import type { FormTarget, ResourceRecord, ToolbarContext } from '../types';
import type { ActionButtonsUi } from '../useActionButtons';

// export / import (def.io): loaded when first used
export const loadImportExport = () => import('../ImportExport');

/** Export and import, when the definition declares them and the user holds their codes. */
export function useImportExport(def: ResourceDef, can: (code: string) => boolean, lastQuery: RefObject<Query>) {
  const io = useMemo(() => ioRoutes(def), [def]);
  const canExport = io.export !== undefined && can(io.export.permission);
  const canImport = io.import !== undefined && can(io.import.permission);
  const [importOpen, setImportOpen] = useState(false);
  const [exporting, setExporting] = useState(false);
  /** the rows the list shows (every page), as an .xlsx (BladeX's) or a CSV */
  const exportRows = (format: ExportFormat = 'xlsx') => {
    setExporting(true);
    loadImportExport().then((m) => m.exportResource(def, lastQuery.current, format)).catch(() => undefined).finally(() => setExporting(false));
  };
  return { canExport, canImport, importOpen, setImportOpen, exporting, exportRows };
}

/** the export's file types: an .xlsx (a click on the button) or a CSV (from its menu) */
export type ExportFormat = 'xlsx' | 'csv';

/** Export: a click exports an .xlsx; the arrow beside it offers Excel or CSV. */
function exportButton(io: Pick<ReturnType<typeof useImportExport>, 'exporting' | 'exportRows'>, t: TFunction): ReactNode {
  const items = [
    { key: 'xlsx', label: t('resource.exportExcel'), 'data-testid': 'resource-export-xlsx' },
    { key: 'csv', label: t('resource.exportCsv'), 'data-testid': 'resource-export-csv' },
  ];
  return (
    <Dropdown.Button key="export" loading={io.exporting} onClick={() => io.exportRows('xlsx')}
      menu={{ items, onClick: ({ key }) => io.exportRows(key === 'csv' ? 'csv' : 'xlsx') }}
      buttonsRender={([main, more]) => [
        cloneElement(main as ReactElement<Record<string, unknown>>, { icon: <DownloadOutlined />, 'data-testid': 'resource-export' }),
        cloneElement(more as ReactElement<Record<string, unknown>>, { 'data-testid': 'resource-export-format', title: t('resource.exportFormat'), 'aria-label': t('resource.exportFormat') }),
      ]}>
      {t('resource.export')}
    </Dropdown.Button>
  );
}

export interface ToolbarInput<Rec> {
  allowed: AllowedButtons;
  addLabel: string | undefined;
  io: ReturnType<typeof useImportExport>;
  actions: ActionButtonsUi<Rec>;
  selected: Rec[];
  openForm: (target: FormTarget) => void;
  removeSelected: () => void;
  extraToolbar: ((ctx: ToolbarContext<Rec>) => ReactNode[]) | undefined;
  reload: () => void;
  clearSelection: () => void;
}

/** The toolbar: add, batch delete, import, export, the definition's action buttons, then the screen's own. */
export function toolbarButtons<Rec extends ResourceRecord>(input: ToolbarInput<Rec>, t: TFunction): ReactNode[] {
  const { allowed, io, selected } = input;
  return [
    allowed.add && (
      <Button key="add" type="primary" icon={<PlusOutlined />} data-testid="resource-add" onClick={() => input.openForm({ mode: 'create' })}>
        {input.addLabel ?? t('resource.add')}
      </Button>
    ),
    allowed.delete && (
      <Button key="batch-delete" danger icon={<DeleteOutlined />} data-testid="resource-batch-delete" onClick={input.removeSelected}>
        {t('resource.delete')}
      </Button>
    ),
    io.canImport && (
      <Button key="import" icon={<UploadOutlined />} data-testid="resource-import" onClick={() => io.setImportOpen(true)}>
        {t('resource.import')}
      </Button>
    ),
    io.canExport && exportButton(io, t),
    ...input.actions.toolbarButtons(selected),
    ...(input.extraToolbar?.({ selectedRows: selected, reload: input.reload, clearSelection: input.clearSelection }) ?? []),
  ].filter(Boolean);
}
