import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Layout } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSettings } from '../../../store/settings';
import { LanguageSwitch } from '../../LanguageSwitch';
import { PrimaryColorPicker } from '../../theme/PrimaryColorPicker';
import { ThemeChooser } from '../../theme/ThemeChooser';
import { UserMenu } from '../UserMenu';
import { FullscreenToggle } from './FullscreenToggle';
import { HeaderIconButton } from './HeaderIconButton';
import { LockButton } from './LockButton';
import { MenuSearch } from './MenuSearch';
import { TopMenuBar } from './TopMenuBar';
import './header.css';

export interface HeaderBarProps {
  /**
   * Items placed between the menu search and the colour picker: the testing and bug-log icons, the
   * notice popover and the server check. Each should be a `HeaderIconButton` (or use its class
   * `shell-header-btn`) so that it takes the theme's header colours.
   */
  tools?: ReactNode;
}

/**
 * Spec 2 top bar, left to right: collapse toggle, top menu, menu search, the tools, colour picker,
 * lock, theme chooser, language switch, full screen, user menu.
 */
export function HeaderBar({ tools }: HeaderBarProps) {
  const { t } = useTranslation();
  const collapsed = useSettings((s) => s.collapsed);
  const setCollapsed = useSettings((s) => s.setCollapsed);
  return (
    <Layout.Header className="shell-header" data-testid="shell-header">
      <HeaderIconButton
        label={t(collapsed ? 'layout.expand' : 'layout.collapse')}
        icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
        onClick={() => setCollapsed(!collapsed)}
        aria-expanded={!collapsed}
        data-testid="sidebar-toggle"
      />
      <TopMenuBar />
      <div className="shell-header-space" />
      <MenuSearch />
      {tools && (
        <div className="shell-header-group" data-testid="header-tools">
          {tools}
        </div>
      )}
      <div className="shell-header-group">
        <PrimaryColorPicker />
        <LockButton />
        <ThemeChooser />
      </div>
      <LanguageSwitch />
      <FullscreenToggle />
      <UserMenu />
    </Layout.Header>
  );
}
