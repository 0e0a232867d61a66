import type { ProColumns } from '@ant-design/pro-components';
import { nameFieldOf, rowMeets, t as text, type Lang, type ResourceDef } from '@console/contract';
import { Button } from 'antd';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLang } from '../../i18n';
import { applyColumnsOverride, buildColumns, withKeyboardSorting } from '../columns';
import type { DictMap } from '../dictValues';
import type { AllowedButtons } from '../permissions';
import type { ColumnsOverride, FormTarget, ResourceRecord, RowActionContext } from '../types';
import type { ActionButtonsUi } from '../useActionButtons';
import type { WithinTarget } from '../WithinDrawer';
import { actionColumnWidth, inlineRank, rowActionButtons } from './rowActions';

/** What the row actions do: open the detail, the form, the sub-resource drawer; remove rows. */
export interface RowHandlers {
  view: (id: string) => void;
  openForm: (target: FormTarget) => void;
  remove: (ids: string[]) => void;
  openWithin: (target: WithinTarget) => void;
  reload: () => void;
}

export interface ListColumnsInput<Rec> {
  def: ResourceDef;
  tree: ResourceDef['tree'];
  dicts: DictMap;
  allowed: AllowedButtons;
  /** fields fixed by the screen: not shown */
  fixed: Record<string, string> | undefined;
  dynamicColumns: ProColumns<Rec>[];
  withinDefs: readonly ResourceDef[];
  actions: ActionButtonsUi<Rec>;
  extraRowActions: ((record: Rec, ctx: RowActionContext) => ReactNode[]) | undefined;
  columnsOverride: ColumnsOverride<Rec> | undefined;
  handlers: RowHandlers;
}

/**
 * `t` as a plain lookup in this module's helpers: the typed `t` (every key of every bundle) passed as a parameter
 * reaches TypeScript's instantiation depth limit; the hook below checks the keys it passes as literals
 */
type Translate = (key: string) => string;

/** The standard buttons of a row: view, edit, delete, add child (a tree), one per sub-resource. */
function standardRowButtons<Rec extends ResourceRecord>(input: ListColumnsInput<Rec>, record: Rec, t: Translate, lang: Lang): ReactNode[] {
  const { def, tree, allowed, withinDefs, handlers } = input;
  return [
    allowed.view && (
      <Button key="view" type="link" size="small" data-testid="resource-row-view" onClick={() => handlers.view(record.id)}>
        {t('resource.view')}
      </Button>
    ),
    allowed.edit && rowMeets(def.rowButtons?.edit, record) && (
      <Button key="edit" type="link" size="small" data-testid="resource-row-edit" onClick={() => handlers.openForm({ mode: 'edit', id: record.id })}>
        {t('resource.edit')}
      </Button>
    ),
    allowed.delete && rowMeets(def.rowButtons?.delete, record) && (
      <Button key="delete" type="link" size="small" danger data-testid="resource-row-delete" onClick={() => handlers.remove([record.id])}>
        {t('resource.delete')}
      </Button>
    ),
    tree && allowed.add && (
      <Button key="add-child" type="link" size="small" data-testid="resource-row-add-child" onClick={() => handlers.openForm({ mode: 'create', preset: { [tree.parentField]: record.id } })}>
        {t('resource.addChild')}
      </Button>
    ),
    ...withinDefs.map((d) => (
      <Button key={`within-${d.code}`} type="link" size="small" data-testid={`resource-row-within-${d.code}`}
        onClick={() => handlers.openWithin({ def: d, parentId: record.id, parentName: String(record[nameFieldOf(def) as keyof Rec] ?? record.id) })}>
        {text(d.title, lang)}
      </Button>
    )),
  ];
}

/** The actions column, or none when the user may do nothing with a row. */
function actionColumn<Rec extends ResourceRecord>(input: ListColumnsInput<Rec>, t: Translate, lang: Lang): ProColumns<Rec> | undefined {
  const { allowed, withinDefs, actions, extraRowActions, handlers } = input;
  const rowActions = actions.buttons.row;
  const hasActions = allowed.view || allowed.edit || allowed.delete || extraRowActions !== undefined || withinDefs.length > 0 || rowActions.length > 0;
  if (!hasActions) return undefined;
  const header = t('resource.actions');
  return {
    title: header,
    key: 'option',
    valueType: 'option',
    fixed: 'right',
    width: actionColumnWidth(
      labelsInline(input, t, lang),
      header,
      t('resource.more'),
    ),
    render: (_dom, record) => rowActionButtons([
      ...standardRowButtons(input, record, t, lang),
      ...actions.rowButtons(record),
      ...(extraRowActions?.(record, { reload: handlers.reload }) ?? []),
    ], t('resource.more')),
  };
}

/**
 * The labels of the buttons a row may show, in the order a crowded row keeps them inline (a screen's own buttons
 * unknown: two of them counted).
 */
function labelsInline<Rec extends ResourceRecord>(input: ListColumnsInput<Rec>, t: Translate, lang: Lang): (string | null)[] {
  const { tree, allowed, withinDefs, actions, extraRowActions } = input;
  const labelled = (key: string, label: string) => ({ key, label });
  const all = [
    allowed.view && labelled('view', t('resource.view')),
    allowed.edit && labelled('edit', t('resource.edit')),
    allowed.delete && labelled('delete', t('resource.delete')),
    tree !== undefined && allowed.add && labelled('add-child', t('resource.addChild')),
    ...withinDefs.map((d) => labelled(`within-${d.code}`, text(d.title, lang))),
    ...actions.buttons.row.map((b) => labelled(`action-${b.button.code}`, text(b.button.name, lang))),
    ...(extraRowActions ? [labelled('extra-1', ''), labelled('extra-2', '')] : []),
  ].filter((x): x is { key: string; label: string } => x !== false);
  return all
    .map((x, i) => ({ ...x, i, r: inlineRank(x.key) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => (x.key.startsWith('extra-') ? null : x.label));
}

/** The list's columns: the definition's (less the fixed fields), the dynamic ones, the actions; then the screen's override. */
export function useListColumns<Rec extends ResourceRecord>(input: ListColumnsInput<Rec>): ProColumns<Rec>[] {
  const lang = useLang();
  const { t } = useTranslation();
  const { def, dicts, fixed, dynamicColumns, columnsOverride } = input;
  return useMemo(() => {
    const ctx = { lang, dicts };
    const generated = buildColumns<Rec>(def, ctx, { rangeStart: t('resource.rangeStart'), rangeEnd: t('resource.rangeEnd'), yes: t('resource.yes'), no: t('resource.no'), refDeleted: t('resource.refDeleted') })
      .filter((c) => !fixed || !Object.hasOwn(fixed, String(c.dataIndex ?? c.key)));
    generated.push(...dynamicColumns);
    const actions = actionColumn(input, t as unknown as Translate, lang);
    if (actions) generated.push(actions);
    return withKeyboardSorting(applyColumnsOverride(generated, columnsOverride, ctx));
    // the input's parts are the dependencies (the object itself is new on every render)
  }, [def, input.tree, lang, dicts, t, input.allowed, input.extraRowActions, columnsOverride, input.handlers, fixed, input.withinDefs, dynamicColumns, input.actions]);
}
