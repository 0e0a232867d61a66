import { DeleteOutlined, DownloadOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import type { ResourceDef } from '@console/contract';
import { ioRoutes } from '@console/contract/io';
import { Button } from 'antd';
import type { TFunction } from 'i18next';
import { useMemo, useState, type ReactNode, type RefObject } from 'react';
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
  const exportRows = () => {
    setExporting(true);
    loadImportExport().then((m) => m.exportResource(def, lastQuery.current)).catch(() => undefined).finally(() => setExporting(false));
  };
  return { canExport, canImport, importOpen, setImportOpen, exporting, exportRows };
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
    io.canExport && (
      <Button key="export" icon={<DownloadOutlined />} loading={io.exporting} data-testid="resource-export" onClick={io.exportRows}>
        {t('resource.export')}
      </Button>
    ),
    ...input.actions.toolbarButtons(selected),
    ...(input.extraToolbar?.({ selectedRows: selected, reload: input.reload, clearSelection: input.clearSelection }) ?? []),
  ].filter(Boolean);
}
