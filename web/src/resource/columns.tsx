import {
  filterableFields,
  shownInList,
  t as text,
  type FieldDef,
  type ResourceDef,
} from '@console/contract';
import type { ProColumns } from '@ant-design/pro-components';
import dayjs from 'dayjs';
import type { KeyboardEvent } from 'react';
import { CellText } from './CellText';
import { dictOptions } from './dictValues';
import { displayText, WIRE_DATE, WIRE_DATETIME } from './display';
import { FieldValue, isFileField } from './FieldValue';
import { amountFromForm, formCurrency } from './moneyValues';
import { RefSelect } from './RefSelect';
import { joinPath, lastCode, splitPath } from './regionPath';
import { RegionSelect } from './RegionSelect';
import type { ColumnsOverride, RenderContext } from './types';

/**
 * Column widths by field type (px). Every column has a width and cuts its text with an ellipsis (the
 * whole text on hover), so one long value never pushes the other columns out of view.
 */
export const COLUMN_WIDTHS = {
  string: 160,
  text: 200,
  richtext: 200,
  int: 110,
  number: 120,
  datetime: 170,
  date: 120,
  id: 180,
  boolean: 90,
  ref: 160,
  ids: 200,
  file: 160,
  image: 90,
  json: 240,
  money: 130,
  dict: 130,
  /** a column without a width after a screen's override */
  other: 160,
  /** the multi-select column */
  selection: 48,
} as const;

/** Roughly how wide a label is at 14px: CJK characters are square, Latin ones about half as wide. */
export function textWidth(label: string): number {
  let width = 0;
  for (const ch of label) width += /[\u2e80-\u9fff\uff00-\uffef]/.test(ch) ? 14 : 8;
  return width;
}

/** A column wide enough for its header: the label, the cell padding and the sort arrows. */
function headerWidth(label: string, sortable: boolean): number {
  return textWidth(label) + 32 + (sortable ? 28 : 0);
}

export interface ColumnLabels {
  rangeStart: string;
  rangeEnd: string;
  /** how a flag reads (resource.yes / resource.no) */
  yes: string;
  no: string;
  /** a reference whose row is gone (resource.refDeleted) */
  refDeleted?: string;
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
  return f.search === 'like' || f.search === 'prefix' || f.search === 'equal' || f.search === 'region';
}

/** A picked day → 'yyyy-MM-dd'. */
function dayText(value: unknown): string | undefined {
  if (typeof value !== 'string' && !dayjs.isDayjs(value)) return undefined;
  const day = dayjs(value);
  return day.isValid() ? day.format(WIRE_DATE) : undefined;
}

/**
 * The search parameter of a field: 'like' sends the plain key, 'prefix' and 'region' `<field>_likeright`, 'equal'
 * (and any flag or reference) `<field>_equal`.
 */
function searchKey(name: string, f: FieldDef): string {
  if (f.search === 'prefix' || f.search === 'region') return `${name}_likeright`;
  return f.search === 'equal' || f.type === 'boolean' || f.type === 'ref' ? `${name}_equal` : name;
}

/**
 * A region path's search: picked in the tree; 'region' sends the picked region (the path's last code: the server
 * finds it and every region under it), 'equal' the whole path.
 */
function regionSearch<Rec>(key: string, f: FieldDef): Partial<ProColumns<Rec>> {
  const sent = (value: unknown) => (f.search === 'region' ? lastCode(value) : joinPath(splitPath(value)));
  return {
    renderFormItem: () => <RegionSelect />,
    search: { transform: (value: unknown) => { const v = sent(value); return v ? { [key]: v } : {}; } },
  };
}

/**
 * An amount searched: typed in major units of the currency the search form names (else CNY) and sent as minor units
 * (`19.90` → `<field>_equal=1990`); a text that is no amount of it is sent as typed, for the server to refuse.
 */
function amountSearch(key: string, f: FieldDef, value: unknown, all: unknown): Record<string, unknown> {
  if (typeof value !== 'string' || value.trim() === '') return {};
  return { [key]: amountFromForm(value.trim(), formCurrency(f, all as Record<string, unknown> | undefined)) };
}

/**
 * How the search form offers a field: region paths in the region tree, dictionaries and flags as selects, references
 * as a reference select, dates as a day.
 */
function searchInput<Rec>(name: string, f: FieldDef, ctx: RenderContext, labels: ColumnLabels): Partial<ProColumns<Rec>> {
  const key = searchKey(name, f);
  if (f.regionPath) return regionSearch<Rec>(key, f);
  if (f.dict) return { valueType: 'select', fieldProps: { options: dictOptions(f, ctx.dicts), showSearch: true, optionFilterProp: 'label' } };
  switch (f.type) {
    case 'boolean':
      return { valueType: 'select', fieldProps: { options: [{ label: labels.yes, value: 1 }, { label: labels.no, value: 0 }] } };
    case 'ref':
    case 'ids':
      return f.ref ? { renderFormItem: () => <RefSelect refCode={f.ref} /> } : {};
    case 'date':
      return { valueType: 'date', search: { transform: (value: unknown) => { const day = dayText(value); return day ? { [key]: day } : {}; } } };
    case 'money':
      return { search: { transform: (value: unknown, _path: string, all: unknown) => amountSearch(key, f, value, all) } };
    default:
      return {};
  }
}

function fieldColumn<Rec>(name: string, f: FieldDef, ctx: RenderContext, labels: ColumnLabels): ProColumns<Rec> {
  const title = text(f.label, ctx.lang);
  const sortable = f.sortable === true;
  const key = searchKey(name, f);
  const yesNo = { yes: labels.yes, no: labels.no };
  return {
    ...withFit({ keep: f.key === true, min: headerWidth(title, sortable) }),
    title,
    dataIndex: name,
    key: name,
    width: f.width ?? Math.max(f.dict ? COLUMN_WIDTHS.dict : COLUMN_WIDTHS[f.type], headerWidth(title, sortable)),
    ellipsis: true,
    sorter: f.sortable === true,
    hideInTable: !shownInList(f),
    hideInSearch: !searchable(f),
    valueType: 'text',
    search: key !== name ? { transform: (value: unknown) => ({ [key]: value }) } : undefined,
    ...(searchable(f) ? searchInput<Rec>(name, f, ctx, labels) : {}),
    render: (_dom, record) => {
      const row = record as Record<string, unknown>;
      if (isFileField(f)) return <FieldValue name={name} field={f} record={row} dicts={ctx.dicts} yesNo={yesNo} />;
      // dictionary codes and references show the server's `<field>Name`
      return <CellText text={displayText(f, row[name], ctx.dicts, { name, record: row, yesNo, refDeleted: labels.refDeleted })} />;
    },
  };
}

/**
 * The search-only column of a date-range field. A time-partitioned log's (`recent`) opens on its last days: the
 * range the server reads when none is sent, shown, so the operator sees why older rows are not listed.
 */
function rangeColumn<Rec>(name: string, f: FieldDef, ctx: RenderContext, labels: ColumnLabels, recentDays?: number): ProColumns<Rec> {
  return {
    title: text(f.label, ctx.lang),
    dataIndex: rangeKey(name),
    key: rangeKey(name),
    valueType: 'dateRange',
    hideInTable: true,
    fieldProps: { placeholder: [labels.rangeStart, labels.rangeEnd] },
    search: { transform: dateRangeTransform(name) },
    ...(recentDays ? { initialValue: [dayjs().subtract(recentDays - 1, 'day').startOf('day'), dayjs().endOf('day')] } : {}),
  };
}

/**
 * The fields of the table and the search form, in definition order: those a list can filter, and the values the
 * server derives for its rows (`virtual`: a region path's names) where they are listed; then the system fields.
 */
function columnFields(def: ResourceDef): [string, FieldDef][] {
  const filterable = filterableFields(def);
  const own = Object.entries(def.fields).filter(([name, f]) => Object.hasOwn(filterable, name) || (f.virtual === true && shownInList(f)));
  return [...own, ...Object.entries(filterable).filter(([name]) => !Object.hasOwn(def.fields, name))];
}

/**
 * The table and search columns of a resource: its fields and the engine's system fields (createTime
 * with its date-range search). A field that is searchable but not listed is a column hidden in the table.
 */
export function buildColumns<Rec>(def: ResourceDef, ctx: RenderContext, labels: ColumnLabels): ProColumns<Rec>[] {
  const columns: ProColumns<Rec>[] = [];
  for (const [name, f] of columnFields(def)) {
    if (shownInList(f) || searchable(f)) columns.push(fieldColumn<Rec>(name, f, ctx, labels));
    if (f.search === 'dateRange') columns.push(rangeColumn<Rec>(name, f, ctx, labels, def.recent?.field === name ? def.recent.days : undefined));
  }
  return columns;
}

/** Whether a column is a column of the table (not a search-only one). */
function inTable<Rec>(column: ProColumns<Rec>): boolean {
  return !column.hideInTable;
}

/** How a column gives way when the table is narrower than its columns: `keep` holds its width and its place in view. */
export interface ColumnFit {
  keep: boolean;
  /** the narrowest it gets: its header, whole */
  min: number;
}

/** Where a column carries its fit (a symbol: a screen's patch, spread over the column, keeps it; antd ignores it). */
const FIT = Symbol('columnFit');

/** The property that gives a column its fit (spread it into the column). */
export function withFit(fit: ColumnFit): { [FIT]: ColumnFit } {
  return { [FIT]: fit };
}

function fitOf<Rec>(column: ProColumns<Rec>, width: number): ColumnFit {
  const own = (column as { [FIT]?: ColumnFit })[FIT];
  if (own) return own;
  // the row actions keep their width (sized to their buttons); a screen's own column shrinks to its header
  if (column.valueType === 'option' || column.fixed) return { keep: true, min: width };
  return { keep: false, min: Math.min(width, typeof column.title === 'string' ? headerWidth(column.title, Boolean(column.sorter)) : COLUMN_WIDTHS.other) };
}

/**
 * Fits sized columns into `available` px (the table's visible width): the columns that give way shrink towards
 * their headers, in proportion to the room each has; if that is not enough, the kept columns (a definition's `key`
 * fields) move up behind the first one, so they stay in view and only the others are reached by scrolling.
 * Answers the columns and the table's scroll width.
 */
export function fitColumns<Rec>(columns: ProColumns<Rec>[], selectable: boolean, available: number): { columns: ProColumns<Rec>[]; width: number } {
  const sized = sizeColumns(columns, selectable);
  if (!(available > 0) || sized.width <= available) return sized;
  const room = (c: ProColumns<Rec>) => {
    if (!inTable(c)) return 0;
    const fit = fitOf(c, c.width as number);
    return fit.keep ? 0 : Math.max(0, (c.width as number) - fit.min);
  };
  const totalRoom = sized.columns.reduce((sum, c) => sum + room(c), 0);
  const share = totalRoom > 0 ? Math.min(1, (sized.width - available) / totalRoom) : 0;
  let width = sized.width;
  const shrunk = sized.columns.map((c) => {
    const give = Math.ceil(room(c) * share);
    if (give <= 0) return c;
    width -= give;
    return { ...c, width: (c.width as number) - give };
  });
  if (width <= available) return { columns: shrunk, width };
  // the kept columns up front; when even they do not fit, they too give way towards their headers (the row
  // actions never do)
  const kept = (c: ProColumns<Rec>) => fitOf(c, c.width as number).keep;
  const keptRoom = (c: ProColumns<Rec>) => (inTable(c) && kept(c) && c.valueType !== 'option' && !c.fixed
    ? Math.max(0, (c.width as number) - fitOf(c, c.width as number).min) : 0);
  const first = shrunk.find((c) => inTable(c) && !c.fixed);
  const visibleWidth = (COLUMN_WIDTHS.selection * (selectable ? 1 : 0)) + shrunk
    .filter((c) => inTable(c) && (c === first || kept(c))).reduce((sum, c) => sum + (c.width as number), 0);
  const over = visibleWidth - available;
  const totalKeptRoom = shrunk.reduce((sum, c) => sum + keptRoom(c), 0);
  const keptShare = over > 0 && totalKeptRoom > 0 ? Math.min(1, over / totalKeptRoom) : 0;
  const fitted = keptShare > 0 ? shrunk.map((c) => {
    const give = Math.ceil(keptRoom(c) * keptShare);
    if (give <= 0) return c;
    width -= give;
    return { ...c, width: (c.width as number) - give };
  }) : shrunk;
  return { columns: keptFirst(fitted, kept), width };
}

/**
 * The first table column (it names the row), then the kept ones, then the rest, each in its order; the row actions
 * (fixed right) and the search-only columns stay where they are, and the search form keeps the definition's order
 * (`order`: the form puts higher first).
 */
function keptFirst<Rec>(columns: ProColumns<Rec>[], kept: (c: ProColumns<Rec>) => boolean): ProColumns<Rec>[] {
  const first = columns.find((c) => inTable(c) && !c.fixed);
  const movable = (c: ProColumns<Rec>) => inTable(c) && !c.fixed && c !== first;
  const moving = columns.filter(movable);
  const sequence = [...moving.filter(kept), ...moving.filter((c) => !kept(c))];
  // the search form follows the definition's order whatever the table's: each column keeps its weight
  const weight = new Map(columns.map((c, i) => [c, c.order ?? columns.length - i]));
  let next = 0;
  return columns.map((c) => {
    const placed = movable(c) ? sequence[next++]! : c;
    return { ...placed, order: weight.get(placed) };
  });
}

/**
 * Fills in the widths a screen's columns left out and returns the table's scroll width: the sum of
 * the column widths (the table still stretches to the page when that is narrower).
 */
export function sizeColumns<Rec>(columns: ProColumns<Rec>[], selectable: boolean): { columns: ProColumns<Rec>[]; width: number } {
  let width = selectable ? COLUMN_WIDTHS.selection : 0;
  const sized = columns.map((column) => {
    if (!inTable(column)) return column;
    // never narrower than its header, whole (a width set for the Chinese label may not hold the English one)
    const header = (column as { [FIT]?: ColumnFit })[FIT]?.min ?? 0;
    const w = Math.max(typeof column.width === 'number' ? column.width : COLUMN_WIDTHS.other, header);
    width += w;
    return column.width === w ? column : { ...column, width: w };
  });
  return { columns: sized, width };
}

/**
 * Sortable headers for the keyboard and screen readers: antd focuses them and sorts on Enter; Space
 * does the same here (instead of scrolling the page). antd names a sortable header (`aria-label`) after
 * its title only when the title is text, but ProTable wraps a text title in an element, which leaves
 * the name empty: a title given as a function returning the text reaches antd as text.
 */
export function withKeyboardSorting<Rec>(columns: ProColumns<Rec>[]): ProColumns<Rec>[] {
  return columns.map((column) => {
    if (!column.sorter) return column;
    const own = column.onHeaderCell;
    const title = column.title;
    return {
      ...column,
      ...(typeof title === 'string' ? { title: () => title } : {}),
      onHeaderCell: (col) => {
        const props = own?.(col) ?? {};
        return {
          ...props,
          onKeyDownCapture: (event: KeyboardEvent<HTMLElement>) => {
            if (event.key === ' ' && event.target === event.currentTarget) {
              event.preventDefault();
              event.currentTarget.click();
            }
          },
        };
      },
    };
  });
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
