import {
  CheckOutlined,
  ClearOutlined,
  CloseCircleOutlined,
  CloseOutlined,
  DownOutlined,
  EllipsisOutlined,
  ExportOutlined,
  MinusCircleOutlined,
  ReloadOutlined,
  SearchOutlined,
} from '@ant-design/icons';
import { Button, Dropdown, Tabs, type MenuProps } from 'antd';
import { lazy, Suspense, useState, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { canClose, pathOf } from './tabList';
import { useTabLabel } from './tabLabels';
import { useTabPrefs, useTabs } from './tabsStore';
import './tabs.css';
import { useTabActions } from './useTabActions';

const TabSearch = lazy(() => import('./TabSearch').then((m) => ({ default: m.TabSearch })));

type Action = 'refresh' | 'close' | 'closeOthers' | 'closeAll' | 'openWindow' | 'clearCache' | 'search' | 'homeFixed';

/** The label spans the whole tab (minus its close button), so a right click anywhere on it opens the menu. */
const LABEL_STYLE: CSSProperties = { display: 'inline-block', padding: '6px 0 6px 16px', margin: '-6px 0 -6px -16px' };

/**
 * The tab bar under the header: one tab per visited page, a context menu on each tab and the same
 * menu (plus the home-tab setting) in a dropdown at the end of the bar.
 */
export function TabBar({ top }: { top: number }) {
  const { t } = useTranslation();
  const tabs = useTabs((s) => s.tabs);
  const homeFixed = useTabPrefs((s) => s.homeFixed);
  const labelOf = useTabLabel();
  const actions = useTabActions();
  const [searching, setSearching] = useState(false);
  const rules = { homeFixed };
  const labelFor = (key: string) => labelOf(key) ?? pathOf(key);

  const entry = (action: Action, icon: ReactNode, disabled = false) => ({
    key: action,
    icon: <span aria-hidden="true">{icon}</span>,
    disabled,
    label: <span data-testid={`tab-menu-${action}`}>{t(`tabs.${action}`)}</span>,
  });
  const menuFor = (key: string): MenuProps['items'] => [
    entry('refresh', <ReloadOutlined />, !tabs.includes(key)),
    entry('close', <CloseOutlined />, !canClose(tabs, key, rules)),
    entry('closeOthers', <MinusCircleOutlined />, !tabs.includes(key)),
    entry('closeAll', <CloseCircleOutlined />),
    entry('openWindow', <ExportOutlined />),
    { type: 'divider' },
    entry('clearCache', <ClearOutlined />),
    entry('search', <SearchOutlined />),
  ];
  const onMenu = (key: string): MenuProps['onClick'] => ({ key: action, domEvent }) => {
    // the context menu is rendered (through a portal) inside the tab: its click must not also select the tab
    domEvent.stopPropagation();
    switch (action as Action) {
      case 'refresh': return actions.refresh(key);
      case 'close': return actions.close(key);
      case 'closeOthers': return actions.closeOthers(key);
      case 'closeAll': return actions.closeAll();
      case 'openWindow': return actions.openWindow(key);
      case 'clearCache': return actions.clearCache();
      case 'search': return setSearching(true);
      case 'homeFixed': return useTabPrefs.getState().setHomeFixed(!homeFixed);
    }
  };

  const items = tabs.map((key) => ({
    key,
    closable: canClose(tabs, key, rules),
    closeIcon: <CloseOutlined aria-hidden="true" data-testid="tab-close" />,
    label: (
      <Dropdown trigger={['contextMenu']} destroyOnHidden menu={{ items: menuFor(key), onClick: onMenu(key) }}>
        <span style={LABEL_STYLE} data-testid="tab" data-key={key} data-active={key === actions.current}>
          {labelFor(key)}
        </span>
      </Dropdown>
    ),
  }));

  const barMenu: MenuProps['items'] = [
    ...(menuFor(actions.current) ?? []),
    { type: 'divider' },
    {
      key: 'homeFixed',
      icon: homeFixed ? <CheckOutlined aria-hidden="true" /> : <span aria-hidden="true" style={{ display: 'inline-block', width: 14 }} />,
      label: <span data-testid="tab-menu-homeFixed">{t('tabs.homeFixed')}</span>,
    },
  ];

  return (
    <div
      role="navigation"
      aria-label={t('tabs.bar')}
      data-testid="tabs-bar"
      className="shell-tabs"
      style={{ position: 'sticky', top, zIndex: 9, padding: '6px 16px 0' }}
    >
      <Tabs
        type="editable-card"
        size="small"
        hideAdd
        activeKey={tabs.includes(actions.current) ? actions.current : ''}
        items={items}
        onChange={actions.show}
        onEdit={(key, action) => {
          if (action === 'remove' && typeof key === 'string') actions.close(key);
        }}
        tabBarStyle={{ margin: 0 }}
        // the close buttons and the overflow button (···) are named in the UI language, not by their icons
        locale={{ removeAriaLabel: t('chrome.header.closeTab'), dropdownAriaLabel: t('chrome.header.tabsOverflow') }}
        more={{ icon: <EllipsisOutlined aria-label={t('chrome.header.tabsOverflow')} data-testid="tabs-overflow" /> }}
        tabBarExtraContent={{
          right: (
            <Dropdown trigger={['click']} destroyOnHidden placement="bottomRight" menu={{ items: barMenu, onClick: onMenu(actions.current) }}>
              <Button type="text" size="small" icon={<DownOutlined aria-hidden="true" />} aria-label={t('tabs.more')} title={t('tabs.more')} data-testid="tabs-menu" />
            </Dropdown>
          ),
        }}
      />
      {searching && (
        <Suspense fallback={null}>
          <TabSearch
            tabs={tabs.map((key) => ({ key, label: labelFor(key) }))}
            onPick={(key) => {
              setSearching(false);
              actions.show(key);
            }}
            onClose={() => setSearching(false)}
          />
        </Suspense>
      )}
    </div>
  );
}
