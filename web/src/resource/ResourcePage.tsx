import { useAddedRow } from './list/useAddedRow';
import type { ActionType } from '@ant-design/pro-components';
import { ProProvider, ProTable } from '@ant-design/pro-components';
import { t as text, type Fields, type ResourceDef } from '@console/contract';
import { lazy, Suspense, useCallback, useContext, useMemo, useRef, useState, type Key, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Query } from '../api/client';
import { useLang } from '../i18n';
import { addMessages } from '../i18n/lazy';
import { listPageEn, listPageZh } from '../i18n/listPage';
import { usePermissionCheck } from '../store/permissions';
import { resourceApi } from './api';
import { fitColumns } from './columns';
import { useDefinitionLookup } from './definitionLookup';
import { useDicts } from './dict';
import { useFitBodyHeight } from './fitHeight';
import { useTableWidth } from './fitWidth';
import { useDynamicColumns } from './list/dynamicColumns';
import { withFixedValues } from './list/fixedValues';
import { ariaLabel, searchSettings, tableOptions, tableView, useKeyboardColumnSettings } from './list/listChrome';
import { listPagination } from './list/pagination';
import { loadImportExport, toolbarButtons, useImportExport } from './list/toolbar';
import { useFormDialog } from './list/useFormDialog';
import { useListColumns } from './list/useListColumns';
import { useListRequest } from './list/useListRequest';
import { DetailDrawer, OnceOpened, preloadOnDemandParts, ResourceFormModal, WithinDrawer } from './onDemand';
import { useRemoveRows } from './list/useRemoveRows';
import './listPage.css';
import { allowedButtons } from './permissions';
import { proIntl } from './proIntl';
import type { ColumnsOverride, FormOverride, ResourceRecord, RowActionContext, ToolbarContext } from './types';
import { useActionButtons } from './useActionButtons';
import type { WithinTarget } from './WithinDrawer';

addMessages('list', { zh: listPageZh, en: listPageEn });

export interface ResourcePageProps<F extends Fields> {
  /** the resource: its path, fields, permission code and standard buttons */
  def: ResourceDef<F>;
  /** fixed filters sent with every list call, e.g. `{ parentId_equal: id }` */
  params?: Query;
  /** patch, drop or add columns (see ColumnsOverride) */
  columnsOverride?: ColumnsOverride<ResourceRecord<F>>;
  /** replace form items, add items, map values in and out of the add/edit form */
  formOverride?: FormOverride<ResourceRecord<F>>;
  /** buttons appended to the toolbar (after add and batch delete) */
  extraToolbar?: (ctx: ToolbarContext<ResourceRecord<F>>) => ReactNode[];
  /** actions appended to each row (after view, edit and delete) */
  extraRowActions?: (record: ResourceRecord<F>, ctx: RowActionContext) => ReactNode[];
  /**
   * the table body scrolls inside the window, keeping the header and the pager in view (default true);
   * false for a list that is not the page's main content (in a dialog, under another list)
   */
  fitWindow?: boolean;
  /** the path of the list call when it is not `{path}/list` (a tree's `parent-list` / `child-list`) */
  listPath?: string;
  /**
   * fields fixed by the screen (the parent row of a `within` list): sent with every list call, set on
   * every create, and neither shown as columns nor asked for in the search form and the add/edit form
   */
  fixed?: Record<string, string>;
  /** after a successful add or edit, with the server's answer (a create may answer a value shown once) */
  onSaved?: (answer: unknown, mode: 'create' | 'edit') => void;
  /** the list's title when not the definition's (a dictionary's items name the dictionary) */
  title?: string;
  /** the add button's and the add form's title when not 新增 (新建升级任务) */
  addLabel?: string;
  /**
   * reloads the list every so many milliseconds (at least 2000) while set, each reload after the last one
   * answered (a live view); unset stops it
   */
  polling?: number;
}

const ImportDialog = lazy(async () => ({ default: (await loadImportExport()).ImportDialog }));

/** A sub-resource's list in the within drawer: this page again, fixed to the parent row. */
function withinList(def: ResourceDef, fixed: Record<string, string>) {
  return <ResourcePage def={def} fixed={fixed} fitWindow={false} />;
}

/** The page's state and parts, each from its own hook: the list call, the columns, the toolbar, the dialogs. */
function useResourceList<F extends Fields>(props: ResourcePageProps<F>) {
  type Rec = ResourceRecord<F>;
  const { def, params: screenParams, formOverride: screenForm, listPath, fixed } = props;
  const params = useMemo(() => (fixed ? { ...screenParams, ...fixed } : screenParams), [screenParams, fixed]);
  const formOverride = useMemo(() => withFixedValues(screenForm, fixed), [screenForm, fixed]);
  // the resources worked on within this one's rows (a factory's stations), from the caller: a row action each
  const lookup = useDefinitionLookup();
  const withinDefs = useMemo(() => lookup.within(def.code), [lookup, def]);
  const [within, setWithin] = useState<WithinTarget | null>(null);
  const dynamicColumns = useDynamicColumns<Rec>(def, params);
  const dicts = useDicts(def);
  const can = usePermissionCheck();
  const allowed = useMemo(() => allowedButtons(def, can), [def, can]);
  const api = useMemo(() => resourceApi<Rec>(def, listPath), [def, listPath]);
  const actionRef = useRef<ActionType>(undefined);
  const [selected, setSelected] = useState<Rec[]>([]);
  const [detailId, setDetailId] = useState<string | null>(null);
  // a tree resource: the table shows the rows as a tree (unpaged and nested, or loaded level by level)
  // a screen that names its own list call (a tree's parent-list / child-list) shows a plain paged list
  const tree = listPath ? undefined : def.tree;
  const list = useListRequest<Rec>(api, tree, actionRef);
  const io = useImportExport(def, can, list.lastQuery);
  const reload = useCallback(() => void actionRef.current?.reload(), []);
  // the menu's buttons that call an action of the definition (publish, sync…), for who holds them
  const { ui: actions, dialog: actionDialog } = useActionButtons<Rec>(def, reload);
  const clearSelection = useCallback(() => setSelected([]), []);
  const closeDetail = useCallback(() => setDetailId(null), []);
  // what was done inside may change the parent row (a reply moves a feedback to replied): read the page again
  const closeWithin = useCallback(() => {
    setWithin(null);
    reload();
  }, [reload]);
  const formDialog = useFormDialog();
  const { confirmRemove, removeSelected } = useRemoveRows<Rec>(def, api, reload, setSelected);
  const handlers = useMemo(
    () => ({ view: setDetailId, openForm: formDialog.openForm, remove: confirmRemove, openWithin: setWithin, reload }),
    [formDialog.openForm, confirmRemove, reload],
  );
  const columns = useListColumns<Rec>({
    def, tree, dicts, allowed, fixed, dynamicColumns, withinDefs, actions, handlers,
    extraRowActions: props.extraRowActions, columnsOverride: props.columnsOverride,
  });
  return {
    params, formOverride, withinDefs, within, closeWithin, dicts, allowed, actionRef, selected, setSelected, detailId, closeDetail,
    tree, list, io, reload, actions, actionDialog, clearSelection, formDialog, removeSelected: () => removeSelected(selected), columns,
  };
}

/**
 * The generic list page of a resource, rendered from its definition: search form, sortable paged
 * table with multi-select, add/edit modal, detail drawer, delete and batch delete with confirmation,
 * and buttons shown by permission. Screens customise it through the props, not by copying it.
 */
export function ResourcePage<F extends Fields>(props: ResourcePageProps<F>) {
  type Rec = ResourceRecord<F>;
  const { def, fitWindow = true, onSaved, polling } = props;
  const page = useResourceList(props);
  const { list, tree, formDialog } = page;
  const lang = useLang();
  const { t } = useTranslation();
  const rootRef = useRef<HTMLDivElement>(null);
  const bodyHeight = useFitBodyHeight(rootRef, fitWindow);
  const onSettingsClick = useKeyboardColumnSettings(rootRef);
  // ProComponents' popups (column settings, density) in the console's words (i18n `list.pro`)
  const proContext = useContext(ProProvider);
  const proValue = useMemo(() => ({ ...proContext, intl: proIntl(lang) }), [proContext, lang]);
  const tableWidth = useTableWidth(rootRef);
  // at a laptop's width the decisive columns keep theirs and stay in view; the others give way first
  const sized = useMemo(() => fitColumns(page.columns, true, tableWidth), [page.columns, tableWidth]);
  const hasSearch = page.columns.some((c) => !c.hideInSearch && c.valueType !== 'option');
  const { form } = formDialog;
  const added = useAddedRow(tree, list.setExpanded, rootRef);

  return (
    <div ref={rootRef} className="resource-page" data-testid="resource-page" data-resource={def.code}>
      <ProProvider.Provider value={proValue}>
        <ProTable<Rec, Query>
          rowKey="id"
          actionRef={page.actionRef}
          headerTitle={props.title ?? text(def.title, lang)}
          columns={sized.columns}
          params={page.params}
          request={list.request}
          // ProTable waits for each answer before it sets the next timer: no overlapping reloads
          polling={polling}
          dateFormatter="string"
          tableLayout="fixed"
          // the body scrolls inside the window: the header and the pager stay in view
          scroll={fitWindow ? { x: sized.width, y: bodyHeight } : { x: sized.width }}
          pagination={list.unpagedTree ? false : listPagination(t, lang, list.totalExact, tableWidth)}
          {...(tree && !list.unpagedTree ? { dataSource: list.lazyRows, onDataSourceChange: list.setLazyRows } : {})}
          rowClassName={added.rowClassName}
          onLoad={() => {
            added.onLoad();
            preloadOnDemandParts();
          }}
          expandable={tree ? { expandedRowKeys: list.expanded as Key[], onExpandedRowsChange: (keys) => list.setExpanded([...keys]), onExpand: list.onExpand } : undefined}
          rowSelection={{
            selectedRowKeys: page.selected.map((row) => row.id),
            onChange: (_keys, rows) => page.setSelected(rows.filter((row): row is Rec => row !== undefined)),
            // antd names the header checkbox "Select all" in any language, and the rows' not at all
            getTitleCheckboxProps: () => ariaLabel(t('list.selectAll')),
            getCheckboxProps: () => ariaLabel(t('list.selectRow')),
          }}
          form={{ name: 'search' }}
          search={searchSettings(hasSearch)}
          options={tableOptions(t, onSettingsClick)}
          toolBarRender={() => toolbarButtons<Rec>({ ...page, openForm: formDialog.openForm, addLabel: props.addLabel, extraToolbar: props.extraToolbar }, t)}
          tableViewRender={tableView}
        />
        {form && (
          <Suspense fallback={null}>
            <ResourceFormModal<Rec>
              key={form.seq}
              def={def}
              target={form.target}
              open={form.open}
              dicts={page.dicts}
              override={page.formOverride}
              onClose={formDialog.closeForm}
              afterClose={formDialog.forgetForm}
              onSaved={(answer) => {
                if (form.target.mode === 'create') added.onCreated(answer);
                page.reload();
                onSaved?.(answer, form.target.mode);
              }}
            />
          </Suspense>
        )}
        {page.actionDialog}
        <OnceOpened open={page.detailId !== null}>
          <DetailDrawer def={def} id={page.detailId} onClose={page.closeDetail} />
        </OnceOpened>
        <OnceOpened open={page.within !== null}>
          <WithinDrawer target={page.within} onClose={page.closeWithin} list={withinList} />
        </OnceOpened>
        {page.io.importOpen && (
          <Suspense fallback={null}>
            <ImportDialog def={def} open={page.io.importOpen} onClose={() => page.io.setImportOpen(false)} onImported={page.reload} />
          </Suspense>
        )}
      </ProProvider.Provider>
    </div>
  );
}
