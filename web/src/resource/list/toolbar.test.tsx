import type { TFunction } from 'i18next';
import { isValidElement, type ReactElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { toolbarButtons, type ToolbarInput } from './toolbar';

type ExportProps = {
  onClick: () => void;
  loading: boolean;
  menu: { items: Array<{ key: string; label: string; 'data-testid': string }>; onClick: (info: { key: string }) => void };
};

const t = ((key: string) => key) as unknown as TFunction;

function toolbar(exportRows: (format?: 'xlsx' | 'csv') => void, canExport = true) {
  const input = {
    allowed: { add: false, delete: false },
    addLabel: undefined,
    io: { canExport, canImport: false, importOpen: false, setImportOpen: () => undefined, exporting: false, exportRows },
    actions: { toolbarButtons: () => [] },
    selected: [],
    openForm: () => undefined,
    removeSelected: () => undefined,
    extraToolbar: undefined,
    reload: () => undefined,
    clearSelection: () => undefined,
  } as unknown as ToolbarInput<{ id: string }>;
  return toolbarButtons(input, t).filter(isValidElement) as ReactElement[];
}

describe('the export button', () => {
  it('exports an .xlsx on a click, and offers Excel or CSV beside it', () => {
    const exportRows = vi.fn();
    const button = toolbar(exportRows).find((n) => n.key === 'export') as ReactElement<ExportProps>;
    expect(button).toBeDefined();
    button.props.onClick();
    expect(exportRows).toHaveBeenLastCalledWith('xlsx');
    expect(button.props.menu.items.map((i) => [i.key, i.label, i['data-testid']])).toEqual([
      ['xlsx', 'resource.exportExcel', 'resource-export-xlsx'],
      ['csv', 'resource.exportCsv', 'resource-export-csv'],
    ]);
    button.props.menu.onClick({ key: 'csv' });
    expect(exportRows).toHaveBeenLastCalledWith('csv');
    button.props.menu.onClick({ key: 'xlsx' });
    expect(exportRows).toHaveBeenLastCalledWith('xlsx');
  });

  it('is not shown without the export code', () => {
    expect(toolbar(vi.fn(), false).some((n) => n.key === 'export')).toBe(false);
  });
});
