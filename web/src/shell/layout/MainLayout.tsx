import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Layout, theme, Typography } from 'antd';
import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { navigationQuery } from '../../auth/session';
import { startTokenRefresh } from '../../auth/tokenRefresh';
import { useSettings } from '../../store/settings';
import { PageLoading } from '../PageLoading';
import { HOME_PATH } from '../paths';
import { SideMenu } from './SideMenu';
import { UserMenu } from './UserMenu';

const SIDER_WIDTH = 220;
const HEADER_HEIGHT = 56;

/** The signed-in frame: sidebar menu, header with the collapse toggle and the user menu, the page. */
export function MainLayout() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const collapsed = useSettings((s) => s.collapsed);
  const setCollapsed = useSettings((s) => s.setCollapsed);

  // Menu and permissions may have changed since they were stored: reload them once per page load.
  useQuery(navigationQuery);
  useEffect(() => startTokenRefresh(), []);

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider
        width={SIDER_WIDTH}
        collapsed={collapsed}
        trigger={null}
        breakpoint="lg"
        onBreakpoint={(broken) => {
          if (broken) setCollapsed(true);
        }}
        style={{ position: 'sticky', top: 0, height: '100vh', overflowY: 'auto' }}
      >
        <Link
          to={HOME_PATH}
          style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', height: HEADER_HEIGHT, color: '#fff' }}
        >
          <Typography.Text strong ellipsis style={{ color: '#fff', fontSize: collapsed ? 16 : 18 }}>
            {collapsed ? 'IoT' : t('app.name')}
          </Typography.Text>
        </Link>
        <SideMenu collapsed={collapsed} />
      </Layout.Sider>
      <Layout>
        <Layout.Header
          style={{
            position: 'sticky',
            top: 0,
            zIndex: 10,
            height: HEADER_HEIGHT,
            lineHeight: `${HEADER_HEIGHT}px`,
            padding: '0 16px',
            display: 'flex',
            alignItems: 'center',
            gap: 8,
            background: token.colorBgContainer,
            boxShadow: token.boxShadowTertiary,
          }}
        >
          <Button
            type="text"
            icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
            aria-label={t(collapsed ? 'layout.expand' : 'layout.collapse')}
            onClick={() => setCollapsed(!collapsed)}
            data-testid="sidebar-toggle"
          />
          <div style={{ flex: 1 }} />
          <UserMenu />
        </Layout.Header>
        <Layout.Content style={{ padding: 16 }}>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
