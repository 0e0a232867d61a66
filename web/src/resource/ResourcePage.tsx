import { ColumnHeightOutlined, DeleteOutlined, DownloadOutlined, DownOutlined, PlusOutlined, ReloadOutlined, SettingOutlined, UploadOutlined } from '@ant-design/icons';
import type { Key } from 'react';
import { type DynamicColumn, nameFieldOf, PAGE_SIZES, t as text, type Fields, type ResourceDef } from '@console/contract';
import { ioRoutes } from '@console/contract/io';
import { ProProvider, ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Pagination, type PaginationProps } from 'antd';
import { cloneElement, isValidElement, lazy, Suspense, useCallback, useContext, useEffect, useMemo, useRef, useState, type MouseEvent, type ReactElement, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { request, type Query } from '../api/client';
import { useLang } from '../i18n';
import { usePermissionCheck } from '../store/permissions';
import { resourceApi, resourceKeys } from './api';
import { applyColumnsOverride, buildColumns, sizeColumns, textWidth, withKeyboardSorting } from './columns';
import { DetailDrawer } from './DetailDrawer';
import { useFitBodyHeight } from './fitHeight';
import './listPage.css';
import { proIntl } from './proIntl';
import { useDicts } from './dict';
import { buildListQuery, DEFAULT_PAGE_SIZE, type SortState, type TableParams } from './listQuery';
import { allowedButtons } from './permissions';
import { ResourceFormModal, type FormTarget } from './ResourceFormModal';
import { testId } from '../testId';
import { childrenPending, insertChildren, isSearching, parentIds, reopen, treeIds, withoutPaging, withPlaceholders } from './treeRows';
import type { ColumnsOverride, FormOverride, ResourceRecord, RowActionContext, ToolbarContext } from './types';
import { useDefinitionLookup } from './definitionLookup';
import { WithinDrawer, type WithinTarget } from './WithinDrawer';
import { useActionButtons } from './useActionButtons';
import { addMessages } from '../i18n/lazy';
import { listPageEn, listPageZh } from '../i18n/listPage';

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
  /** the add button's and the add form's title when not 新增 (新建升级任务) */
  addLabel?: string;
  /**
   * reloads the list every so many milliseconds (at least 2000) while set, each reload after the last one
   * answered (a live view); unset stops it
   */
  polling?: number;
}

interface FormState {
  target: FormTarget;
  open: boolean;
  /** one per opening: the modal remounts with a fresh form */
  seq: number;
}

// export / import (def.io): loaded when first used
const loadImportExport = () => import('./ImportExport');
const ImportDialog = lazy(async () => ({ default: (await loadImportExport()).ImportDialog }));

const SEARCH_BUTTON_TEST_IDS: Record<string, string> = { rest: 'resource-search-reset', submit: 'resource-search-submit' };

/** Tags ProTable's search buttons (keyed `rest` and `submit` by ProForm) for tests. */
function tagSearchButtons(dom: ReactNode[]): ReactNode[] {
  return dom.map((node) => {
    if (!isValidElement(node) || node.key === null) return node;
    const id = SEARCH_BUTTON_TEST_IDS[node.key];
    return id ? cloneElement(node as ReactElement<{ 'data-testid'?: string }>, { 'data-testid': id }) : node;
  });
}

/**
 * An icon button of the table toolbar: reachable with Tab, pressed with Enter or Space, named for
 * screen readers in the UI language (ProTable's own are bare icons in spans).
 */
function ToolbarIconButton({ label, icon, testid, ...rest }: { label: string; icon: ReactNode; testid: string; onClick?: (e: MouseEvent) => void }) {
  return <Button type="text" size="small" className="resource-toolbar-btn" icon={icon} aria-label={label} data-testid={testid} {...rest} />;
}

/**
 * The search form's 展开/收起 toggle as a button: ProForm renders it as an `<a>` without href, which Tab
 * skips; the button inside takes the focus and its click reaches the link.
 */
function collapseToggle(collapsed: boolean, intl: { getMessage: (id: string, fallback: string) => string }, hiddenNum?: number | false) {
  return (
    <button type="button" className="resource-search-toggle" aria-expanded={!collapsed} data-testid="resource-search-toggle">
      {collapsed ? `${intl.getMessage('tableForm.collapsed', '展开')}${hiddenNum ? `(${hiddenNum})` : ''}` : intl.getMessage('tableForm.expand', '收起')}
      <DownOutlined style={{ marginInlineStart: '0.5em', transform: `rotate(${collapsed ? 0 : 0.5}turn)` }} />
    </button>
  );
}

/** An aria-label for antd props objects that do not declare aria attributes (checkbox props). */
function ariaLabel(label: string): object {
  return { 'aria-label': label };
}

const SETTINGS_OVERLAY = '.ant-pro-table-column-setting-overlay';

/**
 * The column settings open in a popup at the end of the document, out of the Tab order: opened from
 * the keyboard (a click without a pointer), focus moves to its first checkbox; Escape there closes it
 * and returns to the button.
 */
function useKeyboardColumnSettings(rootRef: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || !(event.target instanceof Element) || !event.target.closest(SETTINGS_OVERLAY)) return;
      const button = rootRef.current?.querySelector<HTMLElement>('[data-testid="resource-settings"]');
      if (!button) return;
      button.click();
      button.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [rootRef]);
  return useCallback((event: MouseEvent) => {
    if (event.detail !== 0) return; // a pointer click
    let frames = 0;
    const focusFirst = () => {
      const box = document.querySelector<HTMLElement>(`${SETTINGS_OVERLAY}:not(.ant-popover-hidden) input[type="checkbox"]`);
      if (box) box.focus();
      else if (++frames < 30) requestAnimationFrame(focusFirst);
    };
    requestAnimationFrame(focusFirst);
  }, []);
}

/** The actions column fits its link buttons (a screen with extra row actions gets room for two more). */
/**
 * The columns of a definition's `dynamicColumns` for the list's parameters named in its `by` (a batch's
 * devices: its product type's attributes), each reading `<field>.<key>`; none until a `by` parameter is set.
 */
function useDynamicColumns<Rec>(def: ResourceDef, params: Query | undefined): ProColumns<Rec>[] {
  const spec = def.dynamicColumns;
  const by = useMemo(() => {
    if (!spec || !params) return undefined;
    const picked = Object.fromEntries(spec.by.filter((k) => params[k] !== undefined && params[k] !== '').map((k) => [k, params[k]]));
    return Object.keys(picked).length ? picked : undefined;
  }, [spec, params]);
  const found = useQuery({
    queryKey: [...resourceKeys.all(def.path), 'dynamic-columns', by ?? {}],
    queryFn: () => request<DynamicColumn[]>(spec!.path, { query: by, silent: true }),
    enabled: by !== undefined,
  });
  return useMemo(() => (found.data ?? []).map((c) => ({
    title: c.label,
    key: `${spec!.field}.${c.key}`,
    dataIndex: [spec!.field, c.key],
    width: Math.max(110, textWidth(c.label) + 40),
    hideInSearch: true,
    ellipsis: true,
    render: (_dom: ReactNode, rec: Rec) => {
      const v = ((rec as Record<string, unknown>)[spec!.field] as Record<string, unknown> | null | undefined)?.[c.key];
      return v === undefined || v === null || v === '' ? '-' : String(v);
    },
  })), [found.data, spec]);
}

/** A form override that also keeps the screen's fixed fields out of the form and sets them on create. */
function withFixedValues<Rec>(override: FormOverride<Rec> | undefined, fixed: Record<string, string> | undefined): FormOverride<Rec> | undefined {
  if (!fixed) return override;
  const hidden = Object.fromEntries(Object.keys(fixed).map((name) => [name, false as const]));
  return {
    ...override,
    fields: { ...override?.fields, ...hidden },
    toSubmit: (values, ctx) => {
      const body = override?.toSubmit ? override.toSubmit(values, ctx) : values;
      return ctx.mode === 'create' ? { ...body, ...fixed } : body;
    },
  };
}

/** A sub-resource's list in the within drawer: this page again, fixed to the parent row. */
function withinList(def: ResourceDef, fixed: Record<string, string>) {
  return <ResourcePage def={def} fixed={fixed} fitWindow={false} />;
}

function actionColumnWidth(labels: (string | false)[], extra: boolean): number {
  const buttons = labels.filter((l): l is string => l !== false).map((l) => textWidth(l) + 16);
  if (extra) buttons.push(80, 80);
  return Math.max(textWidth('操作') + 32, buttons.reduce((sum, w) => sum + w, 0) + 8 * Math.max(0, buttons.length - 1) + 32);
}

/**
 * The generic list page of a resource, rendered from its definition: search form, sortable paged
 * table with multi-select, add/edit modal, detail drawer, delete and batch delete with confirmation,
 * and buttons shown by permission. Screens customise it through the props, not by copying it.
 */
export function ResourcePage<F extends Fields>(props: ResourcePageProps<F>) {
  type Rec = ResourceRecord<F>;
  const { def, params: screenParams, columnsOverride, formOverride: screenForm, extraToolbar, extraRowActions, fitWindow = true, listPath, onSaved, fixed, addLabel, polling } = props;
  const params = useMemo(() => (fixed ? { ...screenParams, ...fixed } : screenParams), [screenParams, fixed]);
  const formOverride = useMemo(() => withFixedValues(screenForm, fixed), [screenForm, fixed]);
  // the resources worked on within this one's rows (a factory's stations), from the caller: a row action each
  const lookup = useDefinitionLookup();
  const withinDefs = useMemo(() => lookup.within(def.code), [lookup, def]);
  const [within, setWithin] = useState<WithinTarget | null>(null);
  const dynamicColumns = useDynamicColumns<Rec>(def, params);
  const closeWithin = useCallback(() => setWithin(null), []);
  const lang = useLang();
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const dicts = useDicts(def);
  const can = usePermissionCheck();
  const allowed = useMemo(() => allowedButtons(def, can), [def, can]);
  const api = useMemo(() => resourceApi<Rec>(def, listPath), [def, listPath]);
  const actionRef = useRef<ActionType>(undefined);
  const formSeq = useRef(0);
  const [selected, setSelected] = useState<Rec[]>([]);
  const [form, setForm] = useState<FormState | null>(null);
  const [detailId, setDetailId] = useState<string | null>(null);
  // the server estimates the totals of very large lists; the pager then says "about"
  const [totalExact, setTotalExact] = useState(true);
  // export / import, when the definition declares them and the user holds their codes
  const io = useMemo(() => ioRoutes(def), [def]);
  const canExport = io.export !== undefined && can(io.export.permission);
  const canImport = io.import !== undefined && can(io.import.permission);
  const lastQuery = useRef<Query>({});
  const [importOpen, setImportOpen] = useState(false);
  const [exporting, setExporting] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const bodyHeight = useFitBodyHeight(rootRef, fitWindow);
  const onSettingsClick = useKeyboardColumnSettings(rootRef);
  // ProComponents' popups (column settings, density) in the console's words (i18n `list.pro`)
  const proContext = useContext(ProProvider);
  const proValue = useMemo(() => ({ ...proContext, intl: proIntl(lang) }), [proContext, lang]);

  // a tree resource: the table shows the rows as a tree (unpaged and nested, or loaded level by level)
  // a screen that names its own list call (a tree's parent-list / child-list) shows a plain paged list
  const tree = listPath ? undefined : def.tree;
  const unpagedTree = tree?.unpagedList === true;
  const [expanded, setExpanded] = useState<readonly Key[]>([]);
  const expandedRef = useRef<ReadonlySet<string>>(new Set());
  expandedRef.current = new Set(expanded.map(String));
  const treeOpened = useRef(false);
  // a lazy tree's rows are held here (ProTable's own state has no setter outside): loaded children go in
  const [lazyRows, setLazyRows] = useState<Rec[]>([]);

  const reload = useCallback(() => void actionRef.current?.reload(), []);
  // the menu's buttons that call an action of the definition (publish, sync…), for who holds them
  const actions = useActionButtons<Rec>(def, reload);
  const clearSelection = useCallback(() => setSelected([]), []);
  const closeDetail = useCallback(() => setDetailId(null), []);

  const openForm = useCallback((target: FormTarget) => {
    formSeq.current += 1;
    setForm({ target, open: true, seq: formSeq.current });
  }, []);

  const confirmRemove = useCallback(
    (ids: string[]) => {
      modal.confirm({
        // not 提示/Notice: on the Notices screen that reads as the screen's own name
        title: t('list.deleteTitle'),
        content: t('resource.deleteConfirm'),
        okText: t('common.ok'),
        cancelText: t('common.cancel'),
        okButtonProps: testId('confirm-ok'),
        cancelButtonProps: testId('confirm-cancel'),
        onOk: () =>
          api.remove(ids).then(
            () => {
              void message.success(t('resource.deleted'));
              void queryClient.invalidateQueries({ queryKey: resourceKeys.all(def.path) });
              setSelected((rows) => rows.filter((row) => !ids.includes(row.id)));
              reload();
            },
            // the client has shown the failure; close the dialog
            () => undefined,
          ),
      });
    },
    [api, def.path, message, modal, queryClient, reload, t],
  );

  const removeSelected = () => {
    if (selected.length === 0) {
      void message.warning(t('resource.selectAtLeastOne'));
      return;
    }
    confirmRemove(selected.map((row) => row.id));
  };

  const pagedRequest = useCallback(
    async (query: Query, list: (q: Query) => Promise<{ records: Rec[]; total: number; totalExact?: boolean }>) => {
      const page = await list(query);
      const current = Number(query.current);
      const last = Math.max(1, Math.ceil(page.total / Number(query.size)));
      if (page.records.length === 0 && current > 1 && current > last) {
        // The page shown became empty (its rows were deleted here or elsewhere): show the last page
        // instead. Changing ProTable's page makes it request that page; `success: false` keeps the
        // rows on screen meanwhile instead of flashing "no data".
        actionRef.current?.setPageInfo?.({ current: last });
        return { data: [], total: page.total, success: false };
      }
      setTotalExact(page.totalExact !== false);
      return { data: page.records, total: page.total, success: true };
    },
    [],
  );

  /** A tree's rows: the whole matching tree (unpaged), or the roots (paged) / every level's matches (a search), lazily opened. */
  const treeRequest = useCallback(
    async (query: Query) => {
      if (unpagedTree) {
        const rows = await api.treeList(withoutPaging(query));
        // the first level opens with the first load; after that the tree keeps what the user opened
        if (!treeOpened.current) {
          treeOpened.current = true;
          setExpanded(parentIds(rows));
        }
        return { data: rows, total: rows.length, success: true };
      }
      const loadChildren = (parentId: string) => api.lazyList(parentId);
      // a search looks through every level at once (lazy-list); browsing pages through the roots
      const first = isSearching(query)
        ? await api.lazyList('0', withoutPaging(query)).then((records) => ({ records, total: records.length }))
        : await api.parentList(query);
      const rows = await reopen(withPlaceholders(first.records), expandedRef.current, loadChildren);
      const known = treeIds(rows);
      setExpanded((keys) => keys.filter((key) => known.has(String(key))));
      return pagedRequest(query, async () => ({ ...first, records: rows }));
    },
    [api, unpagedTree, pagedRequest],
  );

  const request = useCallback(
    async (tableParams: TableParams, sort: SortState) => {
      try {
        const query = buildListQuery(tableParams, sort);
        lastQuery.current = query;
        return tree ? await treeRequest(query) : await pagedRequest(query, api.list);
      } catch {
        return { data: [], total: 0, success: false };
      }
    },
    [api, tree, treeRequest, pagedRequest],
  );

  /** A lazy tree's row opened for the first time: its children load from lazy-list. */
  const onExpand = useCallback(
    (open: boolean, record: Rec) => {
      if (!open || unpagedTree || !childrenPending(record)) return;
      api.lazyList(record.id).then(
        (children) => setLazyRows((rows) => insertChildren(rows, record.id, withPlaceholders(children))),
        () => setExpanded((keys) => keys.filter((key) => key !== record.id)),
      );
    },
    [api, unpagedTree],
  );

  const columns = useMemo(() => {
    const ctx = { lang, dicts };
    const generated = buildColumns<Rec>(def, ctx, { rangeStart: t('resource.rangeStart'), rangeEnd: t('resource.rangeEnd'), yes: t('resource.yes'), no: t('resource.no') })
      .filter((c) => !fixed || !Object.hasOwn(fixed, String(c.dataIndex ?? c.key)));
    generated.push(...dynamicColumns);
    const rowActions = actions.buttons.row;
    const hasActions = allowed.view || allowed.edit || allowed.delete || extraRowActions !== undefined || withinDefs.length > 0 || rowActions.length > 0;
    if (hasActions) {
      const actionColumn: ProColumns<Rec> = {
        title: t('resource.actions'),
        key: 'option',
        valueType: 'option',
        fixed: 'right',
        width: actionColumnWidth(
          [
            allowed.view && t('resource.view'),
            allowed.edit && t('resource.edit'),
            allowed.delete && t('resource.delete'),
            tree !== undefined && allowed.add && t('resource.addChild'),
            ...withinDefs.map((d) => text(d.title, lang)),
            ...rowActions.map((b) => text(b.button.name, lang)),
          ],
          extraRowActions !== undefined,
        ),
        render: (_dom, record) => [
          allowed.view && (
            <Button key="view" type="link" size="small" data-testid="resource-row-view" onClick={() => setDetailId(record.id)}>
              {t('resource.view')}
            </Button>
          ),
          allowed.edit && (
            <Button key="edit" type="link" size="small" data-testid="resource-row-edit" onClick={() => openForm({ mode: 'edit', id: record.id })}>
              {t('resource.edit')}
            </Button>
          ),
          allowed.delete && (
            <Button key="delete" type="link" size="small" danger data-testid="resource-row-delete" onClick={() => confirmRemove([record.id])}>
              {t('resource.delete')}
            </Button>
          ),
          tree && allowed.add && (
            <Button key="add-child" type="link" size="small" data-testid="resource-row-add-child" onClick={() => openForm({ mode: 'create', preset: { [tree.parentField]: record.id } })}>
              {t('resource.addChild')}
            </Button>
          ),
          ...withinDefs.map((d) => (
            <Button key={`within-${d.code}`} type="link" size="small" data-testid={`resource-row-within-${d.code}`}
              onClick={() => setWithin({ def: d, parentId: record.id, parentName: String(record[nameFieldOf(def) as keyof Rec] ?? record.id) })}>
              {text(d.title, lang)}
            </Button>
          )),
          ...actions.rowButtons(record),
          ...(extraRowActions?.(record, { reload }) ?? []),
        ].filter(Boolean),
      };
      generated.push(actionColumn);
    }
    return withKeyboardSorting(applyColumnsOverride(generated, columnsOverride, ctx));
  }, [def, tree, lang, dicts, t, allowed, extraRowActions, columnsOverride, reload, openForm, confirmRemove, fixed, withinDefs, dynamicColumns, actions]);
  const sized = useMemo(() => sizeColumns(columns, true), [columns]);

  const hasSearch = columns.some((c) => !c.hideInSearch && c.valueType !== 'option');

  const locale = lang === 'zh' ? 'zh-CN' : 'en-US';
  const pagination: PaginationProps = {
    defaultPageSize: DEFAULT_PAGE_SIZE,
    pageSizeOptions: PAGE_SIZES.map(String),
    showSizeChanger: true,
    // Saber's 前往 [ ] 页 (antd says 跳至)
    showQuickJumper: true,
    locale: { jump_to: t('list.jumpTo'), page: t('list.jumpPage') },
    showTotal: (total, [from, to]) =>
      total === 0
        ? t('list.pageTotalNone')
        : t(totalExact ? 'resource.pageTotal' : 'resource.pageTotalApprox', { from, to, total: total.toLocaleString(locale) }),
    ...testId('resource-pagination'),
  };

  return (
    <div ref={rootRef} className="resource-page" data-testid="resource-page" data-resource={def.code}>
      <ProProvider.Provider value={proValue}>
        <ProTable<Rec, Query>
          rowKey="id"
          actionRef={actionRef}
          headerTitle={text(def.title, lang)}
          columns={sized.columns}
          params={params}
          request={request}
          // ProTable waits for each answer before it sets the next timer: no overlapping reloads
          polling={polling}
          dateFormatter="string"
          tableLayout="fixed"
          // the body scrolls inside the window: the header and the pager stay in view
          scroll={fitWindow ? { x: sized.width, y: bodyHeight } : { x: sized.width }}
          pagination={unpagedTree ? false : pagination}
          {...(tree && !unpagedTree ? { dataSource: lazyRows, onDataSourceChange: setLazyRows } : {})}
          expandable={
            tree
              ? {
                  expandedRowKeys: expanded as Key[],
                  onExpandedRowsChange: (keys) => setExpanded([...keys]),
                  onExpand,
                }
              : undefined
          }
          rowSelection={{
            selectedRowKeys: selected.map((row) => row.id),
            onChange: (_keys, rows) => setSelected(rows.filter((row): row is Rec => row !== undefined)),
            // antd names the header checkbox "Select all" in any language, and the rows' not at all
            getTitleCheckboxProps: () => ariaLabel(t('list.selectAll')),
            getCheckboxProps: () => ariaLabel(t('list.selectRow')),
          }}
          form={{ name: 'search' }}
          search={
            hasSearch
              ? {
                  labelWidth: 'auto',
                  optionRender: (_config, _formProps, dom) => tagSearchButtons(dom),
                  collapseRender: (collapsed, _props, intl, hiddenNum) => collapseToggle(collapsed, intl, hiddenNum),
                }
              : false
          }
          options={{
            reload: true,
            reloadIcon: <ToolbarIconButton label={t('list.pro.tableToolBar.reload')} icon={<ReloadOutlined />} testid="resource-reload" />,
            density: true,
            densityIcon: <ToolbarIconButton label={t('list.pro.tableToolBar.density')} icon={<ColumnHeightOutlined />} testid="resource-density" />,
            setting: {
              settingIcon: <ToolbarIconButton label={t('list.pro.tableToolBar.columnSetting')} icon={<SettingOutlined />} testid="resource-settings" onClick={onSettingsClick} />,
            },
          }}
          toolBarRender={() => [
            allowed.add && (
              <Button key="add" type="primary" icon={<PlusOutlined />} data-testid="resource-add" onClick={() => openForm({ mode: 'create' })}>
                {addLabel ?? t('resource.add')}
              </Button>
            ),
            allowed.delete && (
              <Button key="batch-delete" danger icon={<DeleteOutlined />} data-testid="resource-batch-delete" onClick={removeSelected}>
                {t('resource.delete')}
              </Button>
            ),
            canImport && (
              <Button key="import" icon={<UploadOutlined />} data-testid="resource-import" onClick={() => setImportOpen(true)}>
                {t('resource.import')}
              </Button>
            ),
            canExport && (
              <Button key="export" icon={<DownloadOutlined />} loading={exporting} data-testid="resource-export"
                onClick={() => {
                  setExporting(true);
                  loadImportExport().then((m) => m.exportResource(def, lastQuery.current)).catch(() => undefined).finally(() => setExporting(false));
                }}>
                {t('resource.export')}
              </Button>
            ),
            ...actions.toolbarButtons(selected),
            ...(extraToolbar?.({ selectedRows: selected, reload, clearSelection }) ?? []),
          ].filter(Boolean)}
          tableViewRender={(tableProps, table) => {
            const shown = tableProps.pagination;
            // antd drops the pager when the list is empty; keep it, saying 0
            const emptyPager = shown && !shown.total && !tableProps.loading ? <Pagination {...shown} className="resource-pagination-empty" total={0} current={1} /> : null;
            return (
              <div data-testid="resource-table">
                {table}
                {emptyPager}
              </div>
            );
          }}
        />
        {form && (
          <ResourceFormModal<Rec>
            key={form.seq}
            def={def}
            target={form.target}
            open={form.open}
            dicts={dicts}
            override={formOverride}
            onClose={() => setForm((f) => f && { ...f, open: false })}
            afterClose={() => setForm(null)}
            onSaved={(answer) => {
              reload();
              onSaved?.(answer, form.target.mode);
            }}
          />
        )}
        <DetailDrawer def={def} id={detailId} onClose={closeDetail} />
        {withinDefs.length > 0 && <WithinDrawer target={within} onClose={closeWithin} list={withinList} />}
        {importOpen && (
          <Suspense fallback={null}>
            <ImportDialog def={def} open={importOpen} onClose={() => setImportOpen(false)} onImported={reload} />
          </Suspense>
        )}
      </ProProvider.Provider>
    </div>
  );
}
