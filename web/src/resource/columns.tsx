import {
  filterableFields,
  shownInList,
  t as text,
  type FieldDef,
  type ResourceDef,
} from '@console/contract';
import type { ProColumns } from '@ant-design/pro-components';
import dayjs from 'dayjs';
import { dictOptions } from './dictValues';
import { displayText, WIRE_DATETIME } from './display';
import type { ColumnsOverride, RenderContext } from './types';

/** Long texts get a fixed width so that they can be cut with an ellipsis. */
const LONG_TEXT_WIDTH = 240;

export interface ColumnLabels {
  rangeStart: string;
  rangeEnd: string;
}

/** The key of the search-only column of a date-range field. */
export function rangeKey(name: string): string {
  return `${name}_range`;
}

/** A picked day range → `<field>_datege` (start of the first day) and `<field>_datele` (end of the last). */
function dateRangeTransform(name: string) {
  return (value: unknown): Record<string, string> => {
    if (!Array.isArray(value) || value.length !== 2) return {};
    const [start, end] = value.map((v: unknown) => (typeof v === 'string' || dayjs.isDayjs(v) ? dayjs(v) : null));
    if (!start?.isValid() || !end?.isValid()) return {};
    return {
      [`${name}_datege`]: start.startOf('day').format(WIRE_DATETIME),
      [`${name}_datele`]: end.endOf('day').format(WIRE_DATETIME),
    };
  };
}

function searchable(f: FieldDef): boolean {
  return f.search === 'like' || f.search === 'equal';
}

function fieldColumn<Rec>(name: string, f: FieldDef, ctx: RenderContext): ProColumns<Rec> {
  const longText = f.type === 'text' || f.type === 'richtext';
  return {
    title: text(f.label, ctx.lang),
    dataIndex: name,
    key: name,
    width: f.width ?? (longText ? LONG_TEXT_WIDTH : undefined),
    ellipsis: longText,
    sorter: f.sortable === true,
    hideInTable: !shownInList(f),
    hideInSearch: !searchable(f),
    valueType: f.dict ? 'select' : 'text',
    fieldProps: f.dict ? { options: dictOptions(f, ctx.dicts), showSearch: true, optionFilterProp: 'label' } : undefined,
    // 'like' sends the plain key; 'equal' sends `<field>_equal`
    search: f.search === 'equal' ? { transform: (value: unknown) => ({ [`${name}_equal`]: value }) } : undefined,
    render: (_dom, record) => displayText(f, (record as Record<string, unknown>)[name], ctx.dicts),
  };
}

function rangeColumn<Rec>(name: string, f: FieldDef, ctx: RenderContext, labels: ColumnLabels): ProColumns<Rec> {
  return {
    title: text(f.label, ctx.lang),
    dataIndex: rangeKey(name),
    key: rangeKey(name),
    valueType: 'dateRange',
    hideInTable: true,
    fieldProps: { placeholder: [labels.rangeStart, labels.rangeEnd] },
    search: { transform: dateRangeTransform(name) },
  };
}

/**
 * The table and search columns of a resource: its fields and the engine's system fields (createTime
 * with its date-range search). A field that is searchable but not listed is a column hidden in the table.
 */
export function buildColumns<Rec>(def: ResourceDef, ctx: RenderContext, labels: ColumnLabels): ProColumns<Rec>[] {
  const columns: ProColumns<Rec>[] = [];
  for (const [name, f] of Object.entries(filterableFields(def))) {
    if (shownInList(f) || searchable(f)) columns.push(fieldColumn<Rec>(name, f, ctx));
    if (f.search === 'dateRange') columns.push(rangeColumn<Rec>(name, f, ctx, labels));
  }
  return columns;
}

/** Applies a screen's column customisation (see ColumnsOverride). */
export function applyColumnsOverride<Rec>(
  columns: ProColumns<Rec>[],
  override: ColumnsOverride<Rec> | undefined,
  ctx: RenderContext,
): ProColumns<Rec>[] {
  if (!override) return columns;
  if (typeof override === 'function') return override(columns, ctx);
  return columns.flatMap((column) => {
    const patch = override[String(column.key)];
    if (patch === false) return [];
    return [patch ? ({ ...column, ...patch } as ProColumns<Rec>) : column];
  });
}
