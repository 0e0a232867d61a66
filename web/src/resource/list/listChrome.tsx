import { ColumnHeightOutlined, DownOutlined, ReloadOutlined, SettingOutlined } from '@ant-design/icons';
import type { ProTableProps } from '@ant-design/pro-components';
import { Button, Pagination, type TableProps } from 'antd';
import type { TFunction } from 'i18next';
import { cloneElement, isValidElement, useCallback, useEffect, type MouseEvent, type ReactElement, type ReactNode, type RefObject } from 'react';

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
export function ariaLabel(label: string): object {
  return { 'aria-label': label };
}

/** The search form's settings: labelled buttons and toggle; none when no column is searchable. */
export function searchSettings(hasSearch: boolean): ProTableProps<never, never>['search'] {
  return hasSearch
    ? {
        labelWidth: 'auto',
        optionRender: (_config, _formProps, dom) => tagSearchButtons(dom),
        collapseRender: (collapsed, _props, intl, hiddenNum) => collapseToggle(collapsed, intl, hiddenNum),
      }
    : false;
}

/** The table's reload, density and column settings, as labelled buttons. */
export function tableOptions(t: TFunction, onSettingsClick: (event: MouseEvent) => void): ProTableProps<never, never>['options'] {
  return {
    reload: true,
    reloadIcon: <ToolbarIconButton label={t('list.pro.tableToolBar.reload')} icon={<ReloadOutlined />} testid="resource-reload" />,
    density: true,
    densityIcon: <ToolbarIconButton label={t('list.pro.tableToolBar.density')} icon={<ColumnHeightOutlined />} testid="resource-density" />,
    setting: {
      settingIcon: <ToolbarIconButton label={t('list.pro.tableToolBar.columnSetting')} icon={<SettingOutlined />} testid="resource-settings" onClick={onSettingsClick} />,
    },
  };
}

/** The table with its test id; antd drops the pager when the list is empty: this keeps it, saying 0. */
export function tableView<Rec>(tableProps: TableProps<Rec>, table: ReactNode): ReactNode {
  const shown = tableProps.pagination;
  const emptyPager = shown && !shown.total && !tableProps.loading ? <Pagination {...shown} className="resource-pagination-empty" total={0} current={1} /> : null;
  return (
    <div data-testid="resource-table">
      {table}
      {emptyPager}
    </div>
  );
}

const SETTINGS_OVERLAY = '.ant-pro-table-column-setting-overlay';

/**
 * The column settings open in a popup at the end of the document, out of the Tab order: opened from
 * the keyboard (a click without a pointer), focus moves to its first checkbox; Escape there closes it
 * and returns to the button.
 */
export function useKeyboardColumnSettings(rootRef: RefObject<HTMLElement | null>) {
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
