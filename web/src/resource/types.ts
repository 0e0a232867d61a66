import type { FieldDef, FieldType, Fields, Lang, ResourceDef } from '@console/contract';
import type { ProColumns } from '@ant-design/pro-components';
import type { ReactNode } from 'react';
import type { DictMap } from './dictValues';

/**
 * The wire type of a field: numbers for int/number, boolean (0/1) and money (minor units), strings for everything else: ids,
 * references, comma-joined id lists ('1,2'), dates ('yyyy-MM-dd'), datetimes and file links.
 */
export type WireValue<T extends FieldType> = T extends 'int' | 'number' | 'boolean' | 'money' ? number : string;

/** One record of a resource as list/detail answer it. */
export type ResourceRecord<F extends Fields = Fields> = {
  id: string;
  createTime?: string | null;
  updateTime?: string | null;
  /** a tree resource's row: whether it has children (lists and lazy lists) */
  hasChildren?: boolean;
  /** a tree resource's unpaged list nests the rows; the tree table keeps loaded children here */
  children?: ResourceRecord<F>[];
} & { [K in keyof F]?: WireValue<F[K]['type']> | null };

export type FormMode = 'create' | 'edit';

/** What the form opens for: a new record (with `preset` values, e.g. the parent of "add child") or an edit. */
export type FormTarget = { mode: 'create'; preset?: Record<string, unknown> } | { mode: 'edit'; id: string };

/** What column and form customisations get to work with. */
export interface RenderContext {
  lang: Lang;
  dicts: DictMap;
}

/**
 * Column customisation: either a patch per column key (a field name, `<field>_range` for a date-range
 * search, `option` for the row actions; `false` drops the column) or a function over the whole list.
 */
export type ColumnsOverride<Rec> =
  | Partial<Record<string, Partial<ProColumns<Rec>> | false>>
  | ((columns: ProColumns<Rec>[], ctx: RenderContext) => ProColumns<Rec>[]);

export interface FormFieldContext extends RenderContext {
  name: string;
  field: FieldDef;
  mode: FormMode;
  /** the resource of the form (a tree's parent field picks from its own tree) */
  def?: ResourceDef;
  /** the record being edited, once loaded: `<field>Name` labels the current reference */
  record?: Record<string, unknown>;
}

export interface FormContext<Rec> {
  mode: FormMode;
  /** the record being edited (its detail answer) */
  record?: Rec;
}

/** Add/edit form customisation. */
export interface FormOverride<Rec> {
  /** replaces the generated item of a field; `false` drops it */
  fields?: Partial<Record<string, ((ctx: FormFieldContext) => ReactNode) | false>>;
  /** items appended after the generated ones */
  extra?: (ctx: FormContext<Rec>) => ReactNode;
  /** the edited record → the form's values (default: the record itself) */
  toForm?: (record: Rec) => Record<string, unknown>;
  /** the form's values → the submit body (the id is added for edits) */
  toSubmit?: (values: Record<string, unknown>, ctx: FormContext<Rec>) => Record<string, unknown>;
  /** the title of the add form (default 新增) */
  createTitle?: string;
  /** modal width (default 720) */
  width?: number;
}

export interface ToolbarContext<Rec> {
  selectedRows: readonly Rec[];
  reload: () => void;
  clearSelection: () => void;
}

export interface RowActionContext {
  reload: () => void;
}
